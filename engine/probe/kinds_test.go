package probe

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// Each change kind the loaders can show, from real loads of the fixtures:
// awaitkit's top-level await makes require() throw even with require(esm);
// clockkit 2 trades the class for a factory, its static now() for a
// number, and import() for a require-only exports map; barekit 3.0.0
// ships no code (faker 6.6.6): its main is missing, which both loaders
// throw on after the real upgrade too, so it is a change, not inconclusive.
func TestChangeKindsFromRealLoads(t *testing.T) {
	e := newTestEnv(t)
	repo := e.consumer(t, npmInstall(), "awaitkit@1.0.0", "clockkit@1.0.0", "is-number@7.0.0", "barekit@1.0.0")
	cases := []struct {
		name, from, to string
		want           []struct{ kind, loader, key, code string }
	}{
		{"awaitkit", "1.0.0", "2.0.0", []struct{ kind, loader, key, code string }{
			{"require-throws", "require", "", "ERR_REQUIRE_ASYNC_MODULE"},
			// module.exports was import()'s default; an ES module without one has none.
			{"key-removed", "import", "default", ""},
		}},
		{"clockkit", "1.0.0", "2.0.0", []struct{ kind, loader, key, code string }{
			{"constructable-lost", "require", "", ""},
			{"callable-lost", "require", "now", ""},
			{"import-throws", "import", "", "ERR_PACKAGE_PATH_NOT_EXPORTED"},
		}},
		{"barekit", "1.0.0", "3.0.0", []struct{ kind, loader, key, code string }{
			{"require-throws", "require", "", "MODULE_NOT_FOUND"},
			{"import-throws", "import", "", "ERR_MODULE_NOT_FOUND"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), e.request(t, repo, tc.name, tc.from, tc.to))
			if err != nil {
				t.Fatal(err)
			}
			dump, _ := json.MarshalIndent(res, "", "  ")
			if res.Status != model.RuntimeCompared {
				t.Fatalf("status %s (%s), want compared\n%s", res.Status, res.Reason, dump)
			}
			if len(res.Changes) != len(tc.want) {
				t.Errorf("%d changes, want %d:\n%s", len(res.Changes), len(tc.want), dump)
			}
			for _, w := range tc.want {
				c, ok := findChange(res.Changes, w.kind, w.loader, w.key)
				if !ok || c.Code != w.code {
					t.Errorf("want %s %s %q code %q; changes:\n%s", w.loader, w.kind, w.key, w.code, dump)
				}
			}
		})
	}
}

