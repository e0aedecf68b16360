package fix

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/packs"
	"github.com/uptide/uptide/engine/plan"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/fix/verify"
)

// RulesReport is the migration pack's part of a run: the sites its rules'
// transforms edited, in one commit after the upgrade's.
type RulesReport struct {
	Pack string `json:"pack"`
	// Commit is the rules' commit ("" when it was not made).
	Commit string     `json:"commit,omitempty"`
	Sites  []RuleSite `json:"sites"`
	// Reason says why no edit was made although the plan had sites by rule.
	Reason string `json:"reason,omitempty"`
}

// RuleSite is one site a pack rule edited.
type RuleSite struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	Finding string `json:"finding"`
}

// byRule are the findings check's plan counted by rule, per pack: the
// sites the pack's transforms take, exactly as the plan's dry run took them,
// the deprecated uses it moves off included.
// pack is the plan's pack, set whenever one covers the upgrade; rules are
// the ids of the plan's rules, the noted ones included (the run's own, for
// the review notes).
func byRule(reports []model.PackageReport) (pack string, findings []model.Finding, rules []string) {
	for _, p := range reports {
		if p.Plan.Pack == "" {
			continue
		}
		pack = p.Plan.Pack
		ruled := map[string]bool{}
		for _, rule := range append(append([]model.PlanRule{}, p.Plan.Rules...), p.Plan.Deprecations...) {
			rules = appendUnique(rules, rule.ID)
			for id, by := range rule.Fix {
				if by == "rule" {
					ruled[id] = true
				}
			}
		}
		// Noted rules have nothing to edit; their notes are the run's.
		for _, rule := range p.Plan.Noted {
			rules = appendUnique(rules, rule.ID)
		}
		for _, f := range p.Findings {
			if ruled[f.ID] {
				findings = append(findings, f)
			}
		}
	}
	sort.SliceStable(findings, func(i, j int) bool { return findings[i].ID < findings[j].ID })
	sort.Strings(rules)
	return pack, findings, rules
}

