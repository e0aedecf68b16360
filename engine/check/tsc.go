package check

import (
	"context"
	"fmt"
	"github.com/uptide/uptide/engine/event"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/lists"
)

// Upgrading TypeScript itself. No source names the compiler, so the scoped
// compile has nothing to look at; the upgrade is judged by type-checking
// every tsconfig project that the upgraded copy compiles, whole, with the
// installed tsc and with the target's (`tsc -p`, emit off). What the target
// reports and the installed one does not, on the same sources, is the
// upgrade's: a tsconfig option it removed, a stricter check, a changed
// resolution.

// compilerName is the package whose upgrade changes the judge.
const compilerName = "typescript"

// projectTimeout bounds one tsc run over one project.
const projectTimeout = 10 * time.Minute

// movesCompiler is the unit's member that upgrades TypeScript, if any.
func movesCompiler(u unit) (member, bool) {
	for _, m := range u.members {
		if m.row.Package == compilerName && m.reason == "" && m.target != m.row.Installed {
			return m, true
		}
	}
	return member{}, false
}

// compilerProjects are the tsconfig projects the installed copies of m
// compile: the tsconfig.json (else jsconfig.json) of every workspace whose typescript resolves to
// one of them, a solution-style one (no files of its own, references) read
// through its references. By workspace, sorted.
func (c *checker) compilerProjects(m member) map[string][]string {
	copies := map[string]bool{}
	for _, ws := range m.row.Workspaces {
		if dir, v := installedCopy(c.root, ws, compilerName); dir != "" && v == m.row.Installed {
			copies[dir] = true
		}
	}
	out := map[string][]string{}
	seen := map[string]bool{}
	for _, ws := range c.disc.Repository.Workspaces {
		if dir, _ := installedCopy(c.root, ws, compilerName); !copies[dir] {
			continue
		}
		config := typescript.ProgramConfig(filepath.Join(c.root, filepath.FromSlash(ws)))
		if config == "" {
			continue
		}
		for _, p := range typescript.Projects(config) {
			if !seen[p] {
				seen[p] = true
				out[ws] = append(out[ws], p)
			}
		}
	}
	for ws := range out {
		sort.Strings(out[ws])
	}
	return out
}

