package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/home"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/tui/theme"
)

// work counts the engine calls in flight so quitting can wait for them.
// Once closed it refuses new calls: a command Bubble Tea starts after the
// app quit does nothing.
type work struct {
	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

func (w *work) start() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	w.wg.Add(1)
	return true
}

func (w *work) done() { w.wg.Done() }

func (w *work) closeAndWait(d time.Duration) bool {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	ch := make(chan struct{})
	go func() { w.wg.Wait(); close(ch) }()
	select {
	case <-ch:
		return true
	case <-time.After(d):
		return false
	}
}

// running is a check in flight; seq tells its result from a withdrawn
// earlier check of the same dependency.
type running struct {
	cancel context.CancelFunc
	seq    int
}

// run wraps an engine call as a command counted by work.
func (a *App) run(call func() tea.Msg) tea.Cmd {
	return func() tea.Msg {
		if !a.work.start() {
			return nil
		}
		defer a.work.done()
		return call()
	}
}

// reportMsg is the discovery report made ready where it arrived: the store
// it gives and the table of that store, built off the UI goroutine from
// the report and the group plans alone, so Update only swaps them in.
type reportMsg struct {
	state.DiscoveredMsg
	prepared
}

func (a *App) discover() tea.Cmd {
	ctx, eng, p := a.ctx, a.eng, a.pump
	// Read here, on the UI goroutine: neither changes after New.
	styles, now := a.s.Styles, a.s.Now
	return a.run(func() tea.Msg {
		rep, err := eng.Discover(ctx, p.discoverEvent)
		msg := state.DiscoveredMsg{Report: rep, Err: err}
		if err != nil || rep == nil {
			return msg
		}
		msg.Plans, msg.PlanErrs = groupPlans(ctx, eng, rep)
		msg.Upgrades, msg.UpgradesErr = eng.Upgrades(ctx, nil)
		return prepareReport(msg, styles, now)
	})
}

// prepareReport builds what applying a report would build, from the
// message alone: nothing of the App's is read, so it may run on any
// goroutine.
func prepareReport(msg state.DiscoveredMsg, styles theme.Styles, now func() time.Time) reportMsg {
	st := state.Prepare(msg.Report, msg.Plans, msg.PlanErrs, now)
	if msg.Upgrades != nil {
		st.ApplyUpgrades(&msg.Upgrades.Plan)
	}
	return reportMsg{DiscoveredMsg: msg, prepared: prepared{store: st, table: home.Prepare(&state.Shared{Store: st, Styles: styles})}}
}

// progress applies a batch of engine progress and tells the screens: that
// rows changed (in place, or the store's shape), or only that running work
// moved, which is only drawn. Rows that reshape the store come with the
// store and table the pump built from them: the table swaps them in.
func (a *App) progress(msg ProgressMsg) tea.Cmd {
	if e := msg.Discover; e != nil && a.s.Discovering && e.Phase == engine.PhaseRegistry {
		a.s.Done, a.s.Total = e.Done, e.Total
	}
	var changed tea.Msg = state.TickMsg{}
	switch {
	case msg.Rows == nil || !a.s.Discovering:
	case msg.early != nil:
		a.home.m.Reload(msg.early.table, func() { a.s.Adopt(msg.early.store) })
		changed = state.ChangedMsg{}
	default:
		switch ids, reshaped := a.s.ApplyRows(*msg.Rows); {
		case reshaped:
			changed = state.ChangedMsg{}
		case len(ids) > 0:
			changed = state.RowsChangedMsg{IDs: ids}
		}
	}
	for _, id := range sortedIDs(msg.Checks) {
		// A late event of a check that already returned is dropped.
		if id < len(a.s.Deps) && a.s.Deps[id].Check.Status == state.Running {
			a.s.Deps[id].Check.Event = msg.Checks[id]
		}
	}
	if msg.early != nil && a.s.Discovering {
		return a.broadcastAbove(changed)
	}
	return a.broadcast(changed)
}

// discovered swaps in the store and the table prepared from the report.
// A report that comes without them (tests send DiscoveredMsg directly)
// is prepared here, by the same code.
func (a *App) discovered(msg reportMsg) tea.Cmd {
	a.s.Discovering = false
	if msg.Err != nil || msg.Report == nil {
		err := msg.Err
		if err == nil {
			err = errors.New("the engine returned no report")
		}
		a.s.Err = err
		// Early rows are not what a failed discovery found.
		a.s.Report, a.s.Deps, a.s.Groups = nil, nil, nil
		a.status.Set("discovery failed: "+err.Error(), true)
		return a.broadcast(state.ChangedMsg{})
	}
	if msg.store == nil {
		msg = prepareReport(msg.DiscoveredMsg, a.s.Styles, a.s.Now)
	}
	a.home.m.Reload(msg.table, func() { a.s.Adopt(msg.store) })
	if n := len(msg.Report.NotChecked); n > 0 {
		what := fmt.Sprintf("%d packages", n)
		if n == 1 {
			what = "1 package"
		}
		a.status.Set(what+" not checked: the registry did not answer (see their rows)", true)
	} else if n := len(msg.Report.Problems); n > 0 {
		p := msg.Report.Problems[0]
		a.status.Set(fmt.Sprintf("%s: %s (%d problems)", p.File, p.Message, n), true)
	} else if u := msg.Upgrades; u != nil && !u.Plan.Advisories.Asked && u.Plan.Advisories.Reason != "" {
		a.status.Set("no advisories: "+u.Plan.Advisories.Reason, false)
	}
	if err := msg.UpgradesErr; err != nil && !errors.Is(err, context.Canceled) {
		a.status.Set("no priorities or advisories: "+err.Error(), true)
	}
	return a.broadcastAbove(state.ChangedMsg{})
}

