// Package engine is Uptide's public analysis API: Discover (what is installed,
// what is available, what must move together) and, later, Diff, Check and
// Plan. It imports neither cobra nor bubbletea, never prints, and reports
// progress through an Event sink so the CLI and the TUI render it their way.
package engine
