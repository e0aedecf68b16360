package term

import (
	"bytes"
	"strings"
	"testing"

	"github.com/uptide/uptide/internal/environ"
)

func TestDecideWithoutTerminal(t *testing.T) {
	var out, errb bytes.Buffer
	s := Decide(&out, &errb, false, false, environ.Env{"COLUMNS="})
	if s.Color || s.Progress {
		t.Errorf("a buffer is not a terminal: %+v", s)
	}
	if s.Width != 160 {
		t.Errorf("width without a terminal = %d, want 160", s.Width)
	}
	if s := Decide(&out, &errb, false, false, environ.Env{"COLUMNS=90"}); s.Width != 90 {
		t.Errorf("COLUMNS not honoured: %d", s.Width)
	}
}

func TestProgress(t *testing.T) {
	var b bytes.Buffer
	off := NewProgress(&b, false)
	off.Update(true, "registry %d/%d", 1, 2)
	off.Clear()
	if b.Len() != 0 {
		t.Fatalf("a disabled progress line wrote %q", b.String())
	}
	on := NewProgress(&b, true)
	on.Update(true, "registry %d/%d", 1, 2)
	on.Update(false, "registry %d/%d", 2, 2) // within 50 ms: skipped
	on.Update(true, "registry %d/%d", 2, 2)
	on.Clear()
	got := b.String()
	if strings.Count(got, "registry") != 2 || !strings.HasSuffix(got, "\r\x1b[2K") || !strings.Contains(got, "registry 2/2") {
		t.Errorf("progress output %q", got)
	}
}
