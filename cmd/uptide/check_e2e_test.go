package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/cache"
	"github.com/uptide/uptide/internal/testkit/realfetch"
)

// The check tests install fixtures/check/npm-app with the real npm from the
// test registry (scripts off, HOME isolated) and run the binary on it. The
// judging compiler is the pinned one (the fixture installs no TypeScript),
// fetched once from the real registry into the shared cache and linked into
// each test's private cache; everything else comes from the test registry.

var (
	pinnedOnce sync.Once
	pinnedDir  string
	pinnedErr  error
)

// sharedCompilers makes sure the pinned compiler is in the shared cache and
// returns the cache's compilers directory.
func sharedCompilers(t testing.TB) string {
	t.Helper()
	skipShort(t, "the pinned compiler compiles")
	pinnedOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		fetch, cleanup := realfetch.New()
		defer cleanup()
		c, err := typescript.PinnedCompiler(ctx, fetch, nil)
		if err != nil {
			pinnedErr = err
			return
		}
		pinnedDir = filepath.Dir(c.Dir)
	})
	if pinnedErr != nil {
		t.Fatalf("the pinned TypeScript compiler (fetched once from the npm registry into %s): %v", cacheRootOrUnknown(), pinnedErr)
	}
	return pinnedDir
}

func cacheRootOrUnknown() string {
	if r, err := cache.Root(); err == nil {
		return r
	}
	return "the cache"
}

// checkEnv is an isolated environment whose private cache links the shared
// compilers directory.
func checkEnv(t testing.TB) env {
	t.Helper()
	e := newEnv(t, startRegistry(t))
	if err := os.Symlink(sharedCompilers(t), filepath.Join(e.cache, "compilers")); err != nil {
		t.Fatal(err)
	}
	return e
}

// copyFixture copies fixtures/check/<name> into a temporary directory.
func copyFixture(t testing.TB, name string) string {
	t.Helper()
	return copyDir(t, filepath.Join("../../fixtures/check", name))
}

// npmInstall runs the real npm in dir against the test registry, lifecycle
// scripts off, with the environment's private HOME.
func npmInstall(t testing.TB, e env, dir string) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatalf("these tests install a fixture with the real npm, which is not on PATH: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--ignore-scripts", "--no-audit", "--no-fund", "--registry", e.registry)
	cmd.Dir = dir
	cmd.Env = append(e.vars(), "npm_config_cache="+filepath.Join(e.home, ".npm"), "npm_config_update_notifier=false")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("npm install in %s: %v\n%s", dir, err, out.String())
	}
}

// site is what the tests pin down of a listed finding.
type site struct {
	id, severity, change, file string
	line                       int
	evidence                   string // the first evidence's TS code, "" for none
}

func (s site) String() string {
	return fmt.Sprintf("%s %s %s %s:%d %s", s.id, s.severity, s.change, s.file, s.line, s.evidence)
}

