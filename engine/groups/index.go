package groups

import "slices"

// Index keeps what the rules parse from a set of packuments (ranges,
// sorted release lists) so that planning many upgrades over the same
// registry answers parses each packument once: a plan per major row of a
// large repository otherwise re-reads every linked package's history.
// An Index is not safe for concurrent use; the packuments must not change
// while it is in use.
type Index struct {
	c *cache
	// visible caches, per candidate list and workspace, the candidates
	// seen from there: a repository plans many upgrades from few workspaces.
	visible map[visibleKey][]candidate
}

type visibleKey struct {
	first *Dep
	n     int
	from  string
}

// NewIndex indexes p lazily: nothing is parsed until a rule needs it.
func NewIndex(p Packuments) *Index {
	return &Index{c: newCache(p), visible: map[visibleKey][]candidate{}}
}

// candidatesFor is visibleCandidates, computed once per workspace for one
// candidate list and filtered for each target.
func (ix *Index) candidatesFor(target Dep, deps []Dep) []candidate {
	if len(deps) == 0 {
		return nil
	}
	k := visibleKey{first: &deps[0], n: len(deps), from: cleanWS(target.Workspace)}
	all, ok := ix.visible[k]
	if !ok {
		all = visibleCandidates(Dep{Workspace: k.from}, deps)
		ix.visible[k] = all
	}
	out := make([]candidate, 0, len(all))
	for _, c := range all {
		if c.name != target.Name {
			c.workspaces = slices.Clone(c.workspaces)
			out = append(out, c)
		}
	}
	return out
}
