package diff

import (
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
)

// Pair is one symbol that differs between two surfaces: only in A
// (removed), only in B (added), or in both with something changed.
type Pair struct {
	// Path is where the change is reported: A's path when the symbol exists
	// in A, since that is the name consumers of A wrote.
	Path string
	A, B *model.Symbol
	// Qualifiers are the `export =` root names ("sharp") whose "sharp."
	// qualifiers are dropped from both signatures before comparing, set on
	// every pair when the two sides export such a root in different shapes.
	Qualifiers []string
}

// Raw pairs the symbols of two surfaces by canonical path and returns the
// pairs that differ, sorted by path. Where one side exports a root with
// `export =` and the other exports the same API as default plus named
// exports, the root is looked up under the other side's same declared name
// or default, and its namespace members as top-level names.
func Raw(a, b *model.Surface) []Pair {
	return rawWith(newSurfaceIndex(a), newSurfaceIndex(b))
}

func rawWith(xa, xb *surfaceIndex) []Pair {
	ia, ib := xa.byPath, xb.byPath
	shapes := exportShapes(xa, xb)
	quals := shapes.qualifiers()
	consumed := make(map[string]bool)
	pairs := make([]Pair, 0, 64)
	for _, p := range xa.sorted {
		sa := ia[p]
		if sb, ok := ib[p]; ok {
			if differs(sa, sb, quals) {
				pairs = append(pairs, Pair{Path: p, A: sa, B: sb, Qualifiers: quals})
			}
			continue
		}
		if target, ok := shapes.lookup(p, ia, ib, consumed); ok {
			consumed[target] = true
			if sb := ib[target]; differs(sa, sb, quals) {
				pairs = append(pairs, Pair{Path: p, A: sa, B: sb, Qualifiers: quals})
			}
			continue
		}
		if target, ok := scopeLookup(p, ia, ib, xb.scopes, consumed); ok {
			consumed[target] = true
			if sb := ib[target]; differs(sa, sb, quals) {
				pairs = append(pairs, Pair{Path: p, A: sa, B: sb, Qualifiers: quals})
			}
			continue
		}
		pairs = append(pairs, Pair{Path: p, A: sa})
	}
	for _, p := range xb.sorted {
		if _, ok := ia[p]; !ok && !consumed[p] {
			pairs = append(pairs, Pair{Path: p, B: ib[p]})
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Path < pairs[j].Path })
	return pairs
}

// index maps paths to symbols. A surface holds each path once; if one
// does not, the smallest (kind, signature) wins so that input order never
// changes the result.
func index(s *model.Surface) map[string]*model.Symbol {
	if s == nil {
		return map[string]*model.Symbol{}
	}
	m := make(map[string]*model.Symbol, len(s.Symbols))
	for i := range s.Symbols {
		sym := &s.Symbols[i]
		if old, ok := m[sym.Path]; ok && (old.Kind < sym.Kind || (old.Kind == sym.Kind && old.Signature <= sym.Signature)) {
			continue
		}
		m[sym.Path] = sym
	}
	return m
}

// differs reports whether anything the classification looks at changed.
func differs(a, b *model.Symbol, qualifiers []string) bool {
	if a.Kind != b.Kind || a.Optional != b.Optional || (a.Deprecated == nil) != (b.Deprecated == nil) {
		return true
	}
	if dropQualifiers(a.Signature, qualifiers) != dropQualifiers(b.Signature, qualifiers) {
		return true
	}
	return !sameStringSet(a.ExportedFrom, b.ExportedFrom)
}

func sameStringSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x := append([]string(nil), a...)
	y := append([]string(nil), b...)
	sort.Strings(x)
	sort.Strings(y)
	return equalStrings(x, y)
}

// shapeMap holds the `export =` roots whose shape differs between sides.
type shapeMap struct {
	// aRoots: roots that are `export =` in A but not in B, with the name the
	// root itself has in B ("" when B has neither the name nor default).
	aRoots map[string]string
	// bRoots: roots that are `export =` in B but not in A.
	bRoots []string
}

func exportShapes(xa, xb *surfaceIndex) shapeMap {
	var m shapeMap
	ia, ib := xa.byPath, xb.byPath
	for _, s := range xa.exportEquals {
		p := s.Path
		if !isTopName(p) {
			continue
		}
		if other, ok := ib[p]; ok && other.ExportEquals {
			continue
		}
		if m.aRoots == nil {
			m.aRoots = make(map[string]string)
		}
		switch {
		case ib[p] != nil:
			m.aRoots[p] = p
		case ib["default"] != nil:
			m.aRoots[p] = "default"
		default:
			m.aRoots[p] = ""
		}
	}
	for _, s := range xb.exportEquals {
		p := s.Path
		if !isTopName(p) {
			continue
		}
		if other, ok := ia[p]; ok && other.ExportEquals {
			continue
		}
		m.bRoots = append(m.bRoots, p)
	}
	return m
}

// qualifiers are the root names whose qualifiers signatures lose.
func (m shapeMap) qualifiers() []string {
	var out []string
	for r := range m.aRoots {
		out = append(out, r)
	}
	out = append(out, m.bRoots...)
	sort.Strings(out)
	return out
}

