package diff

import (
	"fmt"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
)

// finding is one difference inside a signature, already mapped to a rule.
// A symbol's findings are combined into one Change.
type finding struct {
	rule   string
	role   string
	detail string
}

// comparer compares two signatures of one symbol. Without a relation it
// reads union member sets from the text; with one it takes the direction
// of every type it can from the checker's answers.
type comparer struct {
	rel *Relation
	// self is the type a constructor builds (its container's name), set
	// when comparing the constructor at "X.new()".
	self string
}

// constructed is the name of the type the constructor at path p builds:
// a class constructor prints no return type, the construct signature of a
// value + interface pair returns the instance type, and the two are the
// same to `new X()`. "" when p is not a constructor path.
func constructed(p string) string {
	pp, err := path.Parse(p)
	if err != nil || pp.Len() < 2 || pp.Leaf().Kind != path.Construct {
		return ""
	}
	if l := pp.Parent().Leaf(); l.Kind == path.Name {
		return l.Name
	}
	return ""
}

// returnsSelf reports whether an overload's return type is the instance
// type its constructor builds, which a class constructor leaves implicit.
func (c comparer) returnsSelf(o overload) bool {
	if c.self == "" || !o.hasRet || !isTypeReference(o.ret) {
		return false
	}
	name := o.ret
	if i := strings.IndexByte(name, '<'); i > 0 {
		name = name[:i]
	}
	return name == c.self
}

const (
	partReturn = -1
	partWhole  = -2
)

// direction of the type at (overload, part) from a to b, and whether the
// checker decided it.
func (c comparer) direction(a, b string, ov, part int) (direction, bool, error) {
	if c.rel != nil {
		if part == partWhole {
			return c.rel.Assignability.direction(), true, nil
		}
		if ov < len(c.rel.Signatures) {
			s := c.rel.Signatures[ov]
			if part == partReturn && s.Return != nil {
				return s.Return.direction(), true, nil
			}
			if part >= 0 && part < len(s.Params) {
				return s.Params[part].direction(), true, nil
			}
		}
	}
	d, err := textDirection(a, b)
	return d, false, err
}

// typeFinding maps a direction of one part to its rule. what is "param",
// "return" or "type"; role is the part's direction role.
func typeFinding(what, role string, d direction, byChecker bool, a, b, detail string) []finding {
	if d == same {
		return nil
	}
	detail = detail + ": " + typeChangeText(a, b)
	if byChecker {
		return []finding{{rule: directionRule(role, d), role: role, detail: detail}}
	}
	var id string
	switch what {
	case "param":
		id = "sig/param/" + d.String()
		if d == changed && inlineVersusNamed(a, b) {
			id = "sig/param/inline-to-named"
		}
	case "return":
		id = "sig/return/" + d.String()
	default:
		id = "type/" + d.String()
	}
	return []finding{{rule: id, role: role, detail: detail}}
}

func inlineVersusNamed(a, b string) bool {
	return (isInlineObject(a) && isTypeReference(b)) || (isInlineObject(b) && isTypeReference(a))
}

// isInlineObject reports whether t is one object type literal: the
// expanded "{…}" of a property, or a parameter's type written out in full
// ("{ retries?: number; }"), since parameters are never expanded.
func isInlineObject(t string) bool {
	if t == "{…}" {
		return true
	}
	if !strings.HasPrefix(t, "{") {
		return false
	}
	end, err := closeScan(t, 0)
	return err == nil && end == len(t)
}

func unparsed(err error) []finding {
	return []finding{{rule: "sig/unparsed", detail: err.Error()}}
}

// callable compares function, method, constructor and call signatures.
// Callback roles are used for a function-typed property.
func (c comparer) callable(a, b string, callback bool) []finding {
	oa, err := parseCallable(a)
	if err != nil {
		return unparsed(err)
	}
	ob, err := parseCallable(b)
	if err != nil {
		return unparsed(err)
	}
	if c.rel != nil {
		if len(c.rel.Signatures) > 0 && len(c.rel.Signatures) == len(oa) && len(oa) == len(ob) {
			var out []finding
			for i := range oa {
				out = append(out, c.overload(oa[i], ob[i], i, len(oa) > 1, callback)...)
			}
			return out
		}
		// Compared as whole function types: new assignable to old keeps
		// every existing call working. The checker relates generic
		// signatures loosely (a parameter that became required still
		// relates), so the parameter list's shape is read from the text:
		// useRef<T>(initial?: T) → useRef<T>(initial: T) breaks every
		// useRef() call whatever the checker says. Type parameter lists are
		// left to the checker: renaming T is not a change.
		var out []finding
		if len(oa) == len(ob) {
			for i := range oa {
				out = append(out, modifierFindings(oa[i].modifiers, ob[i].modifiers, "")...)
				out = append(out, c.overloadShape(oa[i], ob[i], i, len(oa) > 1, callback)...)
			}
		}
		switch d := c.rel.Assignability.direction(); d {
		case same:
		case narrowed:
			out = append(out, finding{rule: "direction/callable/compatible", detail: "new function type is assignable to the old one"})
		default:
			out = append(out, finding{rule: "checker/incompatible", detail: "new function type is not assignable to the old one"})
		}
		return out
	}
	if len(oa) == 1 && len(ob) == 1 {
		return c.overload(oa[0], ob[0], 0, false, callback)
	}
	inA, inB := make(map[string]bool, len(oa)), make(map[string]bool, len(ob))
	for _, o := range oa {
		inA[o.text] = true
	}
	for _, o := range ob {
		inB[o.text] = true
	}
	var missing, added []int
	for i, o := range oa {
		if !inB[o.text] {
			missing = append(missing, i)
		}
	}
	for i, o := range ob {
		if !inA[o.text] {
			added = append(added, i)
		}
	}
	switch {
	case len(missing) == 0 && len(added) == 0 && len(oa) == len(ob) && sameOverloadOrder(oa, ob):
		return nil
	case len(missing) == 0:
		return []finding{{rule: "sig/overloads/survived", detail: fmt.Sprintf("%d overloads → %d, every old one kept", len(oa), len(ob))}}
	case len(missing) == 1 && len(added) == 1:
		return c.overload(oa[missing[0]], ob[added[0]], missing[0], true, callback)
	}
	return []finding{{rule: "sig/overloads/changed", detail: fmt.Sprintf("%d of %d overloads changed or disappeared", len(missing), len(oa))}}
}

