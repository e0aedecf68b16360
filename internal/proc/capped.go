package proc

import (
	"bytes"
	"sync"
)

// Capped is a writer for a child's output that keeps at most Max bytes
// (the first ones) and drops the rest, so a child that prints without end
// costs bounded memory. The child is never blocked: a full pipe would
// hang it. OnExceed, when set, is called once when the cap is passed (to
// stop a child whose output is only useful whole).
type Capped struct {
	Max      int
	OnExceed func()

	mu       sync.Mutex
	buf      bytes.Buffer
	exceeded bool
}

func (c *Capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	room := c.Max - c.buf.Len()
	if len(p) <= room {
		c.buf.Write(p)
		c.mu.Unlock()
		return len(p), nil
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
	first := !c.exceeded
	c.exceeded = true
	c.mu.Unlock()
	if first && c.OnExceed != nil {
		c.OnExceed()
	}
	return len(p), nil
}

// Exceeded says whether more than Max bytes were written.
func (c *Capped) Exceeded() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.exceeded
}

// Bytes is what was kept.
func (c *Capped) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.Bytes()
}

// String is what was kept.
func (c *Capped) String() string { return string(c.Bytes()) }
