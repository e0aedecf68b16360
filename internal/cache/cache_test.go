package cache

import (
	"path/filepath"
	"testing"
)

func TestRootPrecedence(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("UPTIDE_CACHE_DIR", filepath.Join(tmp, "explicit"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(tmp, "xdg"))
	if got, _ := Root(); got != filepath.Join(tmp, "explicit") {
		t.Fatalf("UPTIDE_CACHE_DIR not honoured: %s", got)
	}
	t.Setenv("UPTIDE_CACHE_DIR", "")
	if got, _ := Root(); got != filepath.Join(tmp, "xdg", "uptide") {
		t.Fatalf("XDG_CACHE_HOME not honoured: %s", got)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", filepath.Join(tmp, "home"))
	if got, _ := Root(); got != filepath.Join(tmp, "home", ".cache", "uptide") {
		t.Fatalf("HOME fallback wrong: %s", got)
	}
	d, err := Dir("a", "b")
	if err != nil || d != filepath.Join(tmp, "home", ".cache", "uptide", "a", "b") {
		t.Fatalf("Dir: %s %v", d, err)
	}
}
