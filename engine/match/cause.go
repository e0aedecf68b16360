package match

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// CauseRow says when diagnostics traced to one repository root become one
// anchored finding at the root. Reason is a template: {errors} the number of
// diagnostics ("3 errors"), {sites} of distinct sites ("2 call sites"), {workspaces} " in N workspaces"
// when there are several, {name} what the edit changes, {at} file:line,
// {detail} ", " and the tracer's detail when it has one.
type CauseRow struct {
	ID    string
	Title string
	Kind  model.CauseKind
	// MinSites is how many distinct sites must trip the root before the
	// edit is the root's rather than the site's.
	MinSites int
	Reason   string
}

var causeRows = []CauseRow{
	{ID: "cause/config", Title: "a compiler option (jsx without jsxImportSource) anchored at its tsconfig line", Kind: model.CauseConfig, MinSites: 1,
		Reason: "{errors}{workspaces} trace to the {name} option at {at}{detail}: the target no longer works with it as configured. Fix here first."},
	{ID: "cause/parameter", Title: "a repository parameter tripped by two or more sites anchored at the parameter", Kind: model.CauseParameter, MinSites: 2,
		Reason: "{sites}{workspaces} reject what they pass to {name}, declared at {at} with a type from outside the repository{detail}: change the parameter's type."},
	{ID: "cause/augmentation", Title: "a repository augmentation anchored at its declaration; one site is enough", Kind: model.CauseAugmentation, MinSites: 1,
		Reason: "{errors}{workspaces} at sites using {name}, which the repository's augmentation at {at} declares{detail}: update the augmentation for the target."},
	{ID: "cause/declaration", Title: "a repository declaration whose type changed, anchored at the declaration", Kind: model.CauseDeclaration, MinSites: 1,
		Reason: "{errors}{workspaces} caused by {name} ({at}){detail}. Fix here first."},
	{ID: "cause/single-site", Title: "a root too few sites trip stays with its site, the root kept on the finding"},
	{ID: "cause/usage", Title: "an unknown/any error traced to a changed reference into the package is downstream evidence of the finding at that usage, counted with it"},
	{ID: "cause/usage-unattributed", Title: "traced to a reference no change explains: downstream of the unattributed finding at the reference, else anchored there",
		Reason: "{errors}{workspaces} caused by {name} ({at}){detail}. Fix here first."},
	{ID: "cause/shared-root", Title: "sites of one root in several workspaces fold into one anchor after the merge", Kind: model.CauseParameter, MinSites: 2,
		Reason: "{sites}{workspaces} reject what they pass to {name}, declared at {at}{detail}: change the parameter's type."},
}

func causeRowFor(k model.CauseKind) *CauseRow {
	for i := range causeRows {
		if causeRows[i].Kind == k && strings.HasPrefix(causeRows[i].ID, "cause/"+string(k)) {
			return &causeRows[i]
		}
	}
	return nil
}

// rootRef is the repository-relative place a finding's root names.
func rootRef(r model.Root) string {
	return r.File + ":" + strconv.Itoa(r.Line)
}

type rootKey struct {
	kind         model.CauseKind
	file         string
	line, column int
	name         string
}

func keyOfRoot(r model.Root) rootKey {
	return rootKey{r.Kind, r.File, r.Line, r.Column, r.Name}
}

// anchorRoots turns the diagnostics of each root that enough sites trip
// into one anchored finding. It returns the anchors, the other diagnostics
// (the rooted ones keep their root, for the finding they end up on) and the
// diagnostics the anchors took.
func anchorRoots(diags []model.Diagnostic, pkg string) (anchors []model.Finding, rest, anchored []model.Diagnostic) {
	byRoot := map[rootKey][]model.Diagnostic{}
	var order []rootKey
	for _, d := range diags {
		if d.Root == nil || causeRowFor(d.Root.Kind) == nil {
			continue
		}
		k := keyOfRoot(*d.Root)
		if byRoot[k] == nil {
			order = append(order, k)
		}
		byRoot[k] = append(byRoot[k], d)
	}
	isAnchored := map[rootKey]bool{}
	for _, k := range order {
		ds := byRoot[k]
		row := causeRowFor(k.kind)
		if distinctSites(ds) < row.MinSites {
			continue // cause/single-site
		}
		isAnchored[k] = true
		anchors = append(anchors, anchorFinding(pkg, *ds[0].Root, row, ds, row.ID))
	}
	for _, d := range diags {
		if d.Root != nil && isAnchored[keyOfRoot(*d.Root)] {
			anchored = append(anchored, d)
			continue
		}
		rest = append(rest, d)
	}
	return anchors, rest, anchored
}

