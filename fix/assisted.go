package fix

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/packs"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/fix/assist"
)

// AssistInput is what the Assist hook is given once the upgrade is
// installed and committed in the clone: the sites the upgraded code breaks
// (each with its compiler errors and enclosing declaration) and a
// Validator compiling one patched file on the upgraded clone.
type AssistInput struct {
	Package, From, To string
	Sites             []assist.Site
	Validator         assist.Validator
	// Read is a file of the upgraded clone (slash path, relative to the
	// repository root): what a patch applies to.
	Read func(file string) (string, error)
}

// AssistOutcome is what the hook accepted and what it cost.
type AssistOutcome struct {
	Patches []Patch
	// Provider names the model ("" when none was configured).
	Provider string
	Calls    int
	Cost     float64
	// Note is one line for the report ("no provider configured: every
	// site is manual").
	Note string
	// Sites are the sites' histories: attempts, tokens, cost, validation.
	Sites []assist.Record
}

// AssistReport is the assisted fixer's part of a run.
type AssistReport struct {
	Provider string  `json:"provider,omitempty"`
	Sites    int     `json:"sites"`
	Accepted int     `json:"accepted"`
	Calls    int     `json:"calls"`
	Cost     float64 `json:"cost"`
	Note     string  `json:"note,omitempty"`
	// Items are the sites' histories (attempts with tokens, cost, the
	// validation's verdict, kept or not).
	Items []assist.Record `json:"items,omitempty"`
}

// assistStep finds the sites of the upgraded clone, hands them to the
// hook and adds what it accepted to the patches to apply. False when the
// run has to stop.
func (r *runner) assistStep(ctx context.Context, reports []model.PackageReport, workspaces []string, base *compileRun, from, to string, ruled map[string]bool) bool {
	r.progress(model.PhaseAssist, "type-checking the upgrade to find the sites to fix")
	up, err := compileWorkspaces(ctx, r.croot, workspaces, r.fetch, r.drivers)
	if r.interrupted(ctx, "the assisted fixes") {
		return false
	}
	if err != nil {
		r.rep.NotRun = append(r.rep.NotRun, "assisted fixes: the compile after the upgrade failed: "+err.Error())
		return true
	}
	sites := assistSites(reports, newDiagnostics(base.Diagnostics, up.Diagnostics), ruled)
	if err := r.scopes(ctx, sites); err != nil {
		r.rep.NotRun = append(r.rep.NotRun, "assisted fixes: "+err.Error())
		return true
	}
	// The pack check's plan found (react's comes through @types/react)
	// guides its sites; without one every site is manual, as the plan says.
	var pack *packs.Pack
	for _, p := range reports {
		if p.Plan.Pack != "" && pack == nil {
			pack = packs.Named(p.Plan.Pack)
		}
	}
	agent := 0
	for i := range sites {
		sites[i].Package, sites[i].From, sites[i].To = r.o.Package, from, to
		switch {
		case pack == nil:
			sites[i].Manual = fmt.Sprintf("no migration pack covers %s %s → %s: this site is yours (the assisted fixer works where a pack does)", r.o.Package, from, to)
		case sites[i].Manual == "":
			sites[i].Guide = pack.Guide(sites[i].Rule)
			agent++
		}
	}
	r.progress(model.PhaseAssist, "%s for the assisted fixer, %d manual", plural(agent, "site", "sites"), len(sites)-agent)
	v := &cloneValidator{root: r.croot, workspaces: workspaces, fetch: r.fetch, drivers: r.drivers, up: up.Diagnostics}
	out, err := r.o.Assist(ctx, AssistInput{Package: r.o.Package, From: from, To: to, Sites: sites, Validator: v,
		Read: v.read})
	if r.interrupted(ctx, "the assisted fixes") {
		return false
	}
	r.rep.Assist = &AssistReport{Provider: out.Provider, Sites: len(sites), Accepted: len(out.Patches), Calls: out.Calls,
		Cost: out.Cost, Note: out.Note, Items: out.Sites}
	if pack == nil && len(sites) > 0 && out.Provider != "" {
		r.rep.Assist.Note = fmt.Sprintf("no migration pack covers %s %s → %s: every site (%d) is yours, no call was made",
			r.o.Package, from, to, len(sites))
	}
	if err != nil {
		r.stop("assisted fixes: %v", err)
		return false
	}
	if len(out.Patches) > 0 {
		pf := &PatchFile{SchemaVersion: 1, Package: r.o.Package, Target: to}
		if r.o.Patches != nil {
			pf.Patches = append(pf.Patches, r.o.Patches.Patches...)
		}
		pf.Patches = append(pf.Patches, out.Patches...)
		r.o.Patches = pf
	}
	return true
}

