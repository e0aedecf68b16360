package registry

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// extractLimits bound what one tarball may unpack to; a package is
// megabytes, so these only stop hostile or broken archives.
type extractLimits struct {
	maxBytes   int64 // total size of the regular files
	maxEntries int   // entries of any kind
	// maxTypeFile and maxTypes bound the TypeScript (declarations, and
	// sources a compiler may read) in one file and in the package. The
	// compiler holds many times each byte it parses, so a declaration file
	// inflating inside maxBytes still takes the driver's heap; the limits
	// are well above the largest real packages (googleapis: 168 MB of
	// declarations, 11 MB in its largest file). Zero: no bound.
	maxTypeFile, maxTypes int64
}

var defaultExtractLimits = extractLimits{maxBytes: 512 << 20, maxEntries: 100_000, maxTypeFile: 32 << 20, maxTypes: 256 << 20}

// errUnsafeTarball marks a tarball refused for its content, as opposed to
// one that could not be read.
var errUnsafeTarball = errors.New("unsafe tarball")

// extractTarball unpacks a gzipped npm tarball into dest, which must exist.
// Only regular files and directories are written; links, devices and
// fifos are skipped. The first path segment (package/ in nearly every
// tarball, but whatever it is, as npm strips it) is dropped. An entry that
// is absolute or climbs with ".." fails the whole extraction: such a
// tarball is hostile, and partial trust is no trust.
func extractTarball(r io.Reader, dest string, lim extractLimits) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("not a gzip file: %w", err)
	}
	defer gz.Close()
	// Headers, padding and the data of skipped entries are bounded too,
	// or a small archive could make us inflate gigabytes.
	stream := &cappedReader{r: gz, left: lim.maxBytes + int64(lim.maxEntries)*1536 + 1<<20}
	tr := tar.NewReader(stream)
	var total, types int64
	for entries := 0; ; entries++ {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if errors.Is(err, errTooMuchData) {
				return fmt.Errorf("%w: more than %d MB once decompressed", errUnsafeTarball, lim.maxBytes>>20)
			}
			return fmt.Errorf("corrupt tarball: %w", err)
		}
		if entries >= lim.maxEntries {
			return fmt.Errorf("%w: more than %d entries", errUnsafeTarball, lim.maxEntries)
		}
		rel, err := entryPath(hdr.Name)
		if err != nil {
			return err
		}
		if rel == "" {
			continue
		}
		target := filepath.Join(dest, filepath.FromSlash(rel))
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return fmt.Errorf("tarball entry %q: %w", hdr.Name, unwrapPathError(err))
			}
		case tar.TypeReg, tar.TypeCont: // node-tar reads contiguous files as files too
			if hdr.Size < 0 || total+hdr.Size > lim.maxBytes {
				return fmt.Errorf("%w: more than %d MB of files", errUnsafeTarball, lim.maxBytes>>20)
			}
			total += hdr.Size
			if lim.maxTypeFile > 0 && typeScriptFile(rel) {
				if hdr.Size > lim.maxTypeFile {
					return fmt.Errorf("%w: %s is %s of TypeScript, more than the %s a file may have", errUnsafeTarball, rel, size(hdr.Size), size(lim.maxTypeFile))
				}
				if types += hdr.Size; types > lim.maxTypes {
					return fmt.Errorf("%w: more than %s of TypeScript in the package", errUnsafeTarball, size(lim.maxTypes))
				}
			}
			if err := writeEntry(target, hdr, tr); err != nil {
				if errors.Is(err, errTooMuchData) {
					return fmt.Errorf("%w: more than %d MB once decompressed", errUnsafeTarball, lim.maxBytes>>20)
				}
				return fmt.Errorf("tarball entry %q: %w", hdr.Name, err)
			}
		default:
			// Symlinks and hardlinks could point anywhere; npm packages
			// need neither for their declarations.
		}
	}
}

// size is n in whole megabytes, or bytes below one.
func size(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d MB", n>>20)
}

// typeScriptFile: a compiler reads the file as TypeScript (.d.ts, .ts and
// their module flavours, .tsx).
func typeScriptFile(rel string) bool {
	for _, ext := range []string{".ts", ".mts", ".cts", ".tsx"} {
		if strings.HasSuffix(rel, ext) {
			return true
		}
	}
	return false
}

// entryPath is the entry's path below the stripped top folder, "" for
// entries to skip (the top folder itself, files at the top level), or an
// error for an absolute or climbing path.
func entryPath(name string) (string, error) {
	clean := strings.ReplaceAll(name, "\\", "/") // a separator on Windows
	if strings.HasPrefix(clean, "/") || (len(clean) >= 2 && clean[1] == ':') || strings.ContainsRune(clean, 0) {
		return "", fmt.Errorf("%w: entry %q is an absolute path", errUnsafeTarball, name)
	}
	var segs []string
	for _, s := range strings.Split(clean, "/") {
		switch s {
		case "", ".":
			continue
		case "..":
			return "", fmt.Errorf("%w: entry %q climbs out of the package directory", errUnsafeTarball, name)
		}
		segs = append(segs, s)
	}
	if len(segs) <= 1 {
		return "", nil
	}
	return strings.Join(segs[1:], "/"), nil
}

func writeEntry(target string, hdr *tar.Header, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return unwrapPathError(err)
	}
	mode := os.FileMode(0o644)
	if hdr.Mode&0o111 != 0 {
		mode = 0o755
	}
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return unwrapPathError(err)
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

var errTooMuchData = errors.New("decompressed stream too large")

type cappedReader struct {
	r    io.Reader
	left int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errTooMuchData
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
