package model

// InstalledSource says where an installed version was read from.
type InstalledSource string

// Where installed versions come from.
const (
	FromLockfile InstalledSource = "lockfile"
	// FromManifest: no lockfile, and the manifest pins an exact version.
	FromManifest InstalledSource = "manifest"
	// Unknown: the version could not be read; it is stated, never guessed.
	Unknown InstalledSource = "unknown"
)

// DiscoverReport is what `uptide list` shows: every dependency decision of
// the repository, installed → available, with groups and companion plans.
type DiscoverReport struct {
	Repository RepoSummary `json:"repository"`
	// Rows: one per dependency decision, majors first, then by importing files.
	Rows   []DependencyRow `json:"rows"`
	Groups []Group         `json:"groups"`
	// Companions: the plan of the latest target of each major upgrade.
	Companions []CompanionPlan `json:"companions"`
	// Skipped: declarations that do not come from a registry.
	Skipped []Skipped `json:"skipped"`
	// NotChecked: registry packages whose metadata could not be fetched.
	NotChecked []NotChecked `json:"notChecked"`
	Problems   []Problem    `json:"problems"`
	Notes      []string     `json:"notes"`
}

// RepoSummary names the repository and how it is managed.
type RepoSummary struct {
	Root           string `json:"root"`
	Name           string `json:"name,omitempty"`
	PackageManager string `json:"packageManager"`
	// PackageManagerField is the packageManager field as written, if any.
	PackageManagerField string   `json:"packageManagerField,omitempty"`
	Lockfile            string   `json:"lockfile,omitempty"`
	LockfileFormat      string   `json:"lockfileFormat,omitempty"`
	Workspaces          []string `json:"workspaces"`
}

// DependencyRow is one dependency decision: one package at one installed
// version and target, in one or more workspaces.
type DependencyRow struct {
	// Name is the name the manifests declare (the alias for npm: aliases).
	Name string `json:"name"`
	// Package is the registry package (differs from Name for aliases).
	Package    string   `json:"package"`
	Workspaces []string `json:"workspaces"`
	// Shared: the same installed version and target in several workspaces.
	Shared bool `json:"shared,omitempty"`
	// Catalog: declared through a pnpm catalog, one decision for the repo.
	Catalog string    `json:"catalog,omitempty"`
	Types   []DepType `json:"types"`
	Specs   []string  `json:"specs"`

	Installed       string          `json:"installed,omitempty"`
	InstalledSource InstalledSource `json:"installedSource"`
	Latest          string          `json:"latest,omitempty"`
	// Target is the version an upgrade would go to: latest, unless latest is
	// below what is installed.
	Target string `json:"target,omitempty"`
	// TargetWhy says why Target is not latest when a rule holds it below:
	// a release group whose member tops out below the others' latest goes
	// to the newest release every member has.
	TargetWhy string `json:"targetWhy,omitempty"`
	// Update is patch, minor, major, "major ×N", or empty when up to date.
	Update UpdateKind `json:"update,omitzero"`
	// Deprecated is the registry's deprecation message for the installed version.
	Deprecated string `json:"deprecated,omitempty"`
	// TargetDeprecated is the deprecation message of the target version.
	TargetDeprecated string `json:"targetDeprecated,omitempty"`
	// ImportingFiles lists the repository files importing the package.
	ImportingFiles []string `json:"importingFiles"`
	// Group is the title of the release group the package belongs to.
	Group string `json:"group,omitempty"`
	// Status is ok, or not-checked when the registry did not answer.
	Status RowStatus `json:"status"`
	Reason string    `json:"reason,omitempty"`
}

// Skipped is a declaration Uptide does not query a registry for.
type Skipped struct {
	Name      string   `json:"name"`
	Workspace string   `json:"workspace"`
	Spec      string   `json:"spec"`
	Kind      SpecKind `json:"kind"`
	Reason    string   `json:"reason"`
}

// NotChecked is a registry package whose metadata could not be fetched.
type NotChecked struct {
	Name       string   `json:"name"`
	Workspaces []string `json:"workspaces"`
	Host       string   `json:"host"`
	Reason     string   `json:"reason"`
}
