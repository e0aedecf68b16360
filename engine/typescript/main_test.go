package typescript

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/uptide/uptide/internal/testkit/realfetch"
)

// The pinned compiler comes from the real registry, once: it
// lands in the shared cache and later runs are offline.
var (
	pinnedOnce sync.Once
	pinned     *Compiler
	pinnedErr  error
	// registryFetch fetches from the real registry, its integrity
	// verified; the extracted copies are removed when the tests end.
	registryFetch, removeFetched = realfetch.New()

	sharedOnce sync.Once
	shared     *Adapter
)

func TestMain(m *testing.M) {
	code := m.Run()
	if shared != nil {
		shared.Close()
	}
	removeFetched()
	os.Exit(code)
}

// requireNode fails (never skips) when node is missing or too old; under
// -short (the fast lane) it skips, as every test that runs the driver
// compiles for real.
func requireNode(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: runs the TypeScript driver")
	}
	if _, _, err := findNode(context.Background()); err != nil {
		t.Fatalf("these tests run the TypeScript driver: %v", err)
	}
}

func pinnedCompiler(t testing.TB) *Compiler {
	t.Helper()
	requireNode(t)
	pinnedOnce.Do(func() {
		pinned, pinnedErr = PinnedCompiler(context.Background(), registryFetch, nil)
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

// Older compilers the driver supports as a repository's own: every minor
// the API changed shape in (4.5 the oldest, 4.7 node16 and resolution
// modes, 4.9 satisfies, 5.0 bundler and const type parameters, 5.4, 5.9).
var supportedVersions = []string{"4.5.5", "4.7.4", "4.9.5", "5.0.4", "5.4.5", "5.9.3"}

var (
	cachedMu        sync.Mutex
	cachedCompilers = map[string]*Compiler{}
)

// cachedCompiler returns typescript@version from the compiler cache,
// fetched from the real registry the first time, like the pinned one.
func cachedCompiler(t testing.TB, version string) *Compiler {
	t.Helper()
	requireNode(t)
	cachedMu.Lock()
	defer cachedMu.Unlock()
	if c, ok := cachedCompilers[version]; ok {
		return c
	}
	c, err := CachedCompiler(context.Background(), version, registryFetch, nil)
	if err != nil {
		t.Fatalf("typescript@%s: %v", version, err)
	}
	cachedCompilers[version] = c
	return c
}
