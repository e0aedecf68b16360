// Package discover reads a repository as its package manager sees it: its
// dependency rows (installed → available), the release groups and
// companions of each row, the resolution of a --target, and the re-planning
// of a row for a chosen target. It never analyzes code: the checker
// (engine/check) starts from what it found.
package discover
