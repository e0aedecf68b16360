package tui

import (
	"context"
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/tui/review"
	"github.com/uptide/uptide/tui/state"
)

// fixSession is one fix run the review screen drives: the run goroutine
// sends its progress, the ready queue and its end on msgs; the hand-off
// answers on handoff. Cancelling ends the run (the clone is removed or
// kept as fix decides; the checkout is never touched).
type fixSession struct {
	msgs    chan tea.Msg
	handoff chan []fix.Patch
	cancel  context.CancelFunc
	src     review.Source
	// over: the run's DoneMsg arrived.
	over bool
}

type reviewScreen struct {
	screenOf[review.Model, *review.Model]
	session *fixSession
}

func (s *reviewScreen) title() (string, string) { return s.m.Title(), s.m.Right() }
func (s *reviewScreen) capturing() bool         { return s.m.Capturing() }
func (s *reviewScreen) status() string          { return s.m.Status() }

// sessionMsg wraps what a session sends, so a late message of a session
// the user left is dropped.
type sessionMsg struct {
	s   *fixSession
	msg tea.Msg
}

// openReview starts fix for the dependency with a review hook and shows
// the review screen.
func (a *App) openReview(id int) tea.Cmd {
	d := a.s.Deps[id]
	if d.Check.Status != state.Done || d.Check.Result == nil {
		a.status.Set("check "+d.Row.Name+" first (c): the review needs its plan", false)
		return nil
	}
	if d.Target == "" || d.Target == d.Row.Installed {
		a.status.Set(d.Row.Name+" has no target to upgrade to", false)
		return nil
	}
	ctx, cancel := context.WithCancel(a.ctx)
	ses := &fixSession{msgs: make(chan tea.Msg, 64), handoff: make(chan []fix.Patch, 1), cancel: cancel}
	var companions []string
	for _, w := range a.s.With(id) {
		if w.Remove {
			companions = append(companions, "remove "+w.Name)
			continue
		}
		companions = append(companions, w.Name+"@"+w.To)
	}
	a.push(&reviewScreen{screenOf: screenFor(review.New(a.s, d.Row.Name, d.Row.Installed, d.Target, companions)), session: ses})
	req := state.CheckRequest{ID: id, Row: d.Row, Target: d.Target, With: a.s.With(id)}
	eng := a.eng
	go func() {
		defer cancel()
		rep, err := eng.Fix(ctx, req, func(phase model.Phase, line string) {
			select {
			case ses.msgs <- review.PhaseMsg{Phase: phase, Line: line}:
			default: // a line the screen has no room for is dropped
			}
		}, func(ctx context.Context, src review.Source, resumed int) ([]fix.Patch, error) {
			select {
			case ses.msgs <- review.ReadyMsg{Source: src, Resumed: resumed}:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			select {
			case p := <-ses.handoff:
				return p, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
		if err == nil && rep == nil {
			err = errors.New("fix returned no report")
		}
		ses.msgs <- review.DoneMsg{Report: rep, Err: err}
	}()
	return tea.Batch(a.nextSession(ses), a.tick())
}

// nextSession waits for the session's next message.
func (a *App) nextSession(ses *fixSession) tea.Cmd {
	return a.run(func() tea.Msg {
		select {
		case m := <-ses.msgs:
			return sessionMsg{s: ses, msg: m}
		case <-a.ctx.Done():
			return nil
		}
	})
}

// watchSource waits for the queue's next change.
func (a *App) watchSource(ses *fixSession) tea.Cmd {
	ch := ses.src.Changed()
	return a.run(func() tea.Msg {
		select {
		case _, ok := <-ch:
			if !ok {
				return nil
			}
			return sessionMsg{s: ses, msg: review.ChangedMsg{}}
		case <-a.ctx.Done():
			return nil
		}
	})
}

// sessionEvent routes a session's message to its screen, if it is still
// open.
func (a *App) sessionEvent(msg sessionMsg) tea.Cmd {
	rs := a.reviewOf(msg.s)
	if rs == nil {
		return nil
	}
	var cmds []tea.Cmd
	switch m := msg.msg.(type) {
	case review.ReadyMsg:
		msg.s.src = m.Source
		cmds = append(cmds, a.watchSource(msg.s))
	case review.ChangedMsg:
		if !msg.s.over {
			cmds = append(cmds, a.watchSource(msg.s))
		}
		return tea.Batch(append(cmds, rs.update(m))...)
	case review.DoneMsg:
		msg.s.over = true
		return rs.update(m)
	}
	cmds = append(cmds, rs.update(msg.msg), a.nextSession(msg.s))
	return tea.Batch(cmds...)
}

func (a *App) reviewOf(ses *fixSession) *reviewScreen {
	for _, s := range a.stack {
		if rs, ok := s.(*reviewScreen); ok && rs.session == ses {
			return rs
		}
	}
	return nil
}

// handOff gives the accepted set to the waiting run.
func (a *App) handOff(msg review.HandOffMsg) tea.Cmd {
	if rs, ok := a.top().(*reviewScreen); ok {
		select {
		case rs.session.handoff <- msg.Patches:
		default:
		}
	}
	return nil
}

// leaveReview ends the run and closes the screen; the accepted set the
// queue saved stays for the next review.
func (a *App) leaveReview() tea.Cmd {
	if rs, ok := a.top().(*reviewScreen); ok {
		if !rs.session.over {
			rs.session.cancel()
			if rs.m.Batch() {
				a.status.Set("fix stopped", false)
			} else {
				a.status.Set("fix stopped; the accepted patches are kept for the next review (f)", false)
			}
		}
		a.stack = a.stack[:len(a.stack)-1]
	}
	return nil
}
