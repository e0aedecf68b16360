package check

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/match"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/modformat"
	"github.com/uptide/uptide/internal/lists"
)

// changeModuleFormat is the change of a module-format finding.
const changeModuleFormat = "module-format"

// formatOutcome is the module-format check of one member.
type formatOutcome struct {
	report model.ModuleFormatReport
	notes  []string
}

// moduleFormat compares how the installed and target versions load (from
// their manifests, which the declaration diff cannot see) and, when the
// target stops supporting require(), judges every require() site on the
// repository's Node: one finding per file, its sites listed.
func (c *checker) moduleFormat(run *memberRun) formatOutcome {
	m := run.m
	out := formatOutcome{report: model.ModuleFormatReport{Status: model.StatusAnalyzed}}
	var requires []model.Usage
	subpaths := []string{}
	for _, ws := range lists.SortedKeys(run.usages) {
		for _, u := range run.usages[ws] {
			if u.Loader == model.LoaderRequire {
				requires = append(requires, u)
				sp := u.Subpath
				if sp == "" {
					sp = "."
				}
				subpaths = appendUnique(subpaths, sp)
			}
		}
	}
	out.report.RequireSites = len(requires)
	switch {
	case run.runtimeInst == "":
		out.report.Status, out.report.Reason = model.StatusNotAnalyzed, "the installed copy was not found"
		return out
	case run.runtimeTgt == "":
		out.report.Status, out.report.Reason = model.StatusSkipped, "the package stays at its installed version"
		return out
	}
	inst, err := modformat.LoadPackage(os.DirFS(run.runtimeInst), m.name()+"@"+m.row.Installed)
	if err != nil {
		out.report.Status, out.report.Reason = model.StatusNotAnalyzed, err.Error()
		return out
	}
	tgt, err := modformat.LoadPackage(os.DirFS(run.runtimeTgt), m.name()+"@"+m.target)
	if err != nil {
		out.report.Status, out.report.Reason = model.StatusNotAnalyzed, err.Error()
		return out
	}
	sort.Strings(subpaths)
	fr := modformat.Format(inst, tgt, subpaths)
	out.report.StopsRequire = fr.StopsRequire
	if !fr.StopsRequire {
		return out
	}
	if len(requires) == 0 {
		out.notes = append(out.notes, fmt.Sprintf("%s@%s no longer supports require(); no file here loads it with require()", m.name(), m.target))
		return out
	}
	byWS := map[string][]model.Usage{}
	for _, u := range requires {
		byWS[u.Workspace] = append(byWS[u.Workspace], u)
	}
	var nodes []string
	for _, ws := range lists.SortedKeys(byWS) {
		node, err := modformat.NodeVersion(c.root, filepath.Join(c.root, filepath.FromSlash(ws)))
		if err != nil {
			node = modformat.NodeInfo{Note: err.Error()}
		}
		nodes = appendUnique(nodes, node.String())
		run.format[ws] = formatFindings(m.name(), fr, byWS[ws], run.inst, run.tgt, node, run.awaitRuntime())
	}
	out.report.Node = strings.Join(nodes, ", ")
	return out
}

// formatFindings judges each require() site and keeps one finding per file:
// switching a file to import() is one edit however many lines load the
// package there. Sites that work on the repository's Node are left out.
//
// The runtime probe, when it ran on the repository's Node, judges each
// site from what require() of the target gave: the declarations say
// whether a require(esm) value still has the member the site reads, the
// probe sees it.
func formatFindings(pkg string, fr modformat.FormatReport, sites []model.Usage, inst, tgt *model.Surface, node modformat.NodeInfo, rt *model.RuntimeResult) []model.Finding {
	if !probedOn(rt, node) {
		rt = nil
	}
	type fileAcc struct {
		f        model.Finding
		breaking bool
	}
	byFile := map[string]*fileAcc{}
	var order []string
	for _, u := range sites {
		sp := u.Subpath
		if sp == "" {
			sp = "."
		}
		e, ok := fr.Entry(sp)
		if !ok || !e.StopsRequire {
			continue
		}
		shape := modformat.ShapeOf(inst, tgt, sp).WithFormat(e)
		breaks, unverified, why := modformat.JudgeSite(u, shape, node)
		hits, decided := match.RuntimeHits(rt, []model.Usage{u}, inst)
		if decided {
			breaks, unverified = len(hits) > 0, false
			if breaks {
				why = "at runtime on " + rt.Node.Version + ", " + hits[0].Detail
			}
		}
		if !breaks && !unverified {
			continue
		}
		acc := byFile[u.File]
		if acc == nil {
			acc = &fileAcc{f: model.Finding{
				Package: pkg, Path: ".", Change: changeModuleFormat, Severity: model.Unverified, Confidence: 1,
				Workspace: u.Workspace, File: u.File, Line: u.Line, Column: u.Column, Access: u.Access, Via: u.Via,
				Rule: changeModuleFormat,
			}}
			byFile[u.File] = acc
			order = append(order, u.File)
		}
		acc.f.Sites = append(acc.f.Sites, u)
		acc.f.Runtime = match.AppendRuntimeChanges(acc.f.Runtime, hits)
		if breaks && !acc.breaking {
			acc.breaking = true
			acc.f.Severity = model.Breaking
			acc.f.Reason = e.Reason + ": " + why
		} else if acc.f.Reason == "" {
			acc.f.Reason = "possible impact: " + e.Reason + ": " + why
		}
	}
	out := make([]model.Finding, 0, len(order))
	for _, file := range order {
		f := byFile[file].f
		if n := len(f.Sites); n > 1 {
			f.Reason += fmt.Sprintf(" (%d require() sites in this file)", n)
		}
		f.Fixability, _ = match.FixabilityOf(match.FixInput{Change: f.Change, Severity: f.Severity})
		out = append(out, f)
	}
	return out
}

