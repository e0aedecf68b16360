package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	vitestOut = "\x1b[31m FAIL \x1b[39m src/a.test.ts > math > adds\nAssertionError: expected 3 to be 4\n" +
		" FAIL  |api| packages/api/src/b.spec.ts > b\n\n" +
		" Test Files  2 failed | 1 passed (3)\n      Tests  3 passed | 2 failed | 1 skipped (6)\n   Start at  12:00:00\n"
	jestOut = "PASS src/ok.test.js\nFAIL src/users/users.test.ts (5.2 s)\n  ● users › loads\n\n" +
		"Test Suites: 1 failed, 1 passed, 2 total\nTests:       1 failed, 2 skipped, 3 passed, 6 total\nSnapshots:   0 total\n"
	nodeOut = "TAP version 13\n# Subtest: adds\nnot ok 1 - adds\n  ---\n  duration_ms: 1.2\n  location: '/repo/pkg/test/a.test.js:3:1'\n  failureType: 'testCodeFailure'\n  ...\n" +
		"1..2\n# tests 2\n# suites 0\n# pass 1\n# fail 1\n# cancelled 0\n# skipped 0\n# todo 0\n"
	nodeSpecOut = "✖ fails (1.3ms)\nℹ tests 4\nℹ pass 3\nℹ fail 1\nℹ skipped 0\nℹ todo 0\n\n✖ failing tests:\n\ntest at test/a.test.js:3:1\n✖ fails (1.395752ms)\n"
)

