//go:build unix

package typescript

import (
	"context"
	"encoding/json"
	"errors"
	"syscall"
	"testing"
	"time"
)

// Closing the driver ends what it started: the whole process group goes.
func TestDriverCloseLeavesNoOrphans(t *testing.T) {
	p := startFake(t)
	raw, err := p.call(context.Background(), "child", nil, 30*time.Second, "x")
	if err != nil {
		t.Fatal(err)
	}
	var child struct {
		PID int `json:"pid"`
	}
	if err := json.Unmarshal(raw, &child); err != nil || child.PID == 0 {
		t.Fatalf("child pid: %s %v", raw, err)
	}
	if err := syscall.Kill(child.PID, 0); err != nil {
		t.Fatalf("child not running before close: %v", err)
	}
	p.close()
	// The killed child is reaped by init; give it a moment to disappear.
	for i := 0; i < 200; i++ {
		if err := syscall.Kill(child.PID, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("child %d outlived the driver", child.PID)
}
