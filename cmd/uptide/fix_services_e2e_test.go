package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/uptide/uptide/internal/testkit"
)

// vitestOnPath puts the pinned real vitest on the PATH fix runs the tests
// with, as a global install would be: the test registry serves no vitest,
// and a vitest linked into the fixture's node_modules would be pruned by
// the upgrade's install. The fixture's tests and config use vitest's
// globals, so they import nothing from it.
func vitestOnPath(t *testing.T, fe fixEnv) {
	t.Helper()
	cli := filepath.Join(testkit.NpmTool(t, "vitest", "2.1.9"), "node_modules", "vitest", "vitest.mjs")
	for _, kv := range fe.extra {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			bin := strings.Split(p, string(os.PathListSeparator))[0]
			body := fmt.Sprintf("#!/bin/sh\nexec node %s \"$@\"\n", strconv.Quote(cli))
			if err := os.WriteFile(filepath.Join(bin, "vitest"), []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatal("the fix environment has no PATH of its own")
}

// A repository whose own test script is one vitest command, with a global
// setup that mocks the database module (importing the client's types), one
// integration test that reaches the database and one unit test that needs
// the store's address a config module reads (MONGODB_URL): fix runs the
// script with those two left out, names them as skipped, and the unit test
// over the mocked client runs and passes.
func TestFixRunsUnitTestsBesideServiceTests(t *testing.T) {
	fe := newFixEnv(t)
	vitestOnPath(t, fe)
	dir := fixRepo(t, fe, "vitest-services", "npm")
	_, r := runFix(t, fe, dir, "slugkit", "--target", "slugkit@2.0.0")
	type skip struct {
		File  string `json:"file"`
		Needs string `json:"needs"`
	}
	var rep struct {
		Status string `json:"status"`
		Reason string `json:"reason"`
		Tests  struct {
			Results []struct {
				Status string `json:"status"`
				Passed int    `json:"passed"`
				Failed int    `json:"failed"`
				Output string `json:"output"`
				Run    struct {
					Command []string `json:"command"`
				} `json:"run"`
			} `json:"results"`
			Skipped []skip   `json:"skipped"`
			NotRun  []string `json:"notRun"`
		} `json:"tests"`
	}
	decode(t, r, &rep)
	if r.code != 0 || rep.Status != "verified" {
		t.Fatalf("exit %d %s (%s), want 0 verified\n%s\n%s", r.code, rep.Status, rep.Reason, r.stdout, r.stderr)
	}
	tests := rep.Tests
	if len(tests.NotRun) != 0 || len(tests.Results) != 1 {
		t.Fatalf("tests: %d runs, not run %q; want the test script, run", len(tests.Results), tests.NotRun)
	}
	res := tests.Results[0]
	if res.Status != "passed" || res.Passed != 1 || res.Failed != 0 {
		t.Errorf("the script's run: %s %d passed %d failed, want the unit test passed\n%s", res.Status, res.Passed, res.Failed, res.Output)
	}
	if cmd := strings.Join(res.Run.Command, " "); cmd != "sh -c vitest run --exclude=src/tests/config.test.ts --exclude=src/tests/db.integration.test.ts" {
		t.Errorf("command %q", cmd)
	}
	if len(tests.Skipped) != 2 || tests.Skipped[0] != (skip{"src/tests/config.test.ts", "a database (reads MONGODB_URL in src/config.js)"}) ||
		tests.Skipped[1].File != "src/tests/db.integration.test.ts" {
		t.Errorf("skipped %+v, want the config test and the integration test, not the unit test (the setup mocks its client)", tests.Skipped)
	}
	text := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0")
	for _, want := range []string{"✓ passed  vitest run --exclude=src/tests/config.test.ts --exclude=src/tests/db.integration.test.ts · root test script · 1 passed",
		"2 test files need services and were not run", "src/tests/config.test.ts  a database (reads MONGODB_URL in src/config.js)",
		"src/tests/db.integration.test.ts  integration test (by name)"} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("the text report lacks %q:\n%s", want, text.stdout)
		}
	}
	assertNoTrap(t, fe, dir)
}
