package main

import (
	"strings"
	"testing"

	"github.com/uptide/uptide/internal/testkit/fakellm"
)

// fix --assist on the upgrade check calls one cause (issue 23: zod 4 on
// TypeScript 4.4 sent 331 parse errors inside node_modules/zod to the model,
// 991 calls): the errors inside the dependency are the cause's evidence,
// never sites. No call is made, "Left for you" holds the cause once, at
// package.json, and no node_modules file.
func TestFixDependencyErrorsAreNoSites(t *testing.T) {
	fe := newFixEnv(t)
	if err := fe.reg.AddDir(pinnedTool(t, "typescript", "4.4.4")); err != nil {
		t.Fatal(err)
	}
	dir := copyFixture(t, "ts44-app")
	npmManager().install(t, fe.env, dir)
	commitAll(t, dir)
	srv := fakellm.New(assistKey)
	defer srv.Close()
	rep, r := runAssist(t, srv, fe, dir, "zod", "--target", "zod@4.0.17")
	if r.code != 1 || rep.Status != "failed" {
		t.Fatalf("exit %d status %s (%s), want 1 failed: tsc 4.4.4 cannot read zod 4\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	inDeps := 0
	for _, d := range rep.Types.New {
		if strings.HasPrefix(d.File, "node_modules/") {
			inDeps++
		}
	}
	if inDeps == 0 || inDeps != len(rep.Types.New) {
		t.Errorf("types: %d new errors, %d inside node_modules; want only zod's parse errors", len(rep.Types.New), inDeps)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d calls to the model for errors inside a dependency", n)
	}
	if a := rep.Assist; a == nil || a.Calls != 0 {
		t.Errorf("assist report %+v, want no call", a)
	} else {
		for _, it := range a.Items {
			if strings.Contains("/"+it.File, "/node_modules/") {
				t.Errorf("the assisted queue holds a dependency's file: %+v", it)
			}
		}
	}
	if len(rep.Sites) != 1 || rep.Sites[0].File != "package.json" || rep.Sites[0].Rule != "upgrade typescript to ≥ 5.0" {
		t.Errorf("left for you %+v, want the one cause: upgrade typescript to ≥ 5.0 at package.json", rep.Sites)
	}
}
