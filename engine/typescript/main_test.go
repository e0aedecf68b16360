package typescript

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The pinned compiler comes from the real registry through npm, once: it
// lands in the shared cache and later runs are offline.
var (
	pinnedOnce sync.Once
	pinned     *Compiler
	pinnedErr  error
	tempDirs   []string

	sharedOnce sync.Once
	shared     *Adapter
)

func TestMain(m *testing.M) {
	code := m.Run()
	if shared != nil {
		shared.Close()
	}
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// requireNode fails (never skips) when node is missing or too old.
func requireNode(t testing.TB) {
	t.Helper()
	if _, _, err := findNode(context.Background()); err != nil {
		t.Fatalf("these tests run the TypeScript driver: %v", err)
	}
}

func pinnedCompiler(t testing.TB) *Compiler {
	t.Helper()
	requireNode(t)
	pinnedOnce.Do(func() {
		pinned, pinnedErr = PinnedCompiler(context.Background(), npmPackFetch, nil)
	})
	if pinnedErr != nil {
		t.Fatalf("pinned compiler: %v", pinnedErr)
	}
	return pinned
}

// newAdapter returns an adapter over the pinned compiler that never touches
// the surface cache (fixtures change under the same name and version).
func newAdapter(t testing.TB) *Adapter {
	t.Helper()
	a := New(pinnedCompiler(t), Options{NoSurfaceCache: true})
	t.Cleanup(func() { a.Close() })
	return a
}

// sharedAdapter is one driver for the tests that only read through it, so
// the suite starts node and loads the compiler a few times, not per test.
func sharedAdapter(t testing.TB) *Adapter {
	t.Helper()
	c := pinnedCompiler(t)
	sharedOnce.Do(func() { shared = New(c, Options{NoSurfaceCache: true}) })
	return shared
}

// npmPackFetch implements FetchFunc with `npm pack`, which verifies the
// tarball's integrity itself.
func npmPackFetch(ctx context.Context, name, version string) (string, error) {
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("npm is needed to fetch %s@%s for the tests: %w", name, version, err)
	}
	tmp, err := os.MkdirTemp("", "uptide-npm-pack-")
	if err != nil {
		return "", err
	}
	tempDirs = append(tempDirs, tmp)
	cmd := exec.CommandContext(ctx, "npm", "pack", name+"@"+version, "--pack-destination", tmp, "--json", "--ignore-scripts")
	cmd.Dir = tmp
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack %s@%s: %w", name, version, err)
	}
	var packed []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(out, &packed); err != nil || len(packed) != 1 {
		return "", fmt.Errorf("npm pack %s@%s: unexpected output %q", name, version, out)
	}
	dst := filepath.Join(tmp, "package")
	if err := extractTgz(filepath.Join(tmp, filepath.Base(packed[0].Filename)), dst); err != nil {
		return "", err
	}
	return dst, nil
}

func extractTgz(file, dst string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		_, rel, ok := strings.Cut(h.Name, "/")
		if !ok || !filepath.IsLocal(rel) {
			continue
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		w, err := os.Create(out)
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, io.LimitReader(tr, 256<<20)); err != nil {
			w.Close()
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
	}
}
