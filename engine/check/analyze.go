package check

import (
	"context"
	"crypto/sha256"
	"fmt"
	"github.com/uptide/uptide/engine/event"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/uptide/uptide/engine/groups"
	"github.com/uptide/uptide/engine/match"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/packs"
	"github.com/uptide/uptide/engine/plan"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/lists"
)

// analyze checks one unit: Signal A and the diff per member, one overlay
// compile per workspace with every target linked, the module-format check,
// the arbiter, root causes, the verdict and the plan.
func (c *checker) analyze(ctx context.Context, u unit) model.PackageReport {
	lead := u.lead
	rep := headerOf(u)
	if lead.reason != "" {
		return c.finishNotAnalyzed(rep, lead.reason)
	}
	if allAtTarget(u) {
		rep.Status, rep.Reason = model.StatusSkipped, "installed "+lead.target+" is already the target"
		rep.Summary = "✓ up to date"
		rep.Compile = model.CompileReport{Status: model.StatusSkipped, Reason: rep.Reason, Skipped: []model.SkippedFile{}, PreExistingErrors: []model.Diagnostic{}, Line: "not compiled: nothing moves"}
		rep.ModuleFormat = model.ModuleFormatReport{Status: model.StatusSkipped, Reason: rep.Reason}
		rep.Companions.From, rep.Companions.To = lead.row.Installed, lead.target
		return rep
	}
	if u.early != nil {
		<-u.early.done
		rep.Companions = u.early.plan
	} else {
		rep.Companions = c.companionPlan(ctx, u)
		c.planned(u, rep)
	}

	runs := make([]*memberRun, len(u.members))
	for i, m := range u.members {
		runs[i] = c.runMember(ctx, m)
		c.startRuntime(ctx, runs[i])
	}
	for _, r := range runs {
		if r.m.reason != "" || r.rep.Status == model.StatusNotAnalyzed {
			continue
		}
		fo := c.moduleFormat(r)
		r.notes = append(r.notes, fo.notes...)
		c.enginesNode(r)
		if r.m.name() == lead.name() || rep.ModuleFormat.Status == model.StatusNotAnalyzed {
			rep.ModuleFormat = fo.report
		} else {
			rep.ModuleFormat = mergeFormat(rep.ModuleFormat, fo.report)
		}
	}
	var analyzed []*memberRun
	for _, r := range runs {
		rep.Members = append(rep.Members, r.rep)
		rep.Notes = append(rep.Notes, r.notes...)
		rep.Warnings = append(rep.Warnings, r.warnings...)
		if r.ok || len(r.format) > 0 {
			analyzed = append(analyzed, r)
		}
		rep.Unanalyzed = append(rep.Unanalyzed, r.unanalyzed...)
		c.mu.Lock()
		c.computed = append(c.computed, r.computed...)
		c.mu.Unlock()
	}
	sort.Slice(rep.Members, func(i, j int) bool { return rep.Members[i].Name < rep.Members[j].Name })
	if len(analyzed) == 0 {
		reasons := []string{}
		for _, r := range runs {
			if r.rep.Reason != "" {
				reasons = appendUnique(reasons, r.rep.Reason)
			}
		}
		return c.finishNotAnalyzed(rep, strings.Join(reasons, "; "))
	}

	removeOwnTypes(&rep.Companions, runs)
	companions, unplaced := c.linkCompanions(ctx, rep.Companions, runs)
	rep.Warnings = append(rep.Warnings, unplaced...)
	var compiles []*wsCompile
	judged, compilerFrom := false, ""
	compiler, movesTS := movesCompiler(u)
	if movesTS {
		compiles, compilerFrom, judged = c.judgeCompiler(ctx, compiler)
		if reason := allFailed(compiles); judged && reason != "" {
			return c.finishNotAnalyzed(rep, "compiling the projects: "+reason)
		}
	}
	if !judged {
		for _, ws := range rep.Workspaces {
			wc := c.compileWorkspace(ctx, ws, runs, companions)
			if wc.res != nil {
				wc.gaps = append(wc.gaps, unplaced...)
			}
			compiles = append(compiles, wc)
		}
	}
	rep.Companions.Companions = append(rep.Companions.Companions, c.peerCompanions(compiles)...)
	findings := c.judgeFindings(lead.name(), runs, compiles)
	for _, r := range runs {
		if rt := r.awaitRuntime(); rt != nil {
			// Where the copies were laid out is this run's and the cache's,
			// not the answer: left out, so the report reads the same on
			// every run.
			out := *rt
			out.Installed.Placement, out.Target.Placement = "", ""
			rep.Runtime = append(rep.Runtime, out)
		}
	}
	companionFindings(findings, rep.Companions.Companions)
	if judged {
		compilerFindings(findings, compilerFrom, compiler.target)
	}
	pack := c.packFor(ctx, u, runs)
	findings = append(findings, noteUses(pack, runs)...)
	c.timer.Done(event.PhaseMatch)
	c.finish(ctx, &rep, u, runs, compiles, findings, pack)
	if judged && rep.Verdict == model.VerdictSafe {
		rep.Summary = compilerSafeSummary(compiles)
	}
	return rep
}