// The target's tree comes from its declared ranges: is-number ^7 is the
// consumer's copy (linked), and kleur, an optional peer nobody installs,
// is fetched at clockkit's range when the first load misses it.
func TestTargetTreeFromDeclaredRanges(t *testing.T) {
	e := newTestEnv(t)
	repo := e.consumer(t, npmInstall(), "clockkit@1.0.0", "is-number@7.0.0")
	res, err := Run(context.Background(), e.request(t, repo, "clockkit", "1.0.0", "2.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Target.Inconclusive != "" || !res.Target.Require.Got() {
		t.Fatalf("target not loaded: %+v", res.Target)
	}
	if want := "with 2 dependencies (1 from your install, 1 from the registry)"; !strings.HasSuffix(res.Target.Placement, want) {
		t.Errorf("placement %q, want it to say %q", res.Target.Placement, want)
	}
	if e.reg.RequestsFor("kleur") == 0 {
		t.Error("kleur was never asked of the registry")
	}

	// A consumer whose is-number does not satisfy ^7 gets it fetched.
	old := e.consumer(t, npmInstall(), "clockkit@1.0.0", "is-number@6.0.0")
	res, err = Run(context.Background(), e.request(t, old, "clockkit", "1.0.0", "2.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "with 2 dependencies (2 from the registry)"; !strings.Contains(res.Target.Placement, want) {
		t.Errorf("placement %q, want it to say %q", res.Target.Placement, want)
	}
}

// A dependency no registry has leaves the target inconclusive, naming it.
func TestUnprovidableDependencyIsInconclusive(t *testing.T) {
	e := newTestEnv(t)
	repo := e.consumer(t, npmInstall(), "clockkit@1.0.0")
	e.reg.Fail("is-number", 404)
	res, err := Run(context.Background(), e.request(t, repo, "clockkit", "1.0.0", "2.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != model.RuntimeInconclusive || len(res.Changes) != 0 ||
		!strings.Contains(res.Reason, "a dependency could not be provided: is-number ^7.0.0 (required by clockkit) could not be fetched") {
		t.Errorf("status %s, reason %q, changes %v; want inconclusive naming is-number", res.Status, res.Reason, res.Changes)
	}
}

// A copy that looks native is never loaded, and says why.
func TestNativeLookingCopyIsInconclusive(t *testing.T) {
	e := newTestEnv(t)
	repo := e.consumer(t, npmInstall(), "nativekit@1.0.0")
	res, err := Run(context.Background(), e.request(t, repo, "nativekit", "1.0.0", "1.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	want := `looks native: "gypfile": true, a binding.gyp, an install script (install)`
	if res.Status != model.RuntimeInconclusive || res.Installed.Inconclusive != want || res.Target.Inconclusive != want {
		t.Errorf("status %s, installed %q, target %q; want both %q", res.Status, res.Installed.Inconclusive, res.Target.Inconclusive, want)
	}
	if res.Installed.Require.Got() || res.Installed.Require.Threw {
		t.Errorf("a native-looking copy was loaded: %+v", res.Installed.Require)
	}
}

// A copy the caller already holds (a package Signal B's overlay linked)
// serves a dependency before the registry does.
func TestAvailableCopiesServeBeforeTheRegistry(t *testing.T) {
	e := newTestEnv(t)
	repo := e.consumer(t, npmInstall(), "clockkit@1.0.0", "kleur@4.1.5")
	dir, version, err := e.fetcher.Fetch(context.Background(), "is-number", "7.0.0")
	if err != nil {
		t.Fatal(err)
	}
	asked := e.reg.RequestsFor("is-number")
	req := e.request(t, repo, "clockkit", "1.0.0", "2.0.0")
	req.Available = []Available{{Name: "is-number", Version: version, Dir: dir}}
	res, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if want := "with 2 dependencies (1 from your install, 1 already fetched)"; !strings.HasSuffix(res.Target.Placement, want) || res.Status != model.RuntimeCompared {
		t.Errorf("placement %q (%s), want %q", res.Target.Placement, res.Status, want)
	}
	if e.reg.RequestsFor("is-number") != asked {
		t.Error("is-number was asked of the registry although a copy was at hand")
	}
}

// A subpath entry's load retries as the main entry's does: tonekit 2's
// ./paint loads kleur, an optional peer the placement leaves out, while
// its main entry does not. The probe provides kleur at tonekit's range and
// loads ./paint again, which then tells reset was removed there; with no
// registry serving kleur, the entry is inconclusive and says why.
func TestSubpathLoadRetriesAMissingDependency(t *testing.T) {
	e := newTestEnv(t)
	repo := e.consumer(t, npmInstall(), "tonekit@1.0.0")
	req := e.request(t, repo, "tonekit", "1.0.0", "2.0.0")
	req.Subpaths = []string{"./paint"}
	res, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Target.Subpaths) != 1 || res.Target.Subpaths[0].Inconclusive != "" || !res.Target.Subpaths[0].Require.Got() {
		t.Fatalf("target's ./paint not loaded: %+v", res.Target.Subpaths)
	}
	if e.reg.RequestsFor("kleur") == 0 {
		t.Error("kleur was never asked of the registry")
	}
	var removed bool
	for _, c := range res.Changes {
		removed = removed || c.Subpath == "./paint" && string(c.Kind) == "key-removed" && c.Key == "reset"
	}
	if !removed {
		t.Errorf("changes %+v: want ./paint's reset removed", res.Changes)
	}

	// A fresh fetcher, whose cache does not hold the kleur just fetched.
	e = newTestEnv(t)
	repo = e.consumer(t, npmInstall(), "tonekit@1.0.0")
	e.reg.Fail("kleur", 404)
	req = e.request(t, repo, "tonekit", "1.0.0", "2.0.0")
	req.Subpaths = []string{"./paint"}
	res, err = Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if sp := res.Target.Subpaths; len(sp) != 1 || !strings.Contains(sp[0].Inconclusive, "a dependency could not be provided: kleur ^4.1.5 (required by tonekit) could not be fetched") {
		t.Errorf("target's ./paint %+v: want it inconclusive naming kleur", sp)
	}
}
