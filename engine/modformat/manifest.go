package modformat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// Manifest is what a package.json says about how the package loads.
type Manifest struct {
	// File names the manifest in messages ("zod@4.1.12/package.json").
	File    string
	Name    string
	Version string
	// Type is "module" or "commonjs" (absent reads as "commonjs").
	Type   string
	Main   string
	Module string
	// Exports keeps the exports field with its key order, which decides
	// which condition matches; nil when absent.
	Exports *jsonValue
	// EnginesNode is engines.node as written.
	EnginesNode string
}

// Package is one extracted version of a package: its manifest and, when the
// caller has the files, the directory itself (nested package.json files
// that set "type" for a build folder, and the ESM graph for top-level
// await).
type Package struct {
	Manifest Manifest
	// FS is the package directory (os.DirFS of the extracted tarball, or an
	// fstest.MapFS); nil when only the manifest is known.
	FS fs.FS
}

// LoadPackage reads package.json from an extracted package directory.
// label names it in messages ("zod@4.1.12").
func LoadPackage(fsys fs.FS, label string) (Package, error) {
	data, err := fs.ReadFile(fsys, "package.json")
	if err != nil {
		return Package{}, fmt.Errorf("%s/package.json: %v: the extracted package has no readable manifest", label, err)
	}
	m, err := ParseManifest(label+"/package.json", data)
	if err != nil {
		return Package{}, err
	}
	return Package{Manifest: m, FS: fsys}, nil
}

// ParseManifest reads the fields of a package.json that decide its module
// format. file names it in errors. A field of the wrong type is ignored the
// way Node ignores it; only a document that is not a JSON object fails.
func ParseManifest(file string, data []byte) (Manifest, error) {
	m := Manifest{File: file}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return m, fmt.Errorf("%s: not a JSON object (%v): the package's manifest cannot be read", file, err)
	}
	str := func(key string) string {
		var s string
		if json.Unmarshal(raw[key], &s) != nil {
			return ""
		}
		return s
	}
	m.Name, m.Version = str("name"), str("version")
	m.Type, m.Main, m.Module = str("type"), str("main"), str("module")
	if ex, ok := raw["exports"]; ok {
		v, err := decodeOrdered(ex)
		if err != nil {
			return m, fmt.Errorf("%s: exports: %v", file, err)
		}
		if v.kind != jsonNull {
			m.Exports = &v
		}
	}
	var engines map[string]json.RawMessage
	if json.Unmarshal(raw["engines"], &engines) == nil {
		var node string
		if json.Unmarshal(engines["node"], &node) == nil {
			m.EnginesNode = node
		}
	}
	return m, nil
}

// jsonKind is the kind of a JSON value.
type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonString
	jsonArray
	jsonObject
	// jsonOther: a number or boolean, never a valid export target.
	jsonOther
)

// jsonValue is a JSON value that remembers object key order.
type jsonValue struct {
	kind jsonKind
	str  string
	arr  []jsonValue
	keys []string
	vals []jsonValue
}

// maxExportsDepth bounds nesting so a hostile manifest cannot exhaust the
// stack; real conditions nest a few levels.
const maxExportsDepth = 64

func decodeOrdered(data []byte) (jsonValue, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return jsonValue{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return jsonValue{}, fmt.Errorf("trailing data")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (jsonValue, error) {
	if depth > maxExportsDepth {
		return jsonValue{}, fmt.Errorf("nested more than %d levels", maxExportsDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return jsonValue{}, err
	}
	switch t := tok.(type) {
	case nil:
		return jsonValue{kind: jsonNull}, nil
	case string:
		return jsonValue{kind: jsonString, str: t}, nil
	case json.Delim:
		switch t {
		case '[':
			v := jsonValue{kind: jsonArray}
			for dec.More() {
				e, err := decodeValue(dec, depth+1)
				if err != nil {
					return jsonValue{}, err
				}
				v.arr = append(v.arr, e)
			}
			_, err := dec.Token()
			return v, err
		case '{':
			v := jsonValue{kind: jsonObject}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return jsonValue{}, err
				}
				k, _ := kt.(string)
				e, err := decodeValue(dec, depth+1)
				if err != nil {
					return jsonValue{}, err
				}
				v.keys = append(v.keys, k)
				v.vals = append(v.vals, e)
			}
			_, err := dec.Token()
			return v, err
		}
	}
	return jsonValue{kind: jsonOther}, nil
}

// get returns an object's value for key (the last one, as JSON.parse keeps).
func (v *jsonValue) get(key string) (*jsonValue, bool) {
	for i := len(v.keys) - 1; i >= 0; i-- {
		if v.keys[i] == key {
			return &v.vals[i], true
		}
	}
	return nil, false
}

// isSubpathMap: an exports object whose keys start with "." maps subpaths;
// any other object is the conditions of ".".
func (v *jsonValue) isSubpathMap() bool {
	return v.kind == jsonObject && len(v.keys) > 0 && strings.HasPrefix(v.keys[0], ".")
}