// headerOf is u's report before its analysis: what it is, where, from
// and to.
func headerOf(u unit) model.PackageReport {
	rep := emptyReport(u.lead.name())
	rep.Title = u.title()
	rep.Workspaces = u.workspaces()
	rep.Installed, rep.Target = u.lead.row.Installed, u.lead.target
	rep.Update = semver.UpdateKind(u.lead.row.Installed, u.lead.target)
	rep.Group = u.group
	rep.Notes = append(rep.Notes, u.notes...)
	return rep
}

// earlyPlan is a unit's companion plan, made before the unit's analysis
// (the shared baselines and the units before it) so that fix installs it
// meanwhile: plan is set when done is closed.
type earlyPlan struct {
	done chan struct{}
	plan model.CompanionPlan
}

// planEarly makes the companion plans of the units analyze will plan, in
// order and beside the shared baselines and the analyses, handing each to
// opts.Planned; analyze takes them instead of planning again.
func (c *checker) planEarly(ctx context.Context, units []unit) {
	if c.opts.Planned == nil {
		return
	}
	for i, u := range units {
		if u.lead.reason == "" && !allAtTarget(u) {
			units[i].early = &earlyPlan{done: make(chan struct{})}
		}
	}
	go func() {
		for _, u := range units {
			if u.early == nil {
				continue
			}
			rep := headerOf(u)
			rep.Companions = c.companionPlan(ctx, u)
			u.early.plan = rep.Companions
			c.planned(u, rep)
			close(u.early.done)
		}
	}()
}

// planned hands u's plan (rep's companions) to opts.Planned: rep without
// the analysis, its members at their targets.
func (c *checker) planned(u unit, rep model.PackageReport) {
	if c.opts.Planned == nil {
		return
	}
	early := rep
	early.Members = nil
	early.Companions.Companions = append([]model.Companion{}, early.Companions.Companions...)
	early.Companions.Conflicts = append([]model.Conflict{}, early.Companions.Conflicts...)
	for _, m := range u.members {
		early.Members = append(early.Members, model.MemberReport{Name: m.name(), Installed: m.row.Installed, Target: m.target,
			Workspaces: append([]string{}, m.row.Workspaces...)})
	}
	c.opts.Planned(early)
}

// allAtTarget: nothing in the unit moves.
func allAtTarget(u unit) bool {
	for _, m := range u.members {
		if m.reason != "" || m.target != m.row.Installed {
			return false
		}
	}
	return true
}

func (c *checker) finishNotAnalyzed(rep model.PackageReport, reason string) model.PackageReport {
	rep.Status, rep.Reason = model.StatusNotAnalyzed, reason
	rep.Summary = "not analyzed: " + reason
	rep.Compile.Reason, rep.ModuleFormat.Reason = reason, reason
	rep.Unanalyzed = dedupeUnanalyzed(rep.Unanalyzed)
	sortStrings(&rep)
	return rep
}

