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
// FoldedInto the outermost removed (or moved) ancestor, and a change on an
// alias path gets AliasOf its canonical path when the same kind of change
// exists there. The full list keeps member-level detail for usage matching.
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
	return out
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
// already accounted for by a removed ancestor or the canonical path of an
// alias.
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
