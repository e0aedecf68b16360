package repo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/uptide/uptide/engine/model"
)

// InputError is a file Uptide could not use: which file, the line when it
// is known, and what to do about it.
type InputError struct {
	File string
	Line int
	Msg  string
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// depFields are the manifest fields read, in the order they are reported.
var depFields = []model.DepType{model.Prod, model.Dev, model.Optional, model.Peer}

// rawDep is one dependency entry as the manifest writes it.
type rawDep struct {
	name, spec string
	typ        model.DepType
}

// fieldProblem is a manifest field that could not be used; the rest of the
// manifest still is.
type fieldProblem struct {
	line int
	msg  string
}

// manifest is the part of a package.json Uptide reads.
type manifest struct {
	data           []byte
	name, version  string
	private        bool
	packageManager string
	// workspaces is set when the manifest declares workspaces (possibly none).
	workspaces    []string
	hasWorkspaces bool
	workspacesErr string
	// catalogs are bun's: workspaces.catalog(s) or top-level catalog(s).
	catalogs map[string]map[string]string
	deps     []rawDep
	problems []fieldProblem
}

// parseManifest reads a package.json. A syntax error (or a manifest that is
// not a JSON object) is returned with its line; a field of the wrong shape
// becomes a fieldProblem and the rest is still read.
func parseManifest(data []byte) (*manifest, *InputError) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // npm strips a BOM too
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			line, col := lineCol(data, syn.Offset)
			return nil, &InputError{Line: line, Msg: fmt.Sprintf("not valid JSON at column %d (%v): fix the syntax (a trailing comma or a missing quote is the usual cause)", col, syn)}
		case errors.As(err, &typ):
			return nil, &InputError{Line: 1, Msg: "the manifest is a JSON " + typ.Value + ", not an object: a package.json holds one object"}
		default:
			return nil, &InputError{Msg: fmt.Sprintf("cannot read the manifest (%v): fix the JSON", err)}
		}
	}
	if top == nil {
		return nil, &InputError{Line: 1, Msg: "the manifest is null, not an object: a package.json holds one object"}
	}
	m := &manifest{data: data}
	bad := func(msg string, path ...string) {
		m.problems = append(m.problems, fieldProblem{line: keyLine(data, path...), msg: msg})
	}
	str := func(key string) string {
		raw, ok := top[key]
		if !ok || isNull(raw) {
			return ""
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			bad(fmt.Sprintf("%q is not a string: write it as one", key), key)
			return ""
		}
		return s
	}
	m.name = str("name")
	m.version = str("version")
	m.packageManager = str("packageManager")
	if raw, ok := top["private"]; ok {
		var b bool
		if json.Unmarshal(raw, &b) == nil {
			m.private = b
		}
	}
	m.readWorkspaces(top)
	m.catalogs = map[string]map[string]string{}
	m.readCatalogs(top, bad)
	for _, t := range depFields {
		raw, ok := top[string(t)]
		if !ok || isNull(raw) {
			continue
		}
		var entries map[string]json.RawMessage
		if json.Unmarshal(raw, &entries) != nil {
			bad(fmt.Sprintf("%q is not an object of name → version range: fix it so the package manager can read it", t), string(t))
			continue
		}
		for name, v := range entries {
			var spec string
			if isNull(v) || json.Unmarshal(v, &spec) != nil {
				bad(fmt.Sprintf("%s %q has a specifier that is not a string: write it as a version range in quotes", t, name), string(t), name)
				continue
			}
			m.deps = append(m.deps, rawDep{name: name, spec: spec, typ: t})
		}
	}
	sort.Slice(m.deps, func(i, j int) bool {
		if m.deps[i].name != m.deps[j].name {
			return m.deps[i].name < m.deps[j].name
		}
		return m.deps[i].typ < m.deps[j].typ
	})
	sort.SliceStable(m.problems, func(i, j int) bool { return m.problems[i].line < m.problems[j].line })
	return m, nil
}

// readWorkspaces reads "workspaces": an array of globs (npm, yarn, bun) or
// an object with "packages" (yarn's nohoist form, bun's catalog form).
func (m *manifest) readWorkspaces(top map[string]json.RawMessage) {
	raw, ok := top["workspaces"]
	if !ok || isNull(raw) {
		return
	}
	m.hasWorkspaces = true
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		m.workspaces = list
		return
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		m.workspacesErr = `"workspaces" is neither an array of globs nor an object with "packages": write it as ["packages/*"]`
		return
	}
	if pk, ok := obj["packages"]; ok && !isNull(pk) {
		if json.Unmarshal(pk, &list) != nil {
			m.workspacesErr = `"workspaces.packages" is not an array of globs: write it as ["packages/*"]`
			return
		}
		m.workspaces = list
	}
}

// readCatalogs reads bun's catalogs; the workspaces object's take precedence
// over the top-level ones, as in bun.
func (m *manifest) readCatalogs(top map[string]json.RawMessage, bad func(string, ...string)) {
	add := func(catalog string, raw json.RawMessage, key ...string) {
		if raw == nil || isNull(raw) {
			return
		}
		var entries map[string]string
		if json.Unmarshal(raw, &entries) != nil {
			bad(fmt.Sprintf("catalog %q is not an object of name → version range: fix it", catalog), key...)
			return
		}
		if m.catalogs[catalog] == nil {
			m.catalogs[catalog] = map[string]string{}
		}
		for k, v := range entries {
			m.catalogs[catalog][k] = v
		}
	}
	addNamed := func(raw json.RawMessage, key ...string) {
		if raw == nil || isNull(raw) {
			return
		}
		var cats map[string]json.RawMessage
		if json.Unmarshal(raw, &cats) != nil {
			bad("catalogs is not an object of catalog name → entries: fix it", key...)
			return
		}
		for name, c := range cats {
			add(name, c, key...)
		}
	}
	add("default", top["catalog"], "catalog")
	addNamed(top["catalogs"], "catalogs")
	var ws map[string]json.RawMessage
	if raw := top["workspaces"]; raw != nil && json.Unmarshal(raw, &ws) == nil {
		add("default", ws["catalog"], "workspaces", "catalog")
		addNamed(ws["catalogs"], "workspaces", "catalogs")
	}
}

func isNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// lineCol turns a json.SyntaxError offset (bytes read when the error was
// found, so the offending byte is the last one read) into a 1-based line
// and column.
func lineCol(data []byte, offset int64) (line, col int) {
	end := int(offset) - 1
	if end < 0 {
		end = 0
	}
	if end > len(data) {
		end = len(data)
	}
	before := data[:end]
	line = bytes.Count(before, []byte("\n")) + 1
	col = end - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// keyLine finds the line of a key in a valid JSON document, following a
// path of object keys from the top ("dependencies", "react"); 0 when it is
// not there. Only used when something is reported, so it re-reads lazily.
func keyLine(data []byte, path ...string) int {
	if len(path) == 0 {
		return 0
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	line := 0
	for depth := 0; depth < len(path); depth++ {
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return line
		}
		found := false
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return line
			}
			key, _ := tok.(string)
			if key == path[depth] {
				line = bytes.Count(data[:dec.InputOffset()], []byte("\n")) + 1
				found = true
				// Duplicate keys: JSON.parse keeps the last, so keep looking
				// only at this level when this is the final key.
				if depth == len(path)-1 {
					var skip json.RawMessage
					if dec.Decode(&skip) != nil {
						return line
					}
					continue
				}
				break
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil && err != io.EOF {
				return line
			}
		}
		if !found {
			return line
		}
	}
	return line
}
