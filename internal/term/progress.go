package term

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Progress draws one live line on a terminal stream, rewriting it in place.
// A disabled Progress does nothing, so callers never branch on TTYs.
type Progress struct {
	mu      sync.Mutex
	w       io.Writer
	enabled bool
	last    time.Time
	shown   bool
}

// NewProgress returns a progress line on w, drawn only when enabled.
func NewProgress(w io.Writer, enabled bool) *Progress {
	return &Progress{w: w, enabled: enabled}
}

// Update redraws the line, at most every 50 ms unless force is set.
func (p *Progress) Update(force bool, format string, args ...any) {
	if p == nil || !p.enabled {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if !force && now.Sub(p.last) < 50*time.Millisecond {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, "\r\x1b[2K"+format, args...)
	p.shown = true
}

// Clear erases the line so the final output starts on a clean line.
func (p *Progress) Clear() {
	if p == nil || !p.enabled {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[2K")
		p.shown = false
	}
}
