package registry

import (
	"encoding/json"
	"errors"
	"fmt"

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
	if firstByte(body) != '{' {
		return nil, errors.New("decode packument: not a JSON object")
	}
	var w wirePackument
	if err := json.Unmarshal(body, &w); err != nil {
		// A field of the wrong type (versions as a list) leaves the rest
		// decoded; only a document that is not an object is unreadable.
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) {
			return nil, fmt.Errorf("decode packument: %w", err)
		}
	}
	p := &model.Packument{
		Name:     w.Name,
		DistTags: map[string]string(w.DistTags),
		Versions: make(map[string]model.Release, len(w.Versions)),
	}
	if p.Name == "" {
		p.Name = name
	}
	if p.DistTags == nil {
		p.DistTags = map[string]string{}
	}
	for v, r := range w.Versions {
		if !r.isObject || v == "" {
			continue
		}
		rel := r.release()
		if rel.Version == "" {
			rel.Version = v
		}
		if rel.Name == "" {
			rel.Name = p.Name
		}
		p.Versions[v] = rel
	}
	for v, t := range w.Time {
		// "created" and "modified" are document times, not versions.
		if _, ok := p.Versions[v]; ok {
			if p.Time == nil {
				p.Time = map[string]string{}
			}
			p.Time[v] = t
		}
	}
	return p, nil
}

// decodeRelease reads one version manifest (the per-version endpoint).
func decodeRelease(body []byte) (model.Release, error) {
	var w wireRelease
	if err := json.Unmarshal(body, &w); err != nil {
		return model.Release{}, fmt.Errorf("decode manifest: %w", err)
	}
	return w.release(), nil
}

func (w wireRelease) release() model.Release {
	r := model.Release{
		Name:                 string(w.Name),
		Version:              string(w.Version),
		Dependencies:         nonEmpty(w.Dependencies),
		PeerDependencies:     nonEmpty(w.PeerDependencies),
		OptionalDependencies: nonEmpty(w.OptionalDependencies),
		Engines:              nonEmpty(w.Engines),
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
			r.PeerDependenciesMeta[k] = model.PeerMeta{Optional: m.Optional}
		}
	}
	return r
}

func nonEmpty(m looseStrings) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return map[string]string(m)
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