// companionPlan is the companion plan of the lead's target, without the
// unit's own members (they move as targets).
func (c *checker) companionPlan(ctx context.Context, u unit) model.CompanionPlan {
	c.loadCompanionInputs(ctx)
	lead := u.lead
	empty := model.CompanionPlan{Name: lead.row.Package, From: lead.row.Installed, To: lead.target,
		Companions: []model.Companion{}, Conflicts: []model.Conflict{}}
	if c.packs[lead.row.Package] == nil {
		return empty
	}
	target := groups.Dep{Name: lead.row.Package, Installed: lead.row.Installed, Workspace: lead.row.Workspaces[0], Target: lead.target}
	p := groups.NewIndex(c.packs).Companions(target, lead.target, c.deps)
	inUnit := map[string]bool{}
	for _, m := range u.members {
		inUnit[m.row.Package] = true
	}
	out := empty
	for _, cp := range p.Companions {
		if !inUnit[cp.Name] {
			out.Companions = append(out.Companions, cp)
		}
	}
	for _, cf := range p.Conflicts {
		if !inUnit[cf.Name] {
			out.Conflicts = append(out.Conflicts, cf)
		}
	}
	return out
}

// removeOwnTypes makes the @types package of a member whose target ships
// its own declarations a removal in the plan, whether or not
// DefinitelyTyped published the stub the companion rules read.
func removeOwnTypes(plan *model.CompanionPlan, runs []*memberRun) {
	for _, r := range runs {
		if r.removesTypes == "" {
			continue
		}
		rm := model.Companion{Name: r.removesTypes, From: r.rep.TypesVia.Installed, Remove: true,
			Why:    fmt.Sprintf("%s %s ships its own types", r.m.name(), r.m.target),
			Reason: model.CompanionReason{Kind: model.CompanionRemoval, Follows: r.m.name()}}
		if rm.From == "" {
			rm.From = r.rep.TypesVia.From
		}
		i := slices.IndexFunc(plan.Companions, func(c model.Companion) bool { return c.Name == rm.Name })
		if i < 0 {
			plan.Companions = append(plan.Companions, rm)
			sort.Slice(plan.Companions, func(a, b int) bool { return plan.Companions[a].Name < plan.Companions[b].Name })
			continue
		}
		if !plan.Companions[i].Remove {
			plan.Companions[i] = rm
		}
	}
}

// linkCompanions fetches the companions for the overlay: the target
// compiles next to the versions that move with it. A types package a member
// is analyzed through is that member's target already.
func (c *checker) linkCompanions(ctx context.Context, plan model.CompanionPlan, runs []*memberRun) ([]typescript.LinkedPackage, []string) {
	linked := map[string]bool{}
	for _, r := range runs {
		linked[r.linkName] = true
		linked[r.m.name()] = true
	}
	var out []typescript.LinkedPackage
	var warnings []string
	for _, cp := range plan.Companions {
		if linked[cp.Name] || cp.Remove {
			continue
		}
		p, err := c.fetch(ctx, cp.Name, cp.To)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("companion %s@%s was not linked for the compile: %v", cp.Name, cp.To, err))
			continue
		}
		linked[cp.Name] = true
		out = append(out, typescript.LinkedPackage{Name: cp.Name, Dir: p.Dir})
	}
	return out, warnings
}

func mergeFormat(a, b model.ModuleFormatReport) model.ModuleFormatReport {
	a.StopsRequire = a.StopsRequire || b.StopsRequire
	a.RequireSites += b.RequireSites
	if b.Node != "" && !strings.Contains(a.Node, b.Node) {
		if a.Node != "" {
			a.Node += ", "
		}
		a.Node += b.Node
	}
	return a
}

