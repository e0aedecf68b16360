package lockfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"
)

const yarnHint = "restore it from version control or run `yarn install` to write it again"

// yarnEntry is one resolved package of a yarn lockfile, shared by every
// descriptor ("name@range") that resolved to it.
type yarnEntry struct {
	version    string
	resolution string // berry's "left-pad@npm:1.3.0"
	line       int
}

// yarnIndex answers descriptor lookups for both yarn formats.
type yarnIndex struct {
	entries     []yarnEntry
	descriptors map[string]int // "name@range" → entries index
}

// find returns the entry of the first descriptor the lockfile has. There is
// no guessing past that: a declaration whose range has no entry was added
// or changed after the last install, and what it will install is unknown.
func (x *yarnIndex) find(descriptors ...string) (int, bool) {
	for _, d := range descriptors {
		if i, ok := x.descriptors[d]; ok {
			return i, true
		}
	}
	return 0, false
}

func (x *yarnIndex) add(keys []string, e yarnEntry) {
	x.entries = append(x.entries, e)
	i := len(x.entries) - 1
	for _, k := range keys {
		x.descriptors[k] = i
	}
	// Berry binds a link:, portal: or relative file: descriptor to the
	// workspace that declared it ("c@link:../c::locator=b%40workspace…");
	// the manifest only says link:../c.
	for _, k := range keys {
		if base, _, ok := strings.Cut(k, "::"); ok {
			if _, taken := x.descriptors[base]; !taken {
				x.descriptors[base] = i
			}
		}
	}
}

// yarnV1Lockfile is a Yarn classic yarn.lock.
type yarnV1Lockfile struct {
	file string
	yarnIndex
}

func (l *yarnV1Lockfile) Path() string   { return l.file }
func (l *yarnV1Lockfile) Format() Format { return YarnV1 }
func (l *yarnV1Lockfile) Installed(ws, name, spec string) (string, bool) {
	return installed(l, ws, name, spec)
}

// Lookup finds the entry of the declared range: Yarn classic has one flat
// table keyed by the descriptors as manifests write them, so two workspaces
// on different versions declare different ranges and get different entries.
func (l *yarnV1Lockfile) Lookup(ws, name, spec string) (Entry, bool) {
	keys := []string{name + "@" + spec}
	if spec == "" {
		keys = append(keys, name+"@*", name+"@latest")
	}
	// Yarn 1 keys a link: or file: directory by its path from the root.
	for _, p := range []string{"link:", "file:"} {
		if rel, ok := strings.CutPrefix(spec, p); ok && !path.IsAbs(rel) {
			keys = append(keys, name+"@"+p+path.Join(cleanWorkspace(ws), rel))
		}
	}
	i, ok := l.find(keys...)
	if !ok {
		return Entry{}, false
	}
	e := l.entries[i]
	out := Entry{Package: name, Version: e.version}
	if real, ok := aliasTarget(spec); ok {
		out.Package = real
	}
	if isLocalProtocol(spec) {
		out = Entry{Package: name, Resolution: spec, Local: true}
	} else if !isVersion(out.Version) {
		out.Resolution, out.Version = out.Version, ""
	}
	return out, true
}

// aliasTarget is the real package of an "npm:real@range" specifier.
func aliasTarget(spec string) (string, bool) {
	rest, ok := strings.CutPrefix(spec, "npm:")
	if !ok {
		return "", false
	}
	n, _, _ := splitAt(rest)
	return n, n != ""
}

