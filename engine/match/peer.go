package match

import (
	"fmt"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// ChangeMissingPeer is the change of a finding that a peer the upgraded
// install leaves out explains.
const ChangeMissingPeer = "missing-peer"

// Peer is a new peer of a target that the repository's package manager
// does not install.
type Peer struct {
	Name, Range string
	// RequiredBy and Version: the package that peer-requires it.
	RequiredBy, Version string
	// Why: "yarn does not install peers".
	Why string
}

// MissingPeer turns the new errors that adding the missing peers fixes
// into findings, one per line: breaking (the compiler reports them after
// the real upgrade) and fixed by adding the peer, which the plan groups
// under one rule per peer.
func MissingPeer(diags []model.Diagnostic, peers []Peer, opts ArbiterOptions) []model.Finding {
	if len(diags) == 0 || len(peers) == 0 {
		return nil
	}
	sort.Slice(peers, func(i, j int) bool { return peers[i].Name < peers[j].Name })
	var names, adds, whys []string
	for _, p := range peers {
		names = append(names, p.Name)
		adds = append(adds, p.Name+"@"+p.Range)
		whys = append(whys, fmt.Sprintf("new peer of %s %s", p.RequiredBy, p.Version))
	}
	reason := strings.Join(whys, ", ") + "; " + peers[0].Why
	type site struct {
		ws, file string
		line     int
	}
	by := map[site][]model.Diagnostic{}
	var order []site
	for _, d := range diags {
		s := site{d.Workspace, d.File, d.Line}
		if by[s] == nil {
			order = append(order, s)
		}
		by[s] = append(by[s], d)
	}
	var out []model.Finding
	for _, s := range order {
		ds := by[s]
		ws := s.ws
		if ws == "" {
			ws = opts.Workspace
		}
		out = append(out, model.Finding{
			Package:     opts.Package,
			Path:        strings.Join(names, " "),
			Change:      ChangeMissingPeer,
			Severity:    model.Breaking,
			Confidence:  1,
			Reason:      reason,
			Fixability:  model.Mechanical,
			Workspace:   ws,
			File:        s.file,
			Line:        s.line,
			Column:      ds[0].Column,
			Evidence:    ds,
			Replacement: strings.Join(adds, " "),
			Rule:        ChangeMissingPeer + ":" + strings.Join(names, " "),
		})
	}
	return finalize(out)
}
