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

// TestCheckReadsJsconfig: a JavaScript app whose program config is a
// jsconfig.json (no tsconfig) is read with it, as tsc -p jsconfig.json and
// the editor read it. sizekit 2.0.0 makes format's options required in its
// declarations and loads the same. Under checkJs the compiler is the
// arbiter: src/direct.js:3 and src/app.js:3 (which reaches sizekit only
// through lib/size.js, imported by the jsconfig's paths alias @lib/*) are
// breaking, the sites tsc -p jsconfig.json reports after the upgrade.
// Without checkJs those files are not type-checked and the probe, which
// sees the same shape, decides: nothing breaks. A tsconfig.json beside
// the jsconfig wins, as in the compiler.
func TestCheckReadsJsconfig(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "js-jsconfig-app")
	npmInstall(t, e, dir)

	breakingSites := func(r result) (model.PackageReport, []string) {
		t.Helper()
		var rep model.CheckReport
		decode(t, r, &rep)
		p := packageReport(t, rep, "sizekit")
		var sites []string
		for _, f := range p.Findings {
			if at := fmt.Sprintf("%s:%d", f.File, f.Line); f.Severity == model.Breaking && !slices.Contains(sites, at) {
				sites = append(sites, at)
			}
		}
		slices.Sort(sites)
		return p, sites
	}

	r := run(t, e, dir, "check", "sizekit", "--target", "sizekit@2.0.0", "--json")
	p, sites := breakingSites(r)
	if want := "src/app.js:3 src/direct.js:3"; r.code != 1 || strings.Join(sites, " ") != want {
		t.Fatalf("checkJs jsconfig: exit %d, breaking sites %q (verdict %s): want 1 and %q\nstderr: %s\n%s", r.code, sites, p.Verdict, want, r.stderr, r.stdout)
	}
	for _, f := range p.Findings {
		if f.Severity == model.Breaking && len(f.Evidence) == 0 {
			t.Errorf("breaking finding at %s:%d has no compiler evidence: the compiler is the arbiter in a checked file", f.File, f.Line)
		}
	}

	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	unchecked := `{"compilerOptions": {"paths": {"@lib/*": ["./lib/*"]}}, "include": ["src", "lib"]}` + "\n"
	write("jsconfig.json", unchecked)
	r = run(t, e, dir, "check", "sizekit", "--target", "sizekit@2.0.0", "--json")
	if p, sites = breakingSites(r); r.code != 0 || len(sites) != 0 || p.Verdict == model.VerdictBreaking {
		t.Errorf("jsconfig without checkJs: exit %d, breaking sites %q, verdict %s: want 0, none (the probe sees the same shape)\n%s", r.code, sites, p.Verdict, r.stdout)
	}

	// A tsconfig.json beside a checkJs jsconfig.json wins: it does not
	// check JavaScript, so nothing breaks.
	write("jsconfig.json", strings.Replace(unchecked, `{"paths"`, `{"checkJs": true, "paths"`, 1))
	write("tsconfig.json", `{"compilerOptions": {"allowJs": true, "paths": {"@lib/*": ["./lib/*"]}}, "include": ["src", "lib"]}`+"\n")
	r = run(t, e, dir, "check", "sizekit", "--target", "sizekit@2.0.0", "--json")
	if _, sites = breakingSites(r); r.code != 0 || len(sites) != 0 {
		t.Errorf("tsconfig beside jsconfig: exit %d, breaking sites %q: want 0, none (the tsconfig wins)\n%s", r.code, sites, r.stdout)
	}
}

// TestFixVerifiesJsconfigProject: fix's verify type-checks the workspace's
// jsconfig.json project as tsc -p jsconfig.json does (it found "no
// tsconfig.json" and checked nothing): sizekit 2.0.0's two new errors are
// its new errors, and the branch fails verification.
func TestFixVerifiesJsconfigProject(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyFixture(t, "js-jsconfig-app")
	npmManager().install(t, fe.env, dir)
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAll(t, dir)

	_, r := runFix(t, fe, dir, "sizekit", "--target", "sizekit@2.0.0")
	var rep struct {
		Types struct {
			Status   string             `json:"status"`
			Projects []string           `json:"projects"`
			New      []model.Diagnostic `json:"new"`
		} `json:"types"`
	}
	decode(t, r, &rep)
	var at []string
	for _, d := range rep.Types.New {
		at = append(at, fmt.Sprintf("%s:%d", d.File, d.Line))
	}
	slices.Sort(at)
	if r.code != 1 || rep.Types.Status != "analyzed" || strings.Join(rep.Types.Projects, " ") != "jsconfig.json" || strings.Join(at, " ") != "src/app.js:3 src/direct.js:3" {
		t.Errorf("fix: exit %d, types %s %q, new errors at %q: want 1, analyzed jsconfig.json, src/app.js:3 src/direct.js:3\n%s\n%s", r.code, rep.Types.Status, rep.Types.Projects, at, r.stdout, r.stderr)
	}
}
