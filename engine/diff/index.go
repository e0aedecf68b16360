package diff

import (
	"slices"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
	"github.com/uptide/uptide/internal/lists"
)

// surfaceIndex answers the questions hints and folding ask of a surface.
type surfaceIndex struct {
	byPath map[string]*model.Symbol
	sorted []string
	// exportEquals are the `export =` roots, in path order.
	exportEquals []*model.Symbol
	// scopes are the entry points that scope a path ("./v4"), sorted.
	scopes []string
}

func newSurfaceIndex(s *model.Surface) *surfaceIndex {
	ix := &surfaceIndex{byPath: index(s)}
	ix.sorted = sortedPaths(s, ix.byPath)
	seen := map[string]bool{}
	for _, p := range ix.sorted {
		if sym := ix.byPath[p]; sym.ExportEquals {
			ix.exportEquals = append(ix.exportEquals, sym)
		}
		if strings.HasPrefix(p, `"./`) {
			if pp, err := path.Parse(p); err == nil && !seen[pp.Scope] {
				seen[pp.Scope] = true
				ix.scopes = append(ix.scopes, pp.Scope)
			}
		}
	}
	sort.Strings(ix.scopes)
	return ix
}

// sortedPaths are byPath's keys in order. A surface the adapter made is
// sorted by path already: its order is read off in one pass instead of
// sorting a large package's tens of thousands of paths again.
func sortedPaths(s *model.Surface, byPath map[string]*model.Symbol) []string {
	if s == nil || !slices.IsSortedFunc(s.Symbols, func(a, b model.Symbol) int { return strings.Compare(a.Path, b.Path) }) {
		return lists.SortedKeys(byPath)
	}
	out := make([]string, 0, len(byPath))
	for i := range s.Symbols {
		if p := s.Symbols[i].Path; len(out) == 0 || out[len(out)-1] != p {
			out = append(out, p)
		}
	}
	return out
}

// members are a container's descendants as "relative path NUL signature",
// sorted: paths sharing a prefix are contiguous in sorted order.
func (ix *surfaceIndex) members(container string) []string {
	lo := sort.SearchStrings(ix.sorted, container)
	var out []string
	for i := lo; i < len(ix.sorted) && strings.HasPrefix(ix.sorted[i], container); i++ {
		p := ix.sorted[i]
		if path.IsAncestor(container, p) {
			out = append(out, p[len(container):]+"\x00"+ix.byPath[p].Signature)
		}
	}
	return out
}

// ownMembers are the descendants a container declares in its own file, by
// relative path, with their signatures: the members inherited from a base
// (apparent members, emitted with the base's file) are left out. Without
// a file to tell by, every member counts.
func (ix *surfaceIndex) ownMembers(container string) map[string]string {
	c := ix.byPath[container]
	if c == nil {
		return nil
	}
	lo := sort.SearchStrings(ix.sorted, container)
	out := map[string]string{}
	for i := lo; i < len(ix.sorted) && strings.HasPrefix(ix.sorted[i], container); i++ {
		p := ix.sorted[i]
		if !path.IsAncestor(container, p) {
			continue
		}
		if m := ix.byPath[p]; c.File == "" || m.File == "" || m.File == c.File {
			out[p[len(container):]] = m.Signature
		}
	}
	return out
}