// applyRules makes the covering pack's rule edits in the clone, over the
// sites check's plan counted by rule, as one commit. Before writing, the
// linter (when the repository has one) reads the files as the upgrade left
// them, into lb. It returns the files edited and the ids of the
// findings the rules took; false when the run has to stop.
func (r *runner) applyRules(ctx context.Context, reports []model.PackageReport, workspaces []string, style verify.Style, lb *lintBaseline) ([]string, map[string]bool, bool) {
	name, findings, ruleIDs := byRule(reports)
	if name == "" {
		return nil, nil, true
	}
	pack := packs.Named(name)
	if pack == nil {
		r.rep.NotRun = append(r.rep.NotRun, fmt.Sprintf("rule edits: check planned the %s pack, which this build does not have", name))
		return nil, nil, true
	}
	// What the pack reads from the two versions: the installed one as the
	// checkout has it, the target as the upgrade installed it in the clone.
	var facts packs.Facts
	if pack.Facts != nil {
		from, to := packageDir(r.root, workspaces, pack.Package), packageDir(r.croot, workspaces, pack.Package)
		var err error
		if facts, err = pack.Facts(from, to); err != nil {
			r.rep.NotRun = append(r.rep.NotRun, fmt.Sprintf("the %s pack's reading of the two versions: %v", name, err))
		}
	}
	r.rep.Decisions = append(r.rep.Decisions, pack.Review(ruleIDs, facts)...)
	if pack.Places != nil {
		// What no diagnostic points at, in the repository's own files.
		rel, _ := filepath.Rel(r.clone.Work, r.croot)
		if out, err := r.clone.Git(ctx, "ls-files", "-z", "--", filepath.ToSlash(rel)); err == nil {
			var files []string
			for _, f := range strings.Split(out, "\x00") {
				if f = strings.TrimPrefix(f, filepath.ToSlash(rel)+"/"); f != "" {
					files = append(files, f)
				}
			}
			r.rep.Decisions = append(r.rep.Decisions, pack.PlacesIn(r.croot, files)...)
		}
	}
	if len(findings) == 0 {
		return nil, nil, true
	}
	rep := &RulesReport{Pack: name, Sites: []RuleSite{}}
	r.rep.Rules = rep
	planner := pack.Planner(r.croot).WithFacts(facts)
	// The transforms that need syntax parse with the compiler the
	// enclosing declarations use; without one they take no site, and the
	// plan's dry run (which had one) said by rule: the report says so.
	compiler, err := typescript.ResolveCompiler(ctx, r.croot, r.fetch, nil)
	var a *typescript.Adapter
	if err == nil {
		a, err = r.drivers.Adapter(compiler)
	}
	if err == nil {
		planner.WithSyntax(engine.SyntaxOf(ctx, a))
	} else {
		r.rep.NotRun = append(r.rep.NotRun, "rule edits that need syntax: "+err.Error())
	}
	edits, err := planner.Edits(findings)
	if err != nil {
		rep.Reason = err.Error()
		r.rep.NotRun = append(r.rep.NotRun, "rule edits: "+err.Error())
		return nil, nil, true
	}
	taken := map[string]bool{}
	var ids []string
	// The plan counted these sites by rule; a transform that cannot take
	// one here (no parser in the clone) leaves it to the assisted fixer,
	// and the count says what was edited.
	sites := 0
	for _, f := range findings {
		id, _, takes, _ := planner.RuleFor(f)
		if !takes {
			r.rep.NotRun = append(r.rep.NotRun, fmt.Sprintf("rule edit %s at %s:%d: the transform did not take the site check's plan counted by rule", id, f.File, f.Line))
			continue
		}
		sites += plan.SitesOf(f) // a compiler code's similar diagnostics are edited with it
		taken[f.ID] = true
		rep.Sites = append(rep.Sites, RuleSite{File: f.File, Line: f.Line, Rule: id, Finding: f.ID})
		ids = appendUnique(ids, id)
	}
	sort.Strings(ids)
	sort.SliceStable(rep.Sites, func(i, j int) bool {
		if rep.Sites[i].File != rep.Sites[j].File {
			return rep.Sites[i].File < rep.Sites[j].File
		}
		return rep.Sites[i].Line < rep.Sites[j].Line
	})
	var files []string
	for _, fe := range edits {
		files = append(files, fe.File)
	}
	if len(files) == 0 {
		return nil, taken, true
	}
	r.lintBefore(ctx, style, files, "the rule edits", lb)
	r.progress(model.PhaseEdits, "%s rules: %s in %s", name, plural(sites, "site", "sites"), plural(len(files), "file", "files"))
	for _, fe := range edits {
		if err := writeEdits(r.croot, fe); err != nil {
			r.stop("rule edits: %v", err)
			return nil, nil, false
		}
	}
	subject := fmt.Sprintf("apply %s rules: %s (%s)", name, plural(sites, "site", "sites"), strings.Join(ids, ", "))
	before := len(r.rep.Commits)
	if !r.commit(ctx, subject, files...) {
		return nil, nil, false
	}
	if len(r.rep.Commits) > before {
		rep.Commit = r.rep.Commits[len(r.rep.Commits)-1].Sha
	}
	return files, taken, true
}

// writeEdits applies one file's rule edits in the clone, keeping its mode.
func writeEdits(root string, fe packs.FileEdit) error {
	p, err := insidePath(root, fe.File)
	if err != nil {
		return err
	}
	info, err := os.Stat(p)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	out, err := packs.Apply(fe.Edits, string(data))
	if err != nil {
		return err
	}
	return os.WriteFile(p, []byte(out), info.Mode().Perm())
}

// packageDir is where a workspace of root installs the package (its own
// node_modules, else the root's).
func packageDir(root string, workspaces []string, name string) string {
	for _, ws := range workspaces {
		p := filepath.Join(root, filepath.FromSlash(ws), "node_modules", filepath.FromSlash(name))
		if _, err := os.Stat(filepath.Join(p, "package.json")); err == nil {
			return p
		}
	}
	return filepath.Join(root, "node_modules", filepath.FromSlash(name))
}
