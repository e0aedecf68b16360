package probe

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// A CommonJS app on chalk 4 moving to the ESM-only chalk 5, in
// tintkit's shape: on Node 20.19+ require() still loads the target, but
// it returns a namespace whose default is the builder, so calling the
// module and reading red from it break; import() loses stderr from the
// default export.
func TestChalkShapedESMOnlyTarget(t *testing.T) {
	e := newTestEnv(t)
	repo := e.consumer(t, npmInstall(), "tintkit@4.1.2")
	res, err := Run(context.Background(), e.request(t, repo, "tintkit", "4.1.2", "5.3.0"))
	if err != nil {
		t.Fatal(err)
	}
	dump, _ := json.MarshalIndent(res, "", "  ")
	t.Logf("%s", dump)
	if res.Status != model.RuntimeCompared {
		t.Fatalf("status %s (%s), want compared\n%s", res.Status, res.Reason, dump)
	}
	if !res.Installed.Require.Got() || !res.Installed.Require.Value.Callable {
		t.Fatalf("the installed copy's require() is not the callable builder:\n%s", dump)
	}
	for _, want := range []struct {
		kind, loader, key string
		onDefault         bool
	}{
		{"namespace-instead", "require", "", false},
		{"key-removed", "require", "red", true},
		{"key-removed", "require", "Level", false},
		{"key-removed", "require", "stderr", false},
		{"key-removed", "import", "default.stderr", false},
	} {
		c, ok := findChange(res.Changes, want.kind, want.loader, want.key)
		if !ok {
			t.Errorf("no %s %s %q among the changes:\n%s", want.loader, want.kind, want.key, dump)
			continue
		}
		if c.OnDefault != want.onDefault {
			t.Errorf("%s %q onDefault %v, want %v", want.kind, want.key, c.OnDefault, want.onDefault)
		}
	}
	if _, ok := findChange(res.Changes, "key-removed", "require", "supportsColor"); ok {
		t.Errorf("supportsColor is still a named export, yet reported removed:\n%s", dump)
	}
	if _, ok := findChange(res.Changes, "callable-lost", "import", "default"); ok {
		t.Errorf("the default export is still callable, yet reported lost:\n%s", dump)
	}
	if !strings.Contains(res.Installed.Placement, "node_modules/tintkit") || res.Node.Version == "" || res.Node.Why == "" {
		t.Errorf("the result does not say where the installed copy loaded from and which Node ran: %+v / %+v", res.Installed.Placement, res.Node)
	}
}

// A subpath entry the repository imports is loaded too: ttykit/color
// loses hasBasic from 1.0.0 to 2.0.0 while the main entry keeps its
// shape. The change is the entry's, a site of the entry meets it, a site
// of the main entry does not, and an entry the probe was not asked for
// decides nothing.
func TestSubpathEntryIsProbed(t *testing.T) {
	e := newTestEnv(t)
	repo := e.consumer(t, npmInstall(), "ttykit@1.0.0")
	req := e.request(t, repo, "ttykit", "1.0.0", "2.0.0")
	req.Subpaths = []string{"./color", ".", "./color"}
	res, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	dump, _ := json.MarshalIndent(res, "", "  ")
	if res.Status != model.RuntimeCompared || len(res.Installed.Subpaths) != 1 || len(res.Target.Subpaths) != 1 {
		t.Fatalf("status %s (%s): want compared, the ./color entry loaded once per copy\n%s", res.Status, res.Reason, dump)
	}
	var sub []Change
	for _, c := range res.Changes {
		if c.Subpath != "./color" {
			t.Errorf("a change of the main entry, whose shape is the same: %+v", c)
			continue
		}
		sub = append(sub, c)
	}
	c, ok := findChange(sub, "key-removed", "require", "hasBasic")
	if !ok || !strings.Contains(c.Detail, "./color") {
		t.Fatalf("no require() key-removed hasBasic of ./color naming the entry:\n%s", dump)
	}
	hits, decided := Hits(res, Site{Loader: model.LoaderRequire, Path: []string{"hasBasic"}, Access: model.AccessRead, Subpath: "./color"})
	if !decided || len(hits) == 0 {
		t.Errorf("require('ttykit/color').hasBasic: hits %+v, decided %v; want the removal", hits, decided)
	}
	if hits, decided := Hits(res, Site{Loader: model.LoaderRequire, Path: []string{"level"}, Access: model.AccessRead, Subpath: "./color"}); !decided || len(hits) != 0 {
		t.Errorf("require('ttykit/color').level: hits %+v, decided %v; want decided, nothing hit", hits, decided)
	}
	if hits, decided := Hits(res, Site{Loader: model.LoaderRequire, Path: []string{"hasBasic"}, Access: model.AccessRead}); !decided || len(hits) != 0 {
		t.Errorf("require('ttykit').hasBasic: hits %+v, decided %v; the main entry's change set is its own", hits, decided)
	}
	if _, decided := Hits(res, Site{Loader: model.LoaderRequire, Path: []string{"x"}, Access: model.AccessRead, Subpath: "./other"}); decided {
		t.Errorf("an entry the probe never loaded decided")
	}
}