func listed(p model.PackageReport) []site {
	var out []site
	for _, f := range p.Findings {
		if f.Hidden {
			continue
		}
		s := site{id: f.ID, severity: string(f.Severity), change: f.Change, file: f.File, line: f.Line}
		if len(f.Evidence) > 0 {
			s.evidence = fmt.Sprintf("TS%d", f.Evidence[0].Code)
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func packageReport(t *testing.T, rep model.CheckReport, title string) model.PackageReport {
	t.Helper()
	for _, p := range rep.Packages {
		if p.Title == title {
			return p
		}
	}
	t.Fatalf("no report titled %s in %d reports", title, len(rep.Packages))
	return model.PackageReport{}
}

func TestCheckEndToEnd(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-app")
	npmInstall(t, e, dir)

	t.Run("json findings, byte-identical across runs", func(t *testing.T) {
		first := run(t, e, dir, "check", "zod", "slugkit", "express", "--json")
		second := run(t, e, dir, "check", "zod", "slugkit", "express", "--json")
		if first.stdout != second.stdout {
			t.Errorf("two runs differ:\n%s\n----\n%s", first.stdout, second.stdout)
		}
		if first.code != 1 {
			t.Fatalf("exit %d, want 1 (breaking)\nstderr: %s\n%s", first.code, first.stderr, first.stdout)
		}
		var rep model.CheckReport
		env := decode(t, first, &rep)
		if env.Command != "check" {
			t.Errorf("envelope command %q", env.Command)
		}
		want := map[string][]site{
			"express": {
				{"5cbe74ebe688395e", "breaking", "removed", "src/server.ts", 6, "TS2551"},
				{"be1ee10fe39d5f37", "breaking", "removed", "src/server.ts", 9, "TS2339"},
			},
			"slugkit": {
				// require() of an ESM-only target breaks at load, on any Node.
				{"1a8ffeff432d42e4", "breaking", "module-format", "src/legacy.js", 4, ""},
				// The repository does not type-check legacy.js (checkJs off)
				// or nocheck.ts (@ts-nocheck): the runtime probe decides
				// there. import() of 2.0.0 has no truncate: breaking; the
				// require() in legacy.js throws, which says nothing of
				// slugify's shape: possible impact. Its signature change
				// (c1e8a0fdff26232f) stands on the module format's site
				// and is counted with it (folded).
				{"fcde714087cd2b5e", "unverified", "TS2345", "src/legacy.js", 4, "TS2345"},
				{"44013c7cb072f65c", "breaking", "removed", "src/nocheck.ts", 2, ""},
				{"44013c7cb072f65c-2", "breaking", "removed", "src/nocheck.ts", 4, ""},
				{"db612ff4bb06b56a", "breaking", "removed", "src/slug.ts", 1, "TS2305"},
				{"7ab958dbdc3933ad", "breaking", "signature", "src/slug.ts", 4, "TS2554"},
			},
			"zod": {
				{"b20fe4e015cfe631", "deprecated", "deprecated", "src/user.ts", 3, ""},
				{"a46084e2a59731e5", "breaking", "removed", "src/user.ts", 9, "TS2339"},
				{"06f3b066cc5765fd", "breaking", "removed", "src/user.ts", 15, "TS2339"},
			},
		}
		for title, sites := range want {
			p := packageReport(t, rep, title)
			sort.Slice(sites, func(i, j int) bool { return sites[i].String() < sites[j].String() })
			if got := listed(p); !slices.Equal(got, sites) {
				t.Errorf("%s findings:\n got %v\nwant %v", title, got, sites)
			}
			for _, f := range p.Findings {
				// The root workspace is ".", for compiler-only findings too.
				if f.Workspace != "." {
					t.Errorf("%s finding %s %s at %s:%d in workspace %q, want \".\"", title, f.ID, f.Change, f.File, f.Line, f.Workspace)
				}
			}
			if p.Verdict != "breaking" || p.Compile.Status != model.StatusAnalyzed || p.Compile.Compiled == 0 {
				t.Errorf("%s: verdict %q, compile %+v", title, p.Verdict, p.Compile)
			}
			if !strings.Contains(p.Compile.Line, "with the bundled TypeScript "+typescript.PinnedVersion) {
				t.Errorf("%s: coverage line %q does not name the judge", title, p.Compile.Line)
			}
			// The computed require() in a file naming "slugkit" in a string
			// counts against slugkit alone; it cannot load zod or express.
			counted := slices.ContainsFunc(p.Unanalyzed, func(u model.Unanalyzed) bool {
				return u.File == "src/dynamic.js" && u.Line == 3 && u.Kind == "require" && u.Specifier == "which"
			})
			if counted != (title == "slugkit") {
				t.Errorf("%s: unanalyzed %+v: the computed require in src/dynamic.js:3 should count against slugkit only", title, p.Unanalyzed)
			}
			if len(p.Plan.Next) == 0 || !strings.HasPrefix(p.Plan.Next[0], "uptide check") {
				t.Errorf("%s: next %v", title, p.Plan.Next)
			}
		}

		// The callbacks left implicitly any by a removed member are its
		// downstream errors, counted with it, not findings of their own.
		for _, at := range []struct {
			title, file string
			line        int
		}{{"zod", "src/user.ts", 9}, {"express", "src/server.ts", 9}} {
			if !slices.ContainsFunc(packageReport(t, rep, at.title).Findings, func(f model.Finding) bool {
				return f.File == at.file && f.Line == at.line && f.Change == "removed" &&
					slices.ContainsFunc(f.Downstream, func(d model.Diagnostic) bool { return d.Code == 7006 && d.File == at.file })
			}) {
				t.Errorf("%s: the TS7006 at %s:%d is not downstream of the removal there", at.title, at.file, at.line)
			}
		}

		slug := packageReport(t, rep, "slugkit")
		if slug.Compile.PreExisting != 2 {
			// src/slug.ts:8, and src/legacy.js:3 once checkJs is on.
			t.Errorf("slugkit: %d pre-existing errors, want 2", slug.Compile.PreExisting)
		}
		if !slug.ModuleFormat.StopsRequire || slug.ModuleFormat.RequireSites != 2 {
			t.Errorf("slugkit module format %+v", slug.ModuleFormat)
		}
		// legacy.js:4's signature change is counted with its module format:
		// one unverified rule (TS2345), not two.
		if slug.Plan.Totals.Sites != 5 || len(slug.Plan.Unverified) != 1 {
			t.Errorf("slugkit plan totals %+v, %d unverified rules", slug.Plan.Totals, len(slug.Plan.Unverified))
		}
		// Every finding of a rule says who edits it; without a pack, a
		// person.
		for _, r := range append(append([]model.PlanRule{}, slug.Plan.Rules...), slug.Plan.Unverified...) {
			for _, id := range r.Findings {
				if r.Fix[id] != "manual" {
					t.Errorf("slugkit rule %s: finding %s is fixed %q, want manual (no pack)", r.ID, id, r.Fix[id])
				}
			}
		}

		ex := packageReport(t, rep, "express")
		if len(ex.Members) != 1 || ex.Members[0].TypesVia == nil ||
			*ex.Members[0].TypesVia != (model.TypesVia{Package: "@types/express", From: "4.17.21", To: "5.0.0"}) {
			t.Errorf("express members %+v: want types via @types/express 4.17.21 → 5.0.0", ex.Members)
		}
		if !slices.ContainsFunc(ex.Companions.Companions, func(c model.Companion) bool {
			return c.Name == "@types/express" && c.To == "5.0.0"
		}) {
			t.Errorf("express companions %+v lack @types/express 5.0.0", ex.Companions)
		}
	})

	t.Run("no-compile confirms nothing", func(t *testing.T) {
		r := run(t, e, dir, "check", "zod", "--no-compile", "--json")
		var rep model.CheckReport
		decode(t, r, &rep)
		p := packageReport(t, rep, "zod")
		if r.code != 0 {
			t.Errorf("exit %d, want 0: nothing is confirmed", r.code)
		}
		if p.Compile.Status != model.StatusSkipped || !strings.Contains(p.Compile.Line, "skipped") {
			t.Errorf("compile %+v", p.Compile)
		}
		if p.Counts.Breaking != 0 || p.Counts.Possible < 2 || p.Verdict != "possible" {
			t.Errorf("counts %+v verdict %q: want possible impact only", p.Counts, p.Verdict)
		}
		for _, f := range p.Findings {
			if len(f.Evidence) > 0 || f.Severity == model.Breaking {
				t.Errorf("finding %s is %s with %d diagnostics without a compile", f.ID, f.Severity, len(f.Evidence))
			}
		}
		if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "compile check skipped") }) {
			t.Errorf("notes %v do not say the compile was skipped", p.Notes)
		}
	})

	t.Run("human report", func(t *testing.T) {
		r := run(t, e, dir, "check", "zod", "--details")
		if r.code != 1 {
			t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		for _, want := range []string{
			"uptide check · check-app (npm, 1 workspace) · ",
			"zod      (root)  3.25.76 → 4.1.12    major  ✗ 2 breaking",
			"✗ ZodError#errors is ZodError#issues", // the zod pack names the rule and its transform takes it
			"src/user.ts:9 TS2339 Property 'errors' does not exist on type 'ZodError'.",
			"compiled 1 of 1 file with the bundled TypeScript",
			"1 computed load cannot load a checked package, not counted: src/dynamic.js:3 require(which)",
			"Next  uptide check --cwd " + dir + " zod --target zod@4.1.12 --details",
		} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, r.stdout)
			}
		}
	})

	t.Run("no names", func(t *testing.T) {
		r := run(t, e, dir, "check")
		if r.code != 2 || !strings.Contains(r.stderr, "uptide list") {
			t.Errorf("exit %d, stderr %q: want 2 and a pointer to uptide list", r.code, r.stderr)
		}
	})

	t.Run("unknown package", func(t *testing.T) {
		r := run(t, e, dir, "check", "left-pad", "--json")
		var rep model.CheckReport
		decode(t, r, &rep)
		if r.code != 2 || len(rep.Packages) != 1 || rep.Packages[0].Status != model.StatusNotAnalyzed {
			t.Errorf("exit %d, packages %+v", r.code, rep.Packages)
		}
	})
}

