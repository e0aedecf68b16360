package view

import "github.com/uptide/uptide/engine/model"

// SiteEvidence are the lines under one site of a check report, in
// `uptide check --details` and in the planner's details screen alike: the
// findings counted with it (a member the declarations lost where
// require() of an ESM-only target is the cause), then what the runtime
// probe saw the site meet, on which Node. runtime is the package report's
// Runtime (the Node that ran is there, once per package).
func SiteEvidence(f model.Finding, runtime []model.RuntimeResult) []string {
	var out []string
	for _, o := range f.Folded {
		out = append(out, "also: "+o.Reason)
		for _, d := range append(append([]model.Diagnostic{}, o.Evidence...), o.Downstream...) {
			out = append(out, "  "+DiagLine(d))
		}
	}
	node := ""
	for _, rt := range runtime {
		if rt.Package == f.Package && rt.Node.Version != "" {
			node = " (Node " + rt.Node.Version + ")"
			break
		}
	}
	for _, c := range f.Runtime {
		out = append(out, "runtime: "+c.Detail+node)
	}
	return out
}
