package registry

import (
	"context"
	"os"
	"testing"

	"github.com/uptide/uptide/internal/testkit/memtest"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// BenchmarkHugePackument fetches and decodes one 50 MB document (the
// package's real versions plus generated ones, streamed by the test
// registry) with an empty cache: the peak RSS and live heap are what one
// huge packument costs the process.
func BenchmarkHugePackument(b *testing.B) {
	reg, err := testregistry.New(os.DirFS("../../fixtures/registry"))
	if err != nil {
		b.Fatal(err)
	}
	url, err := reg.Start()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(reg.Close)
	reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.Huge, Size: 50 << 20})
	cfg := testConfig(b, "registry="+url)
	for _, full := range []bool{false, true} {
		name := "abbreviated"
		if full {
			name = "full"
		}
		b.Run(name, func(b *testing.B) {
			var peak memtest.Peak
			for range b.N {
				c := testClient(b, cfg, b.TempDir())
				p := memtest.Measure(func() {
					if _, err := c.Packument(context.Background(), "zod", full); err != nil {
						b.Fatal(err)
					}
				})
				peak.RSS, peak.Heap = max(peak.RSS, p.RSS), max(peak.Heap, p.Heap)
			}
			b.ReportMetric(memtest.MB(peak.RSS), "peak-RSS-MB")
			b.ReportMetric(memtest.MB(peak.Heap), "peak-heap-MB")
		})
	}
}