func TestCheckNeedsInstall(t *testing.T) {
	e := newEnv(t, startRegistry(t))
	dir := copyFixture(t, "npm-app")
	r := run(t, e, dir, "check", "zod")
	if r.code != 2 || !strings.Contains(r.stderr, "run npm install first") {
		t.Errorf("exit %d, stderr %q: want 2 and the install to run", r.code, r.stderr)
	}
}

// TestCheckGroupsAndCompanions checks a one-scope release group (one report,
// one overlay with both targets) and react, whose companions (react-dom,
// @types/react-dom) are linked into the compile.
func TestCheckGroupsAndCompanions(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-group")
	npmInstall(t, e, dir)

	r := run(t, e, dir, "check", "@aws-sdk/client-s3", "@aws-sdk/s3-request-presigner", "react", "--json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
	}
	var rep model.CheckReport
	decode(t, r, &rep)
	if len(rep.Packages) != 2 {
		t.Fatalf("%d reports, want the group and react", len(rep.Packages))
	}

	// Both members named: still one decision. Linking only one target would
	// put two copies of @aws-sdk/core side by side, a state no install makes.
	g := packageReport(t, rep, "@aws-sdk/* (2 packages)")
	var names []string
	for _, m := range g.Members {
		names = append(names, m.Name+"@"+m.Target)
	}
	if !slices.Equal(names, []string{"@aws-sdk/client-s3@3.600.0", "@aws-sdk/s3-request-presigner@3.600.0"}) {
		t.Errorf("group members %v", names)
	}
	if g.Verdict != "safe" || g.Counts.Breaking+g.Counts.Possible != 0 || g.Counts.Sites == 0 {
		t.Errorf("group verdict %q %q, counts %+v: want safe over every site", g.Verdict, g.Summary, g.Counts)
	}
	if !strings.HasPrefix(g.Summary, "✓ no impact in ") {
		t.Errorf("group summary %q", g.Summary)
	}
	if n := g.Plan.Next; len(n) != 2 || !strings.Contains(n[0], "--target @aws-sdk/client-s3@3.600.0 --target @aws-sdk/s3-request-presigner@3.600.0") || !strings.HasPrefix(n[1], "uptide fix ") {
		t.Errorf("group next %v: every member at its target", n)
	}

	react := packageReport(t, rep, "react")
	var companions []string
	for _, c := range react.Companions.Companions {
		companions = append(companions, c.Name+"@"+c.To)
	}
	if !slices.Equal(companions, []string{"@types/react@19.1.2", "@types/react-dom@19.1.1", "react-dom@19.1.0"}) {
		t.Errorf("react companions %v", companions)
	}
	want := []site{
		// react-dom's types moved with react: its removed render is an
		// error the companion brings, not one of react's changes.
		{"d0f45b4134c4813d", "breaking", "TS2305", "src/app.tsx", 2, "TS2305"},
		{"c45c752a8abc6ead", "breaking", "TS2503", "src/app.tsx", 4, "TS2503"},
		{"640ac00dd9397fd0", "breaking", "removed", "src/app.tsx", 5, "TS2554"},
	}
	sort.Slice(want, func(i, j int) bool { return want[i].String() < want[j].String() })
	if got := listed(react); !slices.Equal(got, want) {
		t.Errorf("react findings:\n got %v\nwant %v", got, want)
	}
	if tv := react.Members[0].TypesVia; tv == nil || tv.From != "18.3.12" || tv.To != "19.1.2" {
		t.Errorf("react analyzed through %+v, want @types/react 18.3.12 → 19.1.2", tv)
	}

	// --group checks react and react-dom together: render's removal is now
	// react-dom's own finding.
	r = run(t, e, dir, "check", "react", "--group", "--json")
	rep = model.CheckReport{}
	decode(t, r, &rep)
	grp := packageReport(t, rep, "react (2 packages)")
	if !slices.ContainsFunc(grp.Findings, func(f model.Finding) bool {
		return f.Package == "react-dom" && f.Change == "removed" && f.Path == "render" && f.Severity == model.Breaking
	}) {
		t.Errorf("react (2 packages) findings %v lack react-dom's removed render", listed(grp))
	}

	// A target for the lead alone moves the group with it: react-dom goes
	// to the release that agrees with react 19.0.0, not to its own latest.
	r = run(t, e, dir, "check", "react", "--group", "--target", "react@19.0.0", "--json")
	rep = model.CheckReport{}
	decode(t, r, &rep)
	grp = packageReport(t, rep, "react (2 packages)")
	names = nil
	for _, m := range grp.Members {
		names = append(names, m.Name+"@"+m.Target)
	}
	if !slices.Equal(names, []string{"react@19.0.0", "react-dom@19.0.0"}) {
		t.Errorf("react (2 packages) at react 19.0.0 checks %v, want react-dom to follow to 19.0.0", names)
	}
	// A peer group is checked as one only with --group: its Next says so,
	// a one-scope group's does not need it.
	if n := grp.Plan.Next; len(n) == 0 || !strings.Contains(n[0], "--target react-dom@19.0.0 --group --details") {
		t.Errorf("react (2 packages) next %v: want the members' targets and --group", n)
	}
	if n := g.Plan.Next; len(n) == 0 || strings.Contains(n[0], "--group") {
		t.Errorf("@aws-sdk/* next %v: a one-scope group needs no --group", n)
	}
}

