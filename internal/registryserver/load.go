package registryserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/Masterminds/semver/v3"
)

func (r *Registry) load(fsys fs.FS) error {
	top, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return fmt.Errorf("registryserver: read fixture root: %w", err)
	}
	for _, e := range top {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || strings.HasPrefix(e.Name(), "_") {
			continue
		}
		if !strings.HasPrefix(e.Name(), "@") {
			if err := r.loadPackage(fsys, e.Name()); err != nil {
				return err
			}
			continue
		}
		scoped, err := fs.ReadDir(fsys, e.Name())
		if err != nil {
			return fmt.Errorf("registryserver: %s: %w", e.Name(), err)
		}
		for _, s := range scoped {
			if !s.IsDir() {
				return fmt.Errorf("registryserver: %s/%s: unexpected file; a scope folder holds one folder per package", e.Name(), s.Name())
			}
			if err := r.loadPackage(fsys, e.Name()+"/"+s.Name()); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *Registry) loadPackage(fsys fs.FS, name string) error {
	if err := checkName(name); err != nil {
		return fmt.Errorf("registryserver: %s: %w", name, err)
	}
	entries, err := fs.ReadDir(fsys, name)
	if err != nil {
		return fmt.Errorf("registryserver: %s: %w", name, err)
	}
	p := &pkg{name: name, versions: map[string]*version{}}
	for _, e := range entries {
		rel := name + "/" + e.Name()
		switch {
		case e.IsDir():
			v, err := loadVersion(fsys, name, e.Name())
			if err != nil {
				return err
			}
			p.versions[v.version] = v
		case e.Name() == "dist-tags.json":
			if err := readJSONFile(fsys, rel, &p.tags); err != nil {
				return err
			}
		case e.Name() == "time.json":
			if err := readJSONFile(fsys, rel, &p.times); err != nil {
				return err
			}
		case e.Name() == "advisories.json":
			if err := readJSONFile(fsys, rel, &p.advisories); err != nil {
				return err
			}
		default:
			return fmt.Errorf("registryserver: %s: unexpected file; a package folder holds version folders, dist-tags.json, time.json and advisories.json", rel)
		}
	}
	if len(p.versions) == 0 {
		return fmt.Errorf("registryserver: %s: no version folders (<name>/<version>/package.json)", name)
	}
	for tag, v := range p.tags {
		if p.versions[v] == nil {
			return fmt.Errorf("registryserver: %s/dist-tags.json: tag %q points at %s, which has no folder", name, tag, v)
		}
	}
	r.pkgs[name] = p
	return nil
}

func loadVersion(fsys fs.FS, name, dir string) (*version, error) {
	root := name + "/" + dir
	sv, err := semver.StrictNewVersion(dir)
	if err != nil {
		return nil, fmt.Errorf("registryserver: %s: folder name is not a semver version", root)
	}
	files := map[string][]byte{}
	err = fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("registryserver: %s: only regular files can be packed", p)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files[strings.TrimPrefix(p, root+"/")] = data
		return nil
	})
	if err != nil {
		return nil, err
	}
	pj := path.Join(root, "package.json")
	raw, ok := files["package.json"]
	if !ok {
		return nil, fmt.Errorf("registryserver: %s: missing", pj)
	}
	m, err := decodeManifest(raw)
	if err != nil {
		return nil, fmt.Errorf("registryserver: %s%w", pj, err)
	}
	if got, _ := m["name"].(string); got != name {
		return nil, fmt.Errorf("registryserver: %s: name is %q, the folder says %q", pj, got, name)
	}
	if got, _ := m["version"].(string); got != sv.String() {
		return nil, fmt.Errorf("registryserver: %s: version is %q, the folder says %q", pj, got, dir)
	}
	return &version{name: name, version: sv.String(), sv: sv, manifest: m, files: files}, nil
}

// decodeManifest reads a package.json keeping numbers as written. Syntax
// errors carry ":line: " so the caller can prefix the file name.
func decodeManifest(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, jsonError(raw, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New(": trailing data after the JSON object")
	}
	if m == nil {
		return nil, errors.New(": not a JSON object")
	}
	return m, nil
}

func readJSONFile[T map[string]string | []json.RawMessage](fsys fs.FS, p string, into *T) error {
	raw, err := fs.ReadFile(fsys, p)
	if err != nil {
		return fmt.Errorf("registryserver: %s: %w", p, err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		want := "an object of strings"
		if _, list := any(into).(*[]json.RawMessage); list {
			want = "a list of advisories"
		}
		return fmt.Errorf("registryserver: %s%w (want %s)", p, jsonError(raw, err), want)
	}
	return nil
}

func jsonError(raw []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return fmt.Errorf(": %w", err)
	}
	if off > int64(len(raw)) {
		off = int64(len(raw))
	}
	line := 1 + bytes.Count(raw[:off], []byte("\n"))
	return fmt.Errorf(":%d: %w", line, err)
}