func sameOverloadOrder(a, b []overload) bool {
	for i := range a {
		if a[i].text != b[i].text {
			return false
		}
	}
	return true
}

func (c comparer) overload(x, y overload, idx int, numbered, callback bool) []finding {
	return c.overloadParts(x, y, idx, numbered, callback, true)
}

// overloadShape is what the text says about an overload's parameter list
// (parameters added, removed, made optional or required, rest changed,
// return added or removed) without deciding the direction of any type.
func (c comparer) overloadShape(x, y overload, idx int, numbered, callback bool) []finding {
	return c.overloadParts(x, y, idx, numbered, callback, false)
}

// overloadParts compares one overload; types says whether the direction
// of every parameter and return type is decided too, along with the
// modifiers and type parameters.
func (c comparer) overloadParts(x, y overload, idx int, numbered, callback, types bool) []finding {
	where := ""
	if numbered {
		where = fmt.Sprintf("overload %d ", idx+1)
	}
	paramRole, returnRole := RoleParameter, RoleReturn
	if callback {
		paramRole, returnRole = RoleCallbackParameter, RoleCallbackReturn
	}
	var out []finding
	if has(x.modifiers, "new") != has(y.modifiers, "new") {
		return []finding{{rule: "sig/overloads/changed", detail: where + "call and construct signatures are not interchangeable"}}
	}
	if types {
		out = append(out, modifierFindings(x.modifiers, y.modifiers, where)...)
		out = append(out, typeParamFindings(x.typeParams, y.typeParams, where)...)
	}
	n := max(len(x.params), len(y.params))
	for i := 0; i < n; i++ {
		label := fmt.Sprintf("%sparameter %d", where, i+1)
		switch {
		case i >= len(y.params):
			out = append(out, finding{rule: "sig/param/removed", detail: fmt.Sprintf("%s (%s) removed", label, x.params[i].name)})
		case i >= len(x.params):
			p := y.params[i]
			id := "sig/param/added-required"
			switch {
			case p.rest:
				id = "sig/param/added-rest"
			case p.optional:
				id = "sig/param/added-optional"
			}
			out = append(out, finding{rule: id, detail: fmt.Sprintf("%s (%s: %s) added", label, p.name, p.typ)})
		default:
			p, q := x.params[i], y.params[i]
			label += " (" + q.name + ")"
			if p.rest != q.rest {
				out = append(out, finding{rule: "sig/param/changed", role: paramRole, detail: label + " rest changed"})
				continue
			}
			if p.optional && !q.optional {
				out = append(out, finding{rule: "sig/param/made-required", detail: label + " made required"})
			} else if !p.optional && q.optional {
				out = append(out, finding{rule: "sig/param/made-optional", detail: label + " made optional"})
			}
			if !types || (p.typ == q.typ && c.rel == nil) {
				continue
			}
			d, byChecker, err := c.direction(p.typ, q.typ, idx, i)
			if err != nil {
				return unparsed(err)
			}
			// The checker reads an optional parameter's type with undefined
			// added, so a parameter made optional (or required) with the
			// same declared type differs by exactly that, already reported.
			if byChecker && p.typ == q.typ && ((!p.optional && q.optional && d == widened) || (p.optional && !q.optional && d == narrowed)) {
				continue
			}
			out = append(out, typeFinding("param", paramRole, d, byChecker, p.typ, q.typ, label)...)
		}
	}
	switch {
	case x.hasRet != y.hasRet:
		if !c.returnsSelf(x) && !c.returnsSelf(y) {
			out = append(out, finding{rule: "sig/return/changed", role: returnRole, detail: where + "return type added or removed"})
		}
	case types && x.hasRet && (x.ret != y.ret || c.rel != nil):
		d, byChecker, err := c.direction(x.ret, y.ret, idx, partReturn)
		if err != nil {
			return unparsed(err)
		}
		out = append(out, typeFinding("return", returnRole, d, byChecker, x.ret, y.ret, where+"return type")...)
	}
	return out
}

