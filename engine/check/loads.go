package check

import (
	"github.com/uptide/uptide/engine/model"
)

// computedLoads lists once each computed load that counts against none of
// the reports: a load that could reach one package is that package's
// unanalyzed load (a partial status with its reason), and is not repeated
// here. A load seen from several workspaces' programs (a shared file) or
// for several packages is one entry; its reason is the smallest, so equal
// inputs give identical bytes.
func computedLoads(found []model.ComputedLoad, reports []model.PackageReport) []model.ComputedLoad {
	type key struct {
		file string
		line int
		kind string
	}
	counted := map[key]bool{}
	for _, pr := range reports {
		for _, u := range pr.Unanalyzed {
			counted[key{u.File, u.Line, u.Kind}] = true
		}
	}
	byKey := map[key]model.ComputedLoad{}
	for _, l := range found {
		k := key{l.File, l.Line, l.Kind}
		if counted[k] {
			continue
		}
		if old, ok := byKey[k]; ok && (old.Workspace < l.Workspace || old.Workspace == l.Workspace && old.Reason <= l.Reason) {
			continue
		}
		byKey[k] = l
	}
	out := make([]model.ComputedLoad, 0, len(byKey))
	for _, l := range byKey {
		out = append(out, l)
	}
	sortByPlace(out, func(l model.ComputedLoad) (string, int, string) { return l.File, l.Line, l.Kind })
	return out
}