// broadcastAbove tells the screens other than the table, which a Reload
// already made current.
func (a *App) broadcastAbove(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, s := range a.stack {
		if s != screen(a.home) {
			cmds = append(cmds, s.update(msg))
		}
	}
	return tea.Batch(cmds...)
}

// groupPlans plans each release group at its lead's discovered target, as
// a pick would, before the report is shown: the report gives every member
// its own latest, which is not where the group goes with its lead (ai
// 4.0.0 takes zod to 3.25.76, not to zod's latest 4.x). Keyed by the
// lead's index in the report's rows, which is its dependency ID.
func groupPlans(ctx context.Context, eng Engine, rep *model.DiscoverReport) (map[int]*engine.TargetPlan, map[int]error) {
	plans, errs := map[int]*engine.TargetPlan{}, map[int]error{}
	for _, g := range rep.Groups {
		if len(g.Members) < 2 || len(g.Versions) == 0 {
			continue
		}
		for i, r := range rep.Rows {
			if r.Package != g.Members[0] || r.Installed != g.Versions[0] || r.Group != g.Title {
				continue
			}
			if r.Target != "" && r.Target != r.Installed && r.Status == model.RowOK {
				switch p, err := eng.Plan(ctx, r, r.Target); {
				case err != nil:
					errs[i] = err
				case p != nil:
					plans[i] = p
				}
			}
			break
		}
	}
	return plans, errs
}

func (a *App) plan(id int, row model.DependencyRow, target string) tea.Cmd {
	ctx, eng := a.ctx, a.eng
	return a.run(func() tea.Msg {
		p, err := eng.Plan(ctx, row, target)
		if err == nil && p == nil {
			err = errors.New("the engine returned no plan")
		}
		return state.CompanionsMsg{ID: id, Target: target, Plan: p, Err: err}
	})
}

// versions fetches the picker's versions, then what the checks already
// made say of them (their verdicts, the safe ceiling once they decide it).
func (a *App) versions(id int) tea.Cmd {
	ctx, eng, row := a.ctx, a.eng, a.s.Deps[id].Row
	return a.run(func() tea.Msg {
		p, err := eng.Versions(ctx, row.Package)
		msg := state.VersionsMsg{ID: id, Packument: p, Err: err}
		if err != nil || p == nil {
			return msg
		}
		versions := make([]string, 0, len(p.Versions))
		for v := range p.Versions {
			versions = append(versions, v)
		}
		slices.Sort(versions)
		// What no check says is only unmarked: the versions still show.
		msg.Checked, msg.Ceiling, _ = eng.Checked(ctx, row, versions)
		return msg
	})
}

func (a *App) chooseTarget(msg state.ChooseTargetMsg) tea.Cmd {
	d := &a.s.Deps[msg.ID]
	if msg.Version == d.Target && d.PickedTarget {
		return nil
	}
	// Choosing the discovered target itself still plans it: the group's
	// members go where this target takes them, not each to its own latest.
	a.cancelCheck(msg.ID)
	if msg.Version == d.Row.Installed {
		// Staying put needs no plan: the group stays too.
		for _, id := range a.s.Followers(msg.ID) {
			if id != msg.ID {
				a.cancelCheck(id)
			}
		}
	}
	a.s.SetTarget(msg.ID, msg.Version)
	a.status.Set(fmt.Sprintf("%s → %s: planning companions; c checks it", d.Row.Name, msg.Version), false)
	a.touchGroup(msg.ID)
	start := a.startChecks()
	if !d.Replanning {
		return tea.Batch(start, a.rowsChanged())
	}
	plan := a.plan(msg.ID, d.Row, msg.Version)
	return tea.Batch(plan, start, a.tick(), a.rowsChanged())
}

// touchGroup marks id and the members of its group as changed.
func (a *App) touchGroup(id int) {
	a.touched = append(a.touched, id)
	a.touched = append(a.touched, a.s.Followers(id)...)
}

