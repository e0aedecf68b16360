package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// completeMarker is the file a filled folder holds once it is whole.
const completeMarker = ".complete"

// Complete reports whether dir is a folder Fill finished.
func Complete(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, completeMarker))
	return err == nil
}

// Fill returns parent/label, filling it first through fill when it is not
// complete. fill writes into a temporary sibling that is renamed into
// place once whole, so no reader ever sees half of it. A complete copy
// another run put there meanwhile is kept and used, never replaced: that
// run may be executing from it (a compiler, a package manager).
func Fill(parent, label string, fill func(tmp string) error) (string, error) {
	if label == "" || label == "." || label == ".." || strings.ContainsAny(label, `/\`) {
		return "", fmt.Errorf("cache: %q is not a folder name", label)
	}
	dir := filepath.Join(parent, label)
	if Complete(dir) {
		return dir, nil
	}
	tmp, err := os.MkdirTemp(parent, label+".tmp-")
	if err != nil {
		return "", fmt.Errorf("cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := fill(tmp); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, completeMarker), nil, 0o644); err != nil {
		return "", fmt.Errorf("cache: %w", err)
	}
	// An empty folder an interrupted run left is replaced.
	_ = os.Remove(dir)
	err = os.Rename(tmp, dir)
	if err == nil || Complete(dir) {
		return dir, nil
	}
	// An incomplete folder with files in it (a crash before the marker
	// existed): nothing runs from it, so it is set aside for this one.
	aside := tmp + ".old"
	if os.Rename(dir, aside) == nil {
		defer os.RemoveAll(aside)
		if os.Rename(tmp, dir) == nil || Complete(dir) {
			return dir, nil
		}
	}
	return "", fmt.Errorf("cache: %w", err)
}
