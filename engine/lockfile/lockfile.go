package lockfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/uptide/uptide/engine/model"
)

// Format names a lockfile format and version.
type Format string

// The formats Load understands.
const (
	NPMv1     Format = "npm-v1"
	NPMv2     Format = "npm-v2"
	NPMv3     Format = "npm-v3"
	PnpmV5    Format = "pnpm-v5"
	PnpmV6    Format = "pnpm-v6"
	PnpmV9    Format = "pnpm-v9"
	YarnV1    Format = "yarn-v1"
	YarnBerry Format = "yarn-berry"
	Bun       Format = "bun"
)

// Writer is the manager family that writes the format (pnpm for every
// pnpm-vN), "" for a format this version does not know.
func (f Format) Writer() string {
	switch f {
	case NPMv1, NPMv2, NPMv3:
		return "npm"
	case PnpmV5, PnpmV6, PnpmV9:
		return "pnpm"
	case YarnV1, YarnBerry:
		return "yarn"
	case Bun:
		return "bun"
	}
	return ""
}

// Entry is what a lockfile records for one dependency of one workspace.
type Entry struct {
	// Package is the real package name: the target of an npm: alias, else
	// the manifest name.
	Package string
	// Version is the installed registry version without peer suffixes;
	// empty for workspace, link:, file:, git and tarball entries.
	Version string
	// Resolution is the lockfile's own text for an entry without a registry
	// version ("link:../a", "a@workspace:packages/a", a git URL).
	Resolution string
	// Local is true for workspace, link: and file: entries.
	Local bool
}

// Lockfile is a parsed lockfile.
type Lockfile interface {
	// Path is the path of the file read (absolute when it came from Load).
	Path() string
	Format() Format
	// Installed returns the version a workspace has installed for a
	// dependency. workspace is the slash path relative to the repository
	// root ("." for the root); name is the manifest key (the alias name for
	// npm: aliases); spec is the specifier as written in package.json (yarn
	// keys need it: "^1.2.0", "npm:real@^2"). It returns the real package
	// version ("18.3.1"), without peer suffixes, and false when the lockfile
	// has no registry version for it (absent, or a workspace, link:, file:,
	// git or tarball entry).
	Installed(workspace, name, spec string) (version string, ok bool)
	// Lookup is Installed with everything the lockfile says about the entry,
	// including entries that have no registry version.
	Lookup(workspace, name, spec string) (Entry, bool)
}

