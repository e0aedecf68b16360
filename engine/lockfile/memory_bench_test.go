package lockfile

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/uptide/uptide/internal/testkit/memtest"
)

// BenchmarkLoadMemory loads generated package-lock.json files of 200 MB
// (v3, and v2 with its legacy tree) from disk, as list does: peak RSS and
// live heap against the file's size (the goal is at most twice it).
//
//	go test -run '^$' -bench LoadMemory -benchmem -benchtime 1x ./engine/lockfile
func BenchmarkLoadMemory(b *testing.B) {
	const size = 200 << 20
	for _, version := range []int{3, 2} {
		b.Run(fmt.Sprintf("npm-v%d-200MB", version), func(b *testing.B) {
			file := filepath.Join(b.TempDir(), "package-lock.json")
			data := genNPM(size, version)
			if err := os.WriteFile(file, data, 0o644); err != nil {
				b.Fatal(err)
			}
			name, v := benchPkg(3)
			data = nil
			runtime.GC()
			b.ResetTimer()
			var peak memtest.Peak
			cpu0 := cpuTime()
			for range b.N {
				p := memtest.Measure(func() {
					lf, err := Load(file)
					if err != nil {
						b.Fatal(err)
					}
					if got, ok := lf.Installed(".", name, "^"+v); !ok || got != v {
						b.Fatalf("Installed = %q, %v; want %s", got, ok, v)
					}
				})
				peak.RSS, peak.Heap = max(peak.RSS, p.RSS), max(peak.Heap, p.Heap)
			}
			// CPU time does not grow when other work shares the machine.
			b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(memtest.MB(peak.RSS), "peak-RSS-MB")
			b.ReportMetric(memtest.MB(peak.Heap), "peak-heap-MB")
			b.ReportMetric(float64(peak.RSS)/size, "RSS/file")
		})
	}
}
