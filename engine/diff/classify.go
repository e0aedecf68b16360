package diff

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
)

// Classify turns raw pairs into changes with severity, confidence and the
// rule that decided them, sorted canonically. A pair can give several
// changes (a member that became required and deprecated), never two of one
// kind.
func Classify(pairs []Pair) []model.Change {
	out := make([]model.Change, 0, len(pairs))
	for _, p := range pairs {
		out = append(out, classifyPair(p)...)
	}
	Sort(out)
	return out
}

func classifyPair(p Pair) []model.Change {
	switch {
	case p.A == nil && p.B == nil:
		return nil
	case p.B == nil:
		r := rule("removed")
		c := model.Change{Path: p.Path, SymbolKind: p.A.Kind, Before: p.A.Signature, Visibility: p.A.Visibility}
		if p.A.Deprecated != nil {
			r = rule("removed/was-deprecated")
			c.Replacement = p.A.Deprecated.Replacement
		}
		return []model.Change{apply(c, r, "", "")}
	case p.A == nil:
		c := model.Change{Path: p.Path, SymbolKind: p.B.Kind, After: p.B.Signature, Visibility: p.B.Visibility}
		return []model.Change{apply(c, rule("added"), "", "")}
	}
	a, b := p.A, p.B
	base := model.Change{Path: p.Path, SymbolKind: b.Kind, Before: a.Signature, After: b.Signature, Visibility: a.Visibility}
	var out []model.Change
	// A global declaration (declare global, a script's top level reached
	// through /// <reference>) or an augmentation of another module is
	// reachable from every entry point: which entry points the package has
	// says nothing about where consumers get it (rule moved/augmentation).
	if len(a.ExportedFrom) > 0 && len(b.ExportedFrom) > 0 && !sameStringSet(a.ExportedFrom, b.ExportedFrom) && !isAugmentation(p.Path) {
		from, to := sortedCopy(a.ExportedFrom), sortedCopy(b.ExportedFrom)
		own := ownEntry(p.Path, from)
		switch {
		case disjoint(from, to):
			c := base
			c.Replacement = to[0]
			out = append(out, apply(c, rule("moved"), "", fmt.Sprintf("no longer exported from %s; import it from %s",
				strings.Join(from, ", "), strings.Join(to, ", "))))
		case own != "" && !contains(to, own):
			// Still exported from another of A's entry points, but not from
			// the one its path names: whoever imported it from there (the
			// package root, for zod 3's ZodEffects in zod 4) must import it
			// from elsewhere now.
			c := base
			c.Replacement = to[0]
			out = append(out, apply(c, rule("moved"), "", fmt.Sprintf("no longer exported from %s; import it from %s",
				own, strings.Join(to, ", "))))
		}
	}
	switch {
	case a.Optional && !b.Optional:
		out = append(out, apply(base, rule("required"), "", ""))
	case !a.Optional && b.Optional:
		out = append(out, apply(base, rule("optional"), "", ""))
	}
	if a.Deprecated == nil && b.Deprecated != nil {
		c := base
		c.Replacement = b.Deprecated.Replacement
		out = append(out, apply(c, rule("deprecated"), "", strings.TrimSpace(b.Deprecated.Message)))
	}
	sa, sb := dropQualifiers(a.Signature, p.Qualifiers), dropQualifiers(b.Signature, p.Qualifiers)
	var findings []finding
	switch {
	case a.Kind != b.Kind:
		findings = declKindFindings(a.Kind, b.Kind, sa, sb)
	case sa != sb:
		findings = comparer{self: constructed(p.Path)}.compare(b.Kind, sa, sb)
	}
	if len(findings) > 0 {
		out = append(out, withFindings(base, findings))
	}
	return out
}

// compare dispatches on the symbol kind to the signature form it has.
func (c comparer) compare(kind model.SymbolKind, a, b string) []finding {
	switch kind {
	case model.KindFunction, model.KindMethod, model.KindConstructor, model.KindCallSignature:
		return c.callable(a, b, false)
	case model.KindProperty, model.KindVariable, model.KindIndexSignature, model.KindEnumMember, model.KindEnum:
		return c.value(kind, a, b)
	case model.KindTypeAlias:
		return c.typeAlias(a, b)
	case model.KindClass, model.KindInterface:
		return compareHeaders(a, b)
	}
	if a == b {
		return nil
	}
	return []finding{{rule: "type/changed", detail: fmt.Sprintf("%s → %s", a, b)}}
}

