package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/testkit/realfetch"
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
// TypeScript older than 4.5, whose JavaScript API the driver cannot load,
// still judges, through its own tsc, and says what its tsc says after the
// real upgrade.
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
		copyTree(t, pinnedTool(t, "typescript", "4.4.4"), filepath.Join(dir, "node_modules", "typescript"))
		r := run(t, e, dir, "check", "zod", "--target", "zod@4.1.12", "--json")
		var rep model.CheckReport
		decode(t, r, &rep)
		if r.code != 1 {
			t.Fatalf("exit %d, want 1 (breaking)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
		}
		p := packageReport(t, rep, "zod")
		if want := "the repo's TypeScript 4.4.4"; p.Compile.Compiler != want {
			t.Errorf("judged by %q, want %q", p.Compile.Compiler, want)
		}
		if len(p.Warnings) != 0 {
			t.Errorf("warnings %q: the repository's compiler judged", p.Warnings)
		}
		after := installedCopy(t, dir)
		npmManager().upgrade(t, e, after, false, "zod@4.1.12")
		assertTruthWith(t, filepath.Join(dir, "node_modules", "typescript", "lib", "typescript.js"), p, dir, after)
	})
}

// ts44Env is the test registry with the real typescript 4.4.4 the ts44-app
// installs, and 5.8.3, a release that reads zod 4's declarations (both
// fetched once into the cache as pinned tools).
func ts44Env(t *testing.T) env {
	t.Helper()
	reg := startRegistry(t)
	for _, v := range []string{"4.4.4", "5.8.3"} {
		if err := reg.AddDir(pinnedTool(t, "typescript", v)); err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t, reg)
	if err := os.Symlink(sharedCompilers(t), filepath.Join(e.cache, "compilers")); err != nil {
		t.Fatal(err)
	}
	return e
}

