package verify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The default run goes through a generated configuration that imports the
// repository's own, leaves out the integration test and removes the global
// setup that imports pg (not installed here: had it run, vitest would fail
// to load it), and is deleted after the run.
func TestRunTestsVitestWithoutServices(t *testing.T) {
	needNode(t)
	root := writeTree(t, map[string]string{
		"package.json": `{"name":"r","type":"module"}`,
		"vitest.config.ts": `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { globalSetup: ['./test/global-setup.ts'], include: ['**/*.test.ts'] } });
`,
		"test/global-setup.ts":       "import pg from 'pg';\nexport default async () => { await new pg.Client().connect(); };\n",
		"src/sum.ts":                 "export const sum = (a: number, b: number) => a + b;\n",
		"src/sum.test.ts":            "import { expect, test } from 'vitest';\nimport { sum } from './sum';\ntest('sum', () => expect(sum(1, 2)).toBe(3));\ntest('sum0', () => expect(sum(0, 2)).toBe(2));\n",
		"src/lonely.ts":              "export const lonely = 1;\n",
		"src/db.integration.test.ts": "import { test } from 'vitest';\nimport { sum } from './sum';\ntest('db', () => { throw new Error('needs a database ' + sum(1, 1)); });\n",
		"src/flaky.test.ts":          "import { test } from 'vitest';\nimport { existsSync, writeFileSync } from 'node:fs';\ntest('flaky', () => { if (!existsSync('.flaky')) { writeFileSync('.flaky', ''); throw new Error('ECONNRESET'); } });\n",
	})
	installVitest(t, root)
	env := quietEnv(t)
	ctx := context.Background()

	plan, err := PlanTests(root, nil, []string{"."}, []string{"src/sum.ts"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Runs) != 1 || plan.Runs[0].Generated == "" || len(plan.Skipped) != 2 {
		t.Fatalf("plan: %+v", plan)
	}
	res := RunTests(ctx, root, env, plan, []string{"src/sum.ts"}, 2*time.Minute, nil)
	r := res[0]
	if r.Status != StatusPassed || r.Passed != 2 || r.Failed != 0 {
		t.Fatalf("want passed 2/0, got %s %d/%d\n%s", r.Status, r.Passed, r.Failed, r.Output)
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(r.Run.Generated))); !os.IsNotExist(err) {
		t.Errorf("the generated configuration %s was left behind", r.Run.Generated)
	}

	// With services the repository's configuration runs as it is: the setup
	// is loaded (and fails, pg is not installed), the integration test runs.
	plan, err = PlanTests(root, nil, []string{"."}, []string{"src/sum.ts"}, true)
	if err != nil {
		t.Fatal(err)
	}
	res = RunTests(ctx, root, env, plan, []string{"src/sum.ts"}, 2*time.Minute, nil)
	if r := res[0]; r.Status == StatusPassed || r.Rerun {
		t.Fatalf("with services the pg setup should have run and failed: %s\n%s", r.Status, r.Output)
	}

	// A related run that finds no test is no tests, never a pass.
	plan, _ = PlanTests(root, nil, []string{"."}, []string{"src/lonely.ts"}, false)
	res = RunTests(ctx, root, env, plan, []string{"src/lonely.ts"}, 2*time.Minute, nil)
	if r := res[0]; r.Status != StatusNoTests {
		t.Fatalf("want no-tests, got %s\n%s", r.Status, r.Output)
	}

	// A failure in an unrelated test (flaky.test.ts imports nothing the
	// migration touched) is re-run once, named from vitest's FAIL line.
	plan, _ = PlanTests(root, nil, []string{"."}, nil, false)
	res = RunTests(ctx, root, env, plan, []string{"src/sum.ts"}, 2*time.Minute, nil)
	r = res[0]
	if r.Status != StatusPassed || !r.Rerun || strings.Join(r.FirstFailing, ",") != "src/flaky.test.ts" {
		t.Fatalf("want a recorded re-run of src/flaky.test.ts, got %s rerun=%v first=%v\n%s", r.Status, r.Rerun, r.FirstFailing, r.Output)
	}
}
