package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// The end-to-end tests run the real binary, built once, against copies of
// the fixture repositories and the in-process test registry.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// TestMain removes the binary's temporary directory after the tests, and
// first the directories of earlier runs that ended before theirs could (a
// -timeout panic or a kill skips the removal below).
func TestMain(m *testing.M) {
	removeStaleBinaries(os.TempDir(), time.Now().Add(-2*time.Hour))
	code := m.Run()
	if binPath != "" {
		_ = os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// removeStaleBinaries deletes the uptide-bin-* directories older than
// before; a younger one may belong to a test run going on beside this one.
func removeStaleBinaries(tmp string, before time.Time) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, "uptide-bin-*"))
	for _, d := range dirs {
		if info, err := os.Stat(d); err == nil && info.IsDir() && info.ModTime().Before(before) {
			_ = os.RemoveAll(d)
		}
	}
}

func uptideBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "uptide-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "uptide")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building uptide: %v", buildErr)
	}
	return binPath
}

// startRegistry serves fixtures/registry on a loopback port.
func startRegistry(t testing.TB) *testregistry.Registry {
	t.Helper()
	reg, err := testregistry.New(os.DirFS("../../fixtures/registry"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	return reg
}

// copyRepo copies a fixture repository into a temporary directory.
func copyRepo(t testing.TB, name string) string {
	t.Helper()
	return copyDir(t, filepath.Join("../../fixtures/repos", name))
}

// copyDir copies a fixture directory into a temporary directory of the
// same base name.
func copyDir(t testing.TB, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	copyTree(t, src, dst)
	return dst
}

// copyTree copies the files below src to dst.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if info, err := d.Info(); err == nil && info.Mode()&0o111 != 0 {
			mode = 0o755 // a native compiler's binary
		}
		return os.WriteFile(target, data, mode)
	})
	if err != nil {
		t.Fatal(err)
	}
}

type result struct {
	stdout, stderr string
	code           int
}

// env is an isolated environment: no user .npmrc, a private cache, the
// test registry as the default registry.
type env struct {
	home, cache, registry string
	// extra are more variables, set last (a PATH with pinned managers).
	extra []string
}

func newEnv(t testing.TB, reg *testregistry.Registry) env {
	return env{home: t.TempDir(), cache: t.TempDir(), registry: reg.URL()}
}

func (e env) vars() []string {
	var out []string
	for _, kv := range os.Environ() {
		k := strings.ToLower(strings.SplitN(kv, "=", 2)[0])
		if strings.HasPrefix(k, "npm_config_") || k == "home" || k == "uptide_cache_dir" || k == "xdg_cache_home" || k == "no_color" {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "HOME="+e.home, "UPTIDE_CACHE_DIR="+e.cache, "npm_config_registry="+e.registry, "NO_COLOR=1")
	return append(out, e.extra...)
}

// compiling are the commands that run the TypeScript compiler for real.
var compiling = map[string]bool{"check": true, "diff": true, "fix": true, "verify": true}

// skipShort skips, under -short (the fast lane), a test that installs,
// clones or compiles for real.
func skipShort(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: %s for real", what)
	}
}

func run(t testing.TB, e env, dir string, args ...string) result {
	t.Helper()
	return runBinary(t, uptideBinary(t), e, dir, args...)
}

// runBinary runs a given build of uptide as run runs the test's.
func runBinary(t testing.TB, bin string, e env, dir string, args ...string) result {
	t.Helper()
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			if compiling[a] {
				skipShort(t, "uptide "+a+" compiles")
			}
			break
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--cwd", dir}, args...)...)
	cmd.Env = e.vars()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running uptide: %v", err)
	}
	return r
}

// envelope is the --json output, decoded loosely enough to assert on.
type envelope struct {
	SchemaVersion int             `json:"schemaVersion"`
	Command       string          `json:"command"`
	Data          json.RawMessage `json:"data"`
	ExitCode      int             `json:"exitCode"`
	Warnings      []string        `json:"warnings"`
}

func decode(t testing.TB, r result, into any) envelope {
	t.Helper()
	var env envelope
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
		t.Fatalf("stdout is not a JSON envelope: %v\n%s\nstderr: %s", err, r.stdout, r.stderr)
	}
	if env.ExitCode != r.code {
		t.Errorf("envelope exitCode %d, process exited %d", env.ExitCode, r.code)
	}
	if into != nil {
		if err := json.Unmarshal(env.Data, into); err != nil {
			t.Fatal(err)
		}
	}
	return env
}
