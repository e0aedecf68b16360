// Package stripe owns the stripe pack's snapshot of Stripe API changes:
// the breaking changes stripe's own CHANGELOG.md lists for each release
// that moves the SDK's pinned API version, parsed from the CHANGELOG a
// published stripe tarball ships (Parse, Build), written as
// changelog.json with its source and a checksum (Marshal), and read back
// by the pack with that checksum verified (Shipped, Decode).
//
// changelog.json is generated, never edited by hand: regenerate it from
// the repository root with `go run ./engine/packs/stripe/gen`.
package stripe

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// SchemaVersion is the version of changelog.json's format. Version 1 was
// the hand-written snapshot without a checksum.
const SchemaVersion = 2

// Snapshot is changelog.json.
type Snapshot struct {
	SchemaVersion int    `json:"schemaVersion"`
	About         string `json:"about"`
	Source        Source `json:"source"`
	// Versions are the API versions the SDK pinned, oldest first, as its
	// CHANGELOG announces them.
	Versions []string `json:"versions"`
	// Entries are in CHANGELOG order: by version, then as listed.
	Entries []Entry `json:"entries"`
	// Checksum is "sha256:<hex>" over the canonical encoding of Versions
	// and Entries (see Checksum).
	Checksum string `json:"checksum"`
}

// Source says where the entries were read.
type Source struct {
	// Package is the stripe release whose CHANGELOG.md was read
	// ("stripe@23.2.0").
	Package string `json:"package"`
	// Integrity is the tarball's integrity as the registry gives it (SRI);
	// empty when the CHANGELOG was read from a local file.
	Integrity string `json:"integrity,omitempty"`
	File      string `json:"file"`
	// SHA256 is the digest of the CHANGELOG's bytes, hex.
	SHA256 string `json:"sha256"`
}

// Entry is one breaking change the CHANGELOG lists for the release that
// moved the pinned API version to Version.
type Entry struct {
	Version string `json:"version"`
	// Release is the SDK release whose CHANGELOG section lists it.
	Release string `json:"release"`
	// Breaking is true for every entry Parse reads (it reads breaking
	// changes only); the pack says "breaking" or "change" from it.
	Breaking bool `json:"breaking"`
	// Area is the Stripe type the entry names first (a resource rather
	// than a params type when it names both); empty when it names none.
	Area    string `json:"area,omitempty"`
	Summary string `json:"summary"`
}

// Checksum is the checksum of versions and entries: sha256 over their
// canonical encoding (compact JSON of {"versions","entries"}, fields in
// declaration order, no HTML escaping).
func Checksum(versions []string, entries []Entry) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(struct {
		Versions []string `json:"versions"`
		Entries  []Entry  `json:"entries"`
	}{versions, entries})
	sum := sha256.Sum256(b.Bytes())
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Marshal writes the snapshot as changelog.json, setting its schema
// version and checksum.
func Marshal(s *Snapshot) ([]byte, error) {
	s.SchemaVersion = SchemaVersion
	s.Checksum = Checksum(s.Versions, s.Entries)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Decode reads a changelog.json and checks it: its schema version, that
// every entry's version is one of its versions, and its checksum. A
// snapshot edited by hand without regenerating fails here.
func Decode(b []byte) (*Snapshot, error) {
	var s Snapshot
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("not a changelog snapshot: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("not a changelog snapshot: data after the JSON object")
	}
	if s.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("schema version %d, this build reads %d", s.SchemaVersion, SchemaVersion)
	}
	if len(s.Versions) == 0 {
		return nil, errors.New("it lists no API version")
	}
	seen := make(map[string]bool, len(s.Versions))
	for _, v := range s.Versions {
		if seen[v] {
			return nil, fmt.Errorf("API version %s is listed twice", v)
		}
		seen[v] = true
	}
	for i, e := range s.Entries {
		if !seen[e.Version] {
			return nil, fmt.Errorf("entry %d names API version %q, which the snapshot does not list", i+1, e.Version)
		}
		if e.Summary == "" {
			return nil, fmt.Errorf("entry %d has no summary", i+1)
		}
	}
	if sum := Checksum(s.Versions, s.Entries); s.Checksum != sum {
		return nil, fmt.Errorf("its checksum %q does not match its versions and entries (%s): it was changed after it was generated", s.Checksum, sum)
	}
	return &s, nil
}

//go:embed changelog.json
var shippedJSON []byte

// Shipped is the snapshot shipped in the tree, checked.
func Shipped() (*Snapshot, error) { return shipped() }

// shipped decodes and checks the embedded snapshot once per process.
var shipped = sync.OnceValues(func() (*Snapshot, error) { return Decode(shippedJSON) })

// Covers reports whether the snapshot lists the API version.
func (s *Snapshot) Covers(version string) bool { return s.index(version) >= 0 }

func (s *Snapshot) index(version string) int {
	for i, v := range s.Versions {
		if v == version {
			return i
		}
	}
	return -1
}

// Between is every entry of an API version after from up to and
// including to, in snapshot order; nil when either version is not
// covered or to does not come after from.
func (s *Snapshot) Between(from, to string) []Entry {
	i, j := s.index(from), s.index(to)
	if i < 0 || j < 0 {
		return nil
	}
	var out []Entry
	for _, e := range s.Entries {
		if k := s.index(e.Version); k > i && k <= j {
			out = append(out, e)
		}
	}
	return out
}
