// Package testkit holds what tests of several packages share to run real
// tools: never imported by the binary.
package testkit

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptide/uptide/internal/cache"
)

// toolsMu serialises the fills of the tools folder within a test binary
// (cache.Fill serialises them across processes).
var toolsMu sync.Mutex

// tool is name@version kept in the tools folder of the cache, made once by
// fill into a temporary directory (given five minutes).
func tool(t testing.TB, name, version string, fill func(ctx context.Context, label, parent, tmp string) error) string {
	t.Helper()
	toolsMu.Lock()
	defer toolsMu.Unlock()
	parent, err := cache.Dir("tools")
	if err != nil {
		t.Fatal(err)
	}
	label := name + "@" + version
	dir, err := cache.Fill(parent, strings.ReplaceAll(label, "/", "+"), func(tmp string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		return fill(ctx, label, parent, tmp)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// NpmTool is name@version with its dependency tree (a test runner, a
// linter), installed once with the real npm (scripts off) into the tools
// folder of the cache, so later runs are offline. It returns the install
// prefix: the package is at <prefix>/node_modules/<name>.
func NpmTool(t testing.TB, name, version string) string {
	t.Helper()
	return tool(t, name, version, func(ctx context.Context, label, parent, tmp string) error {
		cmd := exec.CommandContext(ctx, "npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", tmp, label)
		cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("install %s once into %s with npm: %v\n%s", label, parent, err, out)
		}
		return nil
	})
}