type siteKey struct {
	file  string
	start int
}

func distinctSites(ds []model.Diagnostic) int {
	seen := map[siteKey]bool{}
	for _, d := range ds {
		seen[siteKey{d.File, d.Start}] = true
	}
	return len(seen)
}

func distinctWorkspaces(ds []model.Diagnostic) int {
	seen := map[string]bool{}
	for _, d := range ds {
		seen[d.Workspace] = true
	}
	return len(seen)
}

// anchorFinding is the one finding at a root; the diagnostics it causes are
// its downstream evidence, counted with it once.
func anchorFinding(pkg string, r model.Root, row *CauseRow, ds []model.Diagnostic, rule string) model.Finding {
	down := make([]model.Diagnostic, len(ds))
	for i, d := range ds {
		d.Root = nil // the anchor is the root; repeating it on each error says nothing
		down[i] = d
	}
	slices.SortStableFunc(down, model.CompareDiagnostics)
	down = slices.CompactFunc(down, func(a, b model.Diagnostic) bool { return model.CompareDiagnostics(a, b) == 0 })
	workspaces := ""
	if n := distinctWorkspaces(down); n > 1 {
		workspaces = fmt.Sprintf(" in %d workspaces", n)
	}
	detail := ""
	if r.Detail != "" {
		detail = ", " + r.Detail
	}
	f := model.Finding{
		Package:    pkg,
		SymbolPath: r.Name,
		Change:     model.ChangeCause,
		Severity:   model.Breaking,
		Confidence: 1,
		Workspace:  r.Workspace,
		File:       r.File,
		Line:       r.Line,
		Column:     r.Column,
		AnchorOnly: true,
		Downstream: down,
		Root:       rootRef(r),
		Rule:       rule,
		Reason: strings.NewReplacer(
			"{errors}", count(len(down), "error"),
			"{sites}", count(distinctSites(down), "call site"),
			"{workspaces}", workspaces,
			"{name}", r.Name,
			"{at}", rootRef(r),
			"{detail}", detail,
		).Replace(row.Reason),
	}
	f.Fixability, _ = FixabilityOf(FixInput{Change: f.Change, Severity: f.Severity})
	return f
}

// FoldSharedRoots merges per-workspace results after the workspaces are
// merged: findings whose evidence traces to one repository root (a
// parameter one site tripped in each of several workspaces), or a site and
// the anchor another workspace already made at that root, become one
// anchored finding at the root, the sites' errors as its downstream. A pack
// rule the sites all agree on names the anchor's rule.
func FoldSharedRoots(findings []model.Finding) []model.Finding {
	fs := cloneFindings(findings)
	type member struct {
		idx  int
		root model.Root
	}
	groups := map[rootKey][]member{}
	var order []rootKey
	for i, f := range fs {
		var r *model.Root
		if f.AnchorOnly {
			r = anchorRoot(f)
		} else if f.Root != "" {
			for _, d := range f.Evidence {
				if d.Root != nil && rootRef(*d.Root) == f.Root {
					r = d.Root
					break
				}
			}
		}
		if r == nil {
			continue
		}
		k := keyOfRoot(*r)
		k.kind = "" // one declaration, whatever each workspace's tracer called it
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], member{i, *r})
	}
	drop := map[int]bool{}
	var merged []model.Finding
	for _, k := range order {
		ms := groups[k]
		var anchors, sites []member
		for _, m := range ms {
			if fs[m.idx].AnchorOnly {
				anchors = append(anchors, m)
			} else {
				sites = append(sites, m)
			}
		}
		if len(sites) == 0 || len(anchors) == 0 && len(sites) < 2 {
			continue
		}
		var down []model.Diagnostic
		rules := map[string]bool{}
		for _, m := range ms {
			f := fs[m.idx]
			drop[m.idx] = true
			down = append(down, f.Downstream...)
			down = append(down, f.Evidence...)
			if !f.AnchorOnly && f.Rule != "" {
				rules[f.Rule] = true
			}
		}
		root := ms[0].root
		row := &causeRows[slices.IndexFunc(causeRows, func(r CauseRow) bool { return r.ID == "cause/shared-root" })]
		rule := row.ID
		if len(anchors) > 0 {
			a := fs[anchors[0].idx]
			root = anchors[0].root
			rule = a.Rule
			if r := causeRowFor(root.Kind); r != nil && root.Kind != model.CauseParameter {
				row = r
			}
		}
		if len(rules) == 1 && len(anchors) == 0 {
			for r := range rules {
				rule = r
			}
		}
		merged = append(merged, anchorFinding(firstPackage(fs, ms[0].idx), root, row, down, rule))
	}
	out := make([]model.Finding, 0, len(fs))
	for i, f := range fs {
		if !drop[i] {
			out = append(out, f)
		}
	}
	return finalize(append(out, merged...))
}

