package lockfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
)

const npmHint = "restore it from version control or run `npm install` to write it again"

// npmLockfile is package-lock.json or npm-shrinkwrap.json.
type npmLockfile struct {
	file    string
	format  Format
	version int
	// packages is the v2/v3 table keyed by install location: "" (the
	// root), "node_modules/x", "packages/a" (a workspace) and
	// "packages/a/node_modules/x" (a copy only that workspace sees).
	packages map[string]npmPackage
	// deps is the v1 tree; workspaces maps a workspace path to the
	// top-level entry ("version": "file:packages/a") whose nested
	// dependencies are the copies only that workspace sees.
	deps       map[string]*npmV1Dep
	workspaces map[string]*npmV1Dep
}

type npmPackage struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Resolved string `json:"resolved"`
	Link     bool   `json:"link"`
}

type npmV1Dep struct {
	Version      string               `json:"version"`
	Dependencies map[string]*npmV1Dep `json:"dependencies"`
}

func (l *npmLockfile) Path() string   { return l.file }
func (l *npmLockfile) Format() Format { return l.format }
func (l *npmLockfile) Installed(ws, name, spec string) (string, bool) {
	return installed(l, ws, name, spec)
}

func (l *npmLockfile) Lookup(ws, name, _ string) (Entry, bool) {
	ws = cleanWorkspace(ws)
	if l.packages == nil {
		return l.lookupV1(ws, name)
	}
	if ws != "." {
		if _, known := l.packages[ws]; !known {
			return Entry{}, false
		}
		if p, ok := l.packages[ws+"/node_modules/"+name]; ok {
			return p.entry(name), true
		}
	}
	p, ok := l.packages["node_modules/"+name]
	if !ok {
		return Entry{}, false
	}
	return p.entry(name), true
}

func (p npmPackage) entry(name string) Entry {
	if p.Link {
		return Entry{Package: name, Resolution: p.Resolved, Local: true}
	}
	e := Entry{Package: name}
	if p.Name != "" {
		e.Package = p.Name
	}
	if isVersion(p.Version) {
		e.Version = p.Version
	} else {
		e.Resolution = p.Resolved
	}
	if strings.HasPrefix(p.Resolved, "file:") {
		e.Local = true
		e.Version, e.Resolution = "", p.Resolved
	}
	return e
}

func (l *npmLockfile) lookupV1(ws, name string) (Entry, bool) {
	// v1 predates workspaces: a workspace is a file: dependency of the
	// root, and a package it alone needs is nested under that entry. Any
	// other directory resolves through the root's node_modules.
	if ws != "." {
		if w := l.workspaces[ws]; w != nil {
			if d := w.Dependencies[name]; d != nil {
				return d.entry(name), true
			}
		}
	}
	d := l.deps[name]
	if d == nil {
		return Entry{}, false
	}
	return d.entry(name), true
}

func (d *npmV1Dep) entry(name string) Entry {
	v := d.Version
	if alias, ok := strings.CutPrefix(v, "npm:"); ok {
		real, ver, _ := splitAt(alias)
		if isVersion(ver) {
			return Entry{Package: real, Version: ver}
		}
		return Entry{Package: real, Resolution: v}
	}
	return entryAt(name, v)
}

type npmHeader struct {
	LockfileVersion json.RawMessage       `json:"lockfileVersion"`
	Packages        map[string]npmPackage `json:"packages"`
	// Dependencies stays raw so that v2's legacy copy of the tree is
	// scanned but never built.
	Dependencies span `json:"dependencies"`
}

// span keeps the bytes of a JSON value without copying them: json.Unmarshal
// hands an Unmarshaler a slice of the caller's input, which outlives the
// call here.
type span []byte

func (s *span) UnmarshalJSON(b []byte) error {
	*s = b
	return nil
}