func (a *App) companions(msg state.CompanionsMsg) tea.Cmd {
	d := &a.s.Deps[msg.ID]
	if d.Target != msg.Target {
		return nil // a later pick superseded this plan
	}
	d.Replanning = false
	if msg.Err != nil {
		d.PlanErr = msg.Err
		a.status.Set(fmt.Sprintf("companions of %s %s: %v", d.Row.Name, msg.Target, msg.Err), true)
		a.touched = append(a.touched, msg.ID)
		return a.rowsChanged()
	}
	// Members that follow drop their own queued or running checks: those
	// asked about targets the group no longer goes to.
	for _, id := range a.s.Followers(msg.ID) {
		if id != msg.ID {
			a.cancelCheck(id)
		}
	}
	a.s.ApplyPlan(msg.ID, msg.Plan)
	a.touchGroup(msg.ID)
	return a.rowsChanged()
}

// enqueue queues checks; two run at a time and the user keeps navigating.
func (a *App) enqueue(ids []int) tea.Cmd {
	var skipped []string
	for _, id := range ids {
		d := &a.s.Deps[id]
		switch {
		case d.Check.Status == state.Queued || d.Check.Status == state.Running:
			continue
		case d.Row.Status != model.RowOK || d.Row.Installed == "":
			skipped = append(skipped, d.Row.Name+" (installed version unknown)")
			continue
		case d.Target == "" || d.Target == d.Row.Installed:
			skipped = append(skipped, d.Row.Name+" (no newer target)")
			continue
		}
		d.Check = state.Check{Status: state.Queued, Target: d.Target}
		a.queue = append(a.queue, id)
		a.batchTotal++
		a.touched = append(a.touched, id)
	}
	if len(skipped) > 0 {
		a.status.Set("nothing to check for "+joinList(skipped), false)
	}
	start := a.startChecks()
	return tea.Batch(start, a.tick(), a.rowsChanged())
}

func (a *App) startChecks() tea.Cmd {
	var cmds []tea.Cmd
	for len(a.running) < a.maxChecks && len(a.queue) > 0 {
		id := a.queue[0]
		a.queue = a.queue[1:]
		d := &a.s.Deps[id]
		ctx, cancel := context.WithCancel(a.ctx)
		a.seq++
		seq := a.seq
		a.running[id] = running{cancel: cancel, seq: seq}
		d.Check.Status = state.Running
		a.touched = append(a.touched, id)
		req := state.CheckRequest{ID: id, Row: d.Row, Target: d.Target, With: a.s.With(id)}
		eng, events := a.eng, a.pump.checkEvents(id)
		cmds = append(cmds, a.run(func() tea.Msg {
			res, err := eng.Check(ctx, req, events)
			if err == nil && res == nil {
				err = errors.New("the check returned no result")
			}
			return state.CheckDoneMsg{ID: id, Seq: seq, Target: req.Target, Result: res, Err: err}
		}))
	}
	return tea.Batch(cmds...)
}

func (a *App) checkDone(msg state.CheckDoneMsg) tea.Cmd {
	r, ok := a.running[msg.ID]
	if !ok || r.seq != msg.Seq {
		return nil // a withdrawn check; its slot was already freed
	}
	r.cancel()
	delete(a.running, msg.ID)
	a.batchDone++
	d := &a.s.Deps[msg.ID]
	if d.Check.Status == state.Running {
		if msg.Err != nil {
			d.Check = state.Check{Status: state.Failed, Target: msg.Target, Err: msg.Err}
			a.status.Set(fmt.Sprintf("check of %s %s: %v", d.Row.Name, msg.Target, msg.Err), true)
		} else {
			d.Check = state.Check{Status: state.Done, Target: msg.Target, Result: msg.Result}
		}
	}
	if len(a.running) == 0 && len(a.queue) == 0 {
		a.batchDone, a.batchTotal = 0, 0
	}
	a.touched = append(a.touched, msg.ID)
	start := a.startChecks()
	return tea.Batch(start, a.rowsChanged(), a.replan())
}

// rowsChanged tells the screens which dependencies' check state changed
// since the last call: the table re-derives only their lines.
func (a *App) rowsChanged() tea.Cmd {
	ids := a.touched
	a.touched = nil
	if len(ids) == 0 {
		return nil
	}
	return a.broadcast(state.RowsChangedMsg{IDs: ids})
}

// cancelCheck withdraws a queued or running check whose target is about to
// change; its result would answer a question no longer asked.
func (a *App) cancelCheck(id int) {
	d := &a.s.Deps[id]
	switch d.Check.Status {
	case state.Queued:
		for i, q := range a.queue {
			if q == id {
				a.queue = append(a.queue[:i], a.queue[i+1:]...)
				break
			}
		}
	case state.Running:
		if r, ok := a.running[id]; ok {
			r.cancel()
			delete(a.running, id)
		}
	default:
		return
	}
	a.batchTotal--
	d.Check = state.Check{}
	a.touched = append(a.touched, id)
}

func joinList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	s := ""
	for i, it := range items {
		switch {
		case i == 0:
		case i == len(items)-1:
			s += " and "
		default:
			s += ", "
		}
		s += it
	}
	return s
}
