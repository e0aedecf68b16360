package fix

import (
	"context"
	"slices"
	"sync"
	"testing"
)

// The run's order is its list: every step has its own name, and a step
// waits only for beside steps before it (a later one would never start).
func TestStepsAreInOrder(t *testing.T) {
	r := &runner{}
	seen := map[string]bool{}
	beside := map[string]bool{}
	var names []string
	for _, s := range r.steps() {
		if seen[s.name] {
			t.Errorf("two steps are named %q", s.name)
		}
		for _, a := range s.after {
			if !beside[a] {
				t.Errorf("%s waits for %q, which is no beside step before it", s.name, a)
			}
		}
		seen[s.name] = true
		beside[s.name] = s.beside
		names = append(names, s.name)
	}
	// The steps the issue names, in this order.
	var got []string
	for _, n := range names {
		if slices.Contains([]string{"detect", "snapshot", "clone", "baseline", "install", "rules", "patches", "types", "verdict"}, n) {
			got = append(got, n)
		}
	}
	want := []string{"snapshot", "detect", "baseline", "clone", "install", "rules", "patches", "types", "verdict"}
	if !slices.Equal(got, want) {
		t.Errorf("steps %q, want %q in that order", got, want)
	}
}

// A beside step runs while the steps after it do, until one waits for it;
// one that failed skips the beside steps waiting for it; a stop cancels
// the beside steps still running and waits for them.
func TestPipeline(t *testing.T) {
	var mu sync.Mutex
	var log []string
	note := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		log = append(log, s)
	}
	release := make(chan struct{})
	r := &runner{rep: &Report{}}
	r.pipeline(context.Background(), []step{
		{name: "slow", beside: true, run: func(context.Context) bool { <-release; note("slow"); return true }},
		{name: "failing", beside: true, run: func(context.Context) bool { note("failing"); return false }},
		{name: "skipped", beside: true, after: []string{"failing"}, run: func(context.Context) bool { note("skipped ran"); return true }},
		{name: "off", beside: true, when: func() bool { return false }, run: func(context.Context) bool { note("off ran"); return true }},
		{name: "meanwhile", run: func(context.Context) bool { note("meanwhile"); close(release); return true }},
		{name: "join", after: []string{"slow", "skipped", "off"}, run: func(context.Context) bool { note("join"); return true }},
		{name: "lingering", beside: true, run: func(ctx context.Context) bool { <-ctx.Done(); note("lingering cancelled"); return true }},
		{name: "stop", run: func(context.Context) bool { note("stop"); return false }},
		{name: "after the stop", run: func(context.Context) bool { note("after the stop"); return true }},
	})
	// "failing" runs at any time before the join.
	i := slices.Index(log, "failing")
	if i < 0 || i > slices.Index(log, "join") {
		t.Fatalf("ran %q: failing did not run before the join", log)
	}
	log = slices.Delete(log, i, i+1)
	want := []string{"meanwhile", "slow", "join", "stop", "lingering cancelled"}
	if !slices.Equal(log, want) {
		t.Errorf("ran %q (failing apart), want %q", log, want)
	}
}

// A failed detection ends the work (the baseline, the clone, check, the
// early install), not the git reads, the target or the manager beside it:
// they still say what they found, and the run stops on the detection's
// error, not on a read that was cut short.
func TestCancelWorkSparesTheOtherSteps(t *testing.T) {
	r := &runner{rep: &Report{}}
	var readErr, workErr error
	release := make(chan struct{})
	r.pipeline(context.Background(), []step{
		{name: "read", beside: true, run: func(ctx context.Context) bool { <-release; readErr = ctx.Err(); return true }},
		{name: "work", beside: true, work: true, run: func(ctx context.Context) bool { <-ctx.Done(); workErr = ctx.Err(); return true }},
		{name: "detect", run: func(context.Context) bool { r.cancelWork(); return true }},
		{name: "join", after: []string{"work"}, run: func(context.Context) bool { close(release); return true }},
		{name: "read done", after: []string{"read"}, run: func(context.Context) bool { return true }},
	})
	if workErr == nil {
		t.Error("the work step was not cancelled")
	}
	if readErr != nil {
		t.Errorf("the read beside was cancelled with the work: %v", readErr)
	}
}
