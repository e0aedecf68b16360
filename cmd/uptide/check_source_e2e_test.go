package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
)

// TestCheckWorkspaceDependencyFromSource checks that a workspace dependency
// is compiled from its sources, not from the build it ships: the stale
// packages/shared/dist/index.d.ts still returns zod's raw issue path, which
// zod 4 widens to PropertyKey[], so reading it gives packages/app a TS2322
// that is not the app's. Its sources return string[]; the app's own error
// (the removed ZodError#flatten) is the one reported. When the build
// cannot be mapped to its sources and is older than them, it is read, and
// the report says so.
func TestCheckWorkspaceDependencyFromSource(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-ws-source")
	npmInstall(t, e, dir)
	stale := func(d model.Diagnostic) bool { return d.Code == 2322 }
	check := func(t *testing.T) model.PackageReport {
		t.Helper()
		r := run(t, e, dir, "check", "zod", "--target", "zod@4.1.12", "--json")
		if r.code != 1 {
			t.Fatalf("exit %d, want 1 (breaking)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
		}
		var rep model.CheckReport
		decode(t, r, &rep)
		return packageReport(t, rep, "zod")
	}

	t.Run("mapped to its sources", func(t *testing.T) {
		p := check(t)
		if !slices.ContainsFunc(p.Findings, func(f model.Finding) bool {
			return !f.Hidden && f.Severity == model.Breaking && f.Change == "removed" && f.File == "packages/app/src/signup.ts" && f.Line == 10 &&
				slices.ContainsFunc(f.Evidence, func(d model.Diagnostic) bool { return d.Code == 2339 })
		}) {
			t.Errorf("no breaking removed (TS2339) at packages/app/src/signup.ts:10 in %v", listed(p))
		}
		for _, f := range p.Findings {
			if f.Change == "TS2322" || slices.ContainsFunc(f.Evidence, stale) {
				t.Errorf("finding %s %s at %s:%d comes from the stale dist", f.ID, f.Change, f.File, f.Line)
			}
		}
		for _, w := range p.Warnings {
			if strings.Contains(w, "@wss/shared") {
				t.Errorf("warning %q about a dependency read from its sources", w)
			}
		}
	})

	t.Run("unmappable and stale: the build is read, with a warning", func(t *testing.T) {
		shared := filepath.Join(dir, "packages", "shared")
		if err := os.Rename(filepath.Join(shared, "src", "index.ts"), filepath.Join(shared, "src", "main.ts")); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Hour)
		for _, f := range []string{"index.d.ts", "index.js"} {
			if err := os.Chtimes(filepath.Join(shared, "dist", f), old, old); err != nil {
				t.Fatal(err)
			}
		}
		p := check(t)
		if !slices.ContainsFunc(p.Warnings, func(w string) bool {
			return strings.Contains(w, "@wss/shared is read from its build packages/shared/dist/index.d.ts, which is older than its source packages/shared/src/main.ts")
		}) {
			t.Errorf("no stale-build warning in %q", p.Warnings)
		}
		if !slices.ContainsFunc(p.Findings, func(f model.Finding) bool { return slices.ContainsFunc(f.Evidence, stale) }) {
			t.Errorf("the build is no longer read: no TS2322 in %v", listed(p))
		}
	})
}
