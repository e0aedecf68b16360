package check

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/uptide/uptide/engine/discover"
	"github.com/uptide/uptide/engine/event"
	"github.com/uptide/uptide/engine/model"
)

// A check given the index of a discovery (the planner's) starts from it:
// no discovery phase runs again, Cwd is not read, and the report is the
// one a check that discovers for itself gives. Given only the loaded
// repository (fix's), it discovers from that, without Cwd either.
func TestCheckStartsFromTheIndex(t *testing.T) {
	dir, env, client := installFixture(t, "npm-causes")
	ctx := context.Background()
	_, idx, err := discover.Discover(ctx, discover.Options{Cwd: dir, Env: env, Client: client})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(opts Options) (*model.CheckReport, map[event.Phase]bool) {
		t.Helper()
		var mu sync.Mutex
		phases := map[event.Phase]bool{}
		opts.Packages, opts.Targets = []string{"zod"}, map[string]string{"zod": "4.1.12"}
		opts.Events = func(e event.Event) {
			mu.Lock()
			phases[e.Phase] = true
			mu.Unlock()
		}
		rep, err := Check(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		return rep, phases
	}
	fresh, freshPhases := ask(Options{Cwd: dir, Env: env, Client: client})
	reused, reusedPhases := ask(Options{Index: idx})
	loaded, _ := ask(Options{Repository: idx.Repository(), Env: env, Client: client})
	for _, p := range []event.Phase{event.PhaseRepository, event.PhaseRegistry, event.PhaseGroups} {
		if !freshPhases[p] {
			t.Errorf("a check without an index did not discover (no %s phase): the test no longer shows anything", p)
		}
		if reusedPhases[p] {
			t.Errorf("a check given the index ran discovery's %s phase again", p)
		}
	}
	a, err := json.Marshal(fresh)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(reused)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("the report from the index differs from a fresh check's:\n%s\n%s", b, a)
	}
	if c, _ := json.Marshal(loaded); string(a) != string(c) {
		t.Errorf("the report from the loaded repository differs from a fresh check's:\n%s\n%s", c, a)
	}
}
