package tui

import (
	"sync"
	"testing"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/tui/state"
)

// Engine goroutines never wait for the UI: thousands of events with no
// reader return at once, and the reader then gets the latest of each
// source in one message.
func TestPumpNeverBlocksAndCoalesces(t *testing.T) {
	p := newPump()
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
	p := newPump()
	p.discoverEvent(engine.Event{Phase: engine.PhaseRegistry, Done: 7, Total: 9})
	p.discoverEvent(engine.Event{Phase: engine.PhaseRegistry, Done: 5, Total: 9})
	if msg := p.next()().(ProgressMsg); msg.Discover.Done != 7 {
		t.Fatalf("kept %d, want 7", msg.Discover.Done)
	}
}
