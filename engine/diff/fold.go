package diff

import (
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
)

// GenuinelyPublicConfidence is the confidence from which a breaking change
// without a visibility marker counts as genuinely public.
const GenuinelyPublicConfidence = 0.7

// Fold marks the changes that another change already accounts for, without
// removing any: a member removed (or moved) with its container gets
// FoldedInto the outermost removed (or moved) ancestor, an inherited
// member's change gets FoldedInto the path that declares it when that
// changed the same way, and a change on an alias path gets AliasOf its
// canonical path when the same kind of change exists there. The full list keeps member-level detail for usage matching.
func Fold(changes []model.Change, a, b *model.Surface) []model.Change {
	return foldWith(changes, newSurfaceIndex(a), newSurfaceIndex(b))
}

func foldWith(changes []model.Change, ia, ib *surfaceIndex) []model.Change {
	type key struct {
		path string
		kind model.ChangeKind
	}
	present := make(map[key]bool, len(changes))
	for _, c := range changes {
		present[key{c.Path, c.Kind}] = true
	}
	out := append([]model.Change(nil), changes...)
	for i := range out {
		c := &out[i]
		if c.Kind == model.ChangeRemoved || c.Kind == model.ChangeMoved {
			if p, err := path.Parse(c.Path); err == nil {
				for _, anc := range p.Ancestors() {
					if s := anc.String(); present[key{s, c.Kind}] {
						c.FoldedInto = s
						break
					}
				}
			}
		}
		if alias := aliasOf(*c, ia, ib); alias != "" && alias != c.Path && present[key{alias, c.Kind}] {
			c.AliasOf = alias
		}
	}
	foldInherited(out, ia, ib)
	return out
}

// foldInherited folds the copies of an inherited member into the change on
// the path that declares it. Apparent members repeat the base's member
// under every derived path with the base's File and Pos (@types/react's
// onChange under each of 59 HTML attribute interfaces); when all of them
// changed the same way, the derived ones say nothing the declaring one does
// not. A derived copy that changed differently keeps its own change.
func foldInherited(changes []model.Change, ia, ib *surfaceIndex) {
	type key struct {
		file                string
		pos                 int
		kind                model.ChangeKind
		before, after, rule string
		leaf                string
	}
	// Only a declaration two changes share can fold: count them first, so
	// that the many changes alone at theirs are neither parsed nor keyed.
	type at struct {
		file string
		pos  int
	}
	syms := make([]*model.Symbol, len(changes))
	shared := make(map[at]int)
	for i := range changes {
		c := &changes[i]
		if c.FoldedInto != "" {
			continue
		}
		ix := ib
		if c.Kind == model.ChangeRemoved {
			ix = ia
		}
		if s := ix.byPath[c.Path]; s != nil && s.File != "" {
			syms[i] = s
			shared[at{s.File, s.Pos}]++
		}
	}
	groups := make(map[key][]int)
	var order []key
	for i := range changes {
		c, s := &changes[i], syms[i]
		if s == nil || shared[at{s.File, s.Pos}] < 2 {
			continue
		}
		p, err := path.Parse(c.Path)
		if err != nil || p.Len() < 2 {
			continue // only members are inherited
		}
		var leaf path.Path
		leaf.Segments = []path.Segment{p.Leaf()}
		k := key{s.File, s.Pos, c.Kind, c.Before, c.After, c.Rule, leaf.String()}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		ix := ib
		if k.kind == model.ChangeRemoved {
			ix = ia
		}
		decl, ok := declaringPath(changes, g, k.file, k.pos, ix)
		if !ok {
			continue
		}
		for _, i := range g {
			if i != decl {
				changes[i].FoldedInto = changes[decl].Path
			}
		}
	}
}

// declaringPath picks, among the paths of one declaration, the one it is
// declared under: the nearest enclosing declaration in the same file is
// the last one to start before the member. Ancestors are compared from the
// nearest outwards, skipping depths where every copy has the same
// declaration (an inherited anonymous object type's copies). No fold when
// that does not single one out.
func declaringPath(changes []model.Change, group []int, file string, pos int, ix *surfaceIndex) (int, bool) {
	ancestors := make([][]path.Path, len(group))
	depth := 0
	for j, i := range group {
		p, err := path.Parse(changes[i].Path)
		if err != nil {
			return 0, false
		}
		anc := p.Ancestors()
		// nearest first
		for l, r := 0, len(anc)-1; l < r; l, r = l+1, r-1 {
			anc[l], anc[r] = anc[r], anc[l]
		}
		ancestors[j] = anc
		if depth == 0 || len(anc) < depth {
			depth = len(anc)
		}
	}
	type at struct {
		file string
		pos  int
	}
	for d := 0; d < depth; d++ {
		locs := make([]at, len(group))
		same := true
		for j := range group {
			s := ix.byPath[ancestors[j][d].String()]
			if s == nil {
				return 0, false
			}
			locs[j] = at{s.File, s.Pos}
			if locs[j] != locs[0] {
				same = false
			}
		}
		if same {
			continue
		}
		best, bestPos, tie := -1, -1, false
		for j, l := range locs {
			if l.file != file || l.pos > pos {
				continue
			}
			switch {
			case l.pos > bestPos:
				best, bestPos, tie = j, l.pos, false
			case l.pos == bestPos:
				tie = true
			}
		}
		if best < 0 || tie {
			return 0, false
		}
		return group[best], true
	}
	return 0, false
}

// aliasOf is the canonical path the changed symbol is another export name
// of, read from the side the change is about.
func aliasOf(c model.Change, ia, ib *surfaceIndex) string {
	switch c.Kind {
	case model.ChangeRemoved:
		if s := ia.byPath[c.Path]; s != nil {
			return s.AliasOf
		}
	case model.ChangeAdded:
		if s := ib.byPath[c.Path]; s != nil {
			return s.AliasOf
		}
	default:
		if s := ib.byPath[c.Path]; s != nil && s.AliasOf != "" {
			return s.AliasOf
		}
		if s := ia.byPath[c.Path]; s != nil {
			return s.AliasOf
		}
	}
	return ""
}

// GenuinelyPublic is the breaking changes a consumer of the public API
// should see: no visibility marker, confidence at least 0.7, and not
// already accounted for by a removed ancestor, the declaring path of an
// inherited member, or the canonical path of an alias.
func GenuinelyPublic(changes []model.Change) []model.Change {
	var out []model.Change
	for _, c := range changes {
		if c.Severity == model.Breaking && c.Visibility == model.Public &&
			c.Confidence >= GenuinelyPublicConfidence && c.FoldedInto == "" && c.AliasOf == "" {
			out = append(out, c)
		}
	}
	return out
}
