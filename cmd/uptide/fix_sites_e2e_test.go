package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/testkit/tsctruth"
)

// Every line with a new error is left for you: express 4 → 5 (its types
// from @types/express 5) rejects seven handlers that return the response,
// three of them with one message in one file, a removed req.param and a
// removed app.del. Each is its own site with its errors folded under it,
// and together they are exactly what the kept clone's own tsc reports new.
func TestFixLeavesEverySiteWithANewError(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "express-app", "npm")
	r := run(t, fe.env, dir, "fix", "express", "--target", "express@5.1.0", "--json")
	var rep struct {
		Status string `json:"status"`
		Reason string `json:"reason"`
		Types  struct {
			New []model.Diagnostic `json:"new"`
		} `json:"types"`
		Sites []struct {
			File   string             `json:"file"`
			Line   int                `json:"line"`
			Errors []model.Diagnostic `json:"errors"`
		} `json:"sitesLeft"`
		Clone struct {
			Repo string `json:"repo"`
			Kept bool   `json:"kept"`
		} `json:"clone"`
	}
	decode(t, r, &rep)
	if r.code != 1 || rep.Status != "failed" {
		t.Fatalf("exit %d status %s (%s), want 1 failed\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	var sites, folded []string
	for _, s := range rep.Sites {
		sites = append(sites, fmt.Sprintf("%s:%d", s.File, s.Line))
		for _, d := range s.Errors {
			folded = append(folded, fmt.Sprintf("%s:%d TS%d", d.File, d.Line, d.Code))
		}
	}
	want := []string{"src/items.ts:5", "src/items.ts:6", "src/items.ts:7", "src/items.ts:9", "src/items.ts:11",
		"src/users.ts:5", "src/users.ts:6", "src/users.ts:7", "src/users.ts:8"}
	if !slices.Equal(sites, want) {
		t.Errorf("sites left %v, want every line with a new error %v", sites, want)
	}
	if !strings.Contains(rep.Reason, fmt.Sprintf("%d sites left for you", len(want))) {
		t.Errorf("reason %q does not count the sites", rep.Reason)
	}
	if !rep.Clone.Kept {
		t.Fatal("the clone of a failed run is not kept")
	}
	// The kept clone's own tsc, against the checkout's before the upgrade.
	tsJS := filepath.Join(dir, "node_modules", "typescript", "lib", "typescript.js")
	before, err := tsctruth.Errors(context.Background(), tsJS, filepath.Join(dir, "tsconfig.json"), dir)
	if err != nil {
		t.Fatal(err)
	}
	after, err := tsctruth.Errors(context.Background(), tsJS, filepath.Join(rep.Clone.Repo, "tsconfig.json"), rep.Clone.Repo)
	if err != nil {
		t.Fatal(err)
	}
	var truth []string
	for _, e := range tsctruth.New(before, after) {
		truth = append(truth, e.String())
	}
	sort.Strings(truth)
	sort.Strings(folded)
	if !slices.Equal(truth, folded) || len(rep.Types.New) != len(truth) {
		t.Errorf("the sites' errors are not the new errors tsc reports in the kept clone\nsites: %q\n  tsc: %q\ntypes: %d new", folded, truth, len(rep.Types.New))
	}
	text := run(t, fe.env, dir, "fix", "express", "--target", "express@5.1.0")
	if !strings.Contains(text.stdout, fmt.Sprintf("Left for you  %d sites", len(want))) || !strings.Contains(text.stdout, "src/users.ts:8") {
		t.Errorf("the text report does not list every site:\n%s", text.stdout)
	}
}