// judgeFindings joins each member's changes with its usages and lets the
// compiler decide, per workspace. A diagnostic confirms at most one usage of
// one member; what no member explains becomes one unattributed finding (or
// a root-cause anchor) under the lead, once.
func (c *checker) judgeFindings(lead string, runs []*memberRun, compiles []*wsCompile) []model.Finding {
	var all []model.Finding
	for _, wc := range compiles {
		var diags []model.Diagnostic
		if wc.ran && wc.res != nil {
			diags = withoutConfirmed(wc.res.New, countOf(wc.peerFixed))
			// The errors inside dependencies are their causes' evidence
			// (below), never sites. A missing peer's keep theirs.
			diags = slices.DeleteFunc(diags, func(d model.Diagnostic) bool { return model.InDependency(d.File) })
			all = append(all, match.MissingPeer(wc.peerFixed, c.missingOf(wc), match.ArbiterOptions{Package: lead, Workspace: wc.ws})...)
		}
		confirmed := map[diagKey]int{}
		var usages []model.Usage
		for _, r := range runs {
			if !r.ok && len(r.format[wc.ws]) == 0 {
				continue
			}
			us := r.usages[wc.ws]
			var fs []model.Finding
			if r.untyped != "" {
				// No surface on either side: the probe judges every site.
				all = append(all, match.Untyped(us, r.awaitRuntime(), r.m.name(), wc.ws)...)
			} else if r.ok {
				fs = match.Match(r.changes, us, r.tgt, match.Options{Package: r.m.name(), Installed: r.inst})
				if wc.ran && wc.res != nil {
					fs = append(fs, deprecatedKeyFindings(r, wc.ws, wc.res.DeprecatedKeys, fs)...)
				}
			}
			fs = append(fs, r.format[wc.ws]...)
			out := match.Arbitrate(fs, us, diags, match.ArbiterOptions{
				Package: r.m.name(), Installed: r.inst, Target: r.tgt, Workspace: wc.ws,
				Compile: match.Compile{
					Ran:                   wc.ran && r.noCompile == "" && r.compileGap == "",
					UnresolvedTargetFiles: wc.unresolvedFiles[r.linkName],
					NotCompiled:           wc.notCompiled(),
					Unchecked:             wc.unchecked(),
				},
				Runtime: r.judgedRuntime(),
			})
			for _, f := range out {
				if isCompilerOnly(f) {
					continue
				}
				for _, d := range f.Evidence {
					confirmed[keyOfDiag(d)]++
				}
				// Traced to a usage of this member: counted with its finding.
				for _, d := range f.Downstream {
					confirmed[keyOfDiag(d)]++
				}
				all = append(all, f)
			}
			usages = append(usages, us...)
		}
		var extra []model.Finding
		for _, dc := range wc.deps {
			extra = append(extra, dependencyFinding(lead, wc, dc))
		}
		rest := withoutConfirmed(diags, confirmed)
		// A new error in a file only a companion's import put in scope is
		// that companion's: next 15's async cookies() in a file importing
		// next/headers alone, when react 19 takes next along.
		byOwner := map[string][]model.Diagnostic{}
		for _, d := range rest {
			byOwner[wc.owners[d.File]] = append(byOwner[wc.owners[d.File]], d)
		}
		if len(byOwner[""]) > 0 || len(extra) > 0 {
			all = append(all, match.Arbitrate(extra, usages, byOwner[""], match.ArbiterOptions{
				Package: lead, Workspace: wc.ws, Compile: match.Compile{Ran: wc.ran, NotCompiled: wc.notCompiled(), Unchecked: wc.unchecked()},
			})...)
		}
		for _, owner := range lists.SortedKeys(byOwner) {
			if owner != "" {
				all = append(all, match.Arbitrate(nil, nil, byOwner[owner], match.ArbiterOptions{
					Package: owner, Workspace: wc.ws, Compile: match.Compile{Ran: wc.ran, NotCompiled: wc.notCompiled(), Unchecked: wc.unchecked()},
				})...)
			}
		}
	}
	return foldFormatSites(match.FoldSharedRoots(all))
}

// companionFindings says, for the new errors in files only a companion's
// import put in scope, which move makes them.
func companionFindings(findings []model.Finding, companions []model.Companion) {
	for i := range findings {
		f := &findings[i]
		for _, cp := range companions {
			if cp.Name == f.Package && model.CompilerCode(f.Change) != 0 {
				f.Reason = strings.Replace(f.Reason, unattributedPrefix,
					fmt.Sprintf("compile error from %s %s → %s, which moves with the upgrade: ", cp.Name, cp.From, cp.To), 1)
			}
		}
	}
}

// isCompilerOnly: an unattributed compiler finding or a root-cause anchor,
// which the unit's last pass makes once from what no member explained.
func isCompilerOnly(f model.Finding) bool {
	if f.Change == model.ChangeCause {
		return true
	}
	return model.CompilerCode(f.Change) != 0
}

type diagKey struct {
	file    string
	start   int
	code    int
	message string
}

func keyOfDiag(d model.Diagnostic) diagKey { return diagKey{d.File, d.Start, d.Code, d.Message} }

func withoutConfirmed(diags []model.Diagnostic, confirmed map[diagKey]int) []model.Diagnostic {
	left := map[diagKey]int{}
	for k, n := range confirmed {
		left[k] = n
	}
	var out []model.Diagnostic
	for _, d := range diags {
		k := keyOfDiag(d)
		if left[k] > 0 {
			left[k]--
			continue
		}
		out = append(out, d)
	}
	return out
}

