package diff

import (
	"fmt"
	"sort"
	"strings"
)

// The signature forms of the specification, parsed just enough to compare:
// callables (overloads, type parameters, parameters, return), container
// headers (abstract, type parameters, heritage), type aliases and values
// (modifiers and a type).

// overload is one call signature: "<T>(input: T, opts?: Options): Item".
type overload struct {
	text       string
	modifiers  []string
	typeParams []string
	params     []param
	ret        string
	hasRet     bool
}

type param struct {
	name     string
	typ      string
	optional bool
	rest     bool
}

var callableModifiers = []string{"protected", "abstract", "public", "static", "override", "new"}

func stripModifiers(s string, allowed []string) (mods []string, rest string) {
	rest = strings.TrimSpace(s)
	for {
		found := false
		for _, m := range allowed {
			if strings.HasPrefix(rest, m+" ") || (m == "new" && strings.HasPrefix(rest, "new(")) {
				mods = append(mods, m)
				rest = strings.TrimSpace(rest[len(m):])
				found = true
			}
		}
		if !found {
			sort.Strings(mods)
			return mods, rest
		}
	}
}

// parseCallable reads "(a: A): R; (b: B): R", overloads in declared order.
func parseCallable(sig string) ([]overload, error) {
	parts, err := splitTop(sig, ";")
	if err != nil {
		return nil, err
	}
	var out []overload
	for _, p := range parts {
		if p == "" {
			continue
		}
		o, err := parseOverload(p)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no call signature in %q", sig)
	}
	return out, nil
}

func parseOverload(s string) (overload, error) {
	o := overload{text: s}
	var rest string
	o.modifiers, rest = stripModifiers(s, callableModifiers)
	tps, rest, err := typeParamList(rest)
	if err != nil {
		return o, err
	}
	o.typeParams = tps
	if !strings.HasPrefix(rest, "(") {
		return o, fmt.Errorf("no parameter list in %q", s)
	}
	end, err := closeScan(rest, 0)
	if err != nil {
		return o, err
	}
	if o.params, err = parseParams(rest[1 : end-1]); err != nil {
		return o, err
	}
	tail := strings.TrimSpace(rest[end:])
	switch {
	case tail == "":
	case strings.HasPrefix(tail, "=>"):
		o.ret, o.hasRet = strings.TrimSpace(tail[2:]), true
	case strings.HasPrefix(tail, ":"):
		o.ret, o.hasRet = strings.TrimSpace(tail[1:]), true
	default:
		return o, fmt.Errorf("unexpected %q after the parameters of %q", tail, s)
	}
	if o.hasRet && o.ret == "" {
		return o, fmt.Errorf("empty return type in %q", s)
	}
	return o, nil
}

var paramModifiers = []string{"readonly", "public", "private", "protected", "override"}

func parseParams(s string) ([]param, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	items, err := splitTop(s, ",")
	if err != nil {
		return nil, err
	}
	out := make([]param, 0, len(items))
	for i, it := range items {
		if it == "" {
			if i == len(items)-1 {
				continue // trailing comma
			}
			return nil, fmt.Errorf("empty parameter in %q", s)
		}
		_, it = stripModifiers(it, paramModifiers)
		var p param
		if strings.HasPrefix(it, "...") {
			p.rest = true
			it = strings.TrimSpace(it[3:])
		}
		colon, err := indexTop(it, ":")
		if err != nil {
			return nil, err
		}
		name := it
		p.typ = "any"
		if colon >= 0 {
			name = strings.TrimSpace(it[:colon])
			p.typ = strings.TrimSpace(it[colon+1:])
			if p.typ == "" {
				return nil, fmt.Errorf("parameter %q has no type", it)
			}
		}
		if strings.HasSuffix(name, "?") {
			p.optional = true
			name = strings.TrimSpace(strings.TrimSuffix(name, "?"))
		}
		if name == "" {
			return nil, fmt.Errorf("parameter without a name in %q", s)
		}
		p.name = name
		out = append(out, p)
	}
	return out, nil
}

// isFunctionType reports whether a type is a function or constructor type
// ("(x: string) => void", "new () => T", "<T>(x: T) => T").
func isFunctionType(t string) bool {
	if !arrowAtTop(t) {
		return false
	}
	_, err := parseOverload(t)
	return err == nil
}

// arrowAtTop reports whether "=>" appears at the top level right after the
// parameter list, which is what makes the whole type a function type rather
// than, say, a union with one.
func arrowAtTop(t string) bool {
	_, rest := stripModifiers(t, callableModifiers)
	_, rest, err := typeParamList(rest)
	if err != nil || !strings.HasPrefix(rest, "(") {
		return false
	}
	end, err := closeScan(rest, 0)
	if err != nil {
		return false
	}
	return strings.HasPrefix(strings.TrimSpace(rest[end:]), "=>")
}