func isTopName(p string) bool {
	pp, err := path.Parse(p)
	return err == nil && pp.Scope == "" && pp.Len() == 1 && pp.Segments[0].Kind == path.Name
}

// lookup finds the B path an A path that is missing from B corresponds to
// under the other export shape. A candidate must be absent from A (it
// would be compared with itself otherwise) and not already matched.
func (m shapeMap) lookup(p string, ia, ib map[string]*model.Symbol, consumed map[string]bool) (target string, ok bool) {
	if m.aRoots == nil && len(m.bRoots) == 0 {
		return "", false
	}
	pp, err := path.Parse(p)
	if err != nil || pp.Scope != "" || pp.Segments[0].Kind != path.Name {
		return "", false
	}
	free := func(q path.Path) (string, bool) {
		s := q.String()
		_, inA := ia[s]
		_, inB := ib[s]
		return s, inB && !inA && !consumed[s]
	}
	top := pp.Segments[0].Name
	if newRoot, isRoot := m.aRoots[top]; isRoot {
		// sharp → default; sharp#resize → default#resize.
		if newRoot != "" && newRoot != top {
			if s, ok := free(pp.WithRoot(newRoot)); ok {
				return s, true
			}
		}
		// sharp.ResizeOptions#width → ResizeOptions#width.
		if q, ok := pp.DropRoot(); ok {
			if s, ok := free(q); ok {
				return s, true
			}
		}
	}
	for _, root := range m.bRoots {
		// default → sharp; default#resize → sharp#resize.
		if top == "default" {
			if s, ok := free(pp.WithRoot(root)); ok {
				return s, true
			}
		}
		// ResizeOptions#width → sharp.ResizeOptions#width.
		if top != root {
			if q, ok := pp.Nest(root); ok {
				if s, ok := free(q); ok {
					return s, true
				}
			}
		}
	}
	return "", false
}

// scopeLookup finds the B path an A path missing from B has under the other
// side of a collision that appeared or disappeared (rule 8 of the canonical
// paths). When the root and "./v4" export different X in A, the ./v4 one is
// "./v4":X; when in B they export the same X, it is bare X exported from
// ./v4 too, and whoever imported X from 'pkg/v4' still finds it. The
// reverse holds for a bare X of A, not exported from the root, that B
// scopes: the consumer importing it from E finds "E":X. Members follow their container, so the container's
// entry points decide: "./v4":ZodString#min pairs with ZodString#min when B's
// ZodString is exported from ./v4.
func scopeLookup(p string, ia, ib map[string]*model.Symbol, scopesB []string, consumed map[string]bool) (string, bool) {
	pp, err := path.Parse(p)
	if err != nil || pp.Len() == 0 || pp.Segments[0].Kind != path.Name {
		return "", false
	}
	if pp.Scope != "" {
		// Only entry points are scopes a collision gives; "express":Request
		// is an augmentation of another module and keeps its scope.
		if !strings.HasPrefix(pp.Scope, "./") {
			return "", false
		}
		bare := path.Path{Segments: pp.Segments}
		target := bare.String()
		if ib[target] != nil && exportedFrom(ib, path.Root(pp.Segments[0].Name).String(), target, pp.Scope) {
			// A bare target present in A is A's own symbol (the root's X),
			// which is compared with B's X under its own path; sharing it
			// is fine.
			return target, true
		}
		// Scoped by another entry point that now exports the same
		// declaration ("./v4-mini":any → "./mini":any exported from both).
		for _, e := range scopesB {
			if e == pp.Scope {
				continue
			}
			target := bare.Scoped(e).String()
			if ib[target] != nil && ia[target] == nil && exportedFrom(ib, path.Root(pp.Segments[0].Name).Scoped(e).String(), target, pp.Scope) {
				return target, true
			}
		}
		return "", false
	}
	top := path.Root(pp.Segments[0].Name).String()
	container := ia[top]
	if container == nil {
		container = ia[p]
	}
	// A root export whose bare path is gone was removed for everyone who
	// imported it from the package itself, whatever a subpath still offers,
	// while the root still exports that name: zod 4's root ZodString has no
	// ip(), and zod 3's ZodString#ip under "./v3" does not make it a move.
	// When the root stopped exporting the name altogether and a subpath of
	// A still exports it, scoped because B's name collides elsewhere, it
	// is the same declaration that moved ("./v3":ParseContext).
	if ib[top] != nil && contains(container.ExportedFrom, ".") {
		return "", false
	}
	for _, e := range sortedCopy(container.ExportedFrom) {
		if !strings.HasPrefix(e, "./") {
			continue
		}
		scoped := pp.Scoped(e)
		target := scoped.String()
		if ib[target] == nil || ia[target] != nil || consumed[target] {
			continue
		}
		if exportedFrom(ib, path.Root(pp.Segments[0].Name).Scoped(e).String(), target, e) {
			return target, true
		}
	}
	return "", false
}

// exportedFrom reports whether the container at top (or, without one, the
// symbol at p) is exported from entry point e.
func exportedFrom(ix map[string]*model.Symbol, top, p, e string) bool {
	s := ix[top]
	if s == nil {
		s = ix[p]
	}
	for _, x := range s.ExportedFrom {
		if x == e {
			return true
		}
	}
	return false
}