// declKindFindings: what consumers can do with the name matters, not the
// keyword.
func declKindFindings(ka, kb model.SymbolKind, sa, sb string) []finding {
	detail := fmt.Sprintf("%s → %s", ka, kb)
	switch {
	case ka == model.KindInterface && kb == model.KindTypeAlias:
		out := []finding{{rule: "decl-kind/interface-to-alias", detail: detail}}
		if h, err := parseHeader(sa); err == nil {
			if al, err := parseAlias(sb); err == nil {
				out = append(out, typeParamFindings(h.typeParams, al.typeParams, "")...)
			}
		}
		return out
	case ka == model.KindTypeAlias && kb == model.KindInterface:
		out := []finding{{rule: "decl-kind/alias-to-interface", detail: detail}}
		if al, err := parseAlias(sa); err == nil {
			if h, err := parseHeader(sb); err == nil {
				out = append(out, typeParamFindings(al.typeParams, h.typeParams, "")...)
			}
		}
		return out
	case ka == model.KindMethod && kb == model.KindProperty:
		v := parseValue(sb, false)
		if isFunctionType(v.typ) {
			out := []finding{{rule: "decl-kind/method-to-property", detail: detail}}
			return append(out, comparer{}.callable(sa, v.typ, false)...)
		}
	case ka == model.KindClass && kb == model.KindVariable:
		return []finding{{rule: "decl-kind/class-to-variable", detail: detail}}
	}
	return []finding{{rule: "decl-kind/other", detail: detail}}
}

// apply sets a rule's classification on a change.
func apply(c model.Change, r Rule, role, note string) model.Change {
	c.Kind, c.Severity, c.Confidence, c.Rule = r.Kind, r.Severity, r.Confidence, r.ID
	if role == "" {
		role = r.Role
	}
	if c.Kind == model.ChangeWidened || c.Kind == model.ChangeNarrowed {
		c.Role = role
	}
	c.Note = r.Note
	if note != "" {
		c.Note = note
	}
	return c
}

// withFindings classifies a change by its most serious finding: the most
// confident breaking one, else the least confident of the rest, because
// one certain break makes the change breaking and one doubtful part makes
// an additive change doubtful. Several findings of different kinds make a
// signature (or type) change.
func withFindings(c model.Change, findings []finding) model.Change {
	best := 0
	for i := 1; i < len(findings); i++ {
		r, b := rule(findings[i].rule), rule(findings[best].rule)
		ri, bi := r.Severity.Rank(), b.Severity.Rank()
		switch {
		case ri > bi:
			best = i
		case ri < bi:
		case r.Severity == model.Breaking && r.Confidence > b.Confidence:
			best = i
		case r.Severity != model.Breaking && r.Confidence < b.Confidence:
			best = i
		}
	}
	decider := rule(findings[best].rule)
	details := make([]string, 0, len(findings))
	for _, f := range findings {
		if f.detail != "" {
			details = append(details, f.detail)
		}
	}
	note := decider.Note
	if note == "" {
		note = strings.Join(details, "; ")
	}
	c = apply(c, decider, findings[best].role, note)
	if len(findings) > 1 {
		kind := decider.Kind
		for _, f := range findings {
			if rule(f.rule).Kind != kind {
				kind = mixedKind(c.SymbolKind)
				break
			}
		}
		c.Kind = kind
		if kind != model.ChangeWidened && kind != model.ChangeNarrowed {
			c.Role = ""
		}
	}
	return c
}

func mixedKind(k model.SymbolKind) model.ChangeKind {
	switch k {
	case model.KindProperty, model.KindVariable, model.KindIndexSignature, model.KindEnumMember, model.KindTypeAlias:
		return model.ChangeType
	}
	return model.ChangeSignature
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// ownEntry is the entry point a path names: its scope ("./v4":X), or the
// root for a bare path the root exports. A bare path only subpaths export
// names none of them in particular ("" then), so only losing them all is
// a move for it.
func ownEntry(p string, exportedFrom []string) string {
	if strings.HasPrefix(p, `"`) {
		if pp, err := path.Parse(p); err == nil && pp.Scope != "" {
			return pp.Scope
		}
		return ""
	}
	if contains(exportedFrom, ".") {
		return "."
	}
	return ""
}

// isAugmentation reports whether a path is scoped to the global scope or
// to a module the package does not own, rather than to one of its own
// entry points (whose subpaths start with ".").
func isAugmentation(p string) bool {
	if !strings.HasPrefix(p, `"`) {
		return false
	}
	pp, err := path.Parse(p)
	return err == nil && pp.Scope != "" && !strings.HasPrefix(pp.Scope, ".")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func disjoint(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return false
			}
		}
	}
	return true
}

// Sort orders changes canonically: by path, then kind, then the remaining
// fields, so that equal inputs give identical output whatever the order
// they were produced in.
func Sort(changes []model.Change) {
	slices.SortStableFunc(changes, func(a, b model.Change) int {
		return cmp.Or(
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Kind, b.Kind),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Before, b.Before),
			cmp.Compare(a.After, b.After),
			cmp.Compare(a.Replacement, b.Replacement),
		)
	})
}