// foldFormatSites counts a require() site once when a module-format
// finding and a member finding both stand on it: with chalk 5 ESM only,
// chalk.red under require() is both "require() of an ES module" and
// "default.Chalk#red removed" (the declarations' export = became a
// default export), and one edit, the load, answers both. A member
// finding on a line the module-format finding's sites cover, no more
// severe than it, joins it: its runtime changes, and under Folded its
// own id, reason and compiler evidence. The module-format finding keeps
// no compiler evidence of its own: the compiler cannot see a load break,
// so fix lists it as a site left whatever its compile says. A more severe one (a breaking member
// under an unverified format) stays a finding of its own, as does a
// hidden one (it was never counted).
func foldFormatSites(findings []model.Finding) []model.Finding {
	type at struct {
		pkg, ws, file string
		line          int
	}
	into := map[at]int{}
	for i, f := range findings {
		if f.Change != changeModuleFormat || f.Hidden {
			continue
		}
		for _, u := range f.Sites {
			k := at{f.Package, u.Workspace, u.File, u.Line}
			if _, ok := into[k]; !ok {
				into[k] = i
			}
		}
	}
	if len(into) == 0 {
		return findings
	}
	folded := map[int]bool{}
	for i, f := range findings {
		if f.Change == changeModuleFormat || f.Hidden || f.AnchorOnly || f.Change == model.ChangeCause || model.CompilerCode(f.Change) != 0 {
			continue
		}
		j, ok := into[at{f.Package, f.Workspace, f.File, f.Line}]
		if !ok || severityRank(f.Severity) > severityRank(findings[j].Severity) {
			continue
		}
		m := &findings[j]
		m.Runtime = match.AppendRuntimeChanges(m.Runtime, f.Runtime)
		m.Folded = append(m.Folded, model.FoldedFinding{ID: f.ID, Path: f.Path, SymbolPath: f.SymbolPath, Change: f.Change,
			Severity: f.Severity, Reason: f.Reason, File: f.File, Line: f.Line, Column: f.Column,
			Evidence: f.Evidence, Downstream: f.Downstream})
		folded[i] = true
	}
	out := findings[:0:0]
	for i, f := range findings {
		if !folded[i] {
			out = append(out, f)
		}
	}
	return out
}

// severityRank orders what a finding claims: breaking above possible
// impact above the rest.
func severityRank(s model.Severity) int {
	switch s {
	case model.Breaking:
		return 2
	case model.Unverified:
		return 1
	}
	return 0
}

// probedOn: the probe ran on the release line the repository names, so
// what require() gave there is what the repository's require() gets. A
// moving tag ("FROM node:alpine", lts/*) names no line, but every line it
// can name has require(esm): a probe on a Node with it got the same.
func probedOn(rt *model.RuntimeResult, node modformat.NodeInfo) bool {
	if rt == nil || node.Version == "" {
		return false
	}
	ran := strings.TrimPrefix(rt.Node.Version, "v")
	want := node.Version
	if modformat.MovingLine(want) {
		has, known := modformat.HasRequireESM(ran)
		return has && known
	}
	return ran == want || strings.HasPrefix(ran, want+".")
}
