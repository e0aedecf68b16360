package tui

import (
	"sort"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/home"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/tui/theme"
)

// ProgressMsg is a batch of engine progress: the latest discovery event
// and the latest event of each running check since the previous batch,
// and the rows discovery sent since then.
type ProgressMsg struct {
	Discover *engine.Event
	Checks   map[int]state.CheckEvent
	Rows     *state.Rows
	// early, when Rows reshape the store (the first set of rows, a
	// package splitting its decisions), is the store and table they give,
	// built by the pump so that Update only swaps them in.
	early *prepared
}

// prepared is a store and the table of that store, built off the UI
// goroutine from immutable inputs; Update swaps them in.
type prepared struct {
	store *state.Store
	table *home.Table
}

// pump carries engine progress to the UI goroutine.
//
// Policy: progress events are snapshots (a phase, done of total), so only
// the latest per source matters. Engine goroutines overwrite their
// source's slot under a mutex held for a map write and poke a wake channel
// of capacity one without blocking; the UI reads everything pending as one
// ProgressMsg through a tea.Cmd it re-arms after each batch. So an event
// never blocks the engine, the pending set is bounded by the number of
// sources (one discovery plus two running checks), and a burst of a
// thousand registry answers costs the UI one message per frame it can
// take, not a thousand. Results never travel here: they are the return
// values of the commands that ran the engine, so coalescing cannot lose one.
//
// Discovery's early rows are data, not snapshots, but they coalesce too:
// a set of every row replaces whatever is pending, and a package's rows
// replace that package's pending rows, so what waits is bounded by the
// number of packages and applying it gives what applying every event in
// order would have given. A batch of rows that reshapes the store would
// rebuild every line on the UI goroutine (a millisecond at 1,000 rows), so
// the pump follows the rows too (mirror) and builds that store and its
// table itself, after releasing the mutex.
type pump struct {
	mu       sync.Mutex
	discover *engine.Event
	rows     *state.Rows
	checks   map[int]state.CheckEvent
	wake     chan struct{}
	done     chan struct{}
	once     sync.Once

	// mirror is touched only by next's command, outside mu: one runs at a
	// time (Update re-arms the next after each batch), each after the
	// previous one's message was handled.
	mirror state.Mirror
	styles theme.Styles
	now    func() time.Time
}

// newPump returns a pump whose prepared tables draw with styles and
// measure ages with now (neither changes after the app is built).
func newPump(styles theme.Styles, now func() time.Time) *pump {
	return &pump{checks: map[int]state.CheckEvent{}, wake: make(chan struct{}, 1), done: make(chan struct{}), styles: styles, now: now}
}

func (p *pump) poke() {
	select {
	case p.wake <- struct{}{}:
	default: // a wake-up is already pending; it will carry this event too
	}
}

// discoverEvent records the latest discovery event, and merges the rows it
// carries into the pending ones.
func (p *pump) discoverEvent(e engine.Event) {
	p.mu.Lock()
	if r := e.Rows; r != nil {
		switch {
		case r.Package == "":
			p.rows = &state.Rows{Repository: r.Repository, All: r.Rows, ByPackage: map[string][]model.DependencyRow{}}
		case p.rows == nil:
			p.rows = &state.Rows{ByPackage: map[string][]model.DependencyRow{r.Package: r.Rows}}
		default:
			p.rows.ByPackage[r.Package] = r.Rows
		}
		e.Rows = nil // the progress slot keeps only the snapshot
	}
	if p.discover == nil || e.Done >= p.discover.Done || e.Finished {
		p.discover = &e
	}
	p.mu.Unlock()
	p.poke()
}

// checkEvents returns the event sink of check id.
func (p *pump) checkEvents(id int) func(state.CheckEvent) {
	return func(e state.CheckEvent) {
		p.mu.Lock()
		p.checks[id] = e
		p.mu.Unlock()
		p.poke()
	}
}

// next waits for pending progress and returns it as one message; nil once
// the pump is closed, which ends the re-arming.
func (p *pump) next() tea.Cmd {
	return func() tea.Msg {
		select {
		case <-p.wake:
		case <-p.done:
			return nil
		}
		p.mu.Lock()
		msg := ProgressMsg{Discover: p.discover, Rows: p.rows}
		p.discover, p.rows = nil, nil
		if len(p.checks) > 0 {
			msg.Checks = p.checks
			p.checks = map[int]state.CheckEvent{}
		}
		p.mu.Unlock()
		if msg.Rows != nil && p.mirror.Apply(*msg.Rows) {
			if st := p.mirror.Store(p.now); st != nil {
				msg.early = &prepared{store: st, table: home.Prepare(&state.Shared{Store: st, Styles: p.styles})}
			}
		}
		return msg
	}
}

// close releases the goroutine waiting in next.
func (p *pump) close() { p.once.Do(func() { close(p.done) }) }

// sortedIDs lists a batch's check IDs in order, for deterministic updates.
func sortedIDs(m map[int]state.CheckEvent) []int {
	ids := make([]int, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}
