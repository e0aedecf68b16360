package tui

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/tui/theme"
)

func testPump() *pump { return newPump(theme.Styles{}, time.Now) }

// Engine goroutines never wait for the UI: thousands of events with no
// reader return at once, and the reader then gets the latest of each
// source in one message.
func TestPumpNeverBlocksAndCoalesces(t *testing.T) {
	p := testPump()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			check := p.checkEvents(g)
			for i := 1; i <= 2500; i++ {
				check(state.CheckEvent{Phase: "compiling", Done: i, Total: 2500})
			}
		}(g)
	}
	for i := 1; i <= 1000; i++ {
		p.discoverEvent(engine.Event{Phase: engine.PhaseRegistry, Done: i, Total: 1000})
	}
	wg.Wait() // returns: no send blocked without a reader

	msg := p.next()().(ProgressMsg)
	if msg.Discover == nil || msg.Discover.Done != 1000 {
		t.Fatalf("discovery event %+v, want the latest (1000/1000)", msg.Discover)
	}
	if len(msg.Checks) != 4 {
		t.Fatalf("%d check sources, want 4", len(msg.Checks))
	}
	for id, e := range msg.Checks {
		if e.Done != 2500 {
			t.Errorf("check %d: event %+v, want the latest (2500)", id, e)
		}
	}

	// Nothing is pending now: the next read waits, and closing releases it.
	done := make(chan any)
	go func() { done <- p.next()() }()
	p.close()
	if got := <-done; got != nil {
		t.Fatalf("a closed pump returned %v, want nil to end the re-arming", got)
	}
}

// A discovery event older than the one pending does not replace it:
// registry answers are counted under a lock but delivered from many
// goroutines.
func TestPumpKeepsTheFurthestDiscoveryEvent(t *testing.T) {
	p := testPump()
	p.discoverEvent(engine.Event{Phase: engine.PhaseRegistry, Done: 7, Total: 9})
	p.discoverEvent(engine.Event{Phase: engine.PhaseRegistry, Done: 5, Total: 9})
	if msg := p.next()().(ProgressMsg); msg.Discover.Done != 7 {
		t.Fatalf("kept %d, want 7", msg.Discover.Done)
	}
}

// Rows are data: the pump keeps every package's latest rows, a set of
// every row replaces what is pending, and nothing blocks without a reader.
func TestPumpCoalescesRowsByPackage(t *testing.T) {
	p := testPump()
	r := func(name, target string) []model.DependencyRow {
		return []model.DependencyRow{{Name: name, Package: name, Target: target}}
	}
	repo := model.RepoSummary{Name: "acme"}
	p.discoverEvent(engine.Event{Phase: engine.PhaseLockfile, Rows: &engine.PartialRows{Repository: &repo, Rows: append(r("a", ""), r("b", "")...)}})
	for i := 1; i <= 1000; i++ {
		name := []string{"a", "b"}[i%2]
		p.discoverEvent(engine.Event{Phase: engine.PhaseRegistry, Done: i, Total: 1000, Package: name,
			Rows: &engine.PartialRows{Package: name, Rows: r(name, fmt.Sprint(i))}})
	}
	msg := p.next()().(ProgressMsg)
	if msg.Rows == nil || msg.Rows.Repository == nil || len(msg.Rows.All) != 2 {
		t.Fatalf("rows %+v, want the first set of every row with the repository", msg.Rows)
	}
	if got := msg.Rows.ByPackage; len(got) != 2 || got["a"][0].Target != "1000" || got["b"][0].Target != "999" {
		t.Fatalf("package rows %+v, want the latest of a (1000) and b (999)", got)
	}
	if msg.Discover == nil || msg.Discover.Rows != nil {
		t.Fatalf("progress slot %+v, want the snapshot without rows", msg.Discover)
	}

	// A package's rows after the batch was taken travel alone.
	p.discoverEvent(engine.Event{Phase: engine.PhaseRegistry, Package: "a", Rows: &engine.PartialRows{Package: "a", Rows: r("a", "x")}})
	msg = p.next()().(ProgressMsg)
	if msg.Rows == nil || msg.Rows.All != nil || msg.Rows.ByPackage["a"][0].Target != "x" {
		t.Fatalf("rows %+v, want only a's", msg.Rows)
	}
	p.close()
}

// A batch of rows that reshapes the store comes with the store and table
// built by the pump; one that updates rows in place does not.
func TestPumpPreparesWhatReshapes(t *testing.T) {
	row := func(name, ws, target string) model.DependencyRow {
		return model.DependencyRow{Name: name, Package: name, Workspaces: []string{ws}, Installed: "1.0.0", Target: target, Status: model.RowOK}
	}
	repo := model.RepoSummary{Name: "acme"}
	tests := []struct {
		name  string
		event engine.Event
		// rows the prepared store holds, as name@workspace:target; nil
		// when the batch is not prepared.
		want []string
	}{
		{name: "the first set", event: engine.Event{Rows: &engine.PartialRows{Repository: &repo, Rows: []model.DependencyRow{row("a", ".", ""), row("b", "x", "")}}},
			want: []string{"a@.:", "b@x:"}},
		{name: "an answer keeping its decisions", event: engine.Event{Rows: &engine.PartialRows{Package: "a", Rows: []model.DependencyRow{row("a", ".", "2.0.0")}}}},
		{name: "an answer splitting its decisions", event: engine.Event{Rows: &engine.PartialRows{Package: "b", Rows: []model.DependencyRow{row("b", "x", "2.0.0"), row("b", "y", "3.0.0")}}},
			want: []string{"a@.:2.0.0", "b@x:2.0.0", "b@y:3.0.0"}},
		{name: "an answer keeping the split", event: engine.Event{Rows: &engine.PartialRows{Package: "b", Rows: []model.DependencyRow{row("b", "x", "2.0.1"), row("b", "y", "3.0.0")}}}},
	}
	p := testPump()
	defer p.close()
	for _, tc := range tests {
		p.discoverEvent(tc.event)
		msg := p.next()().(ProgressMsg)
		if tc.want == nil {
			if msg.early != nil {
				t.Errorf("%s: prepared a store for rows that change in place", tc.name)
			}
			continue
		}
		if msg.early == nil || msg.early.table == nil {
			t.Fatalf("%s: no prepared store", tc.name)
		}
		var got []string
		for _, d := range msg.early.store.Deps {
			got = append(got, d.Row.Name+"@"+d.Row.Workspaces[0]+":"+d.Target)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: prepared %v, want %v", tc.name, got, tc.want)
		}
		if !msg.early.store.Discovering {
			t.Errorf("%s: the prepared store is not discovering", tc.name)
		}
	}
}
