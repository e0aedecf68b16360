package fix

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/fix/managers"
	"github.com/uptide/uptide/internal/lists"
	"github.com/uptide/uptide/internal/proc"
)

// upgradePlan is what one fix moves, from check's reports.
type upgradePlan struct {
	from, to     string
	moves        []Move
	managerMoves []managers.Move
	conflicts    []string
	// added are companions the repository did not declare (new peers).
	added map[string]bool
}

// reportsOf are check's reports of the package: one per installed version
// (workspaces apart), or the group it belongs to.
func reportsOf(rep *model.CheckReport, name string) []model.PackageReport {
	var out []model.PackageReport
	for _, p := range rep.Packages {
		if concerns(p, name) {
			out = append(out, p)
		}
	}
	return out
}

// planOf joins the reports into one upgrade: every member to its target,
// the @types release typing it, every companion; conflicts stop it.
func planOf(name string, reports []model.PackageReport, r *model.Repository) (*upgradePlan, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("check has no report of %s: uptide list shows the dependencies this repository declares", name)
	}
	pl := &upgradePlan{added: map[string]bool{}}
	byName := map[string]*Move{}
	var order []string
	var froms []string
	add := func(m Move, mm managers.Move) {
		if prev, ok := byName[m.Name]; ok {
			if prev.To != m.To {
				pl.conflicts = append(pl.conflicts, fmt.Sprintf("%s would move to both %s and %s", m.Name, prev.To, m.To))
			}
			return
		}
		byName[m.Name] = &m
		order = append(order, m.Name)
		pl.managerMoves = append(pl.managerMoves, mm)
	}
	for _, p := range reports {
		if p.Target == "" {
			reason := p.Reason
			if reason == "" {
				reason = "no target"
			}
			return nil, fmt.Errorf("%s: %s", p.Title, reason)
		}
		if len(p.Members) == 0 {
			// Check planned no move (its reason says why): there is
			// nothing to install, so nothing is filed under its target.
			reason := p.Reason
			if reason == "" {
				reason = "check planned no move"
			}
			return nil, fmt.Errorf("%s: %s", p.Title, reason)
		}
		if pl.to != "" && pl.to != p.Target && p.Package == name {
			return nil, fmt.Errorf("%s is checked against %s and %s in different workspaces: name one with --target %s@<version>", name, pl.to, p.Target, name)
		}
		if p.Package == name || pl.to == "" {
			pl.to = p.Target
		}
		for _, m := range p.Members {
			target := m.Target
			if target == "" {
				target = p.Target
			}
			if m.Name == name {
				froms = appendUnique(froms, m.Installed)
			}
			why := "the upgrade"
			if m.Name != name {
				why = "released with " + name
			}
			add(Move{Name: m.Name, From: m.Installed, To: target, Why: why}, managers.Move{Name: m.Name, To: target})
			if tv := m.TypesVia; tv != nil && tv.To != "" && declares(r, tv.Package) {
				from := tv.Installed
				if from == "" {
					from = tv.From
				}
				add(Move{Name: tv.Package, From: from, To: tv.To, Why: "types of " + m.Name},
					managers.Move{Name: tv.Package, To: tv.To})
			}
		}
		for _, c := range p.Companions.Companions {
			if c.Remove {
				// bcryptjs 3 types itself: its @types package goes in the
				// same install, so nothing keeps the stale declarations.
				if managers.Removable(r, c.Name) {
					add(Move{Name: c.Name, From: c.From, Why: "removed: " + c.Why}, managers.Move{Name: c.Name, Remove: true})
				}
				continue
			}
			if c.To == "" {
				continue
			}
			mm := managers.Move{Name: c.Name, To: c.To}
			if c.From == "" && !declares(r, c.Name) {
				mm.Add, mm.Workspaces = true, p.Workspaces
				pl.added[c.Name] = true
			}
			add(Move{Name: c.Name, From: c.From, To: c.To, Why: c.Why}, mm)
		}
		for _, c := range p.Companions.Conflicts {
			pl.conflicts = append(pl.conflicts, fmt.Sprintf("%s %s: %s", c.Name, c.From, c.Why))
		}
	}
	if pl.to == "" {
		return nil, fmt.Errorf("check found no target for %s", name)
	}
	sort.Strings(froms)
	pl.from = strings.Join(froms, ", ")
	if pl.from == pl.to {
		return nil, fmt.Errorf("%s is at %s already: nothing to upgrade (name another version with --target %s@<version>)", name, pl.to, name)
	}
	for _, n := range order {
		pl.moves = append(pl.moves, *byName[n])
	}
	sort.Strings(pl.conflicts)
	return pl, nil
}

