package main

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// Files that import only a companion see its upgrade: react 19 takes
// nextkit 14 → 15 along (its 14 peer-requires react ^18), and nextkit 15's
// cookies() and headers() of nextkit/headers are async. src/route.ts and
// src/session.ts import nextkit/headers alone, src/page.ts reaches
// session.ts through the @/ alias: their new errors are nextkit's
// findings in react's report, and check says what tsc says after the
// real install of the same plan.
func TestCheckFilesImportingOnlyACompanion(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-nextkit")
	npmInstall(t, e, dir)
	r := run(t, e, dir, "check", "react", "--group", "--target", "react@19.1.0", "--json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (breaking)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
	}
	var rep model.CheckReport
	decode(t, r, &rep)
	p := packageReport(t, rep, "react (2 packages)")
	var companions []string
	for _, c := range p.Companions.Companions {
		companions = append(companions, c.Name+"@"+c.To)
	}
	if !slices.Contains(companions, "nextkit@15.5.2") {
		t.Fatalf("companions %v, want nextkit@15.5.2 (the first release accepting react 19)", companions)
	}
	var files []string
	for _, f := range p.Findings {
		if f.Severity != model.Breaking {
			continue
		}
		files = append(files, f.File)
		if f.Package != "nextkit" {
			t.Errorf("%s:%d is attributed to %s, want nextkit, the companion whose move makes it", f.File, f.Line, f.Package)
		}
		if !strings.Contains(f.Reason, "nextkit 14.2.15 → 15.5.2") {
			t.Errorf("%s:%d reason %q does not name the companion's move", f.File, f.Line, f.Reason)
		}
	}
	sort.Strings(files)
	if want := []string{"src/page.ts", "src/route.ts", "src/session.ts"}; !slices.Equal(files, want) {
		t.Errorf("breaking findings in %v, want %v: %+v", files, want, listed(p))
	}
	// view.ts uses react; route.ts and session.ts import the companion;
	// page.ts imports session.ts; unrelated.ts imports nothing in scope.
	if p.Compile.Asked != 4 || p.Compile.Compiled != 4 {
		t.Errorf("compiled %d of %d files, want 4 of 4", p.Compile.Compiled, p.Compile.Asked)
	}
	after := installedCopy(t, dir)
	npmManager().upgrade(t, e, after, false, "react@19.1.0", "react-dom@19.1.0", "nextkit@15.5.2")
	npmManager().upgrade(t, e, after, true, "@types/react@19.1.2")
	assertTruth(t, p, dir, after)

	text := run(t, e, dir, "check", "react", "--group", "--target", "react@19.1.0", "--details")
	if !strings.Contains(text.stdout, "compile error from nextkit 14.2.15 → 15.5.2, which moves with the upgrade: Property 'get' does not exist") {
		t.Errorf("the details do not say the errors come from nextkit's move:\n%s", text.stdout)
	}
}

// No verdict claims safety without a compile. A tsconfig extending a file
// that is not there stops the compile: the @aws-sdk group's additive move,
// "✓ no impact" before, and react's diff-only changes, "? possible" before,
// are both partial, exit 2, and so is the group's under --no-compile
// (react's stays possible: that is what the flag asks for). So is react 19
// with nextkit when the registry
// will not give nextkit 15's tarball: the files importing it were judged
// against nothing that moves.
func TestCheckWithoutACompileClaimsNothing(t *testing.T) {
	partial := func(t *testing.T, p model.PackageReport, reason string) {
		t.Helper()
		if p.Status != model.StatusPartial || p.Verdict != "partial" || !strings.HasPrefix(p.Summary, "⚠ not compiled") {
			t.Errorf("%s: status %q verdict %q summary %q, want partial and not compiled", p.Title, p.Status, p.Verdict, p.Summary)
		}
		if !strings.Contains(p.Reason, reason) {
			t.Errorf("%s: reason %q does not say %q", p.Title, p.Reason, reason)
		}
	}
	t.Run("a broken tsconfig", func(t *testing.T) {
		e := checkEnv(t)
		dir := copyFixture(t, "npm-group")
		npmInstall(t, e, dir)
		cfg := filepath.Join(dir, "tsconfig.json")
		b, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cfg, []byte(strings.Replace(string(b), "{", `{ "extends": "./missing-base.json",`, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		r := run(t, e, dir, "check", "@aws-sdk/client-s3", "react", "--json")
		var rep model.CheckReport
		decode(t, r, &rep)
		if r.code != 2 {
			t.Errorf("exit %d, want 2 (partial)", r.code)
		}
		partial(t, packageReport(t, rep, "@aws-sdk/* (2 packages)"), "missing-base.json")
		partial(t, packageReport(t, rep, "react"), "missing-base.json")
		text := run(t, e, dir, "check", "@aws-sdk/client-s3", "react")
		if strings.Contains(text.stdout, "✓") || strings.Contains(text.stdout, "possible ·") || text.code != 2 {
			t.Errorf("exit %d, the report claims something without a compile:\n%s", text.code, text.stdout)
		}
	})
	t.Run("--no-compile", func(t *testing.T) {
		// Asked for: what the diff saw stays possible impact, but nothing
		// found is no ✓ either.
		e := checkEnv(t)
		dir := copyFixture(t, "npm-group")
		npmInstall(t, e, dir)
		r := run(t, e, dir, "check", "@aws-sdk/client-s3", "--no-compile", "--json")
		var rep model.CheckReport
		decode(t, r, &rep)
		if r.code != 2 {
			t.Errorf("exit %d, want 2 (partial)", r.code)
		}
		p := packageReport(t, rep, "@aws-sdk/* (2 packages)")
		if p.Verdict != "partial" || p.Summary != "⚠ not compiled (--no-compile): no impact confirmed in 14 sites" {
			t.Errorf("verdict %q summary %q, want partial and not compiled", p.Verdict, p.Summary)
		}
	})
	t.Run("a companion that could not be placed", func(t *testing.T) {
		reg := startRegistry(t)
		e := newEnv(t, reg)
		if err := os.Symlink(sharedCompilers(t), filepath.Join(e.cache, "compilers")); err != nil {
			t.Fatal(err)
		}
		dir := copyFixture(t, "npm-nextkit")
		npmInstall(t, e, dir)
		reg.Misbehave("nextkit", testregistry.Fault{Kind: testregistry.HTMLError, TarballOnly: true})
		r := run(t, e, dir, "check", "react", "--group", "--target", "react@19.1.0", "--json")
		var rep model.CheckReport
		decode(t, r, &rep)
		if r.code != 2 {
			t.Errorf("exit %d, want 2 (partial)", r.code)
		}
		partial(t, packageReport(t, rep, "react (2 packages)"), "nextkit@15.5.2")
	})
}
