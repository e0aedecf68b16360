package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// TestCheckRuntimeJavaScriptApp: a CommonJS app in plain JavaScript (no
// tsconfig, .nvmrc 20) calling require('tintkit').red(...). tintkit 5 is
// ESM only: on Node 20.19+ require() returns its namespace, whose red lives
// on default, so the call breaks. The repository never type-checks that
// file, so the runtime probe decides: the site is breaking, never "✓ no
// impact"; with --no-runtime nothing decides and it is possible impact.
func TestCheckRuntimeJavaScriptApp(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "js-cjs-app")
	npmInstall(t, e, dir)

	r := run(t, e, dir, "check", "tintkit", "--target", "tintkit@5.3.0", "--json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (breaking)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
	}
	var rep model.CheckReport
	decode(t, r, &rep)
	p := packageReport(t, rep, "tintkit")
	if p.Verdict != model.VerdictBreaking || p.Counts.Breaking == 0 {
		t.Fatalf("verdict %q, counts %+v: want breaking\n%s", p.Verdict, p.Counts, r.stdout)
	}
	var hit *model.Finding
	for i, f := range p.Findings {
		if f.File == "index.js" && f.Severity == model.Breaking && len(f.Runtime) > 0 {
			hit = &p.Findings[i]
		}
	}
	if hit == nil || hit.Line != 3 {
		t.Fatalf("findings %+v: want a breaking finding at index.js:3 with the probe's changes", p.Findings)
	}
	if len(p.Runtime) != 1 || p.Runtime[0].Status != model.RuntimeCompared || p.Runtime[0].Node.Why == "" {
		t.Fatalf("runtime %+v: want tintkit's probe, compared, saying which Node ran", p.Runtime)
	}
	if strings.Contains(r.stdout, `"path":"/`) || strings.Contains(r.stdout, p.Runtime[0].Node.Version+`","path"`) {
		t.Errorf("the report carries this machine's Node path:\n%s", r.stdout)
	}

	h := run(t, e, dir, "check", "tintkit", "--target", "tintkit@5.3.0", "--details")
	for _, want := range []string{"index.js:3", "runtime:", p.Runtime[0].Node.Version} {
		if !strings.Contains(h.stdout, want) {
			t.Errorf("--details does not say %q:\n%s", want, h.stdout)
		}
	}
	if strings.Contains(h.stdout, "no impact") {
		t.Errorf("--details says no impact:\n%s", h.stdout)
	}

	n := run(t, e, dir, "check", "tintkit", "--target", "tintkit@5.3.0", "--no-runtime", "--json")
	var off model.CheckReport
	decode(t, n, &off)
	q := packageReport(t, off, "tintkit")
	if len(q.Runtime) != 0 || q.Counts.Breaking != 0 || q.Counts.Possible == 0 {
		t.Errorf("--no-runtime: runtime %+v, counts %+v: want no probe, the site possible impact", q.Runtime, q.Counts)
	}
}

