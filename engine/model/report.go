package model

// CheckReport is what `uptide check` found: one report per dependency
// decision asked about (a release group is one decision).
type CheckReport struct {
	Repository RepoSummary `json:"repository"`
	// Packages are sorted by title, then installed version.
	Packages []PackageReport `json:"packages"`
	Problems []Problem       `json:"problems"`
	// ComputedLoads are the computed loads that count against none of the
	// packages checked, once each, sorted by file and line.
	ComputedLoads []ComputedLoad `json:"computedLoads"`
	Notes         []string       `json:"notes"`
}

// PackageReport is one dependency decision checked against one target: a
// package at one installed version in one or more workspaces, or a release
// group moving together.
type PackageReport struct {
	// Title is the package name, or "@scope/* (N packages)" for a group.
	Title string `json:"title"`
	// Package is the package asked about (the group's lead otherwise).
	Package    string   `json:"package"`
	Workspaces []string `json:"workspaces"`
	Installed  string   `json:"installed,omitempty"`
	Target     string   `json:"target,omitempty"`
	// Update is patch, minor, major or "major ×N".
	Update UpdateKind `json:"update,omitzero"`
	// Group is the release group checked together, when there is one.
	Group *Group `json:"group,omitempty"`
	// Members are the packages analyzed: the package alone, or every member
	// of its group, sorted by name.
	Members []MemberReport `json:"members"`

	// Status says whether the package was analyzed (analyzed, partial,
	// not-analyzed, skipped) and Reason why not entirely.
	Status AnalysisStatus `json:"status"`
	Reason string         `json:"reason,omitempty"`
	// Verdict is the honest verdict (breaking, possible, safe, partial,
	// unknown), empty when nothing was analyzed; Summary says it in words
	// ("✗ 2 breaking · 1 possible").
	Verdict Verdict       `json:"verdict,omitempty"`
	Summary string        `json:"summary"`
	Counts  FindingCounts `json:"counts"`
	// Findings are every finding, hidden ones included, sorted canonically.
	Findings []Finding `json:"findings"`
	// Unanalyzed are the loads the analysis could not follow.
	Unanalyzed   []Unanalyzed       `json:"unanalyzed"`
	Compile      CompileReport      `json:"compile"`
	ModuleFormat ModuleFormatReport `json:"moduleFormat"`
	// Runtime is Signal C per member whose runtime package moves: the
	// probe's loads and changes, or why it could not decide. Absent when
	// it did not run (--no-runtime, a types package).
	Runtime []RuntimeResult `json:"runtime,omitempty"`
	// Companions is the companion plan of the target, attached to every
	// report of the package.
	Companions CompanionPlan `json:"companions"`
	Plan       Plan          `json:"plan"`
	// Importers are every workspace whose own sources import the package
	// (or a member of the group), declared or not, analyzed or not, sorted
	// by workspace: the report never drops a workspace silently.
	Importers []Importer `json:"importers"`
	// Undeclared are the importers that do not declare the package: each
	// analyzed against the copy it resolves to, or skipped with the reason.
	Undeclared []Undeclared `json:"undeclared"`
	Notes      []string     `json:"notes"`
	// Warnings are what makes the result incomplete.
	Warnings []string `json:"warnings"`
}

// MemberReport is one analyzed package of a report.
type MemberReport struct {
	Name       string   `json:"name"`
	Installed  string   `json:"installed"`
	Target     string   `json:"target"`
	Workspaces []string `json:"workspaces"`
	// TypesVia is set when the declarations come from DefinitelyTyped.
	TypesVia *TypesVia `json:"typesVia,omitempty"`
	// Status and Reason say whether this member's usages and diff were
	// analyzed.
	Status AnalysisStatus `json:"status"`
	Reason string         `json:"reason,omitempty"`
	// Sites counts the usages found, Files the files holding them.
	Sites int `json:"sites"`
	Files int `json:"files"`
	// Changes counts the diff's changes (BreakingChanges of them breaking
	// before usage is known).
	Changes         int `json:"changes"`
	BreakingChanges int `json:"breakingChanges"`
}