// finish fills the report from the findings: counts, verdict, coverage,
// status and the plan.
func (c *checker) finish(ctx context.Context, rep *model.PackageReport, u unit, runs []*memberRun, compiles []*wsCompile, findings []model.Finding, pack plan.Pack) {
	rep.Findings = findings
	if rep.Findings == nil {
		rep.Findings = []model.Finding{}
	}
	rep.Unanalyzed = dedupeUnanalyzed(rep.Unanalyzed)
	sites := 0
	for _, r := range runs {
		if r.ok || len(r.format) > 0 {
			sites += r.rep.Sites
		}
	}
	for _, f := range findings {
		if f.Hidden {
			rep.Counts.Hidden++
			continue
		}
		switch f.Severity {
		case model.Breaking:
			rep.Counts.Breaking++
		case model.Unverified:
			rep.Counts.Possible++
		case model.Deprecated:
			rep.Counts.Deprecated++
		}
	}
	rep.Counts.Sites = sites
	rep.Counts.Unanalyzed = len(rep.Unanalyzed)
	status, summary := match.Verdict(findings, sites, len(rep.Unanalyzed))
	rep.Verdict, rep.Summary = status, summary

	rep.Compile = compileReport(compiles, c.opts.Compile)
	if !c.opts.Compile && rep.Counts.Possible+rep.Counts.Breaking > 0 {
		rep.Notes = append(rep.Notes, "unverified: compile check skipped (--no-compile), so nothing is confirmed")
	}
	for _, wc := range compiles {
		rep.Notes = append(rep.Notes, wc.notes...)
		if wc.res != nil {
			if w := wc.res.UnresolvedWarning(rep.Title + "@" + rep.Target); w != "" {
				rep.Warnings = append(rep.Warnings, w)
			}
		}
	}
	if len(rep.Companions.Conflicts) > 0 {
		for _, cf := range rep.Companions.Conflicts {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("companion conflict: %s %s: %s", cf.Name, cf.From, cf.Why))
		}
	}

	rep.Status = model.StatusAnalyzed
	var partly []string
	for _, r := range runs {
		if r.rep.Status == model.StatusNotAnalyzed || r.rep.Status == model.StatusPartial {
			partly = append(partly, r.m.name()+": "+r.rep.Reason)
		}
	}
	if c.opts.Compile && (rep.Compile.Status == model.StatusNotAnalyzed || rep.Compile.Status == model.StatusPartial) {
		partly = append(partly, "compile: "+rep.Compile.Reason)
	}
	var unjudged []string
	skipped := false // --no-compile left files unjudged
	for _, wc := range compiles {
		switch why := wc.unjudged(); {
		case !c.opts.Compile:
			skipped = skipped || len(wc.files) > 0
		case why != "":
			unjudged = appendUnique(unjudged, why)
		}
	}
	// Only the compiler says the sites still compile: without its
	// judgement no verdict claims safety, nor, unless --no-compile asked
	// for it, calls what the diff saw "possible" as if the compiler had
	// looked.
	switch {
	case len(unjudged) > 0:
		if rep.Compile.Status == model.StatusAnalyzed || rep.Compile.Status == model.StatusSkipped {
			partly = append(partly, "compile: "+strings.Join(unjudged, "; "))
		}
		if rep.Verdict != model.VerdictBreaking {
			rep.Verdict = model.VerdictPartial
			rep.Summary = fmt.Sprintf("⚠ not compiled: no impact confirmed in %d %s", sites, pluralWord(sites, "site"))
		}
	case skipped && rep.Verdict == model.VerdictSafe:
		partly = append(partly, "compile: skipped (--no-compile)")
		rep.Verdict = model.VerdictPartial
		rep.Summary = fmt.Sprintf("⚠ not compiled (--no-compile): no impact confirmed in %d %s", sites, pluralWord(sites, "site"))
	}
	if len(rep.Unanalyzed) > 0 {
		partly = append(partly, fmt.Sprintf("%d %s not analyzed", len(rep.Unanalyzed), pluralWord(len(rep.Unanalyzed), "load")))
	}
	if len(partly) > 0 {
		rep.Status, rep.Reason = model.StatusPartial, strings.Join(partly, "; ")
	}

	var members []plan.Target
	for _, m := range u.members[1:] {
		members = append(members, plan.Target{Name: m.name(), Version: m.target})
	}
	rep.Plan = plan.Build(findings, plan.Options{
		Package: u.lead.name(), Target: u.lead.target, Pack: pack, TypeScriptRelease: typeScriptReleaseOf(compiles),
		Repo: plan.Repo{Cwd: c.opts.CwdArg, Group: u.group != nil && !oneScope(u.group.Kind)}, Members: members, Companions: rep.Companions,
	})
	sortStrings(rep)
}

