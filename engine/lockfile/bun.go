package lockfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/uptide/uptide/engine/jsonc"
	"strings"
)

const bunHint = "restore it from version control or run `bun install` to write it again"

// bunLockfile is bun's text bun.lock: JSON with trailing commas.
type bunLockfile struct {
	file string
	// names maps a workspace path to its package name: bun keys a copy
	// that only one workspace sees by that name ("web/react").
	names map[string]string
	// packages maps a key ("react", "web/react", "react-dom/scheduler")
	// to its first element, "name@version".
	packages map[string]string
}

func (l *bunLockfile) Path() string   { return l.file }
func (l *bunLockfile) Format() Format { return Bun }
func (l *bunLockfile) Installed(ws, name, spec string) (string, bool) {
	return installed(l, ws, name, spec)
}

func (l *bunLockfile) Lookup(ws, name, _ string) (Entry, bool) {
	key := cleanWorkspace(ws)
	if key == "." {
		key = ""
	}
	wsName, known := l.names[key]
	if !known {
		return Entry{}, false
	}
	if key != "" && wsName != "" {
		if id, ok := l.packages[wsName+"/"+name]; ok {
			return bunEntry(name, id), true
		}
	}
	id, ok := l.packages[name]
	if !ok {
		return Entry{}, false
	}
	return bunEntry(name, id), true
}

// bunEntry reads "react@18.3.1", "left-pad@1.3.0" under an alias key,
// "a@workspace:packages/a", "c@file:packages/c" or "x@github:u/r#sha".
func bunEntry(name, id string) Entry {
	pkg, rest, _ := splitAt(id)
	if pkg == "" {
		pkg = name
	}
	if strings.HasPrefix(rest, "root:") {
		return Entry{Package: pkg, Resolution: rest, Local: true}
	}
	return entryAt(pkg, rest)
}

type bunFile struct {
	LockfileVersion json.RawMessage `json:"lockfileVersion"`
	Workspaces      map[string]struct {
		Name string `json:"name"`
	} `json:"workspaces"`
	// Packages stay raw: only the first element of each array is read.
	Packages map[string]span `json:"packages"`
}

func parseBun(file string, data []byte) (Lockfile, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{File: file, Msg: "the lockfile is empty", Hint: bunHint}
	}
	clean := jsonc.Strip(data)
	var f bunFile
	if err := json.Unmarshal(clean, &f); err != nil {
		return nil, jsonError(file, clean, err, bunHint)
	}
	if len(f.LockfileVersion) == 0 {
		return nil, &Error{File: file, Line: 1, Msg: "no lockfileVersion, so this is not a bun.lock Uptide can read", Hint: bunHint}
	}
	switch v := string(f.LockfileVersion); v {
	case "0", "1", "2":
	default:
		return nil, &Error{File: file, Line: keyLine(data, `"lockfileVersion"`), Msg: fmt.Sprintf("bun.lock lockfileVersion %s is not one Uptide reads (0 to 2)", clip(v)),
			Hint: "write it with bun 1.1.39 to 1.4, or upgrade Uptide"}
	}
	l := &bunLockfile{file: file, names: map[string]string{}, packages: make(map[string]string, len(f.Packages))}
	for path, w := range f.Workspaces {
		if path != "" {
			path = cleanWorkspace(path)
		}
		l.names[path] = w.Name
	}
	if _, ok := l.names[""]; !ok {
		return nil, &Error{File: file, Line: keyLine(data, `"workspaces"`), Msg: "no root workspace (\"\") in workspaces", Hint: bunHint}
	}
	for k, p := range f.Packages {
		id, ok := firstString(p)
		if !ok {
			return nil, &Error{File: file, Line: lineAt(clean, p.offsetIn(clean)), Msg: fmt.Sprintf("package %q is not an array starting with \"name@version\"", clip(k)), Hint: bunHint}
		}
		l.packages[k] = id
	}
	return l, nil
}

// firstString reads the first element of a JSON array of which it must be
// a string.
func firstString(b []byte) (string, bool) {
	i := 0
	skip := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
			i++
		}
	}
	skip()
	if i >= len(b) || b[i] != '[' {
		return "", false
	}
	i++
	skip()
	if i >= len(b) || b[i] != '"' {
		return "", false
	}
	start := i
	escaped := false
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			if !escaped {
				return string(b[start+1 : i]), true
			}
			var s string
			if err := json.Unmarshal(b[start:i+1], &s); err != nil {
				return "", false
			}
			return s, true
		}
	}
	return "", false
}
