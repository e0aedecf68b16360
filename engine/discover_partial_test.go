package engine

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/fixtures"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// discoverDemo runs Discover with partial rows on a copy of the demo
// repository over the fixture registry, after fault(reg), and returns the
// events in the order the sink saw them.
func discoverDemo(t *testing.T, partial bool, fault func(*testregistry.Registry)) (*model.DiscoverReport, []Event) {
	rep, events, _ := discoverDemoClient(t, partial, fault)
	return rep, events
}

func discoverDemoClient(t *testing.T, partial bool, fault func(*testregistry.Registry)) (*model.DiscoverReport, []Event, *registry.Client) {
	t.Helper()
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "acme")
	if err := os.CopyFS(dir, fixtures.DemoRepo()); err != nil {
		t.Fatal(err)
	}
	reg, err := testregistry.New(fixtures.Registry())
	if err != nil {
		t.Fatal(err)
	}
	url, err := reg.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	if fault != nil {
		fault(reg)
	}
	userrc := filepath.Join(tmp, "npmrc")
	if err := os.WriteFile(userrc, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := registry.LoadConfig(dir, []string{"npm_config_registry=" + url, "NPM_CONFIG_USERCONFIG=" + userrc})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var events []Event
	client := registry.New(registry.Options{Config: cfg, CacheDir: filepath.Join(tmp, "cache")})
	rep, err := Discover(context.Background(), DiscoverOptions{
		Cwd: dir, PartialRows: partial,
		Client: client,
		Events: func(e Event) {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep, events, client
}

// applyPartial replays rows events the way a planner does: the first set
// is every row, each later set replaces its package's rows.
func applyPartial(t *testing.T, events []Event) []model.DependencyRow {
	t.Helper()
	var rows []model.DependencyRow
	first := true
	for _, e := range events {
		if e.Rows == nil {
			continue
		}
		if first {
			if e.Rows.Package != "" || e.Rows.Repository == nil {
				t.Fatalf("the first rows event is %+v, want every row with the repository", e.Rows)
			}
			for _, r := range e.Rows.Rows {
				if r.Target != "" || r.Update != "" || r.Installed == "" && r.Reason == "" {
					t.Errorf("first rows: %s has target %q update %q installed %q before any registry answer", r.Name, r.Target, r.Update, r.Installed)
				}
			}
			rows, first = e.Rows.Rows, false
			continue
		}
		if e.Rows.Package == "" {
			t.Fatalf("a second set of every row arrived: %+v", e.Rows)
		}
		rows = slices.DeleteFunc(rows, func(r model.DependencyRow) bool { return r.Package == e.Rows.Package })
		rows = append(rows, e.Rows.Rows...)
	}
	if first {
		t.Fatal("no rows event")
	}
	return rows
}

// withoutReportOnly clears what only the report carries (groups and
// importing files) and sorts, so partial and final rows compare.
func withoutReportOnly(rows []model.DependencyRow) []model.DependencyRow {
	out := slices.Clone(rows)
	for i := range out {
		out[i].Group, out[i].ImportingFiles = "", nil
	}
	slices.SortFunc(out, func(a, b model.DependencyRow) int {
		if c := cmpStr(a.Name, b.Name); c != 0 {
			return c
		}
		return cmpStr(a.Installed, b.Installed)
	})
	return out
}

func cmpStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestDiscoverPartialRowsAgreeWithTheReport(t *testing.T) {
	for _, tc := range []struct {
		name       string
		fault      func(*testregistry.Registry)
		notChecked string
	}{
		{name: "every answer"},
		{name: "a package the registry refuses", fault: func(r *testregistry.Registry) { r.Fail("zod", http.StatusInternalServerError) }, notChecked: "zod"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, events := discoverDemo(t, true, tc.fault)
			got := withoutReportOnly(applyPartial(t, events))
			want := withoutReportOnly(rep.Rows)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("rows replayed from events differ from the report's (-report +events):\n%s", diff)
			}
			// Every package's rows came before the registry phase ended,
			// and each rows event of a package carries its registry answer.
			answered := map[string]bool{}
			for _, e := range events {
				if e.Rows != nil && e.Rows.Package != "" {
					answered[e.Rows.Package] = true
					if e.Phase != PhaseRegistry || e.Package != e.Rows.Package {
						t.Errorf("rows of %s came with event %s/%s", e.Rows.Package, e.Phase, e.Package)
					}
				}
			}
			for _, r := range rep.Rows {
				if !answered[r.Package] {
					t.Errorf("no rows event for %s", r.Package)
				}
			}
			if tc.notChecked != "" {
				found := false
				for _, r := range got {
					if r.Package == tc.notChecked {
						found = true
						if r.Status != StatusNotChecked || r.Reason == "" {
							t.Errorf("partial row of %s: status %q reason %q, want not checked with the reason", r.Name, r.Status, r.Reason)
						}
					}
				}
				if !found {
					t.Errorf("no partial row of %s", tc.notChecked)
				}
			}
		})
	}
}

// Without the option no event carries rows, and the report is the same.
func TestDiscoverWithoutPartialRows(t *testing.T) {
	with, _ := discoverDemo(t, true, nil)
	without, events := discoverDemo(t, false, nil)
	for _, e := range events {
		if e.Rows != nil {
			t.Fatalf("event %s carries rows without PartialRows", e.Phase)
		}
	}
	with.Repository.Root, without.Repository.Root = "", ""
	if diff := cmp.Diff(with, without); diff != "" {
		t.Fatalf("the report depends on PartialRows (-with +without):\n%s", diff)
	}
}
