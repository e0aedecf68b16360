package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/uptide/uptide/internal/jsontok"
	"io"

	"github.com/uptide/uptide/engine/model"
)

// The registry holds fifteen years of hand-written manifests: dependencies
// given as arrays, engines as lists, deprecated as a boolean. One odd
// version must not make a whole package unreadable, so every field is
// decoded leniently and a field of the wrong shape reads as absent.

type wirePackument struct {
	Name     string                 `json:"name"`
	DistTags looseStrings           `json:"dist-tags"`
	Versions map[string]wireRelease `json:"versions"`
	Time     looseStrings           `json:"time"`
}

type wireRelease struct {
	Name                 looseString              `json:"name"`
	Version              looseString              `json:"version"`
	Dependencies         looseStrings             `json:"dependencies"`
	PeerDependencies     looseStrings             `json:"peerDependencies"`
	PeerDependenciesMeta map[string]loosePeerMeta `json:"-"`
	RawPeerMeta          json.RawMessage          `json:"peerDependenciesMeta"`
	OptionalDependencies looseStrings             `json:"optionalDependencies"`
	Engines              looseStrings             `json:"engines"`
	Deprecated           looseDeprecated          `json:"deprecated"`
	Dist                 looseDist                `json:"dist"`

	isObject bool // false for a version entry that was not an object
}

// UnmarshalJSON makes a version entry that is not an object read as empty
// instead of failing the whole document.
func (w *wireRelease) UnmarshalJSON(b []byte) error {
	type plain wireRelease
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			*w = wireRelease{}
			return nil
		}
		return err
	}
	*w = wireRelease(p)
	w.isObject = firstByte(b) == '{'
	if len(p.RawPeerMeta) > 0 {
		var meta map[string]loosePeerMeta
		if json.Unmarshal(p.RawPeerMeta, &meta) == nil {
			w.PeerDependenciesMeta = meta
		}
	}
	return nil
}

type loosePeerMeta struct {
	Optional bool
}

func (m *loosePeerMeta) UnmarshalJSON(b []byte) error {
	var v struct {
		Optional any `json:"optional"`
	}
	if json.Unmarshal(b, &v) == nil {
		m.Optional = v.Optional == true
	}
	return nil
}

type looseString string

func (s *looseString) UnmarshalJSON(b []byte) error {
	var v string
	if json.Unmarshal(b, &v) == nil {
		*s = looseString(v)
	}
	return nil
}

// looseStrings reads an object of strings, skipping values of other types;
// anything but an object reads as empty.
type looseStrings map[string]string

func (m *looseStrings) UnmarshalJSON(b []byte) error {
	// Nearly every value is well formed: one pass then.
	var plain map[string]string
	if json.Unmarshal(b, &plain) == nil {
		if plain == nil {
			plain = map[string]string{}
		}
		*m = plain
		return nil
	}
	var raw map[string]json.RawMessage
	if json.Unmarshal(b, &raw) != nil {
		*m = nil
		return nil
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		var s string
		if firstByte(v) == '"' && json.Unmarshal(v, &s) == nil {
			out[k] = s
		}
	}
	*m = out
	return nil
}

// looseDeprecated is the deprecation message; `true` (seen in old
// manifests) becomes a generic one and `false` none.
type looseDeprecated string

func (d *looseDeprecated) UnmarshalJSON(b []byte) error {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	switch v := v.(type) {
	case string:
		*d = looseDeprecated(v)
	case bool:
		if v {
			*d = "deprecated"
		}
	}
	return nil
}

type looseDist struct {
	Tarball   looseString `json:"tarball"`
	Integrity looseString `json:"integrity"`
	Shasum    looseString `json:"shasum"`
}

func (d *looseDist) UnmarshalJSON(b []byte) error {
	type plain looseDist
	var p plain
	if json.Unmarshal(b, &p) == nil {
		*d = looseDist(p)
	}
	return nil
}

// decodePackument reads a registry document (abbreviated or full) into
// the model. Only a document that is not a JSON object fails.
func decodePackument(body []byte, name string) (*model.Packument, error) {
	return decodePackumentStream(bytes.NewReader(body), name, nil)
}

