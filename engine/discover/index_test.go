package discover

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/uptide/uptide/engine/repo"
)

// Discover reads the repository the caller loaded (fix's) instead of
// loading it again: a workspace left out of the given one is not read.
func TestDiscoverReadsTheRepositoryItIsGiven(t *testing.T) {
	dir, client := demoRepo(t, nil)
	r, err := repo.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Workspaces) < 2 {
		t.Fatalf("the demo repository has %d workspaces, want several", len(r.Workspaces))
	}
	r.Workspaces = r.Workspaces[:1]
	rep, idx, err := Discover(context.Background(), Options{Cwd: dir, Client: client, Repository: r})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Repository.Workspaces, []string{r.Workspaces[0].Path}) {
		t.Errorf("workspaces %v, want only the given repository's %q", rep.Repository.Workspaces, r.Workspaces[0].Path)
	}
	if idx.Repository() != r || idx.Client() != client {
		t.Errorf("the index holds another repository or client than the discovery read")
	}
}

// The index hands each reader a report of its own: the checker adds
// workspaces to rows, checks run side by side, and the planner goes on
// with the report Discover returned.
func TestIndexReportIsACopy(t *testing.T) {
	dir, client := demoRepo(t, nil)
	rep, idx, err := Discover(context.Background(), Options{Cwd: dir, Client: client})
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	got := idx.Report()
	if b, _ := json.Marshal(got); string(b) != string(want) {
		t.Fatalf("the index's report differs from Discover's:\n%s\n%s", b, want)
	}
	if len(got.Rows) == 0 {
		t.Fatal("no rows in the demo's discovery")
	}
	got.Rows[0].Workspaces = append(got.Rows[0].Workspaces[:0], "packages/elsewhere")
	got.Rows[0].Name = "changed"
	rep.Rows[len(rep.Rows)-1].Workspaces[0] = "packages/elsewhere"
	if b, _ := json.Marshal(idx.Report()); string(b) != string(want) {
		t.Errorf("a reader's change reached the index:\n%s\nwant\n%s", b, want)
	}
}
