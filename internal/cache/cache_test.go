package cache

import (
	"path/filepath"
	"testing"

	"github.com/uptide/uptide/internal/environ"
)

func TestRootPrecedence(t *testing.T) {
	tmp := t.TempDir()
	explicit, xdg, home := "UPTIDE_CACHE_DIR="+filepath.Join(tmp, "explicit"), "XDG_CACHE_HOME="+filepath.Join(tmp, "xdg"), "HOME="+filepath.Join(tmp, "home")
	if got, _ := RootOf(environ.Env{explicit, xdg, home}); got != filepath.Join(tmp, "explicit") {
		t.Fatalf("UPTIDE_CACHE_DIR not honoured: %s", got)
	}
	if got, _ := RootOf(environ.Env{"UPTIDE_CACHE_DIR=", xdg, home}); got != filepath.Join(tmp, "xdg", "uptide") {
		t.Fatalf("XDG_CACHE_HOME not honoured: %s", got)
	}
	if got, _ := RootOf(environ.Env{"XDG_CACHE_HOME=", home}); got != filepath.Join(tmp, "home", ".cache", "uptide") {
		t.Fatalf("HOME fallback wrong: %s", got)
	}
	if _, err := RootOf(nil); err == nil {
		t.Fatal("an empty environment has a cache root")
	}
	d, err := DirOf(environ.Env{home}, "a", "b")
	if err != nil || d != filepath.Join(tmp, "home", ".cache", "uptide", "a", "b") {
		t.Fatalf("DirOf: %s %v", d, err)
	}
}