func has(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func modifierFindings(a, b []string, where string) []finding {
	added, removed := modifierChange(a, b)
	var out []finding
	for _, m := range added {
		out = append(out, finding{rule: "sig/modifier/tightened", detail: where + m + " added"})
	}
	for _, m := range removed {
		out = append(out, finding{rule: "sig/modifier/loosened", detail: where + m + " removed"})
	}
	return out
}

// typeParamFindings: a trailing type parameter with a default is additive,
// anything else breaking.
func typeParamFindings(a, b []string, where string) []finding {
	if equalStrings(a, b) {
		return nil
	}
	detail := fmt.Sprintf("%stype parameters <%s> → <%s>", where, strings.Join(a, ", "), strings.Join(b, ", "))
	if len(b) > len(a) && equalStrings(a, b[:len(a)]) {
		trailing := true
		for _, tp := range b[len(a):] {
			trailing = trailing && hasDefault(tp)
		}
		if trailing {
			return []finding{{rule: "type-params/trailing-default", detail: detail}}
		}
	}
	return []finding{{rule: "type-params/changed", detail: detail}}
}

// valueRole is the direction role of a property, variable, index signature
// or enum member.
func valueRole(kind model.SymbolKind, mods []string) string {
	switch kind {
	case model.KindVariable, model.KindEnumMember:
		return RoleOutput
	}
	if has(mods, "readonly") {
		return RoleOutput
	}
	return RoleUnknown
}

// value compares properties, variables, index signatures, enum members and
// enums (whose signature is "enum" or "const enum").
func (c comparer) value(kind model.SymbolKind, a, b string) []finding {
	keyword := kind == model.KindVariable || kind == model.KindEnum
	va, vb := parseValue(a, keyword), parseValue(b, keyword)
	out := modifierFindings(va.modifiers, vb.modifiers, "")
	if va.typ == vb.typ && (c.rel == nil || kind == model.KindEnum) {
		return out
	}
	if kind == model.KindEnum {
		return append(out, finding{rule: "type/changed", detail: fmt.Sprintf("%s → %s", a, b)})
	}
	if c.rel != nil && len(c.rel.Signatures) > 0 && isFunctionType(va.typ) && isFunctionType(vb.typ) {
		return append(out, c.callable(va.typ, vb.typ, true)...)
	}
	role := valueRole(kind, vb.modifiers)
	if role == RoleUnknown {
		role = valueRole(kind, va.modifiers)
	}
	d, byChecker, err := c.direction(va.typ, vb.typ, 0, partWhole)
	if err != nil {
		return unparsed(err)
	}
	return append(out, typeFinding("type", role, d, byChecker, va.typ, vb.typ, "type")...)
}

// typeAlias compares "type<T> = body" signatures.
func (c comparer) typeAlias(a, b string) []finding {
	x, err := parseAlias(a)
	if err != nil {
		return unparsed(err)
	}
	y, err := parseAlias(b)
	if err != nil {
		return unparsed(err)
	}
	out := typeParamFindings(x.typeParams, y.typeParams, "")
	switch {
	case x.hasBody != y.hasBody:
		out = append(out, finding{rule: "type/changed", role: RoleUnknown, detail: "object literal body replaced, or replaced by one"})
	case x.hasBody && (x.body != y.body || c.rel != nil):
		d, byChecker, err := c.direction(x.body, y.body, 0, partWhole)
		if err != nil {
			return unparsed(err)
		}
		out = append(out, typeFinding("type", RoleUnknown, d, byChecker, x.body, y.body, "type")...)
	}
	return out
}

// compareHeaders compares class and interface headers.
func compareHeaders(a, b string) []finding {
	x, err := parseHeader(a)
	if err != nil {
		return unparsed(err)
	}
	y, err := parseHeader(b)
	if err != nil {
		return unparsed(err)
	}
	var out []finding
	switch {
	case !x.abstract && y.abstract:
		out = append(out, finding{rule: "header/became-abstract", detail: "class became abstract"})
	case x.abstract && !y.abstract:
		out = append(out, finding{rule: "header/stopped-abstract", detail: "class is no longer abstract"})
	}
	if x.keyword != y.keyword {
		out = append(out, finding{rule: "decl-kind/other", detail: x.keyword + " → " + y.keyword})
	}
	out = append(out, typeParamFindings(x.typeParams, y.typeParams, "")...)
	if !equalStrings(x.heritage, y.heritage) {
		detail := fmt.Sprintf("%s → %s", heritageText(x.heritage), heritageText(y.heritage))
		if subset(x.heritage, y.heritage) {
			out = append(out, finding{rule: "header/extends-grew", detail: detail})
		} else {
			out = append(out, finding{rule: "header/extends-lost", detail: detail})
		}
	}
	return out
}

func heritageText(h []string) string {
	if len(h) == 0 {
		return "no bases"
	}
	return strings.Join(h, ", ")
}