func TestParseCounts(t *testing.T) {
	tests := []struct {
		name string
		out  string
		want counts
	}{
		{"vitest", vitestOut, counts{passed: 3, failed: 2, skipped: 1, total: 6}},
		{"vitest all passed", " Test Files  1 passed (1)\n      Tests  4 passed (4)\n", counts{passed: 4, failed: 0, skipped: 0, total: 4}},
		{"jest", jestOut, counts{passed: 3, failed: 1, skipped: 2, total: 6}},
		{"node tap", nodeOut, counts{passed: 1, failed: 1, skipped: 0, total: 2}},
		{"node spec", nodeSpecOut, counts{passed: 3, failed: 1, skipped: 0, total: 4}},
		{"unknown", "all good!\n", counts{-1, -1, -1, -1}},
	}
	for _, tc := range tests {
		if got := parseCounts(tc.out); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	for _, out := range []string{"No test files found, exiting with code 1\n", "No tests found, exiting with code 1\nRun with `--passWithNoTests` to exit with code 0\n", "# tests 0\n# pass 0\n# fail 0\n"} {
		if !foundNoTests(out, parseCounts(out)) {
			t.Errorf("%q not read as no tests", out)
		}
	}
	if foundNoTests(vitestOut, parseCounts(vitestOut)) {
		t.Error("a run with tests read as no tests")
	}
}

func TestFailingFiles(t *testing.T) {
	tests := []struct {
		name, dir, out string
		want           []string
		ok             bool
	}{
		{"vitest, with a project label", "packages/web", vitestOut, []string{"packages/web/src/a.test.ts", "packages/web/packages/api/src/b.spec.ts"}, true},
		{"jest", ".", jestOut, []string{"src/users/users.test.ts"}, true},
		{"node tap, absolute location", "pkg", nodeOut, []string{"pkg/test/a.test.js"}, true},
		{"node spec", "pkg", nodeSpecOut, []string{"pkg/test/a.test.js"}, true},
		{"a failure that names no file", ".", "not ok 1 - something\n  ---\n  error: 'x'\n  ...\n", nil, false},
		{"a FAIL line without a file", ".", " FAIL  something went wrong\n", nil, false},
	}
	for _, tc := range tests {
		got, ok := failingFiles("/repo", tc.dir, tc.out)
		if ok != tc.ok || !cmp.Equal(got, tc.want) {
			t.Errorf("%s: %v %v, want %v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestRelatedTo(t *testing.T) {
	root := writeTree(t, map[string]string{
		"src/a.ts":              "export const a = 1;\n",
		"src/b.ts":              "export const b = 2;\n",
		"test/helpers/index.ts": "export * from '../../src/a.js';\n",
		"test/a.test.ts":        "import { a } from './helpers';\n",
		"test/b.test.ts":        "import { b } from '../src/b';\nimport x from 'vitest';\n",
	})
	aff := map[string]bool{"src/a.ts": true}
	if !relatedTo(root, "test/a.test.ts", aff) {
		t.Error("a test reaching src/a.ts through a helper's .js specifier is unrelated")
	}
	if relatedTo(root, "test/b.test.ts", aff) {
		t.Error("a test of src/b.ts is related to src/a.ts")
	}
	if !relatedTo(root, "src/a.ts", aff) {
		t.Error("an affected file is unrelated to itself")
	}
	if !relatedTo(root, "test/missing.test.ts", aff) {
		t.Error("an unreadable test counted as unrelated: it could be retried into a pass")
	}
}

func TestServiceClassification(t *testing.T) {
	for file, want := range map[string]string{
		"test/db.integration.test.ts":     "integration test (by name)",
		"src/checkout.e2e.spec.ts":        "end-to-end test (by name)",
		"e2e/login.spec.ts":               "end-to-end test (in e2e/)",
		"src/__integration__/x.test.js":   "integration test (in __integration__/)",
		"src/integration-helpers.test.ts": "",
		"src/users.test.ts":               "",
	} {
		if got := serviceByName(file); got != want {
			t.Errorf("%s: %q, want %q", file, got, want)
		}
	}
	root := writeTree(t, map[string]string{
		"a.ts": "import { PrismaClient } from '@prisma/client';\n",
		"b.ts": "const { Kafka } = require('kafkajs/lib');\n",
		"c.ts": "import './d.js';\n",
		"d.ts": "const url = process.env['REDIS_URL'];\n",
		"e.ts": "import { beforeAll } from 'vitest';\nimport 'postgres-like-but-not';\n",
		"f.ts": "const mongoose = await import('mongoose');\n",
	})
	for file, want := range map[string]string{
		"a.ts": "a database (imports @prisma/client)",
		"b.ts": "a queue (imports kafkajs)",
		"c.ts": "a cache (reads REDIS_URL in d.ts)",
		"e.ts": "",
		"f.ts": "a database (imports mongoose)",
	} {
		if got := sourceNeeds(root, file).String(); got != want {
			t.Errorf("%s: %q, want %q", file, got, want)
		}
	}
}

func TestGeneratedConfig(t *testing.T) {
	got := generatedConfig(TestRun{Config: "packages/api/vitest.config.ts",
		Exclude: []string{"packages/api/test/db.integration.test.ts"}, DropSetup: []string{"packages/api/test/setup.ts"}})
	for _, want := range []string{"import base from './vitest.config.ts'", `["test/db.integration.test.ts"]`, `["test/setup.ts"]`, "configDefaults.exclude"} {
		if !strings.Contains(got, want) {
			t.Errorf("generated config lacks %q:\n%s", want, got)
		}
	}
}

func FuzzRunnerOutput(f *testing.F) {
	for _, s := range []string{vitestOut, jestOut, nodeOut, nodeSpecOut, "not ok 1\n", " FAIL \n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
		c := parseCounts(out)
		if c.failed < -1 || c.passed < -1 {
			t.Fatalf("negative count %+v", c)
		}
		files, _ := failingFiles("/repo", "pkg", out)
		for _, f := range files {
			if strings.HasPrefix(f, "../") || strings.HasPrefix(f, "/") {
				t.Fatalf("failing file %q outside the root", f)
			}
		}
	})
}

func TestNormalizeFileThroughSymlink(t *testing.T) {
	real := writeTree(t, map[string]string{"pkg/test/a.test.js": ""})
	linked := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, linked); err != nil {
		t.Fatal(err)
	}
	if got := normalizeFile(linked, "pkg", filepath.Join(real, "pkg/test/a.test.js")); got != "pkg/test/a.test.js" {
		t.Fatalf("got %q", got)
	}
	if got := normalizeFile(linked, "pkg", "/elsewhere/a.test.js"); got != "" {
		t.Fatalf("a file outside the root normalized to %q", got)
	}
}
