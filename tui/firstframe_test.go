package tui_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkFirstFrameDemo measures, from the moment `uptide demo` is
// started on a 120×36 pseudo-terminal, how long until the first frame is
// on screen (the title line), until the early rows show (before any
// registry answer is applied), and until discovery is done. Measured,
// never asserted: the numbers go to BENCHMARKS.md.
func BenchmarkFirstFrameDemo(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "uptide")
	build := exec.Command("go", "build", "-o", bin, "github.com/uptide/uptide/cmd/uptide")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		b.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home,
		"UPTIDE_CACHE_DIR=" + filepath.Join(dir, "cache"), "TMPDIR=" + dir}
	var frame, rows, done time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		term := startPTY(b, 120, 36, env, bin, "demo")
		var sawFrame, sawRows bool
		term.waitUntil("discovery", func(screen []string) bool {
			s := strings.Join(screen, "\n")
			if !sawFrame && strings.Contains(s, "uptide") && strings.Contains(s, "PACKAGE") {
				sawFrame = true
				frame += time.Since(start)
			}
			if !sawRows && strings.Contains(s, "react-dom") {
				sawRows = true
				rows += time.Since(start)
			}
			if strings.Contains(s, " behind, ") {
				done += time.Since(start)
				return true
			}
			return false
		})
		term.stop()
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(frame.Microseconds())/1000/n, "ms-first-frame")
	b.ReportMetric(float64(rows.Microseconds())/1000/n, "ms-first-rows")
	b.ReportMetric(float64(done.Microseconds())/1000/n, "ms-discovered")
}