// TypesVia says a package was analyzed against its @types releases.
type TypesVia struct {
	// Package is the DefinitelyTyped package ("@types/express").
	Package string `json:"package"`
	// From is the @types release matching the installed runtime's major,
	// To the release typing the target.
	From string `json:"from"`
	To   string `json:"to"`
	// Installed is the @types release the repository has, when it differs
	// from From.
	Installed string `json:"installed,omitempty"`
}

// FindingCounts counts a report's listed findings: an anchor or a per-file
// finding once. Hidden findings count only in Hidden.
type FindingCounts struct {
	Breaking   int `json:"breaking"`
	Possible   int `json:"possible"`
	Deprecated int `json:"deprecated"`
	Hidden     int `json:"hidden"`
	// Sites are the usage sites analyzed, Unanalyzed the loads not followed.
	Sites      int `json:"sites"`
	Unanalyzed int `json:"unanalyzed"`
}

// CompileReport is Signal B for one report: what the repository's compiler
// was asked to judge, what it covered, and which compiler it was.
type CompileReport struct {
	Status AnalysisStatus `json:"status"`
	Reason string         `json:"reason,omitempty"`
	// Compiler names the judge: "the repo's TypeScript 5.4.5".
	Compiler string `json:"compiler,omitempty"`
	// Asked and Compiled count the files in scope and the ones type-checked.
	Asked    int           `json:"asked"`
	Compiled int           `json:"compiled"`
	Skipped  []SkippedFile `json:"skipped"`
	// PreExisting counts the baseline's errors in the files in scope, and
	// PreExistingErrors are they: what the repository's own tsc reports in
	// those files before the upgrade, which check subtracts.
	PreExisting       int          `json:"preExisting"`
	PreExistingErrors []Diagnostic `json:"preExistingErrors"`
	// NewErrors counts the diagnostics the target adds.
	NewErrors int `json:"newErrors"`
	// UnresolvedInTarget counts bare imports inside the targets nothing
	// could serve.
	UnresolvedInTarget int `json:"unresolvedInTarget"`
	// Line is the coverage line the report prints.
	Line string `json:"line"`
}

// SkippedFile is a file in scope the compile did not type-check.
type SkippedFile struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// ModuleFormatReport is the module-format half of check: whether the target
// stops supporting require(), and which Node judged the require() sites.
type ModuleFormatReport struct {
	Status AnalysisStatus `json:"status"`
	Reason string         `json:"reason,omitempty"`
	// StopsRequire: the target's manifests give require() no CommonJS entry
	// the installed version had.
	StopsRequire bool `json:"stopsRequire"`
	// RequireSites counts the usages loaded with require().
	RequireSites int `json:"requireSites"`
	// Node is the repository's Node ("Node 22 (.nvmrc)"), when it was read.
	Node string `json:"node,omitempty"`
}

// Importer is a workspace whose own sources (nested workspaces excluded)
// import a package of the report, found by a text scan.
type Importer struct {
	// Workspace is the workspace's path ("." for the root).
	Workspace string `json:"workspace"`
	// Package is the package imported (a group member for a group).
	Package string `json:"package"`
	// Declared: the workspace's package.json declares the package.
	Declared bool `json:"declared"`
	// Status is analyzed when this report covers the workspace's imports,
	// else skipped or not-analyzed, with Reason.
	Status AnalysisStatus `json:"status"`
	Reason string         `json:"reason,omitempty"`
	// Files are the workspace's files importing the package.
	Files []string `json:"files"`
}

// Undeclared is a workspace importing a package it does not declare (a
// hoisted copy another workspace declares, as under shamefully-hoist).
type Undeclared struct {
	Workspace string `json:"workspace"`
	Package   string `json:"package"`
	// Via names the workspace that declares the copy the import resolves
	// to, by its package name ("@acme/core"), else its path.
	Via string `json:"via,omitempty"`
	// ViaWorkspace is that workspace's path.
	ViaWorkspace string `json:"viaWorkspace,omitempty"`
	// Resolved is the version of the copy the import resolves to.
	Resolved string `json:"resolved,omitempty"`
	// Status is analyzed (its usages and compile are in this report) or
	// skipped (its import does not resolve, or resolves to a copy no
	// checked decision has), with Reason.
	Status AnalysisStatus `json:"status"`
	Reason string         `json:"reason,omitempty"`
}
