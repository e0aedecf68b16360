// Package check is the checker: what upgrading a dependency breaks in the
// repository. It plans the units (a package alone or with its release
// group), scopes the files, joins the contract diff with every usage
// (Signal A), judges the target with the repository's own compiler on an
// overlay (Signal B), weighs the module format, and turns the findings into
// the per-rule plan. Diff, the contract diff of two published versions, is
// the same machinery without a repository. It starts from discovery
// (engine/discover) and reports progress through engine/event.
package check
