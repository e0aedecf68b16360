package diff

import "github.com/uptide/uptide/engine/model"

// Diff is the whole contract diff of two surfaces: raw pairs by canonical
// path, classification, refinement with the checker's answers (nil or empty
// relations: text only), rename hints and folding, sorted canonically.
func Diff(a, b *model.Surface, relations map[string]Relation) []model.Change {
	ia, ib := newSurfaceIndex(a), newSurfaceIndex(b)
	changes := Classify(rawWith(ia, ib))
	changes = Refine(changes, relations)
	changes = hintWith(changes, ia, ib)
	changes = foldWith(changes, ia, ib)
	Sort(changes)
	return changes
}
