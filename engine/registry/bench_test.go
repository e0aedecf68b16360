package registry

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

// BenchmarkPackuments fetches N packuments through a registry that adds
// 50 ms to every answer, at the default concurrency of 16: the wall time
// should approach ceil(N/16) × 50 ms. "cold" has an empty cache, "revalidate"
// answers every request with 304 from the ETag cache.
func BenchmarkPackuments(b *testing.B) {
	const latency = 50 * time.Millisecond
	for _, n := range []int{16, 64, 256} {
		for _, mode := range []string{"cold", "revalidate"} {
			b.Run(fmt.Sprintf("%s/N=%d", mode, n), func(b *testing.B) {
				reg := newFakeRegistry(b)
				reg.before = func(w http.ResponseWriter, r *http.Request) bool {
					time.Sleep(latency)
					return false
				}
				names := make([]string, n)
				for i := range names {
					names[i] = fmt.Sprintf("pkg-%03d", i)
					for _, v := range []string{"1.0.0", "1.1.0", "2.0.0"} {
						reg.add(names[i], v, &fakeVersion{tgz: []byte("x"), deps: map[string]string{"dep-a": "^1.0.0", "dep-b": "~2.3.0"}})
					}
				}
				cfg := testConfig(b, "registry="+reg.URL())
				warm := b.TempDir()
				if mode == "revalidate" {
					fetchAll(b, testClient(b, cfg, warm), names)
				}
				b.ResetTimer()
				for range b.N {
					dir := warm
					if mode == "cold" {
						b.StopTimer()
						dir = b.TempDir()
						b.StartTimer()
					}
					fetchAll(b, testClient(b, cfg, dir, func(o *Options) { o.Concurrency = DefaultConcurrency }), names)
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "packuments/s")
			})
		}
	}
}

func fetchAll(b *testing.B, c *Client, names []string) {
	var wg sync.WaitGroup
	for _, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Packument(context.Background(), name, false); err != nil {
				b.Error(err)
			}
		}()
	}
	wg.Wait()
}