// Error is the error for a lockfile that cannot be used.
type Error struct {
	File string
	Line int // 0 when unknown
	Msg  string
	Hint string // what to do about it
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Hint != "" {
		b.WriteString(": ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// IsName says whether a file's base name is one of the lockfiles Find
// looks for.
func IsName(base string) bool {
	for _, l := range model.Lockfiles() {
		if l.Name == base {
			return !l.Binary
		}
	}
	return false
}

// Find locates the lockfile of a repository root. It returns "" and a nil
// error when there is none, and an error when the only lockfile is bun's
// binary bun.lockb, which cannot be read.
func Find(root string) (string, error) {
	all, err := FindAll(root)
	if err != nil || len(all) == 0 {
		return "", err
	}
	return all[0], nil
}

// FindAll returns every readable lockfile in root in the order Find prefers
// them, so a caller that knows the package manager (the packageManager
// field) can pick its own, or warn about a stale second lockfile.
func FindAll(root string) ([]string, error) {
	var found []string
	for _, l := range model.Lockfiles() {
		if l.Binary {
			continue
		}
		p := filepath.Join(root, l.Name)
		st, err := os.Stat(p)
		if err == nil && st.Mode().IsRegular() {
			found = append(found, p)
			continue
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, &Error{File: p, Msg: "cannot read the lockfile: " + unwrapPathError(err), Hint: "check the file's permissions"}
		}
	}
	if len(found) == 0 {
		b := filepath.Join(root, "bun.lockb")
		if st, err := os.Stat(b); err == nil && st.Mode().IsRegular() {
			return nil, binaryBunError(b)
		}
	}
	return found, nil
}

func binaryBunError(file string) error {
	return &Error{File: file, Msg: "bun's binary lockfile cannot be read",
		Hint: "run `bun install --save-text-lockfile` to write bun.lock next to it"}
}

func unwrapPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Load reads and parses a lockfile; the format follows from the file name
// (and, for yarn.lock, from its content).
func Load(file string) (Lockfile, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	switch filepath.Base(abs) {
	case "bun.lockb":
		return nil, binaryBunError(abs)
	case "package-lock.json", "npm-shrinkwrap.json":
		if l, ok := loadNPM(abs); ok {
			return l, nil
		}
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, &Error{File: abs, Msg: "cannot read the lockfile: " + unwrapPathError(err), Hint: "check that it exists and is readable"}
	}
	return Parse(abs, data)
}

// Parse parses lockfile content. file names it in errors and in Path; its
// base name chooses the format.
func Parse(file string, data []byte) (Lockfile, error) {
	// An editor may have saved it with a byte-order mark; the package
	// managers read past one.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	switch filepath.Base(file) {
	case "package-lock.json", "npm-shrinkwrap.json":
		return parseNPM(file, data)
	case "pnpm-lock.yaml":
		return parsePnpm(file, data)
	case "yarn.lock":
		if isBerry(data) {
			return parseBerry(file, data)
		}
		return parseYarnV1(file, data)
	case "bun.lock":
		return parseBun(file, data)
	case "bun.lockb":
		return nil, binaryBunError(file)
	}
	return nil, &Error{File: file, Msg: "not a lockfile Uptide knows",
		Hint: "expected pnpm-lock.yaml, package-lock.json, npm-shrinkwrap.json, yarn.lock or bun.lock"}
}

// installed is the Installed every format shares: a registry version or
// nothing.
func installed(l Lockfile, workspace, name, spec string) (string, bool) {
	e, ok := l.Lookup(workspace, name, spec)
	if !ok || e.Local || e.Version == "" {
		return "", false
	}
	return e.Version, true
}

// cleanWorkspace turns "", "./packages/a/" and "packages/a" into the one
// form lockfiles key workspaces by.
func cleanWorkspace(ws string) string {
	ws = strings.ReplaceAll(ws, "\\", "/")
	return path.Clean(ws)
}

// isVersion reports whether s is a plain semver version (what a registry
// entry records), as opposed to a URL, a path or a git reference.
func isVersion(s string) bool {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	dots := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '-', c == '+':
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return dots >= 2
}

// splitAt splits "name@rest" at the first @ that is not the scope's.
func splitAt(s string) (name, rest string, ok bool) {
	if len(s) < 2 {
		return s, "", false
	}
	i := strings.IndexByte(s[1:], '@')
	if i < 0 {
		return s, "", false
	}
	return s[:i+1], s[i+2:], true
}

// hasProtocol reports whether a specifier starts with a protocol such as
// npm:, workspace:, link:, file:, git+ssh: or https:.
func hasProtocol(spec string) bool {
	for i := 0; i < len(spec); i++ {
		c := spec[i]
		switch {
		case c == ':':
			return i > 0
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9' && i > 0, (c == '+' || c == '-' || c == '.') && i > 0:
		default:
			return false
		}
	}
	return false
}

// entryAt is the entry of pkg recorded as v: local when v points into the
// repository, a version when it is one, else a resolution (a tarball, a
// git commit).
func entryAt(pkg, v string) Entry {
	switch {
	case isLocalProtocol(v):
		return Entry{Package: pkg, Resolution: v, Local: true}
	case isVersion(v):
		return Entry{Package: pkg, Version: v}
	}
	return Entry{Package: pkg, Resolution: v}
}

// isLocalProtocol reports whether a specifier or resolution points into
// the repository rather than a registry.
func isLocalProtocol(s string) bool {
	for _, p := range []string{"workspace:", "link:", "file:", "portal:"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// lineAt is the 1-based line of a byte offset.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	n := 1
	for _, c := range data[:off] {
		if c == '\n' {
			n++
		}
	}
	return n
}

// lineCount is the number of the last line of data.
func lineCount(data []byte) int {
	n := lineAt(data, int64(len(data)))
	if len(data) > 0 && data[len(data)-1] == '\n' {
		n--
	}
	return n
}

// checkComplete rejects content that is not a lockfile's text, is empty or
// stops in the middle of a line: every package manager ends its lockfile
// with a newline, so a file that does not was cut short, and what it still
// parses to is not what is installed. Bytes no manager writes come first:
// random bytes rarely end in a newline, and are no truncated lockfile.
func checkComplete(file string, data []byte, what, hint string) error {
	if off, ok := binaryAt(data); ok {
		return &Error{File: file, Line: lineAt(data, int64(off)),
			Msg: fmt.Sprintf("not a %s: this line holds binary data (byte 0x%02x), which no package manager writes", what, data[off]), Hint: hint}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return &Error{File: file, Msg: "the lockfile is empty", Hint: hint}
	}
	if data[len(data)-1] != '\n' {
		return &Error{File: file, Line: lineCount(data), Msg: "the file ends in the middle of a line, so it looks truncated", Hint: hint}
	}
	return nil
}

// binaryAt is the offset of the first byte that cannot be in a text
// lockfile: a control character other than tab, CR and LF (YAML forbids
// them, and neither yarn nor pnpm writes one), or invalid UTF-8.
func binaryAt(data []byte) (int, bool) {
	for off := 0; off < len(data); {
		c := data[off]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
				return off, true
			}
			off++
			continue
		}
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size <= 1 {
			return off, true
		}
		off += size
	}
	return 0, false
}