// declares is true when a workspace of the repository declares name.
func declares(r *model.Repository, name string) bool {
	for _, ws := range r.Workspaces {
		for _, d := range ws.Declarations {
			if d.Name == name {
				return true
			}
		}
	}
	return false
}

// workspacesOf are the workspaces the upgrade of name affects, known
// before check answers: those declaring it and those whose sources import
// it, sorted.
func workspacesOf(r *model.Repository, name string) ([]string, error) {
	seen := map[string]bool{}
	for _, ws := range r.Workspaces {
		for _, d := range ws.Declarations {
			if d.Name == name || d.Package == name {
				seen[ws.Path] = true
			}
		}
	}
	importers, err := repo.ImportersByWorkspace(r, []string{name})
	if err != nil {
		return nil, err
	}
	for ws, byName := range importers {
		if len(byName[name]) > 0 {
			seen[ws] = true
		}
	}
	if len(seen) == 0 {
		return nil, fmt.Errorf("no workspace of %s declares or imports %s: uptide list shows the dependencies", r.Root, name)
	}
	return lists.SortedKeys(seen), nil
}

// pendingBranch names the clone's branch until check says the target.
func pendingBranch(name string) string { return "uptide/" + name + "-pending" }

// upgradeSubject is the upgrade commit's subject: "upgrade react 18.3.1 →
// 19.1.0 (+ react-dom, @types/react)".
func upgradeSubject(name string, pl *upgradePlan) string {
	s := fmt.Sprintf("upgrade %s %s → %s", name, pl.from, pl.to)
	var others, removed []string
	for _, m := range pl.moves {
		switch {
		case m.Name == name:
		case m.To == "":
			removed = append(removed, m.Name)
		default:
			others = append(others, m.Name)
		}
	}
	if len(others) > 0 {
		s += " (+ " + strings.Join(others, ", ") + ")"
	}
	if len(removed) > 0 {
		s += " (removes " + strings.Join(removed, ", ") + ")"
	}
	return s
}

func moveList(moves []Move) string {
	var parts []string
	for _, m := range moves {
		if m.To == "" {
			parts = append(parts, "-"+m.Name)
			continue
		}
		parts = append(parts, m.Name+"@"+m.To)
	}
	return strings.Join(parts, " ")
}

// affectedFiles are the files the upgrade reaches: the importers of the
// package, the files of its findings and the edited files, sorted.
func affectedFiles(reports []model.PackageReport, edited []string) []string {
	seen := map[string]bool{}
	for _, f := range edited {
		seen[f] = true
	}
	for _, p := range reports {
		for _, imp := range p.Importers {
			for _, f := range imp.Files {
				seen[f] = true
			}
		}
		for _, f := range p.Findings {
			if f.File != "" && !strings.HasSuffix(f.File, "package.json") && !strings.HasSuffix(f.File, "tsconfig.json") && !strings.HasSuffix(f.File, "jsconfig.json") {
				seen[f.File] = true
			}
		}
	}
	return lists.SortedKeys(seen)
}

