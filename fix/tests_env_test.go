package fix

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/uptide/uptide/fix/managers"
	"github.com/uptide/uptide/fix/verify"
	"github.com/uptide/uptide/internal/proc"
	"github.com/uptide/uptide/internal/testkit"
)

// A test script that runs yarn in a Yarn 2+ repository must not meet Yarn
// 1's YARN_IGNORE_SCRIPTS: Yarn 4.5 stops every command on it ("Unrecognized
// or legacy configuration settings found: ignoreScripts"), so the tests
// would fail for a reason that is the run's own. Scripts stay off through
// YARN_ENABLE_SCRIPTS, which the same yarn reads.
func TestTestsRunWithTheManagersEnvironment(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches yarn 4.5.3 once")
	}
	yarnJS := filepath.Join(testkit.Pinned(t, "@yarnpkg/cli-dist", "4.5.3"), "bin", "yarn.js")
	root := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name":"berry-app","private":true,"packageManager":"yarn@4.5.3"}`)
	write(".yarnrc.yml", "nodeLinker: node-modules\n")
	berry, ok := managers.ByName("yarn-berry")
	if !ok {
		t.Fatal("no yarn-berry manager")
	}
	env := proc.Quiet(os.Environ(), t.TempDir())
	r := &runner{croot: root, env: env, manager: &managers.Detected{Manager: berry}}
	tp := &verify.TestPlan{Runs: []verify.TestRun{{
		Workspaces: []string{"."}, Dir: ".", Scope: "root test script", Runner: "script",
		Command: []string{"node", yarnJS, "config", "get", "enableScripts"},
	}}}
	res := r.runTests(context.Background(), tp, nil)
	if len(res) != 1 {
		t.Fatalf("%d results, want 1", len(res))
	}
	if res[0].Status != verify.StatusPassed && res[0].Status != verify.StatusNoTests {
		t.Fatalf("yarn 4.5.3 in the test script: %s\n%s", res[0].Status, res[0].Output)
	}
}
