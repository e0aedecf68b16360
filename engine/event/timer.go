package event

import (
	"sync"
	"time"
)

// Timer records phase durations when asked to. It is safe for concurrent
// use: check analyzes several packages at once, and each phase then ends
// where the last phase of any of them ended.
type Timer struct {
	mu   sync.Mutex
	into map[Phase]time.Duration
	last time.Time
}

// NewTimer starts timing into the map; a nil map times nothing.
func NewTimer(into map[Phase]time.Duration) *Timer { return &Timer{into: into, last: time.Now()} }

// Done ends phase p, which began where the last phase ended.
func (t *Timer) Done(p Phase) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	if t.into != nil {
		t.into[p] += now.Sub(t.last)
	}
	t.last = now
}
