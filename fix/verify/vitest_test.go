package verify

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/internal/proc"
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

// The generated configuration, loaded by node against the real vitest
// package: the repository's own settings survive, service tests are
// excluded, the service setup is gone, other setups stay, and a project
// that only holds integration tests is dropped.
func TestGeneratedConfigLoads(t *testing.T) {
	needNode(t)
	root := writeTree(t, map[string]string{
		"package.json": `{"name":"r","type":"module"}`,
		"vitest.config.mjs": `export default async () => ({ test: {
  testTimeout: 1234,
  exclude: ['dist/**'],
  globalSetup: ['./test/db-setup.mjs', './test/clock.mjs'],
  setupFiles: './test/dom.mjs',
  projects: [{ test: { name: 'unit', include: ['src/**/*.test.ts'] } }, { test: { name: 'int', include: ['test/integration/**/*.test.ts', '**/*.e2e.test.ts'] } }],
} });
`,
		"test/db-setup.mjs":               "import pg from 'pg';\nexport default () => new pg.Client().connect();\n",
		"test/clock.mjs":                  "export default () => {};\n",
		"test/dom.mjs":                    "",
		"test/integration/orders.test.ts": "",
		"src/a.test.ts":                   "",
	})
	installVitest(t, root)
	plan, err := PlanTests(root, nil, []string{"."}, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	run := plan.Runs[0]
	if run.Generated == "" {
		t.Fatalf("no generated config: %+v", plan)
	}
	remove, err := writeGenerated(root, run)
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	if _, err := writeGenerated(root, run); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("a second write over the generated config: %v", err)
	}
	script := "const m = await import('./" + run.Generated + "'); console.log(JSON.stringify((await m.default({ mode: 'test' })).test));"
	res, err := proc.Run(context.Background(), proc.Cmd{Argv: []string{"node", "--input-type=module", "-e", script}, Dir: root, Env: quietEnv(t), Timeout: time.Minute})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("node could not load the generated config: %v\n%s", err, res.Output)
	}
	var got struct {
		TestTimeout int
		Exclude     []string
		GlobalSetup []string
		SetupFiles  []string
		Projects    []struct{ Test struct{ Name string } }
	}
	if err := json.Unmarshal([]byte(res.Output), &got); err != nil {
		t.Fatalf("%v: %s", err, res.Output)
	}
	var projects []string
	for _, p := range got.Projects {
		projects = append(projects, p.Test.Name)
	}
	if got.TestTimeout != 1234 || strings.Join(got.Exclude, ",") != "dist/**,test/integration/orders.test.ts" ||
		strings.Join(got.GlobalSetup, ",") != "./test/clock.mjs" || strings.Join(got.SetupFiles, ",") != "./test/dom.mjs" ||
		strings.Join(projects, ",") != "unit" {
		t.Fatalf("generated config resolved to %+v", got)
	}
}
