package model

// GroupKind says why packages form a release group.
type GroupKind string

// The reasons packages must move together.
const (
	// GroupFamily: one scope, same installed major, connected by depending or
	// peer-depending on one another or on the same package of the scope.
	GroupFamily GroupKind = "family"
	// GroupExplicit: scoped packages of one scope depending on one another
	// explicitly, whatever their majors.
	GroupExplicit GroupKind = "explicit"
	// GroupPeer: a peer range of one's target needs the other (cross-scope).
	GroupPeer GroupKind = "peer"
	// GroupSharedPin: both pin the same exact version of a dependency.
	GroupSharedPin GroupKind = "shared-pin"
)

// Group is a set of direct dependencies that must be upgraded together.
type Group struct {
	// Title is "@aws-sdk/* (2 packages)" for a scope, "ai (3 packages)" led by
	// a package otherwise.
	Title   string    `json:"title"`
	Kind    GroupKind `json:"kind"`
	Members []string  `json:"members"`
	// Why says in one sentence what links them.
	Why string `json:"why"`
}

// Companion is a package that has to move with an upgrade.
type Companion struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
	Why  string `json:"why"`
}

// Conflict is a package that should move with an upgrade but has no release
// that agrees with the target.
type Conflict struct {
	Name string `json:"name"`
	From string `json:"from"`
	Why  string `json:"why"`
}

// CompanionPlan is what upgrading Name from From to To drags along.
type CompanionPlan struct {
	Name       string      `json:"name"`
	From       string      `json:"from"`
	To         string      `json:"to"`
	Companions []Companion `json:"companions"`
	Conflicts  []Conflict  `json:"conflicts"`
}
