// Package planview is the planner's plan screen: the upgrades selected in
// the dependencies table (every outdated one when none is) as the engine
// plans them for `uptide plan` — the steps in order, their verdicts and
// effort, the priorities first (advisories with the release that fixes
// them), cycles and the steps no check covers — in `uptide plan`'s words
// (view/). From here the checks the plan lacks run in the background and
// the plan goes to fix as one verified batch.
package planview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/view"
)

// Model is the plan screen.
type Model struct {
	s *state.Shared
	// only names the planned packages; none is every outdated one.
	only          []string
	seq           int
	width, height int
	rep           *model.UpgradePlanReport
	err           error
	// stale: a check finished since the plan on screen was made; the
	// next one is on its way.
	stale  bool
	offset int
	// note answers the last key when it did nothing.
	note string
}

// New returns the plan screen of only, waiting for the plan asked with
// seq.
func New(s *state.Shared, only []string, seq int) Model {
	return Model{s: s, only: only, seq: seq}
}

// Only are the packages the screen plans.
func (m Model) Only() []string { return m.only }

// Asked records that a newer plan was asked (a check finished): the
// screen keeps what it shows until it arrives.
func (m *Model) Asked(seq int) { m.seq, m.stale = seq, true }

// Waiting: the screen waits for a plan (its spinner turns).
func (m Model) Waiting() bool { return m.err == nil && (m.rep == nil || m.stale) }

// SetSize sets the area the screen draws in.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.clamp()
}

// Title is the title line: what is planned.
func (m Model) Title() string {
	switch len(m.only) {
	case 0:
		return "Plan · every outdated dependency"
	case 1:
		return "Plan · " + m.only[0]
	}
	return fmt.Sprintf("Plan · %d selected", len(m.only))
}

// Right is the title line's right side: the counts `uptide plan` heads
// its report with.
func (m Model) Right() string {
	if m.rep == nil {
		return ""
	}
	p := m.rep.Plan
	return fmt.Sprintf("%s · %d checked", view.Count(len(p.Steps), "step"), len(p.Steps)-len(p.Unchecked))
}

// Bindings is the help line.
func (m Model) Bindings() []key.Binding { return m.s.Keys.PlanHelp() }

// Status is the status line's text.
func (m Model) Status() string {
	switch {
	case m.rep == nil:
		return ""
	case m.note != "":
		return m.note
	case m.stale:
		return "a check finished: re-planning"
	case !m.rep.Plan.Advisories.Asked:
		return "no advisories: " + m.rep.Plan.Advisories.Reason
	}
	return "enter upgrades these on one branch in a private clone: one commit per step, verified once"
}

// Update takes the plan when it arrives, the keys, and store changes.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case state.UpgradesMsg:
		if msg.Seq != m.seq {
			return m, nil
		}
		m.rep, m.err, m.stale = msg.Report, msg.Err, false
		m.clamp()
	case tea.KeyMsg:
		k := m.s.Keys
		m.note = ""
		switch {
		case key.Matches(msg, k.Back):
			return m, send(state.BackMsg{})
		case key.Matches(msg, k.Up):
			m.offset--
		case key.Matches(msg, k.Down):
			m.offset++
		case key.Matches(msg, k.PageUp):
			m.offset -= max(1, m.height-1)
		case key.Matches(msg, k.PageDown):
			m.offset += max(1, m.height-1)
		case key.Matches(msg, k.Top):
			m.offset = 0
		case key.Matches(msg, k.Bottom):
			m.offset = len(m.lines())
		case m.rep == nil:
		case key.Matches(msg, k.Check):
			ids := m.uncheckedIDs()
			if len(ids) == 0 {
				m.note = "nothing to check: a check covers every step"
				return m, nil
			}
			return m, send(state.CheckMsg{IDs: ids})
		case key.Matches(msg, k.Choose):
			return m, send(m.batch())
		}
		m.clamp()
	}
	return m, nil
}

func (m *Model) clamp() {
	m.offset = max(0, min(m.offset, len(m.lines())-m.height))
}

// dep is the dependency a step moves from: its name at the installed
// version the step moves from.
func (m Model) dep(name, from string) (int, bool) {
	for i, d := range m.s.Deps {
		if d.Row.Name == name && (from == "" || d.Row.Installed == from) {
			return i, true
		}
	}
	return 0, false
}

func fromOf(s model.PlanStep, name string) string {
	for _, mv := range s.Moves {
		if mv.Name == name {
			return mv.From
		}
	}
	return ""
}

