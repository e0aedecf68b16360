package proc

import (
	"context"
	"strings"
	"testing"
)

// A child printing past the cap costs the cap, not what it printed; the
// first bytes are kept and OnExceed fires once.
func TestCappedKeepsTheStart(t *testing.T) {
	calls := 0
	c := &Capped{Max: 1 << 10, OnExceed: func() { calls++ }}
	res, err := Run(context.Background(), Cmd{Argv: []string{"sh", "-c", "echo start; yes x | head -c 1000000"}, Stdout: c})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%v %+v", err, res)
	}
	if !c.Exceeded() || calls != 1 || len(c.Bytes()) != 1<<10 || !strings.HasPrefix(c.String(), "start\n") {
		t.Fatalf("exceeded %v, OnExceed %d times, kept %d bytes", c.Exceeded(), calls, len(c.Bytes()))
	}
}
