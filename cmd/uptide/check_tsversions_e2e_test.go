package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/realfetch"
)

// installTypeScript puts typescript@version (fetched once from the real
// registry into the shared compiler cache, like the pinned one) into the
// fixture's node_modules, as if the repository installed it.
func installTypeScript(t *testing.T, dir, version string) string {
	t.Helper()
	sharedCompilers(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	fetch, cleanup := realfetch.New()
	defer cleanup()
	c, err := typescript.CachedCompiler(ctx, version, fetch, nil)
	if err != nil {
		t.Fatalf("typescript@%s (fetched once from the npm registry into %s): %v", version, cacheRootOrUnknown(), err)
	}
	dst := filepath.Join(dir, "node_modules", "typescript")
	copyTree(t, c.Dir, dst)
	return filepath.Join(dst, "lib", "typescript.js")
}

// A repository on TypeScript 4.7 (issue 9: every check ended in a driver
// crash before 5.3): its own compiler finds the usages and judges, and the
// breaking evidence is what its tsc reports after the real upgrade.
func TestCheckWithTypeScript47(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "ts47-app")
	npmInstall(t, e, dir)
	tsJS := installTypeScript(t, dir, "4.7.4")

	r := run(t, e, dir, "check", "zod", "--target", "zod@4.1.12", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (breaking)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
	}
	p := packageReport(t, rep, "zod")
	if p.Status != model.StatusAnalyzed || p.Compile.Status != model.StatusAnalyzed {
		t.Fatalf("status %s, compile %s (%s): %s", p.Status, p.Compile.Status, p.Compile.Reason, p.Reason)
	}
	if want := "the repo's TypeScript 4.7.4"; p.Compile.Compiler != want {
		t.Errorf("judged by %q, want %q", p.Compile.Compiler, want)
	}
	if p.Counts.Breaking == 0 {
		t.Errorf("no breaking finding: %+v", listed(p))
	}
	after := installedCopy(t, dir)
	npmManager().upgrade(t, e, after, false, "zod@4.1.12")
	assertTruthWith(t, tsJS, p, dir, after)
}

// An option value the repository's compiler rejects (moduleResolution
// bundler on 4.7) is not analyzed, with a reason naming the tsconfig; a
// TypeScript older than 4.5 is judged by the bundled compiler, with a
// warning saying so.
func TestCheckTypeScriptTheDriverCannotUse(t *testing.T) {
	e := checkEnv(t)
	t.Run("rejected option", func(t *testing.T) {
		dir := copyFixture(t, "ts47-app")
		npmInstall(t, e, dir)
		installTypeScript(t, dir, "4.7.4")
		tsconfig := filepath.Join(dir, "tsconfig.json")
		b, err := os.ReadFile(tsconfig)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tsconfig, []byte(strings.Replace(string(b), `"moduleResolution": "node"`, `"moduleResolution": "bundler"`, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		r := run(t, e, dir, "check", "zod", "--target", "zod@4.1.12", "--json")
		var rep model.CheckReport
		decode(t, r, &rep)
		if r.code != 2 {
			t.Fatalf("exit %d, want 2 (not analyzed)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
		}
		p := packageReport(t, rep, "zod")
		if p.Status != model.StatusNotAnalyzed {
			t.Fatalf("status %s, want not-analyzed", p.Status)
		}
		for _, want := range []string{"tsconfig.json", "TypeScript 4.7.4", "--moduleResolution"} {
			if !strings.Contains(p.Reason, want) {
				t.Errorf("reason %q does not say %q", p.Reason, want)
			}
		}
	})
	t.Run("older than 4.5", func(t *testing.T) {
		dir := copyFixture(t, "ts47-app")
		npmInstall(t, e, dir)
		installTypeScript(t, dir, "4.4.4")
		r := run(t, e, dir, "check", "zod", "--target", "zod@4.1.12", "--json")
		var rep model.CheckReport
		decode(t, r, &rep)
		if r.code != 1 {
			t.Fatalf("exit %d, want 1 (breaking)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
		}
		p := packageReport(t, rep, "zod")
		if want := "the bundled TypeScript " + typescript.PinnedVersion + " (the repo's TypeScript 4.4.4 is older than 4.5)"; p.Compile.Compiler != want {
			t.Errorf("judged by %q, want %q", p.Compile.Compiler, want)
		}
		var warned bool
		for _, w := range p.Warnings {
			warned = warned || strings.Contains(w, "the repo's TypeScript 4.4.4 is older than 4.5")
		}
		if !warned {
			t.Errorf("no warning about the fallback: %q", p.Warnings)
		}
	})
}
