package tui

import (
	"context"
	"errors"
	"fmt"
	"github.com/uptide/uptide/engine/model"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/tui/planview"
	"github.com/uptide/uptide/tui/review"
	"github.com/uptide/uptide/tui/state"
)

// upgrades asks the engine for the plan of only, as seq.
func (a *App) upgrades(only []string, seq int) tea.Cmd {
	ctx, eng := a.ctx, a.eng
	return a.run(func() tea.Msg {
		rep, err := eng.Upgrades(ctx, only)
		if err == nil && rep == nil {
			err = errors.New("the engine returned no plan")
		}
		return state.UpgradesMsg{Only: only, Seq: seq, Report: rep, Err: err}
	})
}

// upgradesDone gives the plan screens their plan.
func (a *App) upgradesDone(msg state.UpgradesMsg) tea.Cmd { return a.broadcast(msg) }

// openPlan shows the plan of the given dependencies (every outdated one
// when none is given).
func (a *App) openPlan(ids []int) tea.Cmd {
	var only []string
	seen := map[string]bool{}
	for _, id := range ids {
		if n := a.s.Deps[id].Row.Name; !seen[n] {
			seen[n] = true
			only = append(only, n)
		}
	}
	a.planSeq++
	a.push(&planScreen{screenFor(planview.New(a.s, only, a.planSeq))})
	return tea.Batch(a.upgrades(only, a.planSeq), a.tick())
}

// replan asks again for the plans the open plan screens show: a check
// finished, and its effort belongs in them.
func (a *App) replan() tea.Cmd {
	var cmds []tea.Cmd
	for _, s := range a.stack {
		if ps, ok := s.(*planScreen); ok {
			a.planSeq++
			ps.m.Asked(a.planSeq)
			cmds = append(cmds, a.upgrades(ps.m.Only(), a.planSeq))
		}
	}
	return tea.Batch(cmds...)
}

// openBatch hands the plan's packages to fix as one verified batch and
// streams its progress in the fix screen. A batch makes no edits, so no
// review queue opens: the screen goes from the progress to the report.
func (a *App) openBatch(msg state.FixBatchMsg) tea.Cmd {
	if len(msg.Packages) == 0 {
		a.status.Set("nothing to fix: the plan moves no dependency of this repository", false)
		return nil
	}
	ctx, cancel := context.WithCancel(a.ctx)
	ses := &fixSession{msgs: make(chan tea.Msg, 64), handoff: make(chan []fix.Patch, 1), cancel: cancel}
	moves := make([]string, len(msg.Packages))
	for i, p := range msg.Packages {
		moves[i] = p + "@" + msg.Targets[p]
	}
	a.push(&reviewScreen{screenOf: screenFor(review.NewBatch(a.s, moves)), session: ses})
	a.status.Set("fix "+strings.Join(msg.Packages, " ")+": one commit per package, verified once", false)
	eng := a.eng
	go func() {
		defer cancel()
		rep, err := eng.FixBatch(ctx, msg.Packages, msg.Targets, func(phase model.Phase, line string) {
			select {
			case ses.msgs <- review.PhaseMsg{Phase: phase, Line: line}:
			default: // a line the screen has no room for is dropped
			}
		})
		if err == nil && rep == nil {
			err = fmt.Errorf("fix returned no report")
		}
		ses.msgs <- review.DoneMsg{Report: rep, Err: err}
	}()
	return tea.Batch(a.nextSession(ses), a.tick())
}
