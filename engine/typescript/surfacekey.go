package typescript

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// packageDigest identifies what a surface is extracted from: the paths of
// the package's files (entry points are found by what exists next to what)
// and the contents of its manifests and TypeScript files (what the driver
// reads). A registry mirror that serves other bytes under the same version,
// or a local package rebuilt without a version bump, is then another cache
// entry, while the same tarball installed in two repositories is one. The
// package's own node_modules are its dependencies', not its surface.
func packageDigest(pkgDir string) (string, error) {
	root, err := filepath.EvalSymlinks(pkgDir)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			if d.Name() == "node_modules" && p != root {
				return filepath.SkipDir
			}
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			fmt.Fprintf(h, "L %s\x00%s\x00", rel, target)
			return nil
		case !d.Type().IsRegular():
			return nil
		}
		if !readForSurface(d.Name()) {
			fmt.Fprintf(h, "F %s\x00", rel)
			return nil
		}
		return hashFile(h, rel, p)
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// readForSurface: the files whose text the surface comes from.
func readForSurface(name string) bool {
	if name == "package.json" {
		return true
	}
	for _, ext := range []string{".ts", ".mts", ".cts", ".tsx"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

func hashFile(h hash.Hash, rel, p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "C %s\x00%d\x00", rel, info.Size())
	_, err = io.Copy(h, f)
	return err
}
