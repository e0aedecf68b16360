package check

import (
	"context"
	"fmt"
	"github.com/uptide/uptide/engine/event"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/lists"
)

// wsCompile is Signal B for one workspace of a unit.
type wsCompile struct {
	ws    string
	files []string
	// dependents are the files in scope only because they import a usage
	// file or an importer of the package, or import a companion (or reach
	// one of its importers): what the repository's build leaves out of
	// its program is no gap in what was verified.
	dependents map[string]bool
	// owners maps a file in scope only through a companion to that
	// companion: its new errors are the companion's findings.
	owners map[string]string
	// ran: the overlay compile judged; without it nothing is confirmed.
	ran bool
	// settled: the compile had nothing to judge, every member's
	// declarations staying the installed ones and nothing else moving, so
	// its answer is known without running it.
	settled bool
	// gaps are what moves but the overlay lacks (a companion it could not
	// link, a member whose new declarations it cannot read): the files
	// seeing them were judged against their installed copies.
	gaps []string
	// status and reason say why it did not run, or ran partly.
	status model.AnalysisStatus
	reason string
	res    *typescript.CompileResult
	// unresolvedFiles are, per linked package, its declaration files with
	// an import nothing could serve.
	unresolvedFiles map[string]map[string]bool
	notes           []string
	// missing are the new peers the upgraded install leaves out, and
	// peerFixed the new errors that adding them fixes (peers.go).
	missing   []missingPeer
	peerFixed []model.Diagnostic
	// projects are the tsconfigs compiled whole when the unit upgrades the
	// compiler itself (tsc.go).
	projects []string
	// deps are the packages whose declarations hold the upgrade's errors
	// (deps.go): causes, never sites.
	deps []depCause
}

// installedCopies links, where the caller's install of the upgrade
// (rooted at root, "" for none) holds a package at the version the
// overlay would link, that copy instead (Options.Installed).
func installedCopies(root, ws string, list []typescript.LinkedPackage) []typescript.LinkedPackage {
	if root == "" {
		return list
	}
	out := make([]typescript.LinkedPackage, len(list))
	for i, l := range list {
		out[i] = l
		v := manifestVersionAt(l.Dir)
		if dir, at := installedCopy(root, ws, l.Name); v != "" && dir != "" && at == v {
			out[i] = typescript.LinkedPackage{Name: l.Name, Dir: dir, Kept: true}
		}
	}
	return out
}