// asCallable turns a function type into call-signature form, so a method
// and the callable property that replaces it compare as callables.
func asCallable(t string) string {
	_, rest := stripModifiers(t, []string{"readonly", "protected", "abstract"})
	return rest
}

// header is a class or interface signature:
// "abstract class<T = Item> extends Base implements I, J".
type header struct {
	abstract   bool
	keyword    string
	typeParams []string
	heritage   []string // "extends X", "implements Y", one per base
}

func parseHeader(sig string) (header, error) {
	var h header
	mods, rest := stripModifiers(sig, []string{"abstract", "declare", "export"})
	for _, m := range mods {
		if m == "abstract" {
			h.abstract = true
		}
	}
	for _, kw := range []string{"class", "interface"} {
		if rest == kw || strings.HasPrefix(rest, kw+" ") || strings.HasPrefix(rest, kw+"<") {
			h.keyword = kw
			rest = rest[len(kw):]
			break
		}
	}
	if h.keyword == "" {
		return h, fmt.Errorf("%q is not a class or interface header", sig)
	}
	tps, rest, err := typeParamList(rest)
	if err != nil {
		return h, err
	}
	h.typeParams = tps
	rest = " " + strings.TrimSpace(rest)
	impl, err := indexTop(rest, " implements ")
	if err != nil {
		return h, err
	}
	ext, implPart := rest, ""
	if impl >= 0 {
		ext, implPart = rest[:impl], rest[impl+len(" implements "):]
	}
	ext = strings.TrimSpace(ext)
	if ext != "" {
		if !strings.HasPrefix(ext, "extends ") {
			return h, fmt.Errorf("unexpected %q in header %q", ext, sig)
		}
		if err := h.addBases("extends", ext[len("extends "):]); err != nil {
			return h, err
		}
	}
	if impl >= 0 {
		if err := h.addBases("implements", implPart); err != nil {
			return h, err
		}
	}
	sort.Strings(h.heritage)
	return h, nil
}

func (h *header) addBases(clause, list string) error {
	bases, err := splitTop(list, ",")
	if err != nil {
		return err
	}
	for _, b := range bases {
		if b == "" {
			return fmt.Errorf("empty base in %q", list)
		}
		h.heritage = append(h.heritage, clause+" "+b)
	}
	return nil
}

// alias is a type alias signature: "type<T> = 'a' | 'b'", or "type<T>"
// when the body is an object literal whose members are expanded.
type alias struct {
	typeParams []string
	body       string
	hasBody    bool
}

func parseAlias(sig string) (alias, error) {
	var a alias
	rest := strings.TrimSpace(sig)
	if rest != "type" && !strings.HasPrefix(rest, "type<") && !strings.HasPrefix(rest, "type ") {
		return a, fmt.Errorf("%q is not a type alias signature", sig)
	}
	rest = rest[len("type"):]
	tps, rest, err := typeParamList(rest)
	if err != nil {
		return a, err
	}
	a.typeParams = tps
	rest = strings.TrimSpace(rest)
	switch {
	case rest == "":
	case strings.HasPrefix(rest, "="):
		a.body, a.hasBody = strings.TrimSpace(rest[1:]), true
		if a.body == "" {
			return a, fmt.Errorf("empty type alias body in %q", sig)
		}
	default:
		return a, fmt.Errorf("unexpected %q in type alias %q", rest, sig)
	}
	return a, nil
}

// value is a property, variable, index signature or enum member signature:
// modifiers or a declaration keyword, then a type.
type value struct {
	modifiers []string // readonly, protected, abstract, const (sorted)
	typ       string
}

var valueModifiers = []string{"protected", "readonly", "abstract", "public", "override", "declare", "static"}

func parseValue(sig string, variable bool) value {
	mods, rest := stripModifiers(sig, valueModifiers)
	if variable {
		for _, kw := range []string{"const", "let", "var"} {
			if strings.HasPrefix(rest, kw+" ") || rest == kw {
				if kw == "const" {
					mods = append(mods, "const")
				}
				rest = strings.TrimSpace(rest[len(kw):])
				break
			}
		}
	}
	sort.Strings(mods)
	return value{modifiers: mods, typ: rest}
}

// modifierChange compares modifier sets: each added restricting modifier
// tightens, each removed one loosens. "public", "override", "declare" and
// "static" say nothing a consumer depends on.
func modifierChange(a, b []string) (added, removed []string) {
	restricting := func(m string) bool {
		switch m {
		case "protected", "abstract", "readonly", "const":
			return true
		}
		return false
	}
	in := func(s []string, x string) bool {
		for _, v := range s {
			if v == x {
				return true
			}
		}
		return false
	}
	for _, m := range b {
		if restricting(m) && !in(a, m) {
			added = append(added, m)
		}
	}
	for _, m := range a {
		if restricting(m) && !in(b, m) {
			removed = append(removed, m)
		}
	}
	return added, removed
}
