package check

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/typescript"
)

// plan --check's steps are analyzed several at once, each slot with a
// driver of its own, over one baseline per workspace compiled before
// them: what the compiles answer is what they answer one at a time, and
// every compile took the files' baseline from the shared one.
func TestUnitsAtOnceAnswerAsOneAtATime(t *testing.T) {
	dir, env, client := installFixture(t, "plan-app")
	ask := func(slots int) (string, int64, int64) {
		t.Helper()
		maxSlots = slots
		var runs, shared atomic.Int64
		compiled = func(r *typescript.CompileResult) {
			runs.Add(1)
			shared.Add(int64(r.BaselineShared))
		}
		defer func() { maxSlots, compiled = 0, func(*typescript.CompileResult) {} }()
		rep, err := Check(context.Background(), Options{Cwd: dir, Env: env, Client: client, Compile: true,
			Packages: []string{"zod", "chalk", "postcss", "lodash"}})
		if err != nil {
			t.Fatal(err)
		}
		// What the compiles decide (the type comparisons' time budget can
		// run out on a loaded machine on one run and not the other).
		type unit struct {
			Title, Installed, Target, Verdict any
			Compile                           model.CompileReport
		}
		var out []unit
		for _, p := range rep.Packages {
			out = append(out, unit{p.Title, p.Installed, p.Target, p.Verdict, p.Compile})
		}
		b, err := json.MarshalIndent(out, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return string(b), runs.Load(), shared.Load()
	}
	one, _, _ := ask(1)
	many, runs, shared := ask(3)
	if many != one {
		t.Errorf("three at once answered\n%s\none at a time\n%s", many, one)
	}
	if runs < 2 || shared < runs {
		t.Errorf("%d compiles took %d files' baseline from the shared one, want every compile's files", runs, shared)
	}
}

// Every unit's companion plan reaches Planned before the units are
// analyzed: fix installs a batch's steps on them while the baselines and
// the analyses run. The first unit's compile waits here for the last
// unit's plan, which came after that compile before.
func TestPlansComeBeforeTheAnalyses(t *testing.T) {
	dir, env, client := installFixture(t, "plan-app")
	asked := []string{"zod", "chalk", "postcss", "lodash"}
	var plans atomic.Int64
	all := make(chan struct{})
	var late atomic.Int64 // plans made when a compile gave up waiting, +1
	maxSlots = 1
	compiled = func(*typescript.CompileResult) {
		if late.Load() > 0 {
			return
		}
		select {
		case <-all:
		case <-time.After(time.Minute):
			late.Store(plans.Load() + 1)
		}
	}
	defer func() { maxSlots, compiled = 0, func(*typescript.CompileResult) {} }()
	var titles []string
	rep, err := Check(context.Background(), Options{Cwd: dir, Env: env, Client: client, Compile: true, Packages: asked,
		Planned: func(p model.PackageReport) {
			titles = append(titles, p.Title)
			if int(plans.Add(1)) == len(asked) {
				close(all)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if n := late.Load(); n > 0 {
		t.Errorf("a compile ran before every plan was made: %d of %d plans", n-1, len(asked))
	}
	if len(titles) != len(asked) {
		t.Fatalf("plans of %v, want one per package %v", titles, asked)
	}
	// One plan per report, each the report's own before its analysis.
	byTitle := map[string]model.PackageReport{}
	for _, p := range rep.Packages {
		byTitle[p.Title] = p
	}
	for _, title := range titles {
		p, ok := byTitle[title]
		if !ok {
			t.Errorf("a plan of %s, which no report is", title)
			continue
		}
		if p.Installed == "" || p.Target == "" {
			t.Errorf("%s: installed %q, target %q", title, p.Installed, p.Target)
		}
	}
}