func firstPackage(fs []model.Finding, i int) string { return fs[i].Package }

// anchorRoot rebuilds the root an anchor stands at.
func anchorRoot(f model.Finding) *model.Root {
	kind := model.CauseKind(strings.TrimPrefix(f.Rule, "cause/"))
	if strings.HasPrefix(f.Rule, "cause/usage") {
		kind = model.CauseUsage
	} else if causeRowFor(kind) == nil {
		kind = model.CauseParameter
	}
	return &model.Root{Kind: kind, Workspace: f.Workspace, File: f.File, Line: f.Line, Column: f.Column, Name: f.SymbolPath}
}

func count(n int, noun string) string { return strconv.Itoa(n) + " " + plural(n, noun) }

// usageAt is the narrowest usage whose span holds a root's position, or -1.
// A root carries no offset: the reference the tracer reached starts where
// the usage finder's usage of it does, on one line.
func (a *arbiter) usageAt(r model.Root) int {
	return a.narrowest(r.File, func(u model.Usage) bool {
		return u.Line == r.Line && r.Column >= u.Column && r.Column < u.Column+max(u.End-u.Start, 1)
	})
}

// attachDownstream makes each diagnostic traced to a usage (cause/usage)
// downstream evidence of the finding there: the one its own diagnostic
// confirmed when there is one, else the change that best explains a
// rejected line, which the downstream error then confirms. It returns the
// diagnostics whose usage has no finding.
func (a *arbiter) attachDownstream(traced []model.Diagnostic) (orphans []model.Diagnostic) {
	for _, d := range traced {
		u := a.usageAt(*d.Root)
		if u < 0 || len(a.atUsage[u]) == 0 {
			orphans = append(orphans, d)
			continue
		}
		best := slices.MinFunc(a.atUsage[u], func(x, y int) int {
			fx, fy := a.fs[x], a.fs[y]
			return cmp.Or(
				boolRank(a.confirmed[y])-boolRank(a.confirmed[x]),
				cmp.Compare(fy.Confidence, fx.Confidence),
				cmp.Compare(kindRank(model.ChangeKind(fx.Change)), kindRank(model.ChangeKind(fy.Change))),
				cmp.Compare(fx.Path, fy.Path),
				cmp.Compare(x, y),
			)
		})
		d.Root = nil // the finding stands at the root; repeating it says nothing
		a.fs[best].Downstream = append(a.fs[best].Downstream, d)
		a.confirmed[best] = true
	}
	return orphans
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// attachToUnattributed hands each diagnostic traced to a reference no
// change explains to the unattributed finding whose error stands at that
// reference (cause/usage-unattributed): the same break, counted once. It
// returns those no finding stands at.
func attachToUnattributed(fs []model.Finding, traced []model.Diagnostic) (orphans []model.Diagnostic) {
	type at struct {
		file         string
		line, column int
	}
	holder := map[at]int{}
	for i, f := range fs {
		for _, d := range f.Evidence {
			if _, ok := holder[at{d.File, d.Line, d.Column}]; !ok {
				holder[at{d.File, d.Line, d.Column}] = i
			}
		}
	}
	for _, d := range traced {
		i, ok := holder[at{d.Root.File, d.Root.Line, d.Root.Column}]
		if !ok {
			orphans = append(orphans, d)
			continue
		}
		d.Root = nil
		fs[i].Downstream = append(fs[i].Downstream, d)
	}
	return orphans
}

// usageAnchors anchors the diagnostics traced to one reference nothing else
// stands at on that reference (cause/usage-unattributed): one edit, however
// many errors flow from it.
func usageAnchors(traced []model.Diagnostic, pkg string) []model.Finding {
	row := &causeRows[slices.IndexFunc(causeRows, func(r CauseRow) bool { return r.ID == "cause/usage-unattributed" })]
	byRoot := map[rootKey][]model.Diagnostic{}
	var order []rootKey
	for _, d := range traced {
		k := keyOfRoot(*d.Root)
		if byRoot[k] == nil {
			order = append(order, k)
		}
		byRoot[k] = append(byRoot[k], d)
	}
	out := make([]model.Finding, 0, len(order))
	for _, k := range order {
		ds := byRoot[k]
		out = append(out, anchorFinding(pkg, *ds[0].Root, row, ds, row.ID))
	}
	return out
}