// compileWorkspace type-checks the files that use the unit's packages in
// one workspace (the usage files and the files importing the package)
// against the installed copies and against one overlay linking every
// member's target and the companions.
func (c *checker) compileWorkspace(ctx context.Context, ws string, runs []*memberRun, companions []typescript.LinkedPackage) *wsCompile {
	wc := &wsCompile{ws: ws, unresolvedFiles: map[string]map[string]bool{}}
	files := map[string]bool{}
	var targets, baseline []typescript.LinkedPackage
	var quiet, gaps []string
	js, config := false, ""
	for _, r := range runs {
		if !r.ok {
			continue
		}
		for _, u := range r.usages[ws] {
			files[u.File] = true
		}
		for _, f := range r.importers[ws] {
			files[f] = true
		}
		js = js || r.js[ws]
		if config == "" {
			config = r.config[ws]
		}
		switch {
		case r.compileGap != "":
			gaps = append(gaps, r.compileGap)
		case r.noCompile != "":
			quiet = append(quiet, r.noCompile)
		case r.tgtDir != "":
			targets = append(targets, typescript.LinkedPackage{Name: r.linkName, Dir: r.tgtDir})
			if r.baselineDir != "" {
				baseline = append(baseline, typescript.LinkedPackage{Name: r.linkName, Dir: r.baselineDir})
			}
		}
	}
	wc.dependents, wc.owners = map[string]bool{}, map[string]string{}
	graph := &importGraph{}
	if len(files) > 0 || len(companions) > 0 {
		graph = scanImportGraph(c.root, ws, c.nestedWorkspaces(ws), js, loadAliases(c.root, config))
	}
	for _, f := range graph.dependents(lists.SortedKeys(files)) {
		files[f] = true
		wc.dependents[f] = true
	}
	// Every package the upgrade moves is seen by the files importing it,
	// a companion as much as a member (next/headers when react takes next
	// along), and by the files reaching those; a file both a member and a
	// companion reach is the member's, the first companion by name takes
	// the rest.
	for _, cp := range sortedCompanions(companions) {
		var own []string
		for _, f := range c.companionImporters(ws, cp) {
			if hasExt(f, scopeTSExts) || js && hasExt(f, scopeJSExts) {
				own = append(own, f)
			}
		}
		for _, f := range append(own, graph.dependents(own)...) {
			if !files[f] {
				files[f] = true
				wc.dependents[f] = true
				wc.owners[f] = cp
			}
		}
	}
	wc.files = lists.SortedKeys(files)
	switch {
	case !c.opts.Compile:
		wc.status, wc.reason = model.StatusSkipped, "--no-compile: nothing is confirmed"
		return wc
	case len(wc.files) == 0:
		// No file can see a type of the package change.
		wc.ran, wc.status = true, model.StatusSkipped
		wc.reason = "no file in " + wsLabel(ws) + " uses the package"
		return wc
	case len(targets) == 0 && len(companions) == 0 && len(gaps) > 0:
		wc.status, wc.reason = model.StatusNotAnalyzed, strings.Join(gaps, "; ")
		return wc
	case len(targets) == 0 && len(companions) == 0 && len(quiet) > 0:
		// The declarations the files see are the installed ones: the
		// compile's answer is known without running it.
		wc.settled, wc.status, wc.reason = true, model.StatusSkipped, strings.Join(quiet, "; ")
		return wc
	case len(targets) == 0 && len(companions) == 0:
		wc.status, wc.reason = model.StatusNotAnalyzed, "no target to compile against"
		return wc
	}
	wc.gaps = gaps
	if len(targets) == 0 {
		// Only companions move: they are what the overlay links.
		targets, companions = companions, nil
	}
	if c.opts.Installed != nil && c.opts.Drivers != nil {
		// Kept parsed files are only worth it to drivers that outlive check.
		root := c.opts.Installed()
		targets, companions = installedCopies(root, ws, targets), installedCopies(root, ws, companions)
	}
	c.opts.Events.Emit(event.Event{Phase: event.PhaseCompile, Package: ws, Total: len(wc.files)})
	ad, err := c.judge(ctx, ws)
	if err != nil {
		wc.status, wc.reason = model.StatusNotAnalyzed, err.Error()
		return wc
	}
	wsDir := filepath.Join(c.root, filepath.FromSlash(ws))
	oreq := typescript.OverlayRequest{
		Workspace: wsDir, RepoRoot: c.root, Targets: targets, Companions: companions, Fetch: c.fetchRange, Peers: c.peerRule(),
		Copies: c.copyRule(),
	}
	ov, err := typescript.BuildOverlay(ctx, oreq)
	if err != nil {
		wc.status, wc.reason = model.StatusNotAnalyzed, "linking the targets: "+err.Error()
		return wc
	}
	defer ov.Cleanup()
	req := typescript.CompileRequest{RepoRoot: c.root, Workspace: ws, Files: wc.files, Overlay: ov, DeprecatedNames: deprecatedNames(runs),
		SharedBaseline: c.baselines[ws], Runs: c.opts.Drivers}
	if len(baseline) > 0 {
		bov, err := typescript.BuildOverlay(ctx, typescript.OverlayRequest{Workspace: wsDir, Targets: baseline, Fetch: c.fetchRange})
		if err != nil {
			wc.status, wc.reason = model.StatusNotAnalyzed, "linking the baseline: "+err.Error()
			return wc
		}
		defer bov.Cleanup()
		req.Baseline = bov
	}
	res, err := ad.Compile(ctx, req)
	if err != nil {
		wc.status, wc.reason = model.StatusNotAnalyzed, fmt.Sprintf("compiling %s: %v", wsLabel(ws), err)
		return wc
	}
	compiled(res)
	c.timer.Done(event.PhaseCompile)
	wc.dropOutsideProgram(res)
	wc.res = res
	wc.notes = append(wc.notes, ov.Notes()...)
	switch {
	case res.OverlaySkipped != "":
		wc.status, wc.reason = model.StatusNotAnalyzed, "the overlay compile was skipped: "+res.OverlaySkipped
	case res.NewerTypeScript != nil:
		// Judged: the upgrade breaks the build. What it breaks in the
		// sources is not known until the compiler reads the target.
		wc.status = model.StatusPartial
		wc.reason = res.Compiler + " cannot parse the target's declarations, so it type-checks nothing else: check again once typescript is upgraded"
	default:
		wc.ran, wc.status = true, model.StatusAnalyzed
		if len(res.Coverage.Skipped) > 0 {
			wc.status = model.StatusPartial
			wc.reason = fmt.Sprintf("%d of %d files were not type-checked", len(res.Coverage.Skipped), res.Coverage.Asked)
		}
	}
	if wc.ran {
		c.judgeMissingPeers(ctx, wc, ad, req, oreq)
		// A peer the install leaves out is what the upgrade gives, not a
		// gap in the compile: its findings say so.
		res.UnresolvedInTarget = withoutPeers(res.UnresolvedInTarget, wc.missing)
	}
	var linked []typescript.LinkedPackage
	for _, l := range ov.Links() {
		linked = append(linked, typescript.LinkedPackage{Name: l.Name, Dir: l.Dir})
	}
	wc.deps = c.dependencyCauses(ctx, wc, linked)
	dirs := map[string]string{}
	for _, t := range targets {
		dirs[t.Name] = t.Dir
	}
	for _, u := range res.UnresolvedInTarget {
		if dir, ok := dirs[u.Importer]; ok {
			for _, f := range filesImporting(dir, u.Specifier) {
				if wc.unresolvedFiles[u.Importer] == nil {
					wc.unresolvedFiles[u.Importer] = map[string]bool{}
				}
				wc.unresolvedFiles[u.Importer][f] = true
			}
		}
	}
	return wc
}