// TestCheckRuntimeOnAMovingNodeTag: the same app deployed FROM node:alpine
// (Node "latest", no release line; hagopj13/node-express-boilerplate).
// Every line that tag can name has require(esm), as the Node the probe ran
// on does, so what require() gave decides the site: before, the probe's
// require() loads were set aside as another Node's, and 133 of
// http-status 2's sites there stayed "possible impact" although require()
// of 2.1.0 has none of the keys they read.
func TestCheckRuntimeOnAMovingNodeTag(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "js-cjs-app")
	if err := os.Remove(filepath.Join(dir, ".nvmrc")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM node:alpine\nCOPY . .\nCMD [\"node\", \"index.js\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	npmInstall(t, e, dir)

	r := run(t, e, dir, "check", "tintkit", "--target", "tintkit@5.3.0", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	p := packageReport(t, rep, "tintkit")
	if len(p.Runtime) != 1 || p.Runtime[0].Node.Wanted != "latest" {
		t.Fatalf("runtime %+v: want tintkit's probe, the repository asking for Node latest", p.Runtime)
	}
	var hit *model.Finding
	for i, f := range p.Findings {
		if f.File == "index.js" && f.Severity == model.Breaking && len(f.Runtime) > 0 {
			hit = &p.Findings[i]
		}
	}
	if r.code != 1 || hit == nil || hit.Line != 3 {
		t.Fatalf("exit %d, findings %+v: want a breaking finding at index.js:3 with the probe's changes\n%s", r.code, p.Findings, r.stdout)
	}
}

// TestFixRuntimeJavaScriptApp: fix's check runs the runtime probe as
// uptide check does, so the site check calls breaking in a file the
// repository never type-checks is a site fix leaves for you (the compile
// after the upgrade cannot see it); --no-runtime skips the probe in fix as
// in check, and the site is then possible impact, not a site left.
func TestFixRuntimeJavaScriptApp(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyFixture(t, "js-cjs-app")
	npmManager().install(t, fe.env, dir)
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAll(t, dir)

	c := run(t, fe.env, dir, "check", "tintkit", "--target", "tintkit@5.3.0", "--json")
	var crep model.CheckReport
	decode(t, c, &crep)
	var breaking []string
	for _, f := range packageReport(t, crep, "tintkit").Findings {
		if at := fmt.Sprintf("%s:%d", f.File, f.Line); f.Severity == model.Breaking && !slices.Contains(breaking, at) {
			breaking = append(breaking, at)
		}
	}
	if strings.Join(breaking, " ") != "index.js:3" {
		t.Fatalf("check's breaking sites %q, want index.js:3\n%s", breaking, c.stdout)
	}

	rep, r := runFix(t, fe, dir, "tintkit", "--target", "tintkit@5.3.0")
	var left []string
	for _, s := range rep.Sites {
		left = append(left, fmt.Sprintf("%s:%d", s.File, s.Line))
	}
	if r.code != 1 || rep.Status != "failed" || strings.Join(left, " ") != strings.Join(breaking, " ") {
		t.Errorf("fix: exit %d, status %s, sites left %q: want 1, failed, and check's breaking sites %q\n%s\n%s", r.code, rep.Status, left, breaking, r.stdout, r.stderr)
	}

	off, r := runFix(t, fe, dir, "tintkit", "--target", "tintkit@5.3.0", "--no-runtime")
	for _, s := range off.Sites {
		if s.File == "index.js" {
			t.Errorf("fix --no-runtime lists %s:%d as a site left: only the probe judges it\n%s", s.File, s.Line, r.stdout)
		}
	}
}

// TestCheckJavaScriptAppWithoutTsconfigSkipsLibCheck: the program check
// makes for an app with no tsconfig is the one tsc gives plain JavaScript
// by default, declaration files unchecked. ttykit 2.0.0's declarations
// import node:tty, which the app (no @types/node) cannot resolve: that is
// no error of an app that never runs tsc, so no "errors inside ttykit's
// declarations" finding, and the upgrade (same runtime shape) breaks
// nothing.
func TestCheckJavaScriptAppWithoutTsconfigSkipsLibCheck(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "js-cjs-app")
	npmInstall(t, e, dir)

	r := run(t, e, dir, "check", "ttykit", "--target", "ttykit@2.0.0", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	p := packageReport(t, rep, "ttykit")
	for _, f := range p.Findings {
		if f.Change == "dependency-errors" || model.InDependency(f.File) || strings.Contains(f.Reason, "declarations") {
			t.Errorf("finding %s at %s:%d: %s", f.Change, f.File, f.Line, f.Reason)
		}
	}
	if r.code != 0 || p.Counts.Breaking != 0 || p.Verdict != model.VerdictSafe {
		t.Errorf("exit %d, verdict %q, counts %+v: want 0, safe, nothing breaking\n%s", r.code, p.Verdict, p.Counts, r.stdout)
	}
}

// TestCheckRuntimeCountsARequireSiteOnce: tint.red(...) under require()
// of tintkit 5 is both the module format's (require() of an ES module)
// and the declarations' (default.Tint#red removed, TS2339): one site, one
// edit, counted once in the JSON counts, the plan and the text, with both
// reasons and the probe's evidence on its Node shown under it.
func TestCheckRuntimeCountsARequireSiteOnce(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "js-cjs-app")
	npmInstall(t, e, dir)

	r := run(t, e, dir, "check", "tintkit", "--target", "tintkit@5.3.0", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	p := packageReport(t, rep, "tintkit")
	if p.Counts.Breaking != 1 || len(p.Findings) != 1 || p.Summary != "✗ 1 breaking" {
		t.Fatalf("counts %+v, summary %q, %d findings: want the one require() site counted once\n%s", p.Counts, p.Summary, len(p.Findings), r.stdout)
	}
	f := p.Findings[0]
	if f.Change != "module-format" || f.Line != 3 || len(f.Folded) != 1 || f.Folded[0].Change != "removed" || len(f.Folded[0].Evidence) != 1 || f.Folded[0].Evidence[0].Code != 2339 || len(f.Evidence) != 0 {
		t.Fatalf("finding %+v: want the module format at index.js:3 with the removed member folded in with its TS2339 (the load's own finding has no compiler evidence: fix lists it as a site left)", f)
	}
	if n := len(p.Plan.Rules); n != 1 || p.Plan.Totals.Sites != 1 {
		t.Errorf("plan %+v: want one rule, one site", p.Plan)
	}

	h := run(t, e, dir, "check", "tintkit", "--target", "tintkit@5.3.0", "--details")
	node := p.Runtime[0].Node.Version
	for _, want := range []string{
		"✗ 1 breaking",
		"also: " + f.Folded[0].Reason,
		"index.js:3 TS2339",
		"runtime: require() of 5.3.0 returns a module namespace: red is only on its default export (Node " + node + ")",
	} {
		if !strings.Contains(h.stdout, want) {
			t.Errorf("--details does not say %q:\n%s", want, h.stdout)
		}
	}
	if strings.Contains(h.stdout, "default.Tint removed") {
		t.Errorf("--details plans the folded member as a rule of its own:\n%s", h.stdout)
	}
}

// TestCheckRuntimeProbesTheSubpathsImported: the app reads
// require('ttykit/color').hasBasic in JavaScript it never type-checks;
// ttykit 2.0.0's ./color entry no longer has it, while the main entry
// keeps its shape. The probe loads the ./color entry the repository
// imports, so the site is breaking on what that entry gives (not possible
// impact because the probe never loaded it), and color.level, which the
// entry keeps, is not.
func TestCheckRuntimeProbesTheSubpathsImported(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "js-cjs-subpath")
	npmInstall(t, e, dir)

	r := run(t, e, dir, "check", "ttykit", "--target", "ttykit@2.0.0", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	p := packageReport(t, rep, "ttykit")
	if len(p.Runtime) != 1 || len(p.Runtime[0].Target.Subpaths) != 1 || p.Runtime[0].Target.Subpaths[0].Subpath != "./color" {
		t.Fatalf("runtime %+v: want the ./color entry probed\n%s", p.Runtime, r.stdout)
	}
	var breaking []string
	for _, f := range p.Findings {
		if f.Severity != model.Breaking {
			continue
		}
		breaking = append(breaking, fmt.Sprintf("%s:%d", f.File, f.Line))
		if len(f.Runtime) == 0 || f.Runtime[0].Subpath != "./color" {
			t.Errorf("breaking %s:%d without the ./color entry's change: %+v", f.File, f.Line, f.Runtime)
		}
	}
	if strings.Join(breaking, " ") != "index.js:3" || r.code != 1 {
		t.Errorf("exit %d, breaking sites %q: want 1 and index.js:3 (hasBasic), not index.js:4 (level)\n%s", r.code, breaking, r.stdout)
	}
}
