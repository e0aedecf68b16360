package verify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// flaky fails the first time it runs in a fresh tree and passes after: it
// leaves a marker beside itself.
const flaky = `const test = require('node:test');
const fs = require('node:fs');
const path = require('node:path');
test('flaky socket', () => {
  const marker = path.join(__dirname, '..', '.ran-' + path.basename(__filename, '.js'));
  if (!fs.existsSync(marker)) { fs.writeFileSync(marker, ''); throw new Error('ECONNRESET'); }
});
`

const passing = `const test = require('node:test');
const assert = require('node:assert');
const { add } = require('../src/add.js');
test('adds', () => assert.equal(add(1, 2), 3));
test('adds zero', () => assert.equal(add(0, 2), 2));
`

func runPlan(t *testing.T, root string, workspaces, files, affected []string, timeout time.Duration) []TestResult {
	t.Helper()
	plan, err := PlanTests(root, repoOf(workspaces...), workspaces, files, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Runs) == 0 {
		t.Fatalf("nothing planned: %+v", plan)
	}
	var lines []string
	res := RunTests(context.Background(), root, quietEnv(t), plan, affected, timeout, func(s string) { lines = append(lines, s) })
	if len(lines) == 0 {
		t.Error("no progress reported")
	}
	return res
}

func TestRunTestsNodeTest(t *testing.T) {
	needNode(t)
	base := map[string]string{
		"package.json":       `{"name":"root","scripts":{"test":"node --test"}}`,
		"src/add.js":         "exports.add = (a, b) => a + b;\n",
		"test/add.test.js":   passing,
		"src/other.js":       "exports.other = 1;\n",
		"test/other.test.js": "require('../src/other.js');\n" + flaky,
	}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}

	t.Run("pass with counts", func(t *testing.T) {
		root := writeTree(t, with(map[string]string{"test/other.test.js": "require('node:test')('ok', () => {});\n"}))
		res := runPlan(t, root, []string{"."}, []string{"src/add.js"}, []string{"src/add.js"}, time.Minute)
		r := res[0]
		if r.Status != StatusPassed || r.Passed != 3 || r.Failed != 0 || r.Rerun {
			t.Fatalf("want passed 3/0, got %s %d/%d rerun=%v\n%s", r.Status, r.Passed, r.Failed, r.Rerun, r.Output)
		}
	})

	t.Run("failing files that reach nothing the upgrade moved are named as unrelated", func(t *testing.T) {
		root := writeTree(t, with(map[string]string{"src/add.js": "exports.add = (a, b) => a - b;\n",
			"test/other.test.js": "require('../src/other.js');\nrequire('node:test')('reaches a server', () => { throw new Error('ECONNREFUSED'); });\n"}))
		res := runPlan(t, root, []string{"."}, []string{"src/add.js"}, []string{"src/add.js"}, time.Minute)
		r := res[0]
		if r.Status != StatusFailed || r.Rerun {
			t.Fatalf("want failed without a re-run, got %s rerun=%v\n%s", r.Status, r.Rerun, r.Output)
		}
		if strings.Join(r.FailingFiles, ",") != "test/add.test.js,test/other.test.js" || strings.Join(r.UnrelatedFailing, ",") != "test/other.test.js" {
			t.Errorf("failing %v, unrelated %v; want both failing, test/other.test.js unrelated", r.FailingFiles, r.UnrelatedFailing)
		}
	})

	t.Run("a failing test of an affected file fails and is not re-run", func(t *testing.T) {
		root := writeTree(t, with(map[string]string{"src/add.js": "exports.add = (a, b) => a - b;\n",
			"test/other.test.js": "require('node:test')('ok', () => {});\n"}))
		res := runPlan(t, root, []string{"."}, []string{"src/add.js"}, []string{"src/add.js"}, time.Minute)
		r := res[0]
		if r.Status != StatusFailed || r.Failed != 2 || r.Passed != 1 || r.Rerun {
			t.Fatalf("want failed 1/2 without a re-run, got %s %d/%d rerun=%v\n%s", r.Status, r.Passed, r.Failed, r.Rerun, r.Output)
		}
		if strings.Join(r.FailingFiles, ",") != "test/add.test.js" || len(r.UnrelatedFailing) != 0 {
			t.Errorf("failing files %v (unrelated %v), want test/add.test.js, related", r.FailingFiles, r.UnrelatedFailing)
		}
	})

	t.Run("an affected test that would pass the second time is never retried into a pass", func(t *testing.T) {
		root := writeTree(t, base)
		// other.test.js imports src/other.js, which the migration touched.
		res := runPlan(t, root, []string{"."}, []string{"src/other.js"}, []string{"src/other.js"}, time.Minute)
		if r := res[0]; r.Status != StatusFailed || r.Rerun {
			t.Fatalf("want failed without a re-run, got %s rerun=%v\n%s", r.Status, r.Rerun, r.Output)
		}
	})

	t.Run("an unrelated failure is re-run once and recorded", func(t *testing.T) {
		root := writeTree(t, base)
		res := runPlan(t, root, []string{"."}, []string{"src/add.js"}, []string{"src/add.js"}, time.Minute)
		r := res[0]
		if r.Status != StatusPassed || !r.Rerun || r.Passed != 3 {
			t.Fatalf("want passed after a recorded re-run, got %s rerun=%v passed=%d\n%s", r.Status, r.Rerun, r.Passed, r.Output)
		}
		if strings.Join(r.FirstFailing, ",") != "test/other.test.js" {
			t.Errorf("first failing %v, want test/other.test.js", r.FirstFailing)
		}
	})

	t.Run("a failure that names no file is never re-run", func(t *testing.T) {
		root := writeTree(t, with(map[string]string{
			"package.json":       `{"name":"root","scripts":{"test":"node --test && echo 'something broke' && exit 3"}}`,
			"test/other.test.js": "require('node:test')('ok', () => {});\n",
		}))
		res := runPlan(t, root, []string{"."}, nil, []string{"src/add.js"}, time.Minute)
		if r := res[0]; r.Status != StatusFailed || r.Rerun {
			t.Fatalf("want failed without a re-run, got %s rerun=%v\n%s", r.Status, r.Rerun, r.Output)
		}
	})

	t.Run("timeout", func(t *testing.T) {
		root := writeTree(t, with(map[string]string{"test/slow.test.js": "require('node:test')('sleeps', () => new Promise((r) => setTimeout(r, 60000)));\n"}))
		start := time.Now()
		res := runPlan(t, root, []string{"."}, []string{"src/add.js"}, []string{"src/add.js"}, 3*time.Second)
		if r := res[0]; r.Status != StatusTimedOut || r.Rerun {
			t.Fatalf("want timed-out, got %s\n%s", r.Status, r.Output)
		}
		if time.Since(start) > 40*time.Second {
			t.Errorf("the timed-out run was not ended")
		}
	})

	t.Run("no tests is never green", func(t *testing.T) {
		root := writeTree(t, map[string]string{"package.json": `{"name":"root","scripts":{"test":"node --test test/"}}`, "test/.keep": ""})
		res := runPlan(t, root, []string{"."}, nil, nil, time.Minute)
		if r := res[0]; r.Status != StatusNoTests {
			t.Fatalf("a run of no test is %s, want no-tests:\n%s", r.Status, r.Output)
		}
	})
}