// dropOutsideProgram takes the dependents the workspace's program does not
// contain out of the coverage: the scan finds importers by name, and a
// script the tsconfig leaves out is no more type-checked by the
// repository's build than by the compile, so it is not a gap in what was
// verified.
func (wc *wsCompile) dropOutsideProgram(res *typescript.CompileResult) {
	kept := res.Coverage.Skipped[:0]
	for _, s := range res.Coverage.Skipped {
		if wc.dependents[s.File] && s.Outside {
			res.Coverage.Asked--
			continue
		}
		kept = append(kept, s)
	}
	res.Coverage.Skipped = kept
}

// nestedWorkspaces are the workspaces under ws (every other one for the
// root), whose files are theirs.
func (c *checker) nestedWorkspaces(ws string) []string {
	var out []string
	for _, w := range c.disc.Repository.Workspaces {
		if w != ws && w != "." && (ws == "." || ws == "" || strings.HasPrefix(w, ws+"/")) {
			out = append(out, w)
		}
	}
	return out
}

// filesImporting lists the declaration files of a package (slash paths
// inside it) that name specifier in a string literal: where the compiler's
// silence proves nothing once the specifier does not resolve.
func filesImporting(dir, specifier string) []string {
	var out []string
	quoted := []string{`"` + specifier + `"`, `'` + specifier + `'`, `"` + specifier + `/`, `'` + specifier + `/`}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if !strings.HasSuffix(name, ".d.ts") && !strings.HasSuffix(name, ".d.mts") && !strings.HasSuffix(name, ".d.cts") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		s := string(b)
		for _, q := range quoted {
			if strings.Contains(s, q) {
				if rel, err := filepath.Rel(dir, p); err == nil {
					out = append(out, filepath.ToSlash(rel))
				}
				break
			}
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// notCompiled are the files in scope the compile did not type-check.
func (wc *wsCompile) notCompiled() map[string]bool {
	out := map[string]bool{}
	if wc.res != nil {
		for _, s := range wc.res.Coverage.Skipped {
			out[s.File] = true
		}
	}
	return out
}

// unchecked are the files in scope the repository does not type-check.
func (wc *wsCompile) unchecked() map[string]bool {
	out := map[string]bool{}
	if wc.res != nil {
		for _, f := range wc.res.Unchecked {
			out[f] = true
		}
	}
	return out
}

// sortedCompanions are the linked companions' names, sorted.
func sortedCompanions(companions []typescript.LinkedPackage) []string {
	var out []string
	for _, cp := range companions {
		out = appendUnique(out, cp.Name)
	}
	sort.Strings(out)
	return out
}

// unjudged says why the workspace's compile does not vouch for its files:
// it did not run, or ran without a companion the upgrade moves; "" when
// it judged. Only a compile that was asked for can fall short.
func (wc *wsCompile) unjudged() string {
	switch {
	case wc.status == model.StatusNotAnalyzed || wc.status == model.StatusSkipped && !wc.ran && !wc.settled:
		if wc.reason == "" {
			return "the compile did not run"
		}
		return wc.reason
	case len(wc.gaps) > 0:
		return strings.Join(wc.gaps, "; ")
	}
	return ""
}
