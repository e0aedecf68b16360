package registryserver

import (
	"fmt"
	"io"
	"net/http"
	"testing"
)

// addSynthetic publishes n packages the size of a large monorepo's
// dependency set, each with a couple of versions and a dependency.
func addSynthetic(b *testing.B, reg *Registry, n int) {
	b.Helper()
	for i := range n {
		name := fmt.Sprintf("@bench/pkg-%04d", i)
		for _, v := range []string{"1.0.0", "1.1.0", "2.0.0"} {
			err := reg.Add(map[string]any{
				"name": name, "version": v,
				"dependencies": map[string]any{"@bench/pkg-0000": "^1.0.0"},
			}, map[string]string{"index.js": "module.exports = 1;\n", "index.d.ts": "export declare const x: number;\n"})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkAdd1500 is what a benchmark of the engine pays before it starts.
func BenchmarkAdd1500(b *testing.B) {
	for b.Loop() {
		reg, _ := New(nil)
		addSynthetic(b, reg, 1500)
	}
}

// BenchmarkFetch1500 fetches 1,500 abbreviated packuments over loopback HTTP
// with 16 concurrent clients, as the engine's discovery does; the first
// iteration packs the tarballs, the rest hit the document cache.
func BenchmarkFetch1500(b *testing.B) {
	reg, _ := New(nil)
	addSynthetic(b, reg, 1500)
	url, err := reg.Start()
	if err != nil {
		b.Fatal(err)
	}
	defer reg.Close()
	names := reg.Packages()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	for b.Loop() {
		work := make(chan string)
		errs := make(chan error, 16)
		for range 16 {
			go func() {
				for name := range work {
					req, _ := http.NewRequest(http.MethodGet, url+name, nil)
					req.Header.Set("Accept", abbreviatedType)
					res, err := client.Do(req)
					if err != nil {
						errs <- err
						return
					}
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				errs <- nil
			}()
		}
		for _, n := range names {
			work <- n
		}
		close(work)
		for range 16 {
			if err := <-errs; err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkPack(b *testing.B) {
	files := map[string][]byte{
		"package.json": []byte(`{"name":"x","version":"1.0.0"}`),
		"index.js":     []byte("module.exports = 1;\n"),
		"index.d.ts":   []byte("export declare const x: number;\n"),
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pack(files, nil); err != nil {
			b.Fatal(err)
		}
	}
}
