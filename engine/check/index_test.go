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
	// What discovery decides: the repository, the rows each unit takes
	// and where they go, the importers and the companions. (The rest
	// comes from the type comparisons, whose time budget a loaded machine
	// can run out of on one run and not the other.)
	fromDiscovery := func(rep *model.CheckReport) string {
		t.Helper()
		type member struct{ Name, Installed, Target, Workspaces any }
		type unit struct {
			Title, Installed, Target, Workspaces, Importers, Undeclared, Companions any
			Members                                                                 []member
		}
		out := struct {
			Repository, Problems, Notes any
			Units                       []unit
		}{Repository: rep.Repository, Problems: rep.Problems, Notes: rep.Notes}
		for _, p := range rep.Packages {
			u := unit{Title: p.Title, Installed: p.Installed, Target: p.Target, Workspaces: p.Workspaces, Importers: p.Importers, Undeclared: p.Undeclared, Companions: p.Companions}
			for _, m := range p.Members {
				u.Members = append(u.Members, member{m.Name, m.Installed, m.Target, m.Workspaces})
			}
			out.Units = append(out.Units, u)
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := fromDiscovery(fresh)
	if got := fromDiscovery(reused); got != want {
		t.Errorf("the check from the index differs from a fresh check:\n%s\nwant\n%s", got, want)
	}
	if got := fromDiscovery(loaded); got != want {
		t.Errorf("the check from the loaded repository differs from a fresh check:\n%s\nwant\n%s", got, want)
	}
}