// judgeCompiler compiles every project with the installed and the target
// tsc: one wsCompile per workspace, whose New are the target's new errors,
// and the version the installed tsc says it is. ok is false when no project
// was found; the scoped compile stands then.
func (c *checker) judgeCompiler(ctx context.Context, m member) (out []*wsCompile, from string, ok bool) {
	from = m.row.Installed
	projects := c.compilerProjects(m)
	if len(projects) == 0 {
		return nil, from, false
	}
	fail := func(reason string) []*wsCompile {
		var failed []*wsCompile
		for _, ws := range lists.SortedKeys(projects) {
			failed = append(failed, &wsCompile{ws: ws, status: model.StatusNotAnalyzed, reason: reason})
		}
		return failed
	}
	if !c.opts.Compile {
		for _, ws := range lists.SortedKeys(projects) {
			out = append(out, &wsCompile{ws: ws, status: model.StatusSkipped, reason: "--no-compile: nothing is confirmed"})
		}
		return out, from, true
	}
	baseDir, _ := installedCopy(c.root, m.row.Workspaces[0], compilerName)
	base, err := typescript.TSCAt(ctx, baseDir)
	if err != nil {
		return fail("the installed TypeScript: " + err.Error()), from, true
	}
	from = base.Version
	var fetched []func()
	fetch := func(ctx context.Context, name, version string) (string, error) {
		p, err := c.client.Fetch(ctx, name, version)
		if err != nil {
			return "", err
		}
		fetched = append(fetched, func() { _ = p.Remove() })
		return p.Dir, nil
	}
	target, err := typescript.FetchTSC(ctx, fetch, func(msg string, done bool) {
		c.opts.Events.Emit(event.Event{Phase: event.PhaseCompiler, Package: msg, Finished: done})
	}, m.target)
	for _, rm := range fetched {
		rm()
	}
	if err != nil {
		return fail(fmt.Sprintf("TypeScript %s: %v", m.target, err)), from, true
	}
	label := fmt.Sprintf("TypeScript %s → %s (tsc -p)", base.Version, target.Version)
	for _, ws := range lists.SortedKeys(projects) {
		wc := &wsCompile{ws: ws, unresolvedFiles: map[string]map[string]bool{}}
		res := &typescript.CompileResult{TypeScript: target.Version, Compiler: label, New: []model.Diagnostic{}, PreExistingErrors: []model.Diagnostic{}}
		var failed []string
		for _, p := range projects[ws] {
			rel := relSlash(c.root, p)
			c.opts.Events.Emit(event.Event{Phase: event.PhaseCompile, Package: rel})
			before, err := base.RunProject(ctx, c.root, p, projectTimeout)
			if err != nil {
				failed = append(failed, err.Error())
				continue
			}
			after, err := target.RunProject(ctx, c.root, p, projectTimeout)
			if err != nil {
				failed = append(failed, err.Error())
				continue
			}
			wc.projects = append(wc.projects, rel)
			res.Coverage.Asked += after.Files
			res.Coverage.Compiled += after.Files
			res.PreExisting += len(before.Diagnostics)
			res.PreExistingErrors = append(res.PreExistingErrors, before.Diagnostics...)
			for _, d := range typescript.NewUnderTarget(before.Diagnostics, after.Diagnostics) {
				d.Workspace = ws
				res.New = append(res.New, d)
			}
		}
		c.timer.Done(event.PhaseCompile)
		wc.res = res
		switch {
		case len(failed) == len(projects[ws]):
			wc.res, wc.status, wc.reason = nil, model.StatusNotAnalyzed, strings.Join(failed, "; ")
		case len(failed) > 0:
			wc.ran, wc.status, wc.reason = true, model.StatusPartial, strings.Join(failed, "; ")
		default:
			wc.ran, wc.status = true, model.StatusAnalyzed
		}
		if wc.res != nil {
			// What the target reports inside node_modules is a cause per
			// package, as for any upgrade.
			wc.deps = c.dependencyCauses(ctx, wc, nil)
		}
		out = append(out, wc)
	}
	return out, from, true
}

func relSlash(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// allFailed is the reasons when no project of any workspace compiled.
func allFailed(compiles []*wsCompile) string {
	var reasons []string
	for _, wc := range compiles {
		if wc.status != model.StatusNotAnalyzed {
			return ""
		}
		reasons = appendUnique(reasons, wc.reason)
	}
	return strings.Join(reasons, "; ")
}

// unattributedPrefix is how the arbiter explains a new error no change of
// the package explains; for a compiler upgrade the compiler is the change.
const unattributedPrefix = "compile error not attributed to a known API change: "

// compilerFindings says, for the errors only the target compiler reports,
// which compiler reports them. The confirmed ones are the unattributed
// errors (the possible ones keep their reason); one companionFindings
// already explained has lost the prefix the replacement words.
func compilerFindings(findings []model.Finding, from, to string) {
	for i := range findings {
		f := &findings[i]
		if model.CompilerCode(f.Change) != 0 && f.Severity == model.Breaking {
			f.Reason = strings.Replace(f.Reason, unattributedPrefix, fmt.Sprintf("TypeScript %s reports it and %s does not: ", to, from), 1)
		}
	}
}

// compilerSafeSummary is the verdict line of a clean compiler upgrade: no
// source names the compiler, so "0 sites" would say nothing.
func compilerSafeSummary(compiles []*wsCompile) string {
	files, projects := 0, 0
	for _, wc := range compiles {
		if wc.res != nil {
			files += wc.res.Coverage.Compiled
			projects += len(wc.projects)
		}
	}
	return fmt.Sprintf("✓ no new errors in %d %s (%d %s)", files, pluralWord(files, "file"), projects, pluralWord(projects, "project"))
}