func parseYarnV1(file string, data []byte) (Lockfile, error) {
	if err := checkComplete(file, data, "yarn lockfile", yarnHint); err != nil {
		return nil, err
	}
	l := &yarnV1Lockfile{file: file, yarnIndex: yarnIndex{descriptors: map[string]int{}}}
	var cur *yarnEntry
	var curKeys []string
	flush := func() error {
		if cur == nil {
			return nil
		}
		if cur.version == "" {
			return &Error{File: file, Line: cur.line, Msg: fmt.Sprintf("the entry for %q has no version, so the file looks truncated or edited by hand", curKeys[0]), Hint: yarnHint}
		}
		l.add(curKeys, *cur)
		cur = nil
		return nil
	}
	for l := range yarnLines(data) {
		line, text, indent := l.n, l.text, l.indent
		if text[0] == '#' {
			if indent == 0 && line <= 3 {
				if err := yarnHeader(file, line, text); err != nil {
					return nil, err
				}
			}
			continue
		}
		if text[0] == '\t' {
			return nil, &Error{File: file, Line: line, Msg: "indented with a tab; yarn.lock is indented with spaces", Hint: yarnHint}
		}
		switch {
		case indent == 0:
			if err := flush(); err != nil {
				return nil, err
			}
			keys, err := yarnKeys(text)
			if err != nil {
				return nil, &Error{File: file, Line: line, Msg: err.Error(), Hint: yarnConflictHint(text)}
			}
			curKeys = keys
			cur = &yarnEntry{line: line}
		case cur == nil:
			return nil, &Error{File: file, Line: line, Msg: "an indented line before any entry", Hint: yarnHint}
		case indent == 2:
			field, val, err := yarnField(text)
			if err != nil {
				return nil, &Error{File: file, Line: line, Msg: err.Error(), Hint: yarnHint}
			}
			if field == "version" {
				cur.version = val
			}
		}
		// Deeper lines (dependencies of an entry) do not say what is
		// installed for a workspace.
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return l, nil
}

func yarnHeader(file string, line int, text []byte) error {
	const prefix = "# yarn lockfile v"
	if !bytes.HasPrefix(text, []byte(prefix)) {
		return nil
	}
	v := strings.TrimSpace(string(text[len(prefix):]))
	if v != "1" {
		return &Error{File: file, Line: line, Msg: fmt.Sprintf("yarn lockfile v%s is not one Uptide reads", v), Hint: "write it with Yarn 1 or Yarn 2+, or upgrade Uptide"}
	}
	return nil
}

func yarnConflictHint(text []byte) string {
	for _, m := range []string{"<<<<<<<", "=======", ">>>>>>>"} {
		if bytes.HasPrefix(text, []byte(m)) {
			return "resolve the merge conflict, or run `yarn install`, which merges lockfile conflicts itself"
		}
	}
	return yarnHint
}

// yarnKeys reads an entry line: `"a@^1", a@~1.2:`.
func yarnKeys(text []byte) ([]string, error) {
	t := bytes.TrimRight(text, " \t")
	if len(t) == 0 || t[len(t)-1] != ':' {
		return nil, fmt.Errorf("expected an entry line ending in `:`, found %q", clip(string(t)))
	}
	t = t[:len(t)-1]
	var keys []string
	for len(t) > 0 {
		t = bytes.TrimLeft(t, " ")
		var k string
		var err error
		k, t, err = yarnToken(t)
		if err != nil {
			return nil, err
		}
		if k == "" {
			return nil, fmt.Errorf("an empty package descriptor")
		}
		keys = append(keys, k)
		t = bytes.TrimLeft(t, " ")
		if len(t) > 0 {
			if t[0] != ',' {
				return nil, fmt.Errorf("expected `,` between descriptors, found %q", clip(string(t)))
			}
			t = t[1:]
			if len(bytes.TrimSpace(t)) == 0 {
				return nil, fmt.Errorf("a descriptor list ends with `,`")
			}
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("an entry line without a descriptor")
	}
	return keys, nil
}

// yarnField reads `version "1.2.3"`, `version: "1.2.3"` or `dependencies:`.
func yarnField(text []byte) (string, string, error) {
	field, rest, err := yarnToken(text)
	if err != nil {
		return "", "", err
	}
	rest = bytes.TrimLeft(rest, " ")
	if len(rest) > 0 && rest[0] == ':' {
		rest = bytes.TrimLeft(rest[1:], " ")
	}
	if len(rest) == 0 {
		return field, "", nil
	}
	val, tail, err := yarnToken(rest)
	if err != nil {
		return "", "", err
	}
	if len(bytes.TrimSpace(tail)) > 0 && tail[0] != '#' {
		return "", "", fmt.Errorf("unexpected %q after the value of %s", clip(string(bytes.TrimSpace(tail))), field)
	}
	return field, val, nil
}

// yarnToken reads a quoted string or a bare word up to a space, comma or
// colon that ends it.
func yarnToken(t []byte) (string, []byte, error) {
	if len(t) == 0 {
		return "", t, nil
	}
	if t[0] == '"' {
		esc := false
		for i := 1; i < len(t); i++ {
			switch {
			case t[i] == '\\':
				esc = true
				i++
			case t[i] == '"':
				if !esc {
					return string(t[1:i]), t[i+1:], nil
				}
				var s string
				if err := json.Unmarshal(t[:i+1], &s); err != nil {
					u, uerr := strconv.Unquote(string(t[:i+1]))
					if uerr != nil {
						return "", nil, fmt.Errorf("a malformed quoted string %s", clip(string(t[:i+1])))
					}
					s = u
				}
				return s, t[i+1:], nil
			}
		}
		return "", nil, fmt.Errorf("a quoted string that never closes: %s", clip(string(t)))
	}
	i := 0
	for i < len(t) && t[i] != ' ' && t[i] != ',' && !(t[i] == ':' && (i+1 == len(t) || t[i+1] == ' ')) {
		i++
	}
	return string(t[:i]), t[i:], nil
}