// offsetIn is where s starts in data, -1 when it is not a slice of it.
func (s span) offsetIn(data []byte) int64 {
	if len(s) == 0 || cap(s) > cap(data) {
		return -1
	}
	i := cap(data) - cap(s)
	if i+len(s) > len(data) || !bytes.Equal(data[i:i+len(s)], s) {
		return int64(bytes.Index(data, s))
	}
	return int64(i)
}

func parseNPM(file string, data []byte) (Lockfile, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{File: file, Msg: "the lockfile is empty", Hint: npmHint}
	}
	var h npmHeader
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, jsonError(file, data, err, npmHint)
	}
	l := &npmLockfile{file: file}
	versionLine := keyLine(data, `"lockfileVersion"`)
	var ok bool
	if l.format, l.version, ok = npmVersion(h.LockfileVersion); !ok {
		return nil, &Error{File: file, Line: versionLine, Msg: fmt.Sprintf("lockfileVersion %s is not one Uptide reads (1, 2 or 3)", strings.TrimSpace(string(h.LockfileVersion))),
			Hint: "write it with npm 7 or later (`npm install --lockfile-version 3`), or upgrade Uptide"}
	}
	if l.version >= 2 {
		if h.Packages == nil {
			return nil, &Error{File: file, Line: versionLine, Msg: fmt.Sprintf("lockfileVersion %d has no \"packages\" section", l.version), Hint: npmHint}
		}
		l.packages = h.Packages
		return l, nil
	}
	if len(h.Dependencies) > 0 && string(h.Dependencies) != "null" {
		if err := json.Unmarshal(h.Dependencies, &l.deps); err != nil {
			return nil, jsonError(file, data, shiftJSONError(err, h.Dependencies.offsetIn(data)), npmHint)
		}
	}
	l.indexWorkspaces()
	return l, nil
}

// npmVersion reads lockfileVersion: npm 5 and 6 wrote 1, an old
// shrinkwrap has none at all; false for any other.
func npmVersion(raw json.RawMessage) (Format, int, bool) {
	switch strings.TrimSpace(string(raw)) {
	case "1", "":
		return NPMv1, 1, true
	case "2":
		return NPMv2, 2, true
	case "3":
		return NPMv3, 3, true
	}
	return "", 0, false
}

// indexWorkspaces finds a v1 lockfile's workspaces: its file: links.
func (l *npmLockfile) indexWorkspaces() {
	l.workspaces = map[string]*npmV1Dep{}
	for _, d := range l.deps {
		if d != nil && strings.HasPrefix(d.Version, "file:") {
			l.workspaces[path.Clean(strings.TrimPrefix(d.Version, "file:"))] = d
		}
	}
}

// jsonError turns an encoding/json error into an *Error with the line.
func jsonError(file string, data []byte, err error, hint string) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		msg := "not valid JSON: " + se.Error()
		if se.Offset >= int64(len(bytes.TrimRight(data, " \t\r\n"))) {
			msg = "the JSON ends early, so the file looks truncated"
		}
		return &Error{File: file, Line: lineAt(data, se.Offset), Msg: msg, Hint: hint}
	case errors.As(err, &te):
		where := te.Field
		if where == "" {
			where = "a value"
		}
		return &Error{File: file, Line: lineAt(data, te.Offset), Msg: fmt.Sprintf("%s is a JSON %s where a %s belongs", where, te.Value, te.Type), Hint: hint}
	}
	return &Error{File: file, Msg: "not valid JSON: " + err.Error(), Hint: hint}
}

// shiftJSONError moves the offset of an error found while decoding a part
// of the file that starts at base.
func shiftJSONError(err error, base int64) error {
	if base < 0 {
		return err
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		se.Offset += base
	case errors.As(err, &te):
		te.Offset += base
	}
	return err
}

// keyLine is the line of the first occurrence of a key, 0 when absent.
func keyLine(data []byte, key string) int {
	i := bytes.Index(data, []byte(key))
	if i < 0 {
		return 0
	}
	return lineAt(data, int64(i))
}
