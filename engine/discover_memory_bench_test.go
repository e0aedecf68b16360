package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/internal/testkit/memtest"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// BenchmarkDiscoverMemory lists a repository of 100 direct dependencies
// with an empty cache while the registry sends some documents of 50 MB
// (each package's real versions plus about 38,000 generated ones): peak RSS
// and live heap of the whole discovery, registry server included (it
// streams, so it holds little), and how many packages were not checked
// because their documents would break the client's memory budget.
func BenchmarkDiscoverMemory(b *testing.B) {
	const deps = 100
	dir := b.TempDir()
	declared := map[string]string{}
	lock := map[string]any{"": map[string]any{"name": "mem", "dependencies": declared}}
	reg, err := testregistry.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	for p := range deps {
		name := fmt.Sprintf("pkg-%03d", p)
		declared[name] = "^1.0.0"
		lock["node_modules/"+name] = map[string]any{"version": "1.0.0"}
		for _, v := range []string{"1.0.0", "1.1.0", "2.0.0"} {
			m := map[string]any{"name": name, "version": v, "dependencies": map[string]any{"dep-a": "^1.0.0"}}
			if p%10 == 0 {
				m["peerDependencies"] = map[string]any{fmt.Sprintf("pkg-%03d", p+1): "^" + v}
			}
			if err := reg.Add(m, map[string]string{"index.js": "module.exports = 1;\n"}); err != nil {
				b.Fatal(err)
			}
		}
	}
	writeJSON := func(rel string, v any) {
		data, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	writeJSON("package.json", map[string]any{"name": "mem", "dependencies": declared})
	writeJSON("package-lock.json", map[string]any{"name": "mem", "lockfileVersion": 3, "requires": true, "packages": lock})
	url, err := reg.Start()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(reg.Close)
	cfg, err := registry.LoadConfig(dir, []string{"npm_config_registry=" + url, "HOME=" + b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		huge int
		gc   string
	}{{0, "list"}, {1, "list"}, {5, "list"}, {8, "list"}, {5, "default"}, {8, "default"}} {
		huge := tc.huge
		b.Run(fmt.Sprintf("huge=%d/gc=%s", huge, tc.gc), func(b *testing.B) {
			if tc.gc == "list" {
				// As `uptide list` runs (internal/cli listGCPercent);
				// "default" is GOGC=100.
				defer debug.SetGCPercent(debug.SetGCPercent(33))
			}
			for p := range deps {
				name := fmt.Sprintf("pkg-%03d", p)
				reg.Heal(name)
				if p < huge {
					reg.Misbehave(name, testregistry.Fault{Kind: testregistry.Huge, Size: 50 << 20})
				}
			}
			var peak memtest.Peak
			notChecked := 0
			for range b.N {
				cache := b.TempDir()
				p := memtest.Measure(func() {
					rep, err := Discover(context.Background(), DiscoverOptions{Cwd: dir, Client: registry.New(registry.Options{Config: cfg, CacheDir: cache})})
					if err != nil {
						b.Fatal(err)
					}
					if len(rep.Rows)+len(rep.NotChecked) < deps {
						b.Fatalf("incomplete: %d rows, not checked %+v", len(rep.Rows), rep.NotChecked)
					}
					notChecked = len(rep.NotChecked)
				})
				peak.RSS, peak.Heap = max(peak.RSS, p.RSS), max(peak.Heap, p.Heap)
			}
			b.ReportMetric(memtest.MB(peak.RSS), "peak-RSS-MB")
			b.ReportMetric(memtest.MB(peak.Heap), "peak-heap-MB")
			b.ReportMetric(float64(notChecked), "not-checked")
		})
	}
}
