package check

import (
	"path/filepath"
	"sort"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/typescript"
)

// addSourceWarnings puts under every analyzed package of a workspace the
// warnings about the workspace dependencies it still reads through a build
// older than their sources (typescript.FindWorkspaceSources): the usage
// scan and the compile read those builds, so what they say about the
// dependency's part may be stale.
func (c *checker) addSourceWarnings(reps []model.PackageReport) {
	byWS := map[string][]string{}
	for i := range reps {
		p := &reps[i]
		if p.Status == model.StatusNotAnalyzed {
			continue
		}
		var add []string
		for _, ws := range p.Workspaces {
			w, ok := byWS[ws]
			if !ok {
				w = typescript.FindWorkspaceSources(c.root, filepath.Join(c.root, filepath.FromSlash(ws))).Warnings
				byWS[ws] = w
			}
			add = append(add, w...)
		}
		if len(add) == 0 {
			continue
		}
		all := append(append([]string{}, p.Warnings...), add...)
		sort.Strings(all)
		p.Warnings = all[:0]
		for i, w := range all {
			if i == 0 || w != all[i-1] {
				p.Warnings = append(p.Warnings, w)
			}
		}
	}
}
