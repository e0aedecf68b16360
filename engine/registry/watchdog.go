package registry

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Clock is the time source of the client's limits. The system clock is the
// default; a test injects its own to move time forward without waiting.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed; stop
	// cancels it and reports whether it did so before f was called.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// watchdog enforces one attempt's limits and cancels it when one is
// broken: the headers within the attempt timeout, at least minRate bytes
// a second over every window of the body, and the whole request (retry
// included) within its budget. It remembers which limit it enforced.
type watchdog struct {
	clock    Clock
	cancel   context.CancelFunc
	window   time.Duration
	need     int64 // bytes per window
	minRate  int64
	budget   time.Duration
	attempt  time.Duration
	deadline time.Duration // what was left of the budget at the start

	mu       sync.Mutex
	stops    []func() bool
	bytes    int64 // received in the current window
	reason   string
	final    bool // the budget is spent: no retry
	finished bool
}

func (c *Client) newWatchdog(cancel context.CancelFunc, budget, remaining time.Duration) *watchdog {
	w := &watchdog{clock: c.clock, cancel: cancel, window: c.timeout, need: c.minRate * int64(c.timeout/time.Second),
		minRate: c.minRate, budget: budget, attempt: c.timeout, deadline: remaining}
	if w.need <= 0 {
		w.need = 1
	}
	if remaining <= 0 {
		w.fire(fmt.Sprintf("no complete answer within %s", budget), true)
		return w
	}
	w.arm(remaining, func() { w.fire(fmt.Sprintf("no complete answer within %s", budget), true) })
	if remaining < c.timeout {
		return w // the budget's end comes first
	}
	w.arm(c.timeout, func() { w.fire(fmt.Sprintf("no answer within %s", c.timeout), false) })
	return w
}

// arm schedules f; the caller holds no lock.
func (w *watchdog) arm(d time.Duration, f func()) {
	stop := w.clock.AfterFunc(d, f)
	w.mu.Lock()
	w.stops = append(w.stops, stop)
	w.mu.Unlock()
}

// headersArrived swaps the wait for headers for the rate check.
func (w *watchdog) headersArrived() {
	w.mu.Lock()
	if w.finished || w.reason != "" {
		w.mu.Unlock()
		return
	}
	// Only the budget's timer (the first) stays.
	if len(w.stops) > 1 {
		for _, stop := range w.stops[1:] {
			stop()
		}
		w.stops = w.stops[:1]
	}
	w.bytes = 0
	w.mu.Unlock()
	if w.deadline > w.window {
		w.arm(w.window, w.checkRate)
	}
}

func (w *watchdog) checkRate() {
	w.mu.Lock()
	got := w.bytes
	w.bytes = 0
	done := w.finished || w.reason != ""
	w.mu.Unlock()
	if done {
		return
	}
	if got < w.need {
		arrived := "nothing arrived"
		if got > 0 {
			arrived = fmt.Sprintf("%s arrived", formatBytes(got))
		}
		w.fire(fmt.Sprintf("no complete answer within %s: %s in %s, under the minimum of %s/s", w.window, arrived, w.window, formatBytes(w.minRate)), false)
		return
	}
	w.arm(w.window, w.checkRate)
}

func (w *watchdog) received(n int) {
	if n <= 0 {
		return
	}
	w.mu.Lock()
	w.bytes += int64(n)
	w.mu.Unlock()
}

func (w *watchdog) fire(reason string, final bool) {
	w.mu.Lock()
	if w.finished || w.reason != "" {
		w.mu.Unlock()
		return
	}
	w.reason, w.final = reason, final
	w.mu.Unlock()
	w.cancel()
}

// fired reports whether a limit canceled the attempt.
func (w *watchdog) fired() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.reason != ""
}

// verdict is the broken limit and whether the request may be retried.
func (w *watchdog) verdict() (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.reason, w.final
}

func (w *watchdog) stop() {
	w.mu.Lock()
	w.finished = true
	stops := w.stops
	w.stops = nil
	w.mu.Unlock()
	for _, stop := range stops {
		stop()
	}
}
