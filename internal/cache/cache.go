// Package cache owns the location of Uptide's on-disk cache: registry
// documents, tarballs, extracted surfaces and the pinned compiler all live
// under one root chosen here.
package cache

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/uptide/uptide/internal/environ"
)

// Root returns the cache root of this process's environment (RootOf).
func Root() (string, error) { return RootOf(environ.Process()) }

// RootOf returns the cache root env names: UPTIDE_CACHE_DIR, else
// $XDG_CACHE_HOME/uptide, else $HOME/.cache/uptide. It does not create the
// directory.
func RootOf(env environ.Env) (string, error) {
	if d := env.Get("UPTIDE_CACHE_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if d := env.Get("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "uptide"), nil
	}
	home := env.Get("HOME")
	if home == "" {
		return "", errors.New("no cache directory: set UPTIDE_CACHE_DIR or HOME")
	}
	return filepath.Join(home, ".cache", "uptide"), nil
}

// Dir returns a sub-directory of the cache root, creating it.
func Dir(parts ...string) (string, error) { return DirOf(environ.Process(), parts...) }

// DirOf is Dir under the cache root env names.
func DirOf(env environ.Env, parts ...string) (string, error) {
	root, err := RootOf(env)
	if err != nil {
		return "", err
	}
	d := filepath.Join(append([]string{root}, parts...)...)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", err
	}
	return d, nil
}