// zod 3 → 4 on TypeScript 4.4 (issue 23): zod 4's declarations use const
// type parameters (5.0), in/out variance annotations (4.7) and type
// modifiers on import names (4.5), so 4.4's tsc after the real upgrade
// prints parse errors inside node_modules/zod and checks nothing else.
// That is the finding: one breaking cause with those errors as evidence,
// the plan's first row "upgrade typescript to ≥ 5.0", and the Next block
// checking that upgrade first. No node_modules file is a site.
func TestCheckTargetTheRepositoryTypeScriptCannotRead(t *testing.T) {
	e := ts44Env(t)
	dir := copyFixture(t, "ts44-app")
	npmInstall(t, e, dir)
	r := run(t, e, dir, "check", "zod", "--target", "zod@4.0.17", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (breaking)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
	}
	p := packageReport(t, rep, "zod")
	if want := "the repo's TypeScript 4.4.4"; p.Compile.Compiler != want {
		t.Errorf("judged by %q, want %q", p.Compile.Compiler, want)
	}
	if p.Counts.Breaking != 1 {
		t.Errorf("%d breaking, want the one cause: %+v", p.Counts.Breaking, listed(p))
	}
	var cause *model.Finding
	for i, f := range p.Findings {
		if strings.Contains("/"+f.File, "/node_modules/") {
			t.Errorf("a finding in a dependency: %s %s:%d", f.Change, f.File, f.Line)
		}
		if f.Severity == model.Breaking {
			cause = &p.Findings[i]
		}
	}
	if cause == nil {
		t.Fatalf("no breaking finding: %+v", listed(p))
	}
	for _, want := range []string{"zod 4.0.17's declarations need TypeScript ≥ 5.0; this repository has 4.4.4", "TypeScript 5.0 is read from the syntax they use: `const` type parameters at node_modules/zod/"} {
		if !strings.Contains(cause.Reason, want) {
			t.Errorf("the cause says %q, not %q", cause.Reason, want)
		}
	}
	if cause.File != "package.json" || len(cause.Evidence) == 0 {
		t.Errorf("the cause is at %q with %d errors as evidence", cause.File, len(cause.Evidence))
	}
	for _, d := range cause.Evidence {
		if !strings.HasPrefix(d.File, "node_modules/zod/") || d.Code >= 2000 {
			t.Errorf("evidence %s:%d TS%d is not a parse error inside zod", d.File, d.Line, d.Code)
		}
	}
	if len(p.Plan.Rules) == 0 || p.Plan.Rules[0].Title != "upgrade typescript to ≥ 5.0" {
		t.Errorf("plan rules %+v, want upgrade typescript to ≥ 5.0 first", p.Plan.Rules)
	}
	wantNext := []string{"uptide check typescript --target typescript@5.8.3", "uptide check zod --target zod@4.0.17 --details"}
	if got := strings.ReplaceAll(strings.Join(p.Plan.Next, "\n"), " --cwd "+dir, ""); got != strings.Join(wantNext, "\n") {
		t.Errorf("Next %q, want %q", p.Plan.Next, wantNext)
	}
	// What tsc 4.4.4 says after the real upgrade is the cause's evidence.
	after := installedCopy(t, dir)
	npmManager().upgrade(t, e, after, false, "zod@4.0.17")
	assertTruthWith(t, filepath.Join(dir, "node_modules", "typescript", "lib", "typescript.js"), p, dir, after)

	human := run(t, e, dir, "check", "zod", "--target", "zod@4.0.17", "--ci")
	for _, want := range []string{"✗ 1 breaking", "upgrade typescript to ≥ 5.0", "typescript --target typescript@5.8.3"} {
		if !strings.Contains(human.stdout, want) {
			t.Errorf("the report does not say %q:\n%s", want, human.stdout)
		}
	}
	if strings.Contains(human.stdout, "uptide fix") {
		t.Errorf("fix is offered before typescript is upgraded:\n%s", human.stdout)
	}
	// The command the plan names exists and says what that upgrade costs.
	ts := run(t, e, dir, "check", "typescript", "--target", "typescript@5.8.3", "--json")
	var tsRep model.CheckReport
	decode(t, ts, &tsRep)
	if tp := packageReport(t, tsRep, "typescript"); tp.Status == model.StatusNotAnalyzed {
		t.Errorf("check typescript --target typescript@5.8.3: not analyzed: %s", tp.Reason)
	}
}

// express typed by @types/express on TypeScript 4.4 (issue 23; seen on
// microsoft/TypeScript-Node-Starter, TypeScript 4.1.3): a judging tsc
// older than 4.7 gets the overlay's packages as whole directories, and an
// import of express must reach the upgrade's @types/express, not fall back
// from express's own directory (no declarations) to the repository's
// installed @types/express 4. Before, the sources were judged against the
// installed types: no breaking site, where tsc after the real upgrade
// reports both removed members.
func TestCheckTypesCompanionOnOldTypeScript(t *testing.T) {
	e := ts44Env(t)
	dir := copyFixture(t, "ts44-types-app")
	npmInstall(t, e, dir)
	r := run(t, e, dir, "check", "express", "--group", "--target", "express@5.1.0", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (breaking)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
	}
	p := packageReport(t, rep, "express")
	if want := "the repo's TypeScript 4.4.4"; p.Compile.Compiler != want {
		t.Errorf("judged by %q, want %q", p.Compile.Compiler, want)
	}
	sites := map[string]bool{}
	for _, f := range p.Findings {
		if f.Severity == model.Breaking {
			sites[fmt.Sprintf("%s:%d", f.File, f.Line)] = true
		}
	}
	for _, want := range []string{"src/server.ts:7", "src/server.ts:9"} {
		if !sites[want] {
			t.Errorf("no breaking finding at %s: %+v", want, listed(p))
		}
	}
	after := installedCopy(t, dir)
	npmManager().upgrade(t, e, after, false, "express@5.1.0")
	npmManager().upgrade(t, e, after, true, "@types/express@5.0.0")
	assertTruthWith(t, filepath.Join(dir, "node_modules", "typescript", "lib", "typescript.js"), p, dir, after)
}
