package match

import (
	"slices"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/probe"
)

// Untyped judges the sites of a package that ships no declarations on
// either side (faker 5 → 6.6.6): no surface, no diff, nothing the compiler
// can say, so the runtime probe is the arbiter of every site. A load
// (access import, no member) breaks when the target's load throws; a
// member chain breaks at the change it meets (a removed key, a callable
// lost, a namespace instead of the value). A site the probe decided and
// found unchanged gives no finding; one it could not decide (it did not
// run, a copy was inconclusive, a value read whole lost keys) is possible
// impact, so nothing undecided reads as no impact. The member sites of a
// load that throws never run: the load's finding stands for them.
func Untyped(usages []model.Usage, res *model.RuntimeResult, pkg, workspace string) []model.Finding {
	var out []model.Finding
	for _, u := range dedupeUsages(usages) {
		s := probe.Site{Loader: u.Loader, Access: u.Access, Subpath: u.Subpath}
		// "." is the value the load gives itself.
		sym := strings.TrimPrefix(u.SymbolPath, ".")
		if sym != "" {
			s.Path = strings.Split(sym, ".")
		}
		load := u.Access == model.AccessImport && len(s.Path) == 0
		if load {
			// The load itself only meets a throw.
			s.Access = model.AccessCall
		}
		f := model.Finding{Package: pkg, Path: sym, SymbolPath: sym, Fixability: model.Manual, Workspace: workspace,
			File: u.File, Line: u.Line, Column: u.Column, Access: u.Access, Via: u.Via}
		var hits []model.RuntimeChange
		decided := false
		why := "the probe did not run"
		if res != nil {
			hits, decided = probe.Hits(*res, s)
			why = undecidedWhy(res)
		}
		throws := slices.ContainsFunc(hits, isLoadThrow)
		switch {
		case throws && !load:
			continue
		case load:
			hits = slices.DeleteFunc(hits, func(c model.RuntimeChange) bool { return !isLoadThrow(c) })
			if !throws && decided {
				continue
			}
		}
		switch {
		case len(hits) > 0:
			f.Change = string(hits[0].Kind)
			if hits[0].Kind == model.RuntimeKeyRemoved {
				f.Change = string(model.ChangeRemoved)
			}
			f.Runtime = hits
			arbiterRow("arbiter/untyped-runtime-hit").apply(&f, "{detail}", hits[0].Detail)
		case decided:
			continue
		default:
			f.Change = "untyped"
			arbiterRow("arbiter/untyped-undecided").apply(&f, "{package}", pkg, "{why}", why)
		}
		out = append(out, f)
	}
	return finalize(out)
}

// undecidedWhy says why the probe decided nothing for a site.
func undecidedWhy(res *model.RuntimeResult) string {
	switch {
	case res.Status != model.RuntimeCompared && res.Reason != "":
		return "the probe was inconclusive: " + res.Reason
	case res.Status != model.RuntimeCompared:
		return "the probe was inconclusive"
	}
	return "the site reads what the load gives whole, or the installed copy gave this loader nothing"
}
