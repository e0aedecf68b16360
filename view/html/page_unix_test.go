//go:build unix

package html_test

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/uptide/uptide/view/html"
)

// A page to share is as readable as any file the user writes: the umask
// decides, not a temporary file's privacy.
func TestWriteFileKeepsTheUmask(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "r.html")
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	if err := html.WriteFile(ok, 0o666, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(ok); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("the page's mode: %v %v, want 0644", st, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("WriteFile left %v", entries)
	}
}