// assistSites are the sites a one-file patch can fix: every breaking
// finding the upgraded compile confirms (its errors are its evidence and
// downstream diagnostics among the new ones) and every new error no
// finding names, each on its own; an error inside a dependency is none. Findings the compiler cannot see (a
// module format, a missing peer) are not patches of a file.
func assistSites(reports []model.PackageReport, newDiags []model.Diagnostic, ruled map[string]bool) []assist.Site {
	type dkey struct {
		file, message string
		code          int
	}
	type rule struct{ id, title, fix string }
	ruleOf := map[string]rule{}
	owner := map[dkey]*model.Finding{}
	for pi := range reports {
		p := &reports[pi]
		for _, pr := range p.Plan.Rules {
			for _, id := range pr.Findings {
				ruleOf[id] = rule{pr.ID, pr.Title, pr.Fix[id]}
			}
		}
		for fi := range p.Findings {
			f := &p.Findings[fi]
			for _, d := range append(append([]model.Diagnostic{}, f.Evidence...), f.Downstream...) {
				owner[dkey{d.File, d.Message, d.Code}] = f
			}
		}
	}
	var out []assist.Site
	byFinding := map[string]int{}
	for _, d := range newDiags {
		if model.InDependency(d.File) {
			// Evidence of a cause (a target the compiler cannot read), not
			// a file a patch may touch: "Left for you" holds the cause.
			continue
		}
		f := owner[dkey{d.File, d.Message, d.Code}]
		if f == nil {
			out = append(out, assist.Site{ID: fmt.Sprintf("TS%d@%s:%d", d.Code, d.File, d.Line), Rule: fmt.Sprintf("TS%d", d.Code),
				RuleTitle: fmt.Sprintf("TS%d", d.Code), Reason: d.Message, File: d.File, Line: d.Line, Errors: []model.Diagnostic{d}})
			continue
		}
		if ruled[f.ID] {
			// A pack rule edited the site: an error it left is the
			// rule's to answer for (Types), not a patch to ask for.
			continue
		}
		if i, ok := byFinding[f.ID]; ok {
			out[i].Errors = append(out[i].Errors, d)
			continue
		}
		s := assist.Site{ID: f.ID, Rule: ruleOf[f.ID].id, RuleTitle: ruleOf[f.ID].title, Reason: f.Reason,
			File: f.File, Line: f.Line, Errors: []model.Diagnostic{d}}
		if ruleOf[f.ID].fix == "manual" {
			s.Manual = "the plan leaves this site to you: no rule or assisted fix covers it"
		}
		if s.Rule == "" {
			s.Rule, s.RuleTitle = f.Change, f.Change
		}
		// A root cause anchored in a tsconfig or a manifest is edited where
		// its errors are.
		if !isSource(s.File) || s.Line == 0 {
			s.File, s.Line = d.File, d.Line
		}
		byFinding[f.ID] = len(out)
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}

func isSource(file string) bool {
	switch path.Ext(file) {
	case ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs":
		return true
	}
	return false
}

// scopes fills each site's enclosing declaration from the clone's source,
// parsed by the repository's own compiler.
func (r *runner) scopes(ctx context.Context, sites []assist.Site) error {
	if len(sites) == 0 {
		return nil
	}
	compiler, err := typescript.ResolveCompiler(ctx, r.croot, r.fetch, nil)
	if err != nil {
		return fmt.Errorf("the compiler for the enclosing declarations: %w", err)
	}
	a, err := r.drivers.Adapter(compiler)
	if err != nil {
		return fmt.Errorf("the compiler for the enclosing declarations: %w", err)
	}
	for i := range sites {
		s := &sites[i]
		text, err := readInside(r.croot, s.File)
		if err != nil {
			return err
		}
		ranges, err := a.Enclosing(ctx, s.File, text, []int{s.Line})
		if err != nil {
			return err
		}
		lines := strings.SplitAfter(text, "\n")
		rg := ranges[0]
		s.Scope = assist.Scope{StartLine: rg.Start, EndLine: rg.End,
			Text: strings.Join(lines[rg.Start-1:min(rg.End, len(lines))], "")}
	}
	return nil
}

// readInside reads a slash path inside root, refusing anything that
// leaves it or is not a regular file.
func readInside(root, file string) (string, error) {
	p, err := insidePath(root, file)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("%s: %w", file, err)
	}
	return string(data), nil
}