// TestCheckWorkspaces checks one dependency installed at two versions in two
// npm workspaces (one hoisted, one nested): two decisions, each compiled
// with its workspace's tsconfig against the copy it resolves.
func TestCheckWorkspaces(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-ws")
	npmInstall(t, e, dir)

	r := run(t, e, dir, "check", "zod", "--json")
	if r.code != 1 {
		t.Fatalf("exit %d\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
	}
	var rep model.CheckReport
	decode(t, r, &rep)
	if len(rep.Packages) != 2 {
		t.Fatalf("%d reports, want one per installed version", len(rep.Packages))
	}
	want := map[string][]site{
		"3.22.4": {
			{"f007651f5201a590", "deprecated", "deprecated", "packages/web/src/form.ts", 3, ""},
			{"1acde0db8ec3a7c1", "breaking", "removed", "packages/web/src/form.ts", 7, "TS2339"},
		},
		"3.25.76": {
			{"cffc0706254b9299", "breaking", "removed", "packages/api/src/handler.ts", 3, "TS2339"},
			{"bfb6aeafb79f5d11", "breaking", "removed", "packages/api/src/handler.ts", 8, "TS2339"},
		},
	}
	wantWS := map[string]string{"3.22.4": "packages/web", "3.25.76": "packages/api"}
	for _, p := range rep.Packages {
		sites, ok := want[p.Installed]
		if !ok {
			t.Errorf("unexpected report for zod %s", p.Installed)
			continue
		}
		if !slices.Equal(p.Workspaces, []string{wantWS[p.Installed]}) {
			t.Errorf("zod %s in %v, want %s", p.Installed, p.Workspaces, wantWS[p.Installed])
		}
		sort.Slice(sites, func(i, j int) bool { return sites[i].String() < sites[j].String() })
		if got := listed(p); !slices.Equal(got, sites) {
			t.Errorf("zod %s findings:\n got %v\nwant %v", p.Installed, got, sites)
		}
		if p.Compile.Compiled != 1 || p.Compile.PreExisting != 0 {
			t.Errorf("zod %s compile %+v", p.Installed, p.Compile)
		}
	}
}

// TestCheckImportersOfUsageFiles checks that the compile reaches the files
// importing a usage file: src/page.ts never names slugkit, but the wrapper
// it calls takes slugkit's SlugOptions, which gains a required field; and
// src/menu.ts reaches the wrapper through a re-exporting index. Their
// errors are the upgrade's, page.ts's own mistake is pre-existing, and
// src/unrelated.ts, which reaches neither, is not compiled.
func TestCheckImportersOfUsageFiles(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-importer")
	npmInstall(t, e, dir)

	r := run(t, e, dir, "check", "slugkit", "--json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (breaking)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
	}
	var rep model.CheckReport
	decode(t, r, &rep)
	p := packageReport(t, rep, "slugkit")
	for _, want := range []struct {
		file string
		line int
	}{{"src/page.ts", 3}, {"src/menu.ts", 3}} {
		// The error is the upgrade's: evidence of a finding in its file,
		// or downstream of the anchor at the wrapper's parameter both
		// files trip.
		if !slices.ContainsFunc(p.Findings, func(f model.Finding) bool {
			at := func(d model.Diagnostic) bool { return d.File == want.file && d.Line == want.line && d.Code == 2345 }
			return !f.Hidden && f.Severity == model.Breaking &&
				(f.File == want.file && slices.ContainsFunc(f.Evidence, at) || f.AnchorOnly && slices.ContainsFunc(f.Downstream, at))
		}) {
			t.Errorf("no breaking TS2345 at %s:%d in %v", want.file, want.line, listed(p))
		}
	}
	for _, f := range p.Findings {
		if f.File == "src/unrelated.ts" || slices.ContainsFunc(f.Evidence, func(d model.Diagnostic) bool { return d.File == "src/unrelated.ts" }) {
			t.Errorf("finding %s in src/unrelated.ts, which imports nothing in scope", f.ID)
		}
	}
	if p.Compile.Compiled != 4 || p.Compile.Asked != 4 || p.Compile.Status != model.StatusAnalyzed {
		t.Errorf("compile %+v: want options.ts, page.ts, index.ts and menu.ts compiled, scripts/seed.ts (outside the tsconfig) not counted", p.Compile)
	}
	if p.Compile.PreExisting != 1 {
		t.Errorf("%d pre-existing errors, want 1 (src/page.ts:6)", p.Compile.PreExisting)
	}
}
