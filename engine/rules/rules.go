// Package rules is the one catalogue of every rule Uptide decides by: the
// diff's classification rows, the usage match's tables and the migration
// packs' rules, listed together. Each kind stays data in the package that
// applies it; this list is where a reader finds them all, and where a test
// holds an id to naming one rule across the three (a change's rule, a
// finding's plan rule and a report row meet in one vocabulary).
package rules

import (
	"github.com/uptide/uptide/engine/diff"
	"github.com/uptide/uptide/engine/match"
	"github.com/uptide/uptide/engine/packs"
)

// Source is which of the three a rule belongs to.
type Source string

// The sources.
const (
	Diff  Source = "diff"
	Match Source = "match"
	Pack  Source = "pack"
)

// Rule is one entry of the catalogue.
type Rule struct {
	ID     string
	Source Source
	// Table is the diff's or the match's table the row belongs to, or the
	// package a pack rule migrates.
	Table string
	Title string
}

// All is every rule: the diff's rows in table order, the match's by id,
// then each pack's in its order.
func All() []Rule {
	var out []Rule
	for _, r := range diff.Rules() {
		out = append(out, Rule{ID: r.ID, Source: Diff, Table: r.Table, Title: r.Title})
	}
	for _, r := range match.Rules() {
		out = append(out, Rule{ID: r.ID, Source: Match, Table: r.Table, Title: r.Title})
	}
	for _, p := range packs.Packs() {
		for _, r := range p.Rules {
			out = append(out, Rule{ID: r.ID, Source: Pack, Table: p.Package, Title: r.Title})
		}
	}
	return out
}