// noteUses are the info findings of the uses a covering pack's rule is
// keyed by (React 19's forwardRef): the plan notes them with the rule.
func noteUses(pack plan.Pack, runs []*memberRun) []model.Finding {
	pl, ok := pack.(*packs.Planner)
	if !ok || pl == nil {
		return nil
	}
	var out []model.Finding
	for _, r := range runs {
		if r == nil || !r.ok {
			continue
		}
		for _, ws := range lists.SortedKeys(r.usages) {
			out = append(out, match.NoteUses(r.m.name(), pack.Name(), r.usages[ws], pl.NotesUse)...)
		}
	}
	return out
}

// packFor is the migration pack of the unit's upgrade, bound to the
// repository, when one covers a moving member's versions, or the versions
// of the @types release typing it (react's pack is @types/react's, whether
// @types/react is a member of its group or only types it); nil leaves
// every site manual.
func (c *checker) packFor(ctx context.Context, u unit, runs []*memberRun) plan.Pack {
	var pack *packs.Pack
	var facts packs.Facts
	for _, m := range u.members {
		if m.reason != "" || m.target == m.row.Installed {
			continue
		}
		if pack = packs.For(m.name(), m.row.Installed, m.target); pack != nil {
			// The pack reads what its rules need from the two versions'
			// declarations (stripe's pinned API versions); without them
			// those rules take no site.
			for _, r := range runs {
				if r != nil && r.m.name() == m.name() && pack.Facts != nil && r.runtimeInst != "" && r.runtimeTgt != "" {
					facts, _ = pack.Facts(r.runtimeInst, r.runtimeTgt)
				}
			}
			break
		}
	}
	for _, r := range runs {
		if pack != nil {
			break
		}
		if r == nil || r.rep.TypesVia == nil {
			continue
		}
		// From is the release the findings were diffed from.
		if tv := r.rep.TypesVia; tv.To != tv.From {
			pack = packs.For(tv.Package, tv.From, tv.To)
		}
	}
	if pack == nil {
		return nil
	}
	pl := pack.Planner(c.root).WithFacts(facts)
	// The transforms that need syntax parse with the pinned compiler
	// (surfaces are extracted with it, so it is there); without it they
	// take no site and the plan says by agent.
	if sa, err := c.surfaces(ctx); err == nil && sa != nil {
		pl.WithSyntax(SyntaxOf(ctx, sa))
	}
	return pl
}

// SyntaxOf is a pack's parser over a TypeScript adapter.
func SyntaxOf(ctx context.Context, a *typescript.Adapter) packs.Syntax {
	// A site's transform asks the same question more than once (planning,
	// the dry run, the edit): each answer is kept for this text.
	type question struct {
		file   string
		text   [sha256.Size]byte
		offset int
	}
	var mu sync.Mutex
	answers := map[question][]packs.Node{}
	return func(file, text string, offset int) ([]packs.Node, error) {
		q := question{file, sha256.Sum256([]byte(text)), offset}
		mu.Lock()
		nodes, ok := answers[q]
		mu.Unlock()
		if ok {
			return nodes, nil
		}
		chains, err := a.Ancestors(ctx, file, text, []int{offset})
		if err != nil {
			return nil, err
		}
		out := make([]packs.Node, 0, len(chains[0]))
		for _, n := range chains[0] {
			out = append(out, packs.Node{Kind: n.Kind, Start: n.Start, End: n.End})
		}
		mu.Lock()
		answers[q] = out
		mu.Unlock()
		return out, nil
	}
}

