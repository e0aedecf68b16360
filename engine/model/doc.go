// Package model holds the vocabulary the whole engine speaks: repositories,
// workspaces, dependency declarations, release groups, companions and the
// reports built from them. It holds data only; no I/O and no rendering.
package model
