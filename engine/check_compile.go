package engine

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/typescript"
)

// wsCompile is Signal B for one workspace of a unit.
type wsCompile struct {
	ws    string
	files []string
	// dependents are the files in scope only because they import a usage
	// file or an importer of the package.
	dependents map[string]bool
	// ran: the overlay compile judged; without it nothing is confirmed.
	ran bool
	// status and reason say why it did not run, or ran partly.
	status, reason string
	res            *typescript.CompileResult
	// unresolvedFiles are, per linked package, its declaration files with
	// an import nothing could serve.
	unresolvedFiles map[string]map[string]bool
	notes           []string
	// missing are the new peers the upgraded install leaves out, and
	// peerFixed the new errors that adding them fixes (check_peers.go).
	missing   []missingPeer
	peerFixed []model.Diagnostic
	// projects are the tsconfigs compiled whole when the unit upgrades the
	// compiler itself (check_tsc.go).
	projects []string
	// deps are the packages whose declarations hold the upgrade's errors
	// (check_deps.go): causes, never sites.
	deps []depCause
}

// compileWorkspace type-checks the files that use the unit's packages in
// one workspace (the usage files and the files importing the package)
// against the installed copies and against one overlay linking every
// member's target and the companions.
func (c *checker) compileWorkspace(ctx context.Context, ws string, runs []*memberRun, companions []typescript.LinkedPackage) *wsCompile {
	wc := &wsCompile{ws: ws, unresolvedFiles: map[string]map[string]bool{}}
	files := map[string]bool{}
	var targets, baseline []typescript.LinkedPackage
	var quiet []string
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
		case r.noCompile != "":
			quiet = append(quiet, r.noCompile)
		case r.tgtDir != "":
			targets = append(targets, typescript.LinkedPackage{Name: r.linkName, Dir: r.tgtDir})
			if r.baselineDir != "" {
				baseline = append(baseline, typescript.LinkedPackage{Name: r.linkName, Dir: r.baselineDir})
			}
		}
	}
	wc.dependents = map[string]bool{}
	for _, f := range dependents(c.root, ws, c.nestedWorkspaces(ws), sortedKeys(files), js, loadAliases(c.root, config)) {
		files[f] = true
		wc.dependents[f] = true
	}
	wc.files = sortedKeys(files)
	switch {
	case !c.opts.Compile:
		wc.status, wc.reason = model.StatusSkipped, "--no-compile: nothing is confirmed"
		return wc
	case len(wc.files) == 0:
		// No file can see a type of the package change.
		wc.ran, wc.status = true, model.StatusSkipped
		wc.reason = "no file in " + wsLabel(ws) + " uses the package"
		return wc
	case len(targets) == 0:
		wc.status, wc.reason = model.StatusSkipped, strings.Join(quiet, "; ")
		if wc.reason == "" {
			wc.reason = "no target to compile against"
		}
		return wc
	}
	c.opts.Events.emit(Event{Phase: PhaseCompile, Package: ws, Total: len(wc.files)})
	ad, err := c.judge(ctx, ws)
	if err != nil {
		wc.status, wc.reason = model.StatusNotAnalyzed, err.Error()
		return wc
	}
	wsDir := filepath.Join(c.root, filepath.FromSlash(ws))
	oreq := typescript.OverlayRequest{
		Workspace: wsDir, RepoRoot: c.root, Targets: targets, Companions: companions, Fetch: c.fetchRange, Peers: c.peerRule(),
	}
	ov, err := typescript.BuildOverlay(ctx, oreq)
	if err != nil {
		wc.status, wc.reason = model.StatusNotAnalyzed, "linking the targets: "+err.Error()
		return wc
	}
	defer ov.Cleanup()
	req := typescript.CompileRequest{RepoRoot: c.root, Workspace: ws, Files: wc.files, Overlay: ov, DeprecatedNames: deprecatedNames(runs)}
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
	c.timer.done(PhaseCompile)
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
		if wc.dependents[s.File] && strings.HasPrefix(s.Reason, "outside the workspace's tsconfig") {
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
