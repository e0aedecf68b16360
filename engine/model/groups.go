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
	Title string    `json:"title"`
	Kind  GroupKind `json:"kind"`
	// Members: the lead first, the rest sorted. A name is listed once per
	// installed version the group holds, which is once unless two
	// workspaces that cannot see each other are both linked to a package
	// of a directory above them.
	Members []string `json:"members"`
	// Versions[i] is the installed version of Members[i]. A list row (one
	// package at one installed version) belongs to the group when its
	// package and installed version are one of these pairs: the same name
	// at another version is another decision, maybe in another group.
	Versions []string `json:"versions"`
	// Workspaces: every workspace declaring a member, sorted.
	Workspaces []string `json:"workspaces"`
	// Why says briefly what links them, one clause per kind of link needed
	// to hold them together.
	Why string `json:"why"`
}

// Companion is a package that has to move with an upgrade.
type Companion struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
	Why  string `json:"why"`
	// Remove: the upgrade makes the package needless and removes it (To
	// is ""): an @types package whose package's target ships its own
	// declarations.
	Remove bool `json:"remove,omitempty"`
	// Reason is Why for code to decide on; it stays out of JSON, where Why
	// and Remove say it.
	Reason CompanionReason `json:"-"`
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
