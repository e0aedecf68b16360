package typescript

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/uptide/uptide/internal/cache"
)

//go:embed driver/*.js
var driverFiles embed.FS

// driverHash identifies the embedded driver's content, so a new build never
// runs a driver an older build left in the cache.
func driverHash() (string, error) {
	names, err := fs.Glob(driverFiles, "driver/*.js")
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		b, err := driverFiles.ReadFile(n)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// installDriver writes the embedded driver into the cache once per content
// hash and returns the path of its main.js. It writes into a temporary
// sibling and renames, so a concurrent run never sees half a driver.
func installDriver() (string, error) {
	hash, err := driverHash()
	if err != nil {
		return "", err
	}
	parent, err := cache.Dir("driver")
	if err != nil {
		return "", fmt.Errorf("driver cache: %w", err)
	}
	dir, err := cache.Fill(parent, hash, func(tmp string) error {
		names, _ := fs.Glob(driverFiles, "driver/*.js")
		for _, n := range names {
			b, err := driverFiles.ReadFile(n)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(tmp, filepath.Base(n)), b, 0o644); err != nil {
				return fmt.Errorf("driver cache: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "main.js"), nil
}
