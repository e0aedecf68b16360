package probe

import (
	"context"
	"testing"
)

// BenchmarkProbe is Signal C's cost for one package (both copies loaded:
// tintkit 4.1.2 installed, 5.3.0 fetched from the in-process registry,
// its tarball already in the registry client's cache): cold runs every
// load, cached reads both copies' results.
//
//	go test ./engine/probe -run '^$' -bench Probe -benchmem -benchtime 20x
func BenchmarkProbe(b *testing.B) {
	e := newTestEnv(b)
	repo := e.consumer(b, npmInstall(), "tintkit@4.1.2")
	for _, bc := range []struct {
		name    string
		noCache bool
	}{{"cold", true}, {"cached", false}} {
		b.Run(bc.name, func(b *testing.B) {
			req := e.request(b, repo, "tintkit", "4.1.2", "5.3.0")
			req.NoCache = bc.noCache
			if _, err := Run(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				res, err := Run(context.Background(), req)
				if err != nil || len(res.Changes) == 0 {
					b.Fatalf("%v, %d changes", err, len(res.Changes))
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}
