package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// TestCheckDefaultProgramResolvesAsNode: an ESM app ("type": "module") with
// no tsconfig or jsconfig, whose index.js is under // @ts-check, imports
// mapkit/fmt, an entry only mapkit's exports map names. The program check
// builds for it resolves modules as Node loads them (nodenext on the
// repository's TypeScript 5.9), so it reads that entry's declarations:
// mapkit 2.0.0 makes fmt's options required, and index.js:4, a checked
// file, is breaking. TypeScript's own default (node10) cannot find the
// entry at all, and called the file clean. On TypeScript 4.5, which has no
// nodenext, the program falls back to node resolution: check runs and
// says what it could not read.
func TestCheckDefaultProgramResolvesAsNode(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "js-exports-app")
	npmInstall(t, e, dir)
	installTypeScript(t, dir, "5.9.3")

	r := run(t, e, dir, "check", "mapkit", "--target", "mapkit@2.0.0", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	p := packageReport(t, rep, "mapkit")
	var sites []string
	for _, f := range p.Findings {
		if at := fmt.Sprintf("%s:%d", f.File, f.Line); f.Severity == model.Breaking && len(f.Evidence) > 0 && !slices.Contains(sites, at) {
			sites = append(sites, at)
		}
	}
	if r.code != 1 || len(sites) != 1 || sites[0] != "index.js:4" {
		t.Fatalf("exit %d, breaking sites with compiler evidence %q: want 1 and index.js:4\nstderr: %s\n%s", r.code, sites, r.stderr, r.stdout)
	}

	old := copyFixture(t, "js-exports-app")
	npmInstall(t, e, old)
	installTypeScript(t, old, "4.5.5")
	r = run(t, e, old, "check", "mapkit", "--target", "mapkit@2.0.0", "--json")
	decode(t, r, &rep)
	p = packageReport(t, rep, "mapkit")
	// node resolution cannot read mapkit/fmt: the compile says so, naming
	// no option 4.5 rejects (it has nodenext only in nightlies).
	if p.Compile.Compiler != "the repo's TypeScript 4.5.5" || strings.Contains(r.stdout+r.stderr, "nodenext") || strings.Contains(r.stdout+r.stderr, "nightly") {
		t.Errorf("TypeScript 4.5.5: compiler %q, compile %s (%s): want 4.5.5 to judge on node resolution\n%s\n%s", p.Compile.Compiler, p.Compile.Status, p.Compile.Reason, r.stdout, r.stderr)
	}
}