func insidePath(root, file string) (string, error) {
	if file == "" || path.IsAbs(file) || strings.HasPrefix(path.Clean(file), "..") || strings.Contains(file, "\\") {
		return "", fmt.Errorf("%q is not a slash path inside the repository", file)
	}
	p := filepath.Join(root, filepath.FromSlash(file))
	info, err := os.Lstat(p)
	if err != nil {
		return "", fmt.Errorf("%s: %w", file, err)
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s: not a regular file", file)
	}
	return p, nil
}

// cloneValidator compiles one patched file on the upgraded clone: the
// file is written, the workspaces type-checked, the file restored. One
// validation at a time (they share the clone).
type cloneValidator struct {
	mu         sync.Mutex
	root       string
	workspaces []string
	fetch      typescript.FetchFunc
	drivers    *typescript.Drivers
	// up are the diagnostics of the upgraded clone without any patch.
	up []model.Diagnostic
}

// read is a file of the upgraded clone as the upgrade left it: under the
// validator's lock, so a read never sees a patch another site's
// validation has written there for its compile (the queue validates two
// sites at a time).
func (v *cloneValidator) read(file string) (string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return readInside(v.root, file)
}

// Validate implements assist.Validator.
func (v *cloneValidator) Validate(ctx context.Context, file, content string) (assist.Compiled, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	p, err := insidePath(v.root, file)
	if err != nil {
		return assist.Compiled{}, err
	}
	info, err := os.Stat(p)
	if err != nil {
		return assist.Compiled{}, err
	}
	orig, err := os.ReadFile(p)
	if err != nil {
		return assist.Compiled{}, err
	}
	if err := os.WriteFile(p, []byte(content), info.Mode().Perm()); err != nil {
		return assist.Compiled{}, err
	}
	run, err := compileWorkspaces(ctx, v.root, v.workspaces, v.fetch, v.drivers)
	if rerr := os.WriteFile(p, orig, info.Mode().Perm()); rerr != nil && err == nil {
		err = fmt.Errorf("restoring %s after its validation: %w", file, rerr)
	}
	if err != nil {
		return assist.Compiled{}, err
	}
	return assist.Compiled{Gone: newDiagnostics(run.Diagnostics, v.up), New: newDiagnostics(v.up, run.Diagnostics)}, nil
}

// PatchOf is an accepted proposal as the --patches file records it: the
// rule by its title, which names the commit.
func PatchOf(it assist.Item) Patch {
	return Patch{Finding: it.Site.ID, Rule: it.Site.RuleTitle, File: it.Site.File, Line: it.Site.Line,
		Diff: it.Diff, Explanation: it.Explanation}
}
