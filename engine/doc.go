// Package engine is Uptide's analysis API, a façade over the packages that
// do the work: Discover (what is installed, what is available, what must
// move together; engine/discover), Check (what an upgrade breaks here,
// confirmed by the repository's own compiler; engine/check), Diff (the
// contract diff of two published versions) and PlanTarget (a row re-planned
// for a chosen target), with the types they take and return. Progress
// comes as events (engine/event). The CLI and the TUI call this package and
// read engine/model; they never reach into the analysis packages. It
// imports neither cobra nor bubbletea and never prints.
package engine
