package typescript

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// benchPair is a mid-sized fixture: a class merged with a namespace,
// expanded anonymous objects and statics.
var benchPair = filepath.Join(pairsDir, "merged-class-namespace", "a")

// Cold: a new driver each time (node start, compiler load, lib parse) and
// one extraction.
func BenchmarkExtractSurfaceCold(b *testing.B) {
	c := pinnedCompiler(b)
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		a := New(c, Options{NoSurfaceCache: true})
		if _, err := a.ExtractSurface(ctx, benchPair, "pair-merged-class-namespace", "1.0.0"); err != nil {
			b.Fatal(err)
		}
		a.Close()
	}
}

// Warm: the driver is running; each extraction builds a program and walks it.
func BenchmarkExtractSurfaceWarm(b *testing.B) {
	a := New(pinnedCompiler(b), Options{NoSurfaceCache: true})
	defer a.Close()
	ctx := context.Background()
	if _, err := a.ExtractSurface(ctx, benchPair, "pair-merged-class-namespace", "1.0.0"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := a.ExtractSurface(ctx, benchPair, "pair-merged-class-namespace", "1.0.0"); err != nil {
			b.Fatal(err)
		}
	}
}

// Cached: the surface comes from the cache; the driver never starts.
func BenchmarkExtractSurfaceCached(b *testing.B) {
	c := pinnedCompiler(b)
	b.Setenv("UPTIDE_CACHE_DIR", b.TempDir())
	a := New(c, Options{})
	defer a.Close()
	ctx := context.Background()
	if _, err := a.ExtractSurface(ctx, benchPair, "pair-merged-class-namespace", "1.0.0"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := a.ExtractSurface(ctx, benchPair, "pair-merged-class-namespace", "1.0.0"); err != nil {
			b.Fatal(err)
		}
	}
}

// Stripe 14's declarations (about 4 MB of .d.ts), cold and from the cache.
// The package is not a fixture: extract stripe-14.25.0.tgz somewhere and
// point UPTIDE_BENCH_STRIPE at its package directory.
func BenchmarkStripeSurface(b *testing.B) {
	dir := os.Getenv("UPTIDE_BENCH_STRIPE")
	if dir == "" {
		b.Skip("set UPTIDE_BENCH_STRIPE to an extracted stripe@14 package directory")
	}
	c := pinnedCompiler(b)
	ctx := context.Background()
	b.Run("cold", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			a := New(c, Options{NoSurfaceCache: true})
			s, err := a.ExtractSurface(ctx, dir, "stripe", "14.25.0")
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(s.Symbols)), "symbols")
			// CPU seconds of the driver: wall time on a shared machine says
			// more about the neighbours than about extraction.
			p := a.proc
			a.Close()
			if st := p.cmd.ProcessState; st != nil {
				b.ReportMetric((st.UserTime() + st.SystemTime()).Seconds(), "driver-cpu-s")
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		b.Setenv("UPTIDE_CACHE_DIR", b.TempDir())
		a := New(c, Options{})
		defer a.Close()
		if _, err := a.ExtractSurface(ctx, dir, "stripe", "14.25.0"); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := a.ExtractSurface(ctx, dir, "stripe", "14.25.0"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
