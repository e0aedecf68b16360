package cache

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Fill fills once, keeps what another run completed while it filled (that
// run may be executing from it), and replaces only an incomplete folder.
func TestFill(t *testing.T) {
	parent := t.TempDir()
	calls := 0
	fill := func(tmp string) error {
		calls++
		return os.WriteFile(filepath.Join(tmp, "tool.js"), []byte("mine"), 0o644)
	}
	dir, err := Fill(parent, "tool@1.0.0", fill)
	if err != nil || !Complete(dir) || read(t, filepath.Join(dir, "tool.js")) != "mine" {
		t.Fatalf("Fill: %s, %v", dir, err)
	}
	if _, err := Fill(parent, "tool@1.0.0", fill); err != nil || calls != 1 {
		t.Fatalf("a complete folder was filled again (%d fills, %v)", calls, err)
	}

	// Another run completes the folder while this one fills: its copy stays.
	dir, err = Fill(parent, "tool@2.0.0", func(tmp string) error {
		other := filepath.Join(parent, "tool@2.0.0")
		if err := os.MkdirAll(other, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(other, "tool.js"), []byte("theirs"), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(other, completeMarker), nil, 0o644); err != nil {
			return err
		}
		return fill(tmp)
	})
	if err != nil || read(t, filepath.Join(dir, "tool.js")) != "theirs" {
		t.Fatalf("the other run's complete copy was replaced: %s, %v", dir, err)
	}

	// A folder without the marker is no copy: it is replaced.
	stale := filepath.Join(parent, "tool@3.0.0")
	if err := os.MkdirAll(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stale, "half.js"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err = Fill(parent, "tool@3.0.0", fill)
	if err != nil || read(t, filepath.Join(dir, "tool.js")) != "mine" {
		t.Fatalf("an incomplete folder was not replaced: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "half.js")); err == nil {
		t.Error("the incomplete folder's files survived")
	}

	// A failed fill leaves nothing, and a label is one folder.
	if _, err := Fill(parent, "tool@4.0.0", func(string) error { return errors.New("offline") }); err == nil {
		t.Error("a failed fill succeeded")
	}
	if _, err := os.Stat(filepath.Join(parent, "tool@4.0.0")); err == nil {
		t.Error("a failed fill left its folder")
	}
	for _, label := range []string{"", "..", "pnpm@../../x", `a\b`} {
		if _, err := Fill(parent, label, fill); err == nil {
			t.Errorf("label %q was taken", label)
		}
	}
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".0" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
