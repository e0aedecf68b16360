package model

// Packument is what the registry knows of one package: its versions and tags.
type Packument struct {
	Name     string             `json:"name"`
	DistTags map[string]string  `json:"distTags"`
	Versions map[string]Release `json:"versions"`
	// Time maps version to its RFC 3339 publish time; only full documents
	// carry it, so it may be empty.
	Time map[string]string `json:"time,omitempty"`
}

// Release is the manifest of one published version, as far as Uptide reads it.
type Release struct {
	Name                 string              `json:"name"`
	Version              string              `json:"version"`
	Dependencies         map[string]string   `json:"dependencies,omitempty"`
	PeerDependencies     map[string]string   `json:"peerDependencies,omitempty"`
	PeerDependenciesMeta map[string]PeerMeta `json:"peerDependenciesMeta,omitempty"`
	OptionalDependencies map[string]string   `json:"optionalDependencies,omitempty"`
	Engines              map[string]string   `json:"engines,omitempty"`
	Deprecated           string              `json:"deprecated,omitempty"`
	Dist                 Dist                `json:"dist"`
}

// PeerMeta is one peerDependenciesMeta entry.
type PeerMeta struct {
	Optional bool `json:"optional,omitempty"`
}

// Dist locates and authenticates a release's tarball.
type Dist struct {
	Tarball   string `json:"tarball"`
	Integrity string `json:"integrity,omitempty"`
	Shasum    string `json:"shasum,omitempty"`
}
