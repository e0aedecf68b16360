package plan

import (
	"sort"
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// Pack is the part of a migration pack the plan needs. Build is given a
// pack only when it covers the upgrade's versions; outside them the caller
// passes nil and every site is manual.
type Pack interface {
	// Name names the pack in the plan ("zod").
	Name() string
	// RuleFor files a finding under a pack rule. An empty id means the pack
	// has no rule for it (the site goes to the assisted fixer).
	// transformTakes is the dry run of the rule's transform over the site;
	// perFile marks a rule whose edit is one per file.
	RuleFor(f model.Finding) (id, title string, transformTakes bool, perFile bool)
}

// Previewer is a Pack that shows what its transform does at a site it
// takes (the plan screen's preview diff); "" when it has nothing to show.
type Previewer interface {
	Preview(f model.Finding) string
}

// Noter is a Pack that adds one line under a rule (stripe: the changelog
// entries between the two pinned API versions); "" for none.
type Noter interface {
	Note(ruleID string) string
}

// Reviewer is a Pack with review notes per rule.
type Reviewer interface {
	Review(ruleID string) []string
}

// Options are what Build needs besides the findings.
type Options struct {
	Package string
	// Target is the version upgraded to; with it Build fills Plan.Next.
	Target string
	// Pack covers the upgrade, or is nil.
	Pack Pack
	// MinConfidence leaves out findings below it (the human report hides
	// findings under 0.5 unless --all); 0 keeps every finding.
	MinConfidence float64
	// Next carries what the commands need (see Next).
	Repo       Repo
	Members    []Target
	Companions model.CompanionPlan
	// TypeScriptRelease is the typescript release a breaking
	// newer-typescript finding asks for ("5.0.4"): the commands then start
	// with checking that upgrade; "" when the registry has none.
	TypeScriptRelease string
}

// Build groups findings into the plan:
//
//   - only breaking findings enter the counted rules; unverified ones are
//     grouped the same way in Plan.Unverified, and deprecated ones a
//     pack's transform takes in Plan.Deprecations; the other deprecated
//     ones a pack rule claims, and the uses a pack rule is keyed by (info
//     findings of change "use", hidden or not), in Plan.Noted; hidden
//     findings, additive ones and the rest of info are left out;
//   - a finding a pack rule claims goes under that rule, the others under
//     RuleKey's plain-English rule;
//   - a site the pack's transform takes is by rule, any other site of an
//     upgrade the pack covers is by agent, and without a pack every site is
//     manual;
//   - a root-cause anchor (AnchorOnly) is one site whose downstream
//     diagnostics are its errors; an unattributed compiler finding stands
//     for itself and its Similar diagnostics;
//   - a per-file rule (the pack says so; module-format findings always
//     are) counts one edit per file, and the file's unclaimed compiler-only
//     findings fold into it as errors. Its file is by rule when the
//     transform takes every finding of the rule in it.
//
// Equal inputs give equal plans, whatever the order of findings.
func Build(findings []model.Finding, opts Options) model.Plan {
	p := model.Plan{
		Package:      opts.Package,
		Target:       opts.Target,
		Rules:        []model.PlanRule{},
		Unverified:   []model.PlanRule{},
		Deprecations: []model.PlanRule{},
		Noted:        []model.PlanRule{},
		Next:         []string{},
	}
	if opts.Pack != nil {
		p.Pack = opts.Pack.Name()
	}
	var breaking, unverified, deprecated, info []model.Finding
	for _, f := range findings {
		if f.Severity == model.Info {
			// A use a pack rule is keyed by is noted, hidden or not (it
			// compiles, so it hardly breaks): the pack has a word on it.
			if f.Change == model.ChangeUse && opts.Pack != nil {
				if id, _, _, _ := opts.Pack.RuleFor(f); id != "" {
					info = append(info, f)
				}
			}
			continue
		}
		if f.Hidden || opts.MinConfidence > 0 && f.Confidence < opts.MinConfidence {
			continue
		}
		switch f.Severity {
		case model.Breaking:
			breaking = append(breaking, f)
		case model.Unverified:
			unverified = append(unverified, f)
		case model.Deprecated:
			deprecated = append(deprecated, f)
		}
	}
	p.Rules = group(breaking, opts.Pack)
	p.Unverified = group(unverified, opts.Pack)
	if opts.Pack != nil {
		p.Deprecations, p.Noted = deprecations(deprecated, info, opts.Pack)
	}
	if n, ok := opts.Pack.(Noter); ok {
		for i := range p.Rules {
			p.Rules[i].Note = n.Note(p.Rules[i].ID)
		}
	}
	if rv, ok := opts.Pack.(Reviewer); ok {
		for _, rules := range [][]model.PlanRule{p.Rules, p.Deprecations, p.Noted} {
			for i := range rules {
				rules[i].Review = rv.Review(rules[i].ID)
			}
		}
	}
	for _, r := range p.Rules {
		p.Totals.Sites += r.Sites
		p.Totals.ByRule += r.ByRule
		p.Totals.ByAgent += r.ByAgent
		p.Totals.Manual += r.Manual
		p.Totals.Errors += r.Errors
	}
	if opts.Target != "" {
		repo := opts.Repo
		repo.Conflict = repo.Conflict || len(opts.Companions.Conflicts) > 0
		var check string
		check, p.Fix = commands(repo, opts.Package, opts.Target, opts.Members)
		p.Next = steps(check, p.Fix)
		if needsNode(breaking) || needsTypeScript(breaking) {
			// Moving the repository to another Node is beyond any command
			// Uptide has: only the detailed check stays. The upgrade a
			// newer TypeScript must come first for is not fixed before it.
			p.Next, p.Fix = p.Next[:min(len(p.Next), 1)], ""
		}
		if needsTypeScript(breaking) && opts.TypeScriptRelease != "" {
			p.Next = append([]string{CheckTypeScript(repo, opts.TypeScriptRelease)}, p.Next...)
		}
	}
	return p
}

// deprecations splits the deprecated uses: the rules a transform takes at
// least once (their other sites manual: the assisted fixer answers
// compiler errors and a deprecated use has none) are moved; the pack's
// other rules over deprecated uses, and its rules over the uses it notes
// (they compile), are only noted.
func deprecations(deprecated, info []model.Finding, pack Pack) (moved, notedRules []model.PlanRule) {
	moved, notedRules = []model.PlanRule{}, []model.PlanRule{}
	byID := map[string]model.Finding{}
	for _, f := range deprecated {
		byID[f.ID] = f
	}
	pool := append([]model.Finding{}, info...)
	rules, claimed := groupClaimed(deprecated, pack)
	for _, r := range rules {
		switch {
		case r.ByRule > 0:
			moved = append(moved, manualNotAgent(r))
		case claimed[r.ID]:
			for _, id := range r.Findings {
				pool = append(pool, byID[id])
			}
		}
	}
	rules, claimed = groupClaimed(dedupeSites(pool), pack)
	for _, r := range rules {
		if claimed[r.ID] {
			notedRules = append(notedRules, manualNotAgent(r))
		}
	}
	return moved, notedRules
}

// dedupeSites keeps one finding per place and symbol: a use filed both as
// deprecated and as a use a rule notes, or under two members of a group,
// is one site.
func dedupeSites(fs []model.Finding) []model.Finding {
	type site struct {
		ws, file, path string
		line, column   int
	}
	seen := map[site]bool{}
	out := fs[:0:0]
	for _, f := range fs {
		k := site{f.Workspace, f.File, f.Path, f.Line, f.Column}
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}

// manualNotAgent moves a rule's by-agent sites to manual: the assisted
// fixer answers compiler errors, and these sites have none.
func manualNotAgent(r model.PlanRule) model.PlanRule {
	r.Manual += r.ByAgent
	r.ByAgent = 0
	for id, by := range r.Fix {
		if by == "agent" {
			r.Fix[id] = "manual"
		}
	}
	return r
}

// needsNode: a breaking finding says the target's engines.node excludes
// the repository's Node.
func needsNode(fs []model.Finding) bool {
	for _, f := range fs {
		if f.Change == changeEnginesNode {
			return true
		}
	}
	return false
}

// needsTypeScript: a breaking finding says the target's declarations need
// a newer TypeScript than the repository's.
func needsTypeScript(fs []model.Finding) bool {
	for _, f := range fs {
		if f.Change == changeNewerTypeScript {
			return true
		}
	}
	return false
}

// newerRelease: the typescript range a ("typescript@>=5.0") asks for more
// than b does; a bare "typescript" asks for the least.
func newerRelease(a, b string) bool {
	_, va, okA := strings.Cut(a, "@>=")
	_, vb, okB := strings.Cut(b, "@>=")
	switch {
	case !okA:
		return false
	case !okB:
		return true
	}
	pa, pb := strings.Split(va, "."), strings.Split(vb, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x > y
		}
	}
	return false
}

// claim is one finding filed under a rule.
type claim struct {
	f       model.Finding
	ruleID  string
	title   string
	takes   bool
	perFile bool
	claimed bool // a pack rule took it
}

type fileKey struct{ workspace, file string }

// ruleAcc accumulates one rule.
type ruleAcc struct {
	rule      model.PlanRule
	claimed   bool // a pack rule, not a plain-English group
	anchored  bool
	perFile   map[fileKey]*fileAcc
	hasFolded bool
	// newest is the typescript range a newer-typescript rule asks for.
	newest string
}

type fileAcc struct {
	errors int
	// all: the transform takes every finding of the rule in the file.
	all bool
	// own: a finding of the rule is in the file (not only folded errors).
	own bool
	// ids are the findings the file's edit stands for.
	ids []string
}

func group(findings []model.Finding, pack Pack) []model.PlanRule {
	out, _ := groupClaimed(findings, pack)
	return out
}

// groupClaimed is group, with the ids of the rules a pack's rule claimed.
func groupClaimed(findings []model.Finding, pack Pack) ([]model.PlanRule, map[string]bool) {
	claims := make([]claim, 0, len(findings))
	perFileRules := map[fileKey]string{}
	for _, f := range findings {
		c := claim{f: f}
		if pack != nil {
			if id, title, takes, perFile := pack.RuleFor(f); id != "" {
				c.ruleID, c.title, c.takes, c.perFile, c.claimed = id, title, takes, perFile, true
			}
		}
		if !c.claimed {
			c.ruleID, c.title = RuleKey(f)
			c.perFile = f.Change == changeModuleFormat
		}
		if c.perFile {
			k := fileKey{f.Workspace, f.File}
			// The first per-file rule in id order takes the file's folded
			// errors, whatever order the findings came in.
			if cur, ok := perFileRules[k]; !ok || c.ruleID < cur {
				perFileRules[k] = c.ruleID
			}
		}
		claims = append(claims, c)
	}
	rules := map[string]*ruleAcc{}
	acc := func(c claim) *ruleAcc {
		r, ok := rules[c.ruleID]
		if !ok {
			r = &ruleAcc{rule: model.PlanRule{ID: c.ruleID, Title: c.title, Findings: []string{}, Fix: map[string]string{}}}
			rules[c.ruleID] = r
		}
		r.claimed = r.claimed || c.claimed
		switch {
		case c.title == "":
		case c.ruleID == changeNewerTypeScript:
			// Each target needing a newer TypeScript names its release:
			// the rule asks for the newest.
			if r.rule.Title == "" || newerRelease(c.f.Replacement, r.newest) {
				r.rule.Title, r.newest = c.title, c.f.Replacement
			}
		case r.rule.Title == "" || c.title < r.rule.Title:
			// Titles of one rule agree; if a pack's do not, the smallest
			// wins so the plan stays deterministic.
			r.rule.Title = c.title
		}
		return r
	}
	for _, c := range claims {
		k := fileKey{c.f.Workspace, c.f.File}
		if !c.claimed && model.CompilerCode(c.f.Change) > 0 && !c.perFile {
			if target, ok := perFileRules[k]; ok {
				r := rules[target]
				if r == nil {
					r = acc(claim{ruleID: target})
				}
				r.fold(k, c.f)
				continue
			}
		}
		r := acc(c)
		r.rule.Findings = append(r.rule.Findings, c.f.ID)
		if c.perFile {
			r.rule.PerFile = true
			r.addToFile(k, c)
			r.preview(pack, c)
			continue
		}
		n := SitesOf(c.f)
		r.rule.Sites += n
		r.rule.Errors += errorsOf(c.f)
		r.anchored = r.anchored || c.f.AnchorOnly
		if (c.f.Change == changeNewerTypeScript || c.f.Change == changeDependencyErrors) && !c.claimed {
			// Upgrading the compiler or a dependency is nobody's edit of a
			// file: no rule or agent makes it.
			split(&r.rule, n, false, false)
			r.rule.Fix[c.f.ID] = fixBy(false, false)
			continue
		}
		if c.f.Change == changeMissingPeer && !c.claimed {
			// Adding the peer is the fix, made as a companion: by rule.
			split(&r.rule, n, true, true)
			r.rule.Fix[c.f.ID] = fixBy(true, true)
			continue
		}
		split(&r.rule, n, c.takes, pack != nil)
		r.rule.Fix[c.f.ID] = fixBy(c.takes, pack != nil)
		r.preview(pack, c)
	}
	out := make([]model.PlanRule, 0, len(rules))
	claimed := map[string]bool{}
	for _, r := range rules {
		if r.claimed {
			claimed[r.rule.ID] = true
		}
		if r.rule.PerFile {
			r.settleFiles(pack != nil)
		} else if !r.anchored {
			r.rule.Errors = 0
		}
		sort.Strings(r.rule.Findings)
		out = append(out, r.rule)
	}
	sort.Slice(out, func(i, j int) bool {
		// Upgrading TypeScript comes first: until then the compiler reads
		// none of the target.
		if a, b := out[i].ID == changeNewerTypeScript, out[j].ID == changeNewerTypeScript; a != b {
			return a
		}
		if out[i].Sites != out[j].Sites {
			return out[i].Sites > out[j].Sites
		}
		return out[i].ID < out[j].ID
	})
	return out, claimed
}

// fold adds an unclaimed compiler-only finding to the per-file rule that
// owns its file.
func (r *ruleAcc) fold(k fileKey, f model.Finding) {
	r.rule.Findings = append(r.rule.Findings, f.ID)
	fa := r.file(k)
	fa.errors += errorsOf(f)
	fa.ids = append(fa.ids, f.ID)
	r.hasFolded = true
}

func (r *ruleAcc) file(k fileKey) *fileAcc {
	if r.perFile == nil {
		r.perFile = map[fileKey]*fileAcc{}
	}
	fa, ok := r.perFile[k]
	if !ok {
		fa = &fileAcc{all: true}
		r.perFile[k] = fa
	}
	return fa
}

// preview keeps what the pack's transform will do at a site it takes.
func (r *ruleAcc) preview(pack Pack, c claim) {
	pv, ok := pack.(Previewer)
	if !ok || !c.takes {
		return
	}
	if diff := pv.Preview(c.f); diff != "" {
		if r.rule.Previews == nil {
			r.rule.Previews = map[string]string{}
		}
		r.rule.Previews[c.f.ID] = diff
	}
}

func (r *ruleAcc) addToFile(k fileKey, c claim) {
	fa := r.file(k)
	fa.errors += errorsOf(c.f)
	fa.ids = append(fa.ids, c.f.ID)
	fa.all = fa.all && c.takes
	fa.own = true
}

// settleFiles counts one edit per file the rule owns.
func (r *ruleAcc) settleFiles(hasPack bool) {
	r.rule.Errors = 0
	for _, fa := range r.perFile {
		r.rule.Errors += fa.errors
		by := fixBy(false, false)
		if fa.own {
			r.rule.Sites++
			split(&r.rule, 1, fa.all, hasPack)
			by = fixBy(fa.all, hasPack)
		}
		for _, id := range fa.ids {
			r.rule.Fix[id] = by
		}
	}
}

// fixBy is who makes a site's edit, as split counts it.
func fixBy(takes, hasPack bool) string {
	switch {
	case !hasPack:
		return "manual"
	case takes:
		return "rule"
	}
	return "agent"
}

func split(r *model.PlanRule, n int, takes, hasPack bool) {
	switch {
	case !hasPack:
		r.Manual += n
	case takes:
		r.ByRule += n
	default:
		r.ByAgent += n
	}
}

// sitesOf is how many sites a finding stands for outside a per-file rule.
func SitesOf(f model.Finding) int {
	if f.AnchorOnly {
		return 1
	}
	if model.CompilerCode(f.Change) > 0 {
		return 1 + max(f.Similar, 0)
	}
	return 1
}

// errorsOf is how many errors a finding stands for.
func errorsOf(f model.Finding) int {
	switch {
	case f.AnchorOnly:
		return max(len(f.Downstream), 1)
	case f.Change == changeModuleFormat:
		return max(len(f.Sites), 1)
	case model.CompilerCode(f.Change) > 0:
		return 1 + max(f.Similar, 0)
	default:
		// Errors traced to the site (an implicit any under a removed
		// member) go away with its fix: they are its errors too.
		return max(len(f.Evidence), 1) + len(f.Downstream)
	}
}