// uncheckedIDs are the dependencies whose checks the plan lacks: each
// unchecked step's lead (its check follows the group and companions).
func (m Model) uncheckedIDs() []int {
	unchecked := map[string]bool{}
	for _, id := range m.rep.Plan.Unchecked {
		unchecked[id] = true
	}
	ids := []int{}
	for _, s := range m.rep.Plan.Steps {
		if !unchecked[s.ID] {
			continue
		}
		if id, ok := m.dep(s.ID, fromOf(s, s.ID)); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// batch is what fix gets: every direct dependency the steps move, in the
// plan's order, at the step's version; a step no order places (a cycle)
// is left out, as fix could not place it either.
func (m Model) batch() state.FixBatchMsg {
	out := state.FixBatchMsg{Targets: map[string]string{}}
	for _, s := range m.rep.Plan.Steps {
		if s.Blocked != "" {
			continue
		}
		for _, mv := range s.Moves {
			if _, direct := m.dep(mv.Name, mv.From); !direct || out.Targets[mv.Name] != "" {
				continue
			}
			out.Packages = append(out.Packages, mv.Name)
			out.Targets[mv.Name] = mv.To
		}
	}
	return out
}

// lines are the whole plan, before scrolling.
func (m Model) lines() []string {
	st := m.s.Styles
	switch {
	case m.err != nil:
		return []string{"", "  " + st.Error.Render("plan failed: ") + m.err.Error()}
	case m.rep == nil:
		return []string{"", "  " + st.Muted.Render(m.s.Frame+" asking the registry for releases and advisories…")}
	}
	p := m.rep.Plan
	if len(p.Steps) == 0 {
		return []string{"", "  nothing to plan: every dependency is up to date"}
	}
	var out []string
	// The priorities first: what makes a step urgent, whatever its place
	// in the order.
	var urgent []string
	for _, kind := range []model.PriorityKind{model.PriorityAdvisory, model.PriorityDeprecated, model.PriorityUnsupported} {
		urgent = append(urgent, m.priorities(kind)...)
	}
	if len(urgent) > 0 {
		out = append(out, "", "  "+st.Section.Render("Priorities"))
		out = append(out, urgent...)
	}
	out = append(out, "", "  "+st.Section.Render("Steps"))
	for i, s := range p.Steps {
		out = append(out, fmt.Sprintf("  %2d  %s  %s", i+1, st.Bold.Render(view.PlanStepTitle(s)), m.verdict(s)))
		if s.Batch {
			var moves []string
			for _, mv := range s.Moves {
				moves = append(moves, fmt.Sprintf("%s %s → %s", mv.Name, mv.From, mv.To))
			}
			out = append(out, "      "+strings.Join(moves, ", "))
		}
		if s.Blocked != "" {
			out = append(out, "      "+st.Bad.Render("✗ blocked:")+" "+s.Blocked)
		}
		for _, a := range s.After {
			out = append(out, "      "+st.Muted.Render("after "+a.Step+": "+a.Why))
		}
		for _, pr := range s.Priorities {
			if view.PriorityLabel(pr).Tone == view.Dim {
				out = append(out, "      "+st.Muted.Render("· "+pr.Reason))
			}
		}
	}
	out = append(out, "", fmt.Sprintf("  Totals     %s (the checked steps)", view.PlanEffort(p.Totals)))
	if len(p.Unchecked) > 0 {
		out = append(out, fmt.Sprintf("  Unchecked  %s: c checks them", strings.Join(p.Unchecked, ", ")))
	}
	for _, c := range p.Cycles {
		out = append(out, "  "+st.Bad.Render("Cycle     ")+" "+view.CycleLine(c))
	}
	for _, pr := range m.rep.Problems {
		out = append(out, "  "+st.Warn.Render("! "+pr.File+": "+pr.Message))
	}
	return out
}

// priorities are the lines of the plan's priorities of one kind, with
// the step each is on: the reason wraps rather than being cut, since an
// advisory's fixing release ends it.
func (m Model) priorities(kind model.PriorityKind) []string {
	st := m.s.Styles
	var out []string
	for i, s := range m.rep.Plan.Steps {
		for _, pr := range s.Priorities {
			if pr.Kind != kind {
				continue
			}
			l := view.PriorityLabel(pr)
			reason := pr.Reason
			if pr.Kind == model.PriorityAdvisory {
				reason = pr.Package + ": " + reason
			}
			text := ansi.Wordwrap(l.Text+" "+reason, max(20, m.width-8), " ")
			for j, w := range strings.Split(text, "\n") {
				if j == 0 {
					out = append(out, fmt.Sprintf("  %2d  %s%s", i+1, st.Tone(l.Tone).Render(l.Text), strings.TrimPrefix(w, l.Text)))
					continue
				}
				out = append(out, "        "+w)
			}
		}
	}
	return out
}

// verdict is the step's verdict; an unchecked step whose check is queued
// or running says so.
func (m Model) verdict(s model.PlanStep) string {
	st := m.s.Styles
	if s.Verdict == model.VerdictUnchecked {
		if id, ok := m.dep(s.ID, fromOf(s, s.ID)); ok {
			switch c := m.s.Deps[id].Check; c.Status {
			case state.Queued:
				return st.Muted.Render("queued")
			case state.Running:
				return st.Accent.Render(m.s.Frame + " " + c.Label())
			case state.Failed:
				return st.Warn.Render(c.Label())
			case state.Done:
				// A check that decided nothing leaves the step unchecked;
				// its reason is the row's.
				if v := c.Result.Verdict; v == model.VerdictNone || v == model.VerdictPartial {
					return st.Warn.Render(c.Label())
				}
			}
		}
	}
	v, effort := view.StepVerdict(s)
	out := st.Tone(v.Tone).Render(v.Text)
	if effort != "" {
		out += " · " + effort
	}
	return out
}

// View draws the plan from the scroll offset.
func (m Model) View() string {
	ls := m.lines()
	ls = ls[min(m.offset, len(ls)):]
	if len(ls) > m.height {
		ls = ls[:max(0, m.height)]
	}
	for i, l := range ls {
		if ansi.StringWidth(l) > m.width {
			ls[i] = ansi.Truncate(l, m.width, "…")
		}
	}
	return strings.Join(ls, "\n")
}

func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }
