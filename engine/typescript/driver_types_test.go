package typescript

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/uptide/uptide/internal/testkit"
)

// nodeTypes are Node's typings for minNodeMajor, so the driver cannot call
// an API the oldest supported Node lacks without this test saying so.
const nodeTypes = "18.19.130"

// The driver's JavaScript type-checks (driver/jsconfig.json: checkJs,
// strict) under the pinned compiler, its whole package (tsc and the typings
// the compiler cache's trimmed copy leaves out): a JSDoc type that no longer matches
// the code, or a compiler API that does not exist, fails here rather than
// in a user's run.
func TestDriverTypeChecks(t *testing.T) {
	requireNode(t)
	node, _, err := findNode(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tsc := testkit.Pinned(t, PinnedName, PinnedVersion)
	types := testkit.NpmTool(t, "@types/node", nodeTypes)
	driver, err := filepath.Abs("driver")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := json.Marshal(map[string]any{
		"extends": filepath.Join(driver, "jsconfig.json"),
		"compilerOptions": map[string]any{
			"typeRoots": []string{filepath.Join(types, "node_modules", "@types")},
			"paths":     map[string][]string{"typescript": {filepath.Join(tsc, "lib", "typescript.d.ts")}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	tsconfig := filepath.Join(t.TempDir(), "tsconfig.json")
	if err := os.WriteFile(tsconfig, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, filepath.Join(tsc, "lib", "tsc.js"), "-p", tsconfig).CombinedOutput()
	if err != nil {
		t.Fatalf("tsc %s (checkJs over driver/*.js): %v\n%s", PinnedVersion, err, out)
	}
}