// The pretest script runs as a command of its own before the test script,
// even though lifecycle scripts are off in the environment; nothing runs
// through the manager (no posttest, no npm_lifecycle_event).
func TestRunTestsPretestAndBinPath(t *testing.T) {
	needNode(t)
	root := writeTree(t, map[string]string{
		"package.json":            `{"name":"root","workspaces":["packages/*"]}`,
		"node_modules/.bin/stamp": "#!/bin/sh\necho \"$1\" > \"$2\"\n",
		"packages/api/package.json": `{"scripts":{
			"pretest":"stamp built built.txt",
			"test":"node --test",
			"posttest":"stamp post post.txt"}}`,
		"packages/api/test/built.test.js": `const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
test('pretest ran first', () => assert.equal(fs.readFileSync('built.txt', 'utf8').trim(), 'built'));
test('not through the lifecycle', () => assert.equal(process.env.npm_lifecycle_event, undefined));
`,
	})
	if err := os.Chmod(filepath.Join(root, "node_modules/.bin/stamp"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := runPlan(t, root, []string{"packages/api"}, nil, nil, time.Minute)
	r := res[0]
	if r.Status != StatusPassed || r.Passed != 2 {
		t.Fatalf("want passed 2, got %s %d\n%s", r.Status, r.Passed, r.Output)
	}
	if strings.Join(r.Run.Pretest, " ") != "sh -c stamp built built.txt" {
		t.Errorf("pretest recorded as %q", r.Run.Pretest)
	}
	if _, err := os.Stat(filepath.Join(root, "packages/api/post.txt")); err == nil {
		t.Error("posttest ran: the tests went through the lifecycle")
	}

	// A failing pretest means the tests did not run: an error, not a pass.
	if err := os.WriteFile(filepath.Join(root, "packages/api/package.json"), []byte(`{"scripts":{"pretest":"exit 4","test":"node --test"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res = runPlan(t, root, []string{"packages/api"}, nil, nil, time.Minute)
	if r := res[0]; r.Status != StatusError || !strings.Contains(r.Output, "exited 4") {
		t.Fatalf("want error for a failing pretest, got %s\n%s", r.Status, r.Output)
	}
}

func TestRunTestsRunnerNotInstalled(t *testing.T) {
	root := writeTree(t, map[string]string{"package.json": `{}`, "vitest.config.ts": "export default {}"})
	plan, err := PlanTests(root, nil, []string{"."}, []string{"src/a.ts"}, false)
	if err != nil {
		t.Fatal(err)
	}
	res := RunTests(context.Background(), root, quietEnv(t), plan, nil, time.Minute, nil)
	if r := res[0]; r.Status != StatusError || !strings.Contains(r.Output, "vitest is not installed") {
		t.Fatalf("want an error naming vitest, got %s %q", r.Status, r.Output)
	}
}
