// Package memtest measures the memory a piece of work takes, for the
// benchmarks that record it in BENCHMARKS.md: the peak resident set of the
// process (Linux's VmHWM, reset before the work) and the peak of live heap
// objects, sampled while the work runs.
package memtest

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Peak is what Measure saw.
type Peak struct {
	RSS  int64 // bytes; 0 where the kernel does not report it
	Heap int64 // bytes of live heap objects, sampled every millisecond
}

// Measure runs work after a GC that returns free memory to the system,
// and returns its memory peaks. The RSS peak is the whole process's, so a
// benchmark must keep other work (a test server) small.
func Measure(work func()) Peak {
	debug.FreeOSMemory()
	resetHWM()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var mu sync.Mutex
	var heapPeak int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if v := int64(sample[0].Value.Uint64()); v > 0 {
				mu.Lock()
				heapPeak = max(heapPeak, v)
				mu.Unlock()
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	work()
	close(stop)
	<-done
	metrics.Read(sample)
	mu.Lock()
	defer mu.Unlock()
	return Peak{RSS: readHWM(), Heap: max(heapPeak, int64(sample[0].Value.Uint64()))}
}

// resetHWM makes the kernel forget the process's peak RSS ("5" to
// clear_refs, Linux 4.0 and later).
func resetHWM() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

func readHWM() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// MB is bytes in mebibytes, for b.ReportMetric.
func MB(n int64) float64 { return float64(n) / (1 << 20) }
