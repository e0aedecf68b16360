package event

import "time"

// Timer records phase durations when asked to.
type Timer struct {
	into map[Phase]time.Duration
	last time.Time
}

// NewTimer starts timing into the map; a nil map times nothing.
func NewTimer(into map[Phase]time.Duration) *Timer { return &Timer{into: into, last: time.Now()} }

// Done ends phase p, which began where the last phase ended.
func (t *Timer) Done(p Phase) {
	now := time.Now()
	if t.into != nil {
		t.into[p] += now.Sub(t.last)
	}
	t.last = now
}
