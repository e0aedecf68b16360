package check

import (
	"context"

	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/lists"
)

// compiled sees each unit's compile (tests count the baselines shared).
var compiled = func(*typescript.CompileResult) {}

// shareBaselines compiles, before several units are analyzed, the
// baseline of each workspace they compile in once, over every file any of
// them can put in scope (the files importing a member and the files
// reaching those), so that no unit's compile, in whichever driver, builds
// a baseline program of its own for them. A file a unit scopes that this
// did not foresee (one importing only a companion) is compiled by that
// unit as before; so is the baseline of a project that checks declaration
// files (typescript.CompileRequest.SharedBaseline).
func (c *checker) shareBaselines(ctx context.Context, units []unit) {
	if !c.opts.Compile || len(units) < 2 {
		return
	}
	byWS := map[string]map[string]bool{}
	for _, u := range units {
		for _, m := range u.members {
			if m.reason != "" || m.target == m.row.Installed {
				continue
			}
			for _, ws := range m.row.Workspaces {
				if byWS[ws] == nil {
					byWS[ws] = map[string]bool{}
				}
				for _, f := range c.companionImporters(ws, m.name()) {
					if hasExt(f, scopeTSExts) {
						byWS[ws][f] = true
					}
				}
			}
		}
	}
	c.baselines = map[string]*typescript.SharedBaseline{}
	for _, ws := range lists.SortedKeys(byWS) {
		files := byWS[ws]
		if len(files) == 0 {
			continue
		}
		graph := scanImportGraph(c.root, ws, c.nestedWorkspaces(ws), false, loadAliases(c.root, c.programConfig(ws)))
		for _, f := range graph.dependents(lists.SortedKeys(files)) {
			files[f] = true
		}
		ad, err := c.judge(ctx, ws)
		if err != nil {
			continue
		}
		res, err := ad.Compile(ctx, typescript.CompileRequest{RepoRoot: c.root, Workspace: ws, Files: lists.SortedKeys(files), ShareBaseline: true})
		if err == nil && res.Shared != nil {
			c.baselines[ws] = res.Shared
		}
	}
}