// sitesLeft are the places a person still has to edit: every new error of
// the fresh compile at its own line (named by the check finding it
// confirms, when one does), the errors at one line folded under it; the
// errors a root cause explains folded under its anchor, and a finding's
// downstream errors under the site of the finding (one edit fixes them);
// and every breaking finding no compiler can see (a module format, a Node
// engine, what the runtime probe saw in a file the repository does not
// type-check) that no applied patch addressed. What a rule or a patch fixed is
// no new error any more. A missing peer is not a site when the upgrade
// added it.
func sitesLeft(reports []model.PackageReport, newDiags []model.Diagnostic, patches []PatchResult, added map[string]bool, ruled map[string]bool) []Site {
	type dkey struct {
		file, message string
		code          int
	}
	ruleOf := map[string]string{}
	evidenceOf, downstreamOf := map[dkey]model.Finding{}, map[dkey]model.Finding{}
	var blind []model.Finding
	for _, p := range reports {
		for _, rule := range p.Plan.Rules {
			for _, id := range rule.Findings {
				ruleOf[id] = rule.Title
			}
		}
		for _, f := range p.Findings {
			for _, d := range f.Evidence {
				evidenceOf[dkey{d.File, d.Message, d.Code}] = f
			}
			for _, d := range f.Downstream {
				downstreamOf[dkey{d.File, d.Message, d.Code}] = f
			}
			// What only the runtime probe judged breaking sits in a file the
			// repository does not type-check: its compile after the upgrade
			// never reports it, whatever check's own compile said there.
			if f.Severity == model.Breaking && (len(f.Evidence) == 0 && len(f.Downstream) == 0 || len(f.Runtime) > 0) {
				blind = append(blind, f)
			}
		}
	}
	patched := map[string]bool{}
	for _, p := range patches {
		if p.Applied && p.Finding != "" {
			patched[p.Finding] = true
		}
	}
	var order []string
	sites := map[string]*Site{}
	// siteOf is where a finding's errors are fixed: its anchor, or the
	// line of its first error the compile still reports.
	siteOf := map[string]string{}
	add := func(key string, s Site, d model.Diagnostic) {
		if sites[key] == nil {
			s.Errors = []model.Diagnostic{}
			sites[key] = &s
			order = append(order, key)
		}
		sites[key].Errors = append(sites[key].Errors, d)
	}
	// cause is the site of a finding whose errors sit inside a dependency:
	// the finding itself (at the manifest), never a line of the package.
	cause := func(f model.Finding, d model.Diagnostic) {
		siteOf[f.ID] = "finding\x00" + f.ID
		add(siteOf[f.ID], Site{File: causeFile(f.File, f.Workspace), Line: f.Line, Rule: orDefault(ruleOf[f.ID], f.Change), Message: f.Reason, Finding: f.ID}, d)
	}
	var downstream []model.Diagnostic
	// Errors inside a dependency no finding explains, by package: each
	// package is one cause to look into, never a site per error.
	unexplained := map[string][]model.Diagnostic{}
	for _, d := range newDiags {
		k := dkey{d.File, d.Message, d.Code}
		s := Site{File: d.File, Line: d.Line, Rule: fmt.Sprintf("TS%d", d.Code), Message: d.Message}
		f, ok := evidenceOf[k]
		switch {
		case !ok:
			if _, ok := downstreamOf[k]; ok {
				downstream = append(downstream, d)
				continue
			}
			if model.InDependency(d.File) {
				pkg, _ := model.DependencyOf(d.File)
				unexplained[pkg] = append(unexplained[pkg], d)
				continue
			}
		case model.InDependency(d.File):
			cause(f, d)
			continue
		case f.AnchorOnly:
			s = Site{File: f.File, Line: f.Line, Rule: orDefault(ruleOf[f.ID], s.Rule), Message: f.Reason, Finding: f.ID}
			siteOf[f.ID] = "finding\x00" + f.ID
			add(siteOf[f.ID], s, d)
			continue
		default:
			s.Finding, s.Rule = f.ID, orDefault(ruleOf[f.ID], s.Rule)
		}
		key := fmt.Sprintf("at\x00%s\x00%d", d.File, d.Line)
		if ok && siteOf[f.ID] == "" {
			siteOf[f.ID] = key
		}
		add(key, s, d)
	}
	for _, d := range downstream {
		f := downstreamOf[dkey{d.File, d.Message, d.Code}]
		if model.InDependency(d.File) {
			cause(f, d)
			continue
		}
		key := siteOf[f.ID]
		if key == "" {
			key = "finding\x00" + f.ID
			siteOf[f.ID] = key
		}
		rule := orDefault(ruleOf[f.ID], orDefault(f.Change, fmt.Sprintf("TS%d", d.Code)))
		add(key, Site{File: f.File, Line: f.Line, Rule: rule, Message: f.Reason, Finding: f.ID}, d)
	}
	out := []Site{}
	for _, key := range order {
		out = append(out, *sites[key])
	}
	pkgs := lists.SortedKeys(unexplained)
	for _, pkg := range pkgs {
		ds := unexplained[pkg]
		name := pkg
		if name == "" {
			name = "files outside the repository"
		}
		out = append(out, Site{File: "package.json", Rule: "errors inside " + name, Errors: ds,
			Message: fmt.Sprintf("%s inside %s after the upgrade, which check did not see; the first, %s:%d TS%d: %s",
				plural(len(ds), "new error", "new errors"), name, ds[0].File, ds[0].Line, ds[0].Code, ds[0].Message)})
	}
	for _, f := range blind {
		if patched[f.ID] || ruled[f.ID] || siteOf[f.ID] != "" || (f.Change == "missing-peer" && added[f.Replacement]) {
			continue
		}
		rule := ruleOf[f.ID]
		if rule == "" {
			rule = f.Change
		}
		out = append(out, Site{File: f.File, Line: f.Line, Rule: rule, Message: f.Reason, Finding: f.ID, Errors: []model.Diagnostic{}})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// causeFile is where a cause found inside a dependency is fixed: its
// finding's file when that is the repository's, else the workspace's
// manifest.
func causeFile(file, ws string) string {
	if file != "" && !model.InDependency(file) {
		return file
	}
	if ws == "" || ws == "." {
		return "package.json"
	}
	return ws + "/package.json"
}

// risk says how much review the branch needs, and why.
func risk(r *Report) Risk {
	var high, medium []string
	switch r.Status {
	case StatusNotRun:
		return Risk{Level: model.RiskHigh, Why: []string{"nothing was verified: " + r.Reason}}
	case StatusFailed:
		high = append(high, "verification failed: "+r.Reason)
	}
	if r.From != "" && r.To != "" && major(r.From) != major(r.To) {
		medium = append(medium, fmt.Sprintf("a major upgrade (%s → %s): behaviour the compiler cannot see may change", r.From, r.To))
	}
	// A run whose tests failed ran against the upgrade too (the failure is
	// the high risk above): only a run that executed no test did not.
	ran := 0
	for _, t := range r.Tests.Results {
		if t.Status == model.TestPassed || t.Passed > 0 || t.Failed > 0 {
			ran++
		}
	}
	if ran == 0 {
		medium = append(medium, "no test ran against the upgrade")
	}
	if n := len(r.Tests.Skipped); n > 0 {
		medium = append(medium, plural(n, "test file needing services was not run", "test files needing services were not run"))
	}
	if r.Types.Status == model.StatusSkipped {
		medium = append(medium, "nothing was type-checked: "+r.Types.Reason)
	}
	switch {
	case len(high) > 0:
		return Risk{Level: model.RiskHigh, Why: append(high, medium...)}
	case len(medium) > 0:
		return Risk{Level: model.RiskMedium, Why: medium}
	}
	return Risk{Level: model.RiskLow, Why: []string{"types and tests pass against the upgrade"}}
}

func major(v string) string {
	v = strings.TrimSpace(strings.SplitN(v, ",", 2)[0])
	parts := strings.SplitN(v, ".", 3)
	if parts[0] == "0" && len(parts) > 1 {
		return "0." + parts[1]
	}
	return parts[0]
}

// marshalRun is the stored run: the report as JSON.
func marshalRun(r *Report) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"schemaVersion": 1, "run": r}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func gitOutput(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	// A path or a ref: anything longer is not git's answer.
	out, errb := &proc.Capped{Max: 1 << 20}, &proc.Capped{Max: 64 << 10}
	cmd.Stdout, cmd.Stderr = out, errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	if out.Exceeded() {
		return "", fmt.Errorf("git %s printed more than 1 MB: not an answer to use", strings.Join(args, " "))
	}
	return strings.TrimSpace(out.String()), nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
