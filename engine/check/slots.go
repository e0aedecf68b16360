package check

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/uptide/uptide/engine/event"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/typescript"
)

// Several units (plan --check's steps, check a b c) are analyzed at once,
// as many as the machine's memory and processors allow: each slot beyond
// the first runs a compiler driver of its own, which holds a parsed copy
// of the workspace's program, so a slot costs what the first driver holds
// once the shared baselines are compiled (measured, not guessed), twice
// over for the overlay's program beside the baseline's. Half the memory
// the system reports available is the budget; a system that does not say
// (or a run whose driver did not start) analyzes one unit at a time. The
// processors are the other budget: no more slots than GOMAXPROCS, nor
// than the processors the last minute's load average leaves idle, since
// a second driver parses the workspace again (about half as much CPU
// again on plan --check over 10 packages, BENCHMARKS.md), which a busy
// machine pays in wall time too. The reports are the same whatever the
// slots: each unit's is its own, and they are sorted at the end.

// slotKey carries the slot a unit is analyzed in, for judge.
type slotKey struct{}

func slotOf(ctx context.Context) int {
	if s, ok := ctx.Value(slotKey{}).(int); ok {
		return s
	}
	return 0
}

// maxSlots caps the slots (tests set it to compare one slot with several;
// 0 leaves it to the budget).
var maxSlots = 0

// slots is how many units run at once.
func (c *checker) slots(units int) int {
	n := min(units, runtime.GOMAXPROCS(0))
	if maxSlots > 0 {
		return min(units, maxSlots)
	}
	if load, ok := loadAverage(); ok {
		n = min(n, int(float64(runtime.NumCPU())-load+0.5))
	}
	if n <= 1 {
		return 1
	}
	perSlot := int64(0)
	c.judgeMu.Lock()
	for _, a := range c.adapters {
		if rss, ok := a.MemoryInUse(); ok && rss > perSlot {
			perSlot = rss
		}
	}
	c.judgeMu.Unlock()
	avail, ok := typescript.ProcFileKB("/proc/meminfo", "MemAvailable:")
	if perSlot == 0 || !ok {
		return 1
	}
	return max(1, min(n, 1+int(avail/2/(2*perSlot))))
}

// analyzeAll analyzes the units, as many at once as slots allows, their
// companion plans made first (planEarly); the reports come in the units'
// order.
func (c *checker) analyzeAll(ctx context.Context, units []unit) []model.PackageReport {
	out := make([]model.PackageReport, len(units))
	if len(units) > 1 {
		// Callers' sinks and callbacks were written for one unit at a
		// time; the plans made early and several slots call them at once.
		var mu sync.Mutex
		if sink := c.opts.Events; sink != nil {
			c.opts.Events = func(e event.Event) {
				mu.Lock()
				defer mu.Unlock()
				sink(e)
			}
		}
		if planned := c.opts.Planned; planned != nil {
			c.opts.Planned = func(r model.PackageReport) {
				mu.Lock()
				defer mu.Unlock()
				planned(r)
			}
		}
		c.planEarly(ctx, units)
	}
	c.shareBaselines(ctx, units)
	n := c.slots(len(units))
	next := make(chan int)
	var started sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for s := range n {
		wg.Add(1)
		go func(sctx context.Context) {
			defer wg.Done()
			for i := range next {
				started.Lock()
				c.opts.Events.Emit(event.Event{Phase: event.PhaseUsages, Package: units[i].title(), Done: done, Total: len(units)})
				done++
				started.Unlock()
				out[i] = c.analyze(sctx, units[i])
			}
		}(context.WithValue(ctx, slotKey{}, s))
	}
feed:
	for i := range units {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	return out
}

// loadAverage is the last minute's load average (Linux's /proc/loadavg).
func loadAverage() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil
}
