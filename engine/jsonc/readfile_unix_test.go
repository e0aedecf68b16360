//go:build unix

package jsonc

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A named pipe is refused at once, named, instead of blocking the read
// until something writes to it; a regular file is read and stripped.
func TestReadFileOnlyRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "base.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(fifo); err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("ReadFile(fifo) = %v, want an error naming the file as a named pipe", err)
	}
	if _, err := ReadFile(dir); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("ReadFile(dir) = %v", err)
	}
	regular := filepath.Join(dir, "tsconfig.json")
	if err := os.WriteFile(regular, []byte(`{"a": 1, // one
}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(regular); err != nil || string(data) != `{"a": 1        `+"\n}" {
		t.Errorf("ReadFile(regular) = %q, %v", data, err)
	}
}
