package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fix asked what uptide check was asked on the same state of the files
// takes the check it kept instead of checking again (issue 23: fix's time
// against the same steps by hand), and reports what it reports after its
// own check; a check asked otherwise (--no-runtime) is not taken.
func TestFixTakesTheKeptCheck(t *testing.T) {
	fe := newFixEnv(t)
	args := []string{"slugkit", "--target", "slugkit@2.0.0"}
	const kept = "the check kept for this state of the files"

	own := fixRepo(t, fe, "npm-app", "npm")
	want, r := runFix(t, fe, own, append(args, "--verbose")...)
	if r.code != 1 || want.Status != "failed" || strings.Contains(r.stderr, kept) {
		t.Fatalf("fix with nothing kept: exit %d status %s\n%s", r.code, want.Status, r.stderr)
	}

	dir := fixRepo(t, fe, "npm-app", "npm")
	if c := run(t, fe.env, dir, append([]string{"check"}, args...)...); c.code != 1 {
		t.Fatalf("check: exit %d\n%s\n%s", c.code, c.stdout, c.stderr)
	}
	got, r := runFix(t, fe, dir, append(args, "--verbose")...)
	if !strings.Contains(r.stderr, kept) || strings.Contains(r.stderr, "checking slugkit") {
		t.Errorf("fix after check did not take the kept check:\n%s", r.stderr)
	}
	if r.code != 1 || got.Status != want.Status {
		t.Fatalf("fix after check: exit %d status %s, want 1 %s\n%s", r.code, got.Status, want.Status, r.stderr)
	}
	type verdict struct {
		From, To string
		Commits  []string
		New      int
		Baseline int
		Sites    []string
	}
	of := func(rep fixReport) verdict {
		v := verdict{From: rep.From, To: rep.To, Commits: subjects(rep), New: len(rep.Types.New), Baseline: rep.Types.Baseline}
		for _, s := range rep.Sites {
			v.Sites = append(v.Sites, s.File+" "+s.Rule)
		}
		return v
	}
	if d := cmp.Diff(of(want), of(got)); d != "" {
		t.Errorf("fix after check reports otherwise (-own check +kept check):\n%s", d)
	}

	// Asked otherwise: the check without the probe is not fix's.
	if c := run(t, fe.env, own, append([]string{"check", "--no-runtime"}, args...)...); c.code != 1 {
		t.Fatalf("check --no-runtime: exit %d\n%s", c.code, c.stderr)
	}
	if _, r := runFix(t, fe, own, append(args, "--verbose")...); strings.Contains(r.stderr, kept) || !strings.Contains(r.stderr, "checking slugkit") {
		t.Errorf("fix took a check asked with --no-runtime:\n%s", r.stderr)
	}
}
