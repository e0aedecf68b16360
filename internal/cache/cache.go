// Package cache owns the location of Uptide's on-disk cache: registry
// documents, tarballs, extracted surfaces and the pinned compiler all live
// under one root chosen here.
package cache

import (
	"errors"
	"os"
	"path/filepath"
)

// Root returns the cache root: UPTIDE_CACHE_DIR, else $XDG_CACHE_HOME/uptide,
// else ~/.cache/uptide. It does not create the directory.
func Root() (string, error) {
	if d := os.Getenv("UPTIDE_CACHE_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "uptide"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", errors.New("no cache directory: set UPTIDE_CACHE_DIR or HOME")
	}
	return filepath.Join(home, ".cache", "uptide"), nil
}

// Dir returns a sub-directory of the cache root, creating it.
func Dir(parts ...string) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	d := filepath.Join(append([]string{root}, parts...)...)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", err
	}
	return d, nil
}
