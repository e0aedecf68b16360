package main

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// A type reference into a moved package reaches the target, as its imports
// do (issue 23's acceptance on a Next 14 app: next 15's `/// <reference
// types="react/experimental" />` and next-env.d.ts's `types="next"` kept
// @types/react 18 in the overlay, whose global JSX hid the "Cannot find
// namespace 'JSX'" tsc reports after the real upgrade). On
// fixtures/check/npm-canary, installed by the real npm, src/env.d.ts names
// `canarykit/canary`, which imports "." beside it: @types/canarykit 2 drops
// the global Canary namespace src/note.ts uses. Check says what tsc says.
func TestCheckTypeReferenceToASubpathReachesTheTarget(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-canary")
	npmInstall(t, e, dir)
	r := run(t, e, dir, "check", "canarykit", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (the global Canary namespace is gone)\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	p := packageReport(t, rep, "canarykit")
	found := false
	for _, f := range p.Findings {
		if f.Severity == model.Breaking && f.File == "src/note.ts" && f.Line == 3 && len(f.Evidence) > 0 && f.Evidence[0].Code == 2503 {
			found = true
		}
	}
	if !found {
		t.Errorf("no breaking TS2503 at src/note.ts:3 (global Canary, reached through canarykit/canary): %+v", listed(p))
	}
	after := installedCopy(t, dir)
	npmManager().upgrade(t, e, after, false, "canarykit@2.0.0")
	npmManager().upgrade(t, e, after, true, "@types/canarykit@2.0.0")
	assertTruth(t, p, dir, after)
}