// compileReport merges the workspaces' compiles into the report's coverage.
func compileReport(compiles []*wsCompile, enabled bool) model.CompileReport {
	r := model.CompileReport{Status: model.StatusAnalyzed, Skipped: []model.SkippedFile{}, PreExistingErrors: []model.Diagnostic{}}
	if !enabled {
		r.Status, r.Reason = model.StatusSkipped, "--no-compile: nothing is confirmed; every change at a site is possible impact"
		r.Line = "compile check skipped (--no-compile): nothing is confirmed"
		return r
	}
	var compilers, reasons []string
	judged, skipped := 0, 0
	for _, wc := range compiles {
		if wc.res != nil {
			compilers = appendUnique(compilers, wc.res.Compiler)
			r.Asked += wc.res.Coverage.Asked
			r.Compiled += wc.res.Coverage.Compiled
			r.PreExisting += wc.res.PreExisting
			r.PreExistingErrors = append(r.PreExistingErrors, wc.res.PreExistingErrors...)
			r.NewErrors += len(wc.res.New)
			r.UnresolvedInTarget += len(wc.res.UnresolvedInTarget)
			for _, s := range wc.res.Coverage.Skipped {
				r.Skipped = append(r.Skipped, model.SkippedFile{File: s.File, Reason: s.Reason})
			}
		} else {
			r.Asked += len(wc.files)
		}
		switch wc.status {
		case model.StatusAnalyzed:
			judged++
		case model.StatusPartial:
			judged++
			reasons = appendUnique(reasons, wc.reason)
		case model.StatusSkipped:
			skipped++
			if wc.reason != "" && !wc.ran {
				reasons = appendUnique(reasons, wc.reason)
			}
			if !wc.ran && !wc.settled && r.Status == model.StatusAnalyzed {
				r.Status = model.StatusNotAnalyzed
			}
		default:
			reasons = appendUnique(reasons, wc.reason)
			if r.Status == model.StatusAnalyzed {
				r.Status = model.StatusNotAnalyzed
			}
		}
	}
	switch {
	case judged == 0 && r.Status == model.StatusAnalyzed:
		r.Status = model.StatusSkipped
		if len(reasons) == 0 {
			reasons = append(reasons, "no file uses the package")
		}
	case r.Status == model.StatusNotAnalyzed && judged > 0:
		r.Status = model.StatusPartial
	case r.Status == model.StatusAnalyzed && len(r.Skipped) > 0:
		r.Status = model.StatusPartial
	}
	r.Reason = strings.Join(reasons, "; ")
	sort.Slice(r.Skipped, func(i, j int) bool { return r.Skipped[i].File < r.Skipped[j].File })
	r.Compiler = strings.Join(compilers, ", ")
	switch {
	case judged > 0:
		r.Line = fmt.Sprintf("compiled %d of %d %s with %s · %d pre-existing %s", r.Compiled, r.Asked, pluralWord(r.Asked, "file"),
			r.Compiler, r.PreExisting, pluralWord(r.PreExisting, "error"))
		if len(r.Skipped) > 0 {
			r.Line += fmt.Sprintf(" · %d skipped", len(r.Skipped))
		}
	default:
		r.Line = "not compiled: " + r.Reason
	}
	return r
}

func pluralWord(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

func dedupeUnanalyzed(us []model.Unanalyzed) []model.Unanalyzed {
	seen := map[model.Unanalyzed]bool{}
	out := []model.Unanalyzed{}
	for _, u := range us {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	sortByPlace(out, func(u model.Unanalyzed) (string, int, string) { return u.File, u.Line, u.Kind })
	return out
}

// sortByPlace orders a report's list by file, line, then kind, as every
// list of places reads.
func sortByPlace[T any](list []T, place func(T) (file string, line int, kind string)) {
	sort.Slice(list, func(i, j int) bool {
		af, al, ak := place(list[i])
		bf, bl, bk := place(list[j])
		if af != bf {
			return af < bf
		}
		if al != bl {
			return al < bl
		}
		return ak < bk
	})
}

// sortStrings makes the report's free-text lists deterministic.
func sortStrings(rep *model.PackageReport) {
	dedupeSorted := func(s []string) []string {
		sort.Strings(s)
		out := s[:0]
		for i, x := range s {
			if i == 0 || x != s[i-1] {
				out = append(out, x)
			}
		}
		return out
	}
	rep.Notes = dedupeSorted(rep.Notes)
	rep.Warnings = dedupeSorted(rep.Warnings)
}
