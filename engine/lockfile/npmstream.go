package lockfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"github.com/uptide/uptide/internal/jsontok"
	"io"
	"os"
	"strings"
)

// loadNPM reads a package-lock.json as a stream, keeping only the table it
// looks dependencies up in: the file itself is never held (lockfiles of
// large monorepos are hundreds of megabytes), and v2's legacy copy of the
// tree is skipped entry by entry. Anything the stream cannot take as it is
// (a syntax error, an unknown version, a missing table) is parsed again
// whole by parseNPM, whose errors carry the line: false sends Load there.
func loadNPM(file string) (Lockfile, bool) {
	f, err := os.Open(file)
	if err != nil {
		return nil, false // Load's whole-file read names the error
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 256<<10)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3)
	}
	l, err := decodeNPMStream(file, br)
	if err != nil {
		return nil, false
	}
	return l, true
}

// errNeedWhole sends decodeNPMStream's caller to the whole-file parser.
var errNeedWhole = errors.New("parse the whole file")

func decodeNPMStream(file string, r io.Reader) (*npmLockfile, error) {
	dec := json.NewDecoder(r)
	if !jsontok.OpenObject(dec) {
		return nil, errNeedWhole
	}
	var version json.RawMessage
	var packages map[string]npmPackage
	var deps map[string]*npmV1Dep
	in := map[string]string{}
	intern := func(s string) string {
		if v, ok := in[s]; ok {
			return v
		}
		in[s] = s
		return s
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errNeedWhole
		}
		switch key, _ := tok.(string); foldKey(key, "lockfileVersion", "packages", "dependencies") {
		case "lockfileVersion":
			if dec.Decode(&version) != nil {
				return nil, errNeedWhole
			}
		case "packages":
			if !jsontok.OpenObject(dec) {
				return nil, errNeedWhole
			}
			if packages == nil {
				packages = map[string]npmPackage{}
			}
			for dec.More() {
				tok, err := dec.Token()
				if err != nil {
					return nil, errNeedWhole
				}
				loc, _ := tok.(string)
				var p npmPackage
				if dec.Decode(&p) != nil {
					return nil, errNeedWhole
				}
				packages[loc] = slimNPMPackage(p, intern)
			}
			if _, err := dec.Token(); err != nil {
				return nil, errNeedWhole
			}
		case "dependencies":
			v := strings.TrimSpace(string(version))
			if v == "2" || v == "3" {
				// v2's copy of the tree for npm 6: scanned, never built.
				if jsontok.SkipValue(dec) != nil {
					return nil, errNeedWhole
				}
				continue
			}
			if dec.Decode(&deps) != nil {
				return nil, errNeedWhole
			}
		default:
			if jsontok.SkipValue(dec) != nil {
				return nil, errNeedWhole
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, errNeedWhole
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errNeedWhole
	}
	l := &npmLockfile{file: file}
	var ok bool
	if l.format, l.version, ok = npmVersion(version); !ok {
		return nil, errNeedWhole
	}
	if l.version >= 2 {
		if packages == nil {
			return nil, errNeedWhole
		}
		l.packages = packages
		return l, nil
	}
	l.deps = deps
	l.indexWorkspaces()
	return l, nil
}

// slimNPMPackage drops what entry never reads: the tarball URL of a
// registry version (tens of bytes, for every package installed).
func slimNPMPackage(p npmPackage, intern func(string) string) npmPackage {
	if !p.Link && isVersion(p.Version) && !strings.HasPrefix(p.Resolved, "file:") {
		p.Resolved = ""
	}
	p.Name, p.Version = intern(p.Name), intern(p.Version)
	return p
}

// foldKey is the name among names that key matches as encoding/json
// matches object keys to fields (case-insensitively), or "".
func foldKey(key string, names ...string) string {
	for _, n := range names {
		if strings.EqualFold(key, n) {
			return n
		}
	}
	return ""
}