// decodePackumentStream reads a document from r as it arrives, keeping
// only the fields the model holds: one version's manifest at a time is in
// memory, never the document (a full packument is tens of megabytes, most
// of it readmes and fields Uptide never reads). Read errors come back as
// r returned them, wrapped.
func decodePackumentStream(r io.Reader, name string, kept *charge) (*model.Packument, error) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("decode packument: not a JSON object")
		}
		return nil, fmt.Errorf("decode packument: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("decode packument: not a JSON object")
	}
	p := &model.Packument{Versions: map[string]model.Release{}}
	var times looseStrings
	in := interner{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("decode packument: %w", err)
		}
		var field any
		switch key, _ := tok.(string); key {
		case "name":
			field = (*looseString)(&p.Name)
		case "dist-tags":
			field = (*looseStrings)(&p.DistTags)
		case "time":
			field = &times
		case "versions":
			if err := decodeVersions(dec, p.Versions, in, kept); err != nil {
				return nil, err
			}
			continue
		default:
			if err := jsontok.SkipValue(dec); err != nil {
				return nil, fmt.Errorf("decode packument: %w", err)
			}
			continue
		}
		if err := dec.Decode(field); err != nil {
			return nil, fmt.Errorf("decode packument: %w", err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("decode packument: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("data after the document")
		}
		return nil, fmt.Errorf("decode packument: %w", err)
	}
	finishPackument(p, times, name)
	if err := kept.add(timesSize(p.Time)); err != nil {
		return nil, err
	}
	return p, nil
}

// finishPackument applies what only the whole document tells: the name
// may come after the versions, and "time" lists document times too.
func finishPackument(p *model.Packument, times looseStrings, name string) {
	if p.Name == "" {
		p.Name = name
	}
	if p.DistTags == nil {
		p.DistTags = map[string]string{}
	}
	for v, rel := range p.Versions {
		if rel.Version == "" {
			rel.Version = v
		}
		if rel.Name == "" {
			rel.Name = p.Name
		}
		p.Versions[v] = rel
	}
	for v, t := range times {
		// "created" and "modified" are document times, not versions.
		if _, ok := p.Versions[v]; ok {
			if p.Time == nil {
				p.Time = map[string]string{}
			}
			p.Time[v] = t
		}
	}
}

// decodeVersions reads the "versions" value one manifest at a time; a
// value that is not an object reads as no versions.
func decodeVersions(dec *json.Decoder, out map[string]model.Release, in interner, kept *charge) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("decode packument: %w", err)
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil // a scalar: no versions
	}
	if d != '{' {
		if err := jsontok.SkipRest(dec); err != nil { // a list: no versions
			return fmt.Errorf("decode packument: %w", err)
		}
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("decode packument: %w", err)
		}
		v, _ := tok.(string)
		var w wireRelease
		if err := dec.Decode(&w); err != nil {
			return fmt.Errorf("decode packument: version %q: %w", v, err)
		}
		if !w.isObject || v == "" {
			continue
		}
		rel := w.release(in)
		if err := kept.add(keptSize(v, rel)); err != nil {
			return err
		}
		out[in.str(v)] = rel
	}
	_, err = dec.Token()
	if err != nil {
		return fmt.Errorf("decode packument: %w", err)
	}
	return nil
}

// interner shares one copy of the strings a document repeats in every
// version (dependency names and ranges, engine keys).
type interner map[string]string

func (in interner) str(s string) string {
	if in == nil {
		return s
	}
	if v, ok := in[s]; ok {
		return v
	}
	in[s] = s
	return s
}

func (in interner) strings(m looseStrings) map[string]string {
	if len(m) == 0 {
		return nil
	}
	if in == nil {
		return map[string]string(m)
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[in.str(k)] = in.str(v)
	}
	return out
}

// decodeRelease reads one version manifest (the per-version endpoint).
func decodeRelease(body []byte) (model.Release, error) {
	var w wireRelease
	if err := json.Unmarshal(body, &w); err != nil {
		return model.Release{}, fmt.Errorf("decode manifest: %w", err)
	}
	return w.release(nil), nil
}

func (w wireRelease) release(in interner) model.Release {
	r := model.Release{
		Name:                 in.str(string(w.Name)),
		Version:              string(w.Version),
		Dependencies:         in.strings(w.Dependencies),
		PeerDependencies:     in.strings(w.PeerDependencies),
		OptionalDependencies: in.strings(w.OptionalDependencies),
		Engines:              in.strings(w.Engines),
		Deprecated:           string(w.Deprecated),
		Dist: model.Dist{
			Tarball:   string(w.Dist.Tarball),
			Integrity: string(w.Dist.Integrity),
			Shasum:    string(w.Dist.Shasum),
		},
	}
	if len(w.PeerDependenciesMeta) > 0 {
		r.PeerDependenciesMeta = make(map[string]model.PeerMeta, len(w.PeerDependenciesMeta))
		for k, m := range w.PeerDependenciesMeta {
			r.PeerDependenciesMeta[in.str(k)] = model.PeerMeta{Optional: m.Optional}
		}
	}
	return r
}

func firstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}
