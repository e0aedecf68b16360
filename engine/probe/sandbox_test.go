package probe

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
)

// hostilePort is where hostilekit tries to connect; the test listens there
// and counts what arrives.
const hostilePort = "127.0.0.1:47899"

// Every wall holds against a package that attacks at load: no file is
// written anywhere, no connection or lookup leaves, no process or worker
// starts, no signal is sent, the user's environment is not there, and
// nothing of the probe stays behind. The attempts the sandbox refused
// make the copy inconclusive.
func TestSandboxHoldsAgainstAHostilePackage(t *testing.T) {
	res := assertWallsHold(t, nil)
	if flag, _ := nodeOf(t, res).permissionFlag(); flag == "" {
		t.Errorf("Node %s ran the probe without a permission flag", res.Node.Version)
	}
}

// assertWallsHold loads hostilekit with the Node env's PATH finds (nil:
// the process's) and checks every wall held.
func assertWallsHold(t *testing.T, env []string) model.RuntimeResult {
	t.Helper()
	e := newTestEnv(t)
	ln, err := net.Listen("tcp", hostilePort)
	if err != nil {
		t.Fatalf("the test listens on %s to see whether the package reaches it: %v", hostilePort, err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	t.Setenv("UPTIDE_HOSTILE_SECRET", "a token the package must not see")
	markers := []string{filepath.Join(os.TempDir(), "uptide-hostilekit-PWNED"), filepath.Join(os.TempDir(), "uptide-hostilekit-SPAWNED")}
	for _, m := range markers {
		_ = os.Remove(m)
	}

	repo := e.consumer(t, npmInstall(), "hostilekit@1.0.0")
	req := e.request(t, repo, "hostilekit", "1.0.0", "1.0.0")
	req.Env = env
	res, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	dump, _ := json.MarshalIndent(res, "", "  ")
	attempts := []string{"write", "writetmp", "mkdir", "socket", "http", "fetch", "listen", "dns", "spawn", "worker", "kill", "readhome", "env"}
	for _, c := range []model.RuntimeCopy{res.Installed, res.Target} {
		v := c.Require.Value
		if v == nil {
			t.Fatalf("%s: hostilekit did not load: %s\n%s", c.Version, c.Inconclusive, dump)
		}
		for _, a := range attempts {
			if _, ok := v.Keys[a+"_succeeded"]; ok {
				t.Errorf("the sandbox let %s through", a)
			}
			if _, ok := v.Keys[a+"_denied"]; !ok {
				t.Errorf("no outcome for %s:\n%s", a, dump)
			}
		}
		if !strings.HasPrefix(c.Inconclusive, "the sandbox refused ") {
			t.Errorf("copy %s: inconclusive %q, want the sandbox's refusals", c.Version, c.Inconclusive)
		}
	}
	for _, want := range []string{"a network connection", "a DNS lookup", "a listening socket", "signalling a process"} {
		if !strings.Contains(res.Reason, want) {
			t.Errorf("reason %q does not name %s", res.Reason, want)
		}
	}
	if res.Status != model.RuntimeInconclusive || len(res.Changes) != 0 {
		t.Errorf("status %s with %d changes, want inconclusive and none", res.Status, len(res.Changes))
	}
	// Give a connection that slipped out time to arrive.
	time.Sleep(200 * time.Millisecond)
	if n := accepted.Load(); n != 0 {
		t.Errorf("%d connections reached %s", n, hostilePort)
	}
	for _, m := range append(markers, filepath.Join(repo, "node_modules", "hostilekit", "PWNED"), filepath.Join(repo, "PWNED-dir")) {
		if _, err := os.Stat(m); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s exists: the package wrote it", m)
		}
	}
	if left, _ := os.ReadDir(req.TempDir); len(left) != 0 {
		t.Errorf("the probe left %d entries in %s", len(left), req.TempDir)
	}
	if entries, _ := os.ReadDir(req.CacheDir); len(entries) != 0 {
		t.Errorf("a load the sandbox refused was cached: %v", entries)
	}
	return res
}

// nodeOf is the binary that ran a probe.
func nodeOf(t *testing.T, res model.RuntimeResult) nodeBinary {
	t.Helper()
	n, err := inspectNode(context.Background(), res.Node.Path)
	if err != nil {
		t.Fatalf("the Node that ran the probe (%+v): %v", res.Node, err)
	}
	return n
}

// A load that never returns is killed at the timeout with its process
// group, leaves nothing behind, and decides nothing.
func TestHangingLoadTimesOut(t *testing.T) {
	e := newTestEnv(t)
	repo := e.consumer(t, npmInstall(), "hangkit@1.0.0")
	req := e.request(t, repo, "hangkit", "1.0.0", "1.0.0")
	req.Timeout = time.Second
	res, err := Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != model.RuntimeInconclusive || res.Target.Inconclusive != "the load did not finish in time and was killed" || !res.Target.Require.TimedOut {
		t.Errorf("status %s, target %+v; want inconclusive by timeout", res.Status, res.Target)
	}
	if left, _ := os.ReadDir(req.TempDir); len(left) != 0 {
		t.Errorf("the probe left %d entries in %s", len(left), req.TempDir)
	}
	if entries, _ := os.ReadDir(req.CacheDir); len(entries) != 0 {
		t.Errorf("a load cut short was cached: %v", entries)
	}
}
