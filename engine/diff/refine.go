package diff

import (
	"sort"

	"github.com/uptide/uptide/engine/model"
)

// Assignability is the type checker's answer for one pair of types: the
// type in version A and the type at the same place in version B.
type Assignability struct {
	// AToB: A's type is assignable to B's (B is at least as wide).
	AToB bool `json:"aToB"`
	// BToA: B's type is assignable to A's (B is at least as narrow).
	BToA bool `json:"bToA"`
}

func (a Assignability) direction() direction {
	switch {
	case a.AToB && a.BToA:
		return same
	case a.AToB:
		return widened
	case a.BToA:
		return narrowed
	}
	return changed
}

// Relation is what the TypeScript adapter's compareTypes answers for one
// symbol path: the declared types compared as a whole and, for callables
// with the same number of non-generic overloads on both sides, overload by
// overload and parameter by parameter.
type Relation struct {
	Assignability
	// Signatures pairs A's overloads with B's in declared order; empty when
	// the callable must be compared as a whole function type.
	Signatures []SignatureRelation `json:"signatures,omitempty"`
}

// SignatureRelation compares one overload's parts.
type SignatureRelation struct {
	// Params compares parameter i of A's overload with parameter i of B's,
	// for the parameters both have.
	Params []Assignability `json:"params"`
	// Return is nil when either side has no return type (constructors).
	Return *Assignability `json:"return,omitempty"`
}

// refinable reports whether a change was decided by reading signature text
// and names a symbol whose type the checker can compare: the changes
// Refine re-decides. Declaration kind, header, presence, optionality,
// deprecation and moves are facts the checker cannot improve on.
func refinable(c model.Change) bool {
	r, ok := RuleByID(c.Rule)
	if !ok || r.Table != TableSignature {
		return false
	}
	switch c.SymbolKind {
	case model.KindFunction, model.KindMethod, model.KindConstructor, model.KindCallSignature,
		model.KindProperty, model.KindVariable, model.KindIndexSignature, model.KindEnumMember,
		model.KindTypeAlias:
		return true
	}
	return false
}

// NeedsTypes lists, sorted and without duplicates, the symbol paths whose
// types Refine would compare with the checker.
func NeedsTypes(changes []model.Change) []string {
	var out []string
	for _, c := range changes {
		if refinable(c) {
			out = append(out, c.Path)
		}
	}
	sort.Strings(out)
	return dedupe(out)
}

// Refine re-decides every text-classified type change for which the checker
// answered, by the role table of the specification: the same structural
// findings (parameters added, removed, made optional) plus the checker's
// direction for every type. A change the checker finds equivalent both ways
// disappears. Changes without an answer are kept as they are.
func Refine(changes []model.Change, relations map[string]Relation) []model.Change {
	if len(relations) == 0 {
		return changes
	}
	out := make([]model.Change, 0, len(changes))
	for _, c := range changes {
		rel, ok := relations[c.Path]
		if !ok || !refinable(c) {
			out = append(out, c)
			continue
		}
		cmp := comparer{rel: &rel, self: constructed(c.Path)}
		findings := cmp.compare(c.SymbolKind, c.Before, c.After)
		if len(findings) == 0 {
			continue // checker/equivalent: nothing changed for anyone
		}
		out = append(out, withFindings(c, findings))
	}
	return out
}
