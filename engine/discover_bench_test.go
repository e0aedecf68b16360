package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

const (
	benchWorkspaces = 40
	benchPackages   = 500
	benchDecls      = 1500
	benchLatency    = 50 * time.Millisecond
	benchInFlight   = 16
)

// monorepo writes a generated npm workspace: 40 workspaces declaring 1,500
// dependencies on 500 registry packages, a lockfile v3 (some workspaces on
// nested versions), and a few source files per workspace.
func monorepo(b *testing.B) string {
	b.Helper()
	root := b.TempDir()
	write := func(rel string, v any) {
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		var data []byte
		switch x := v.(type) {
		case string:
			data = []byte(x)
		default:
			var err error
			if data, err = json.MarshalIndent(v, "", "  "); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	lock := map[string]any{}
	rootPkg := map[string]any{"name": "bench", "private": true, "workspaces": []string{"packages/*"}}
	lock[""] = map[string]any{"name": "bench", "workspaces": []string{"packages/*"}}
	for p := 0; p < benchPackages; p++ {
		lock[fmt.Sprintf("node_modules/pkg-%03d", p)] = map[string]any{"version": "1.0.0"}
	}
	per := benchDecls / benchWorkspaces
	for w := 0; w < benchWorkspaces; w++ {
		ws := fmt.Sprintf("packages/ws%02d", w)
		deps := map[string]string{}
		src := ""
		for i := 0; i < per; i++ {
			name := fmt.Sprintf("pkg-%03d", (w*per+i*7)%benchPackages)
			deps[name] = "^1.0.0"
			if (w+i)%5 == 0 {
				lock[ws+"/node_modules/"+name] = map[string]any{"version": "1.1.0"}
			}
			if i%4 == 0 {
				src += fmt.Sprintf("import x%d from '%s';\n", i, name)
			}
		}
		write(ws+"/package.json", map[string]any{"name": fmt.Sprintf("@bench/ws%02d", w), "version": "1.0.0", "dependencies": deps})
		write(ws+"/src/index.ts", src)
		lock[ws] = map[string]any{"name": fmt.Sprintf("@bench/ws%02d", w), "version": "1.0.0", "dependencies": deps}
		lock["node_modules/"+fmt.Sprintf("@bench/ws%02d", w)] = map[string]any{"resolved": ws, "link": true}
	}
	write("package.json", rootPkg)
	write("package-lock.json", map[string]any{"name": "bench", "lockfileVersion": 3, "requires": true, "packages": lock})
	return root
}

func benchRegistry(b *testing.B) *testregistry.Registry {
	b.Helper()
	reg, err := testregistry.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	for p := 0; p < benchPackages; p++ {
		for _, v := range []string{"1.0.0", "1.1.0", "2.0.0"} {
			m := map[string]any{"name": fmt.Sprintf("pkg-%03d", p), "version": v}
			if p%10 == 0 {
				// Some packages peer-depend on their neighbour, so groups
				// and companions have work to do.
				m["peerDependencies"] = map[string]any{fmt.Sprintf("pkg-%03d", p+1): "^" + v}
			}
			if err := reg.Add(m, map[string]string{"index.js": "module.exports = 1;\n"}); err != nil {
				b.Fatal(err)
			}
		}
	}
	if _, err := reg.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(reg.Close)
	reg.SetLatency(benchLatency)
	reg.SetMaxAge(300 * time.Second)
	return reg
}

func benchDiscover(b *testing.B, dir, url, cacheDir string) {
	b.Helper()
	cfg, err := registry.LoadConfig(dir, []string{"npm_config_registry=" + url, "HOME=" + b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	rep, err := Discover(context.Background(), DiscoverOptions{
		Cwd:    dir,
		Client: registry.New(registry.Options{Config: cfg, CacheDir: cacheDir}),
	})
	if err != nil {
		b.Fatal(err)
	}
	if len(rep.NotChecked) > 0 || len(rep.Rows) < benchPackages {
		b.Fatalf("incomplete: %d rows, %d not checked", len(rep.Rows), len(rep.NotChecked))
	}
}

// BenchmarkDiscoverMonorepoCold: every packument fetched through 50 ms of
// latency. The floor is the registry round trips at 16 in flight.
func BenchmarkDiscoverMonorepoCold(b *testing.B) {
	dir := monorepo(b)
	reg := benchRegistry(b)
	floor := time.Duration(math.Ceil(float64(benchPackages)/benchInFlight)) * benchLatency
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		benchDiscover(b, dir, reg.URL(), b.TempDir())
	}
	perOp := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(perOp)/float64(floor), "x-floor")
	b.ReportMetric(float64(floor.Milliseconds()), "floor-ms")
}

// BenchmarkDiscoverMonorepoWarm: the same with the packument cache primed
// by a previous run within the registry's max-age.
func BenchmarkDiscoverMonorepoWarm(b *testing.B) {
	dir := monorepo(b)
	reg := benchRegistry(b)
	cacheDir := b.TempDir()
	benchDiscover(b, dir, reg.URL(), cacheDir)
	reg.ResetRequests()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		benchDiscover(b, dir, reg.URL(), cacheDir)
	}
	b.StopTimer()
	if n := reg.Requests(); n != 0 {
		b.Fatalf("warm run made %d requests", n)
	}
}
