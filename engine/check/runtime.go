package check

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/modformat"
	"github.com/uptide/uptide/engine/probe"
)

// probeSlots bounds the runtime probes running at once: each is two child
// Nodes, beside the compile's.
const probeSlots = 2

// startRuntime starts Signal C for a member whose runtime package moves:
// the installed and the target copy loaded in a sandboxed Node, beside the
// compile. Types packages have no runtime of their own. awaitRuntime
// gives the result.
func (c *checker) startRuntime(ctx context.Context, run *memberRun) {
	m := run.m
	if !c.opts.Runtime || run.runtimeInst == "" || run.runtimeTgt == "" || strings.HasPrefix(m.name(), "@types/") {
		return
	}
	done := make(chan struct{})
	run.runtimeDone = done
	go func() {
		defer close(done)
		select {
		case c.probeSem <- struct{}{}:
			defer func() { <-c.probeSem }()
		case <-ctx.Done():
			return
		}
		ws := m.row.Workspaces[0]
		node, err := modformat.NodeVersion(c.root, filepath.Join(c.root, filepath.FromSlash(ws)))
		if err != nil {
			node = modformat.NodeInfo{Note: err.Error()}
		}
		res, err := probe.Run(ctx, probe.Request{
			Name: m.name(), RepoRoot: c.root, Workspace: ws,
			Installed: probe.Copy{Version: m.row.Installed, Dir: run.runtimeInst},
			Target:    probe.Copy{Version: m.target, Dir: run.runtimeTgt},
			Node:      &node, Fetch: c.fetchRange, Env: c.opts.Env,
			Subpaths: usedSubpaths(run.usages),
		})
		if err != nil {
			res.Status, res.Reason = model.RuntimeInconclusive, err.Error()
		}
		run.runtime, run.runtimeNode = &res, node
	}()
}

// judgedRuntime is the result the arbiter judges with. What require()
// gives depends on the Node (require(esm) arrived in 20.19 and 22.12):
// when the probe did not run on the release line the repository names
// (an unknown Node, another line), its require() loads decide nothing.
func (run *memberRun) judgedRuntime() *model.RuntimeResult {
	rt := run.awaitRuntime()
	if rt == nil || probedOn(rt, run.runtimeNode) {
		return rt
	}
	out := *rt
	out.Installed.Require.Value = nil
	// The subpath entries' require() loads too.
	out.Installed.Subpaths = slices.Clone(rt.Installed.Subpaths)
	for i := range out.Installed.Subpaths {
		out.Installed.Subpaths[i].Require.Value = nil
	}
	return &out
}

// awaitRuntime is the member's probe, nil when it did not run.
func (run *memberRun) awaitRuntime() *model.RuntimeResult {
	if run.runtimeDone == nil {
		return nil
	}
	<-run.runtimeDone
	return run.runtime
}

// usedSubpaths are the subpath entries the repository loads the package
// by (pkg/v4), so the probe loads each of them too: a site of a subpath
// is judged by what that entry gives, never by the main entry's shape.
func usedSubpaths(usages map[string][]model.Usage) []string {
	var out []string
	for _, us := range usages {
		for _, u := range us {
			if u.Subpath != "" && u.Subpath != "." && !slices.Contains(out, u.Subpath) {
				out = append(out, u.Subpath)
			}
		}
	}
	slices.Sort(out)
	return out
}
