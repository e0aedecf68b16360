package match

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
)

// ArbiterRow is one verdict the arbiter can give a finding. Reason is a
// template: {reason} is the finding's own reason, {file} a declaration file
// of the target, {name} a type a message names, {message} a compiler
// message.
type ArbiterRow struct {
	ID    string
	Title string
	// Severity is the result; empty keeps the finding's, and a row that
	// drops findings has none.
	Severity model.Severity
	// Confidence replaces the finding's when set.
	Confidence float64
	Reason     string
}

var arbiterRows = []ArbiterRow{
	{ID: "arbiter/confirmed", Title: "a new diagnostic on the usage confirms the change that best explains it",
		Severity: model.Breaking, Reason: "{reason}"},
	{ID: "arbiter/best-explanation", Title: "the other changes at a confirmed usage, or at one whose error an anchor took, are dropped: one diagnostic, one finding"},
	{ID: "arbiter/deprecation-kept", Title: "a deprecation keeps its own severity, on a rejected line or not", Reason: "{reason}"},
	{ID: "arbiter/additive-kept", Title: "an additive finding is not the compiler's to confirm", Reason: "{reason}"},
	{ID: "arbiter/load-time-exempt", Title: "load-time findings (module format), unattributed errors and anchors pass untouched", Reason: "{reason}"},
	{ID: "arbiter/compiles", Title: "a compile-time change the compiler did not object to",
		Severity: model.Info, Confidence: 0.3, Reason: "diff says {reason}, but your code compiles against the target"},
	{ID: "arbiter/unresolved-target", Title: "unconfirmed, and the target's declaration file has unresolved imports",
		Severity: model.Unverified, Reason: "possible impact: {reason} (unverified: {file} in the target has unresolved imports, so the compiler's silence proves nothing)"},
	{ID: "arbiter/not-compiled", Title: "unconfirmed in a file the compile did not reach",
		Severity: model.Unverified, Reason: "possible impact: {reason} (unverified: the compile did not reach this file)"},
	{ID: "arbiter/unchecked-file", Title: "a compiler claim in a file the repository does not type-check",
		Severity: model.Unverified, Reason: "possible impact: {reason} (unverified: the repository does not type-check this file)"},
	{ID: "arbiter/runtime-hit", Title: "in a file the repository does not type-check, the runtime probe saw a change the site meets",
		Severity: model.Breaking, Reason: "{reason} (the target loads differently: {detail})"},
	{ID: "arbiter/runtime-same-shape", Title: "in a file the repository does not type-check, the runtime probe saw the site load the same shape",
		Severity: model.Info, Confidence: 0.3, Reason: "{reason}: the compiler says this would not type-check, but this file is not type-checked and the target loads with the same shape"},
	{ID: "arbiter/untyped-runtime-hit", Title: "a package without declarations: the runtime probe saw a change the site meets",
		Severity: model.Breaking, Confidence: 1, Reason: "{detail} (no declarations: the runtime probe decides)"},
	{ID: "arbiter/untyped-undecided", Title: "a package without declarations: the runtime probe could not decide for the site",
		Severity: model.Unverified, Confidence: 0.5, Reason: "possible impact: {package} ships no declarations and the runtime probe could not decide for this site ({why})"},
	{ID: "arbiter/compile-skipped", Title: "without a compile nothing is confirmed",
		Severity: model.Unverified, Reason: "possible impact: {reason} (unverified: compile check skipped)"},
	{ID: "arbiter/unattributed", Title: "a new diagnostic no known change explains is a break of its own",
		Severity: model.Breaking, Confidence: 1, Reason: "compile error not attributed to a known API change: {message}"},
	{ID: "arbiter/unattributed-unresolved", Title: "an unattributed diagnostic naming a type declared in a target file with unresolved imports",
		Severity: model.Unverified, Confidence: 1, Reason: "possible impact: compile error not attributed to a known API change: {message} (unverified: it names {name}, declared in {file} of the target, which has unresolved imports)"},
	{ID: "arbiter/unattributed-unchecked", Title: "an unattributed diagnostic in a file the repository does not type-check",
		Severity: model.Unverified, Confidence: 1, Reason: "possible impact: compile error not attributed to a known API change: {message} (unverified: the repository does not type-check this file)"},
}

func arbiterRow(id string) *ArbiterRow {
	for i := range arbiterRows {
		if arbiterRows[i].ID == id {
			return &arbiterRows[i]
		}
	}
	panic("match: unknown arbiter row " + mustRule(id).ID)
}

// apply gives f the row's verdict; vars fill the reason template.
func (r *ArbiterRow) apply(f *model.Finding, vars ...string) {
	if r.Severity != "" {
		f.Severity = r.Severity
	}
	if r.Confidence != 0 {
		f.Confidence = r.Confidence
	}
	f.Reason = strings.NewReplacer(append([]string{"{reason}", f.Reason}, vars...)...).Replace(r.Reason)
}

// Compile is what the repository's compiler did for the package.
type Compile struct {
	// Ran: the overlay compile ran. Without it nothing is confirmed.
	Ran bool
	// UnresolvedTargetFiles are the target's declaration files (slash paths
	// inside the package directory, as in Symbol.File) with an import the
	// overlay could not resolve: silence there proves nothing.
	UnresolvedTargetFiles map[string]bool
	// NotCompiled are the repository files (repository-relative) the
	// compile was asked about but did not type-check.
	NotCompiled map[string]bool
	// Unchecked are the repository files the compile checked although
	// the repository does not type-check them (JavaScript without checkJs,
	// @ts-nocheck): the files without a usage, whose own usages cannot
	// say so (a file reaching the package through another).
	Unchecked map[string]bool
}

// ArbiterOptions are what the arbiter needs besides findings, usages and
// diagnostics.
type ArbiterOptions struct {
	Package string
	// Workspace is the workspace whose compile gave the diagnostics ("."
	// for the root); a diagnostic that carries none is from it.
	Workspace string
	// Installed and Target locate the declaration file of a changed symbol.
	Installed, Target *model.Surface
	Compile           Compile
	// Runtime is the runtime probe's result for the package (nil when it
	// did not run): in a file the repository does not type-check, it and
	// not the compiler decides.
	Runtime *model.RuntimeResult
}

// compileTimeKinds are the changes a compiler can see.
var compileTimeKinds = map[string]bool{
	string(model.ChangeRemoved): true, string(model.ChangeMoved): true, string(model.ChangeSignature): true,
	string(model.ChangeRequired): true, string(model.ChangeType): true, string(model.ChangeNarrowed): true,
	string(model.ChangeWidened): true,
}

// kindRank orders changes by how well they explain a rejected line:
// removed before signature before type.
func kindRank(k model.ChangeKind) int {
	switch k {
	case model.ChangeRemoved:
		return 0
	case model.ChangeMoved:
		return 1
	case model.ChangeSignature:
		return 2
	case model.ChangeRequired:
		return 3
	case model.ChangeType:
		return 4
	case model.ChangeNarrowed:
		return 5
	case model.ChangeWidened:
		return 6
	}
	return 7
}

type arbiter struct {
	opts   ArbiterOptions
	fs     []model.Finding
	usages []model.Usage
	// sitesOf are the usages each finding stands at; nil for findings the
	// arbiter does not judge.
	sitesOf [][]int
	// atUsage are the findings a diagnostic on a usage can confirm.
	atUsage   map[int][]int
	byFile    map[string][]int
	unchecked map[string]bool
	confirmed map[int]bool
	// explained are the usages whose error an anchor took as downstream.
	explained map[int]bool
	installed surfaceIndex
	target    surfaceIndex
}

// Arbitrate lets the compiler decide what the diff said. A new diagnostic
// confirms exactly the innermost usage whose span contains its start, and
// at that usage the change that best explains it; what it confirms is
// breaking, with the diagnostic as evidence. What no diagnostic confirmed is
// info when the compiler saw the site and had nothing to say, and unverified
// when its silence proves nothing. Diagnostics no change explains become
// findings of their own, grouped by code and message shape; diagnostics
// traced to a repository root are anchored there. findings are Match's
// output for the same usages.
func Arbitrate(findings []model.Finding, usages []model.Usage, diagnostics []model.Diagnostic, opts ArbiterOptions) []model.Finding {
	a := &arbiter{
		opts:      opts,
		fs:        cloneFindings(findings),
		usages:    dedupeUsages(usages),
		atUsage:   map[int][]int{},
		byFile:    map[string][]int{},
		unchecked: map[string]bool{},
		confirmed: map[int]bool{},
		explained: map[int]bool{},
		installed: indexSurface(opts.Installed),
		target:    indexSurface(opts.Target),
	}
	a.link()
	if !opts.Compile.Ran {
		skipped := arbiterRow("arbiter/compile-skipped")
		for i := range a.fs {
			if a.sitesOf[i] != nil && a.fs[i].Severity == model.Breaking {
				skipped.apply(&a.fs[i])
			}
		}
		return finalize(a.fs)
	}
	diags := slices.Clone(diagnostics)
	slices.SortStableFunc(diags, model.CompareDiagnostics)
	anchors, rest, anchored := anchorRoots(diags, opts.Package)
	for _, d := range anchored {
		if u := a.innermost(d); u >= 0 {
			a.explained[u] = true
		}
	}
	var unattributed, traced []model.Diagnostic
	for _, d := range rest {
		switch {
		case a.confirm(d):
		case d.Root != nil && d.Root.Kind == model.CauseUsage:
			traced = append(traced, d)
		default:
			unattributed = append(unattributed, d)
		}
	}
	orphans := a.attachDownstream(traced)
	out := a.judge()
	uf := a.unattributedFindings(unattributed)
	orphans = attachToUnattributed(uf, orphans)
	out = append(out, uf...)
	out = append(out, usageAnchors(orphans, opts.Package)...)
	out = append(out, anchors...)
	return finalize(out)
}

func cloneFindings(fs []model.Finding) []model.Finding {
	out := slices.Clone(fs)
	for i := range out {
		out[i].Evidence = slices.Clone(out[i].Evidence)
		out[i].Sites = slices.Clone(out[i].Sites)
		out[i].Downstream = slices.Clone(out[i].Downstream)
	}
	return out
}

// link ties each finding of a surface change to its usages.
func (a *arbiter) link() {
	for f := range a.opts.Compile.Unchecked {
		a.unchecked[f] = true
	}
	index := map[usageKey]int{}
	for i, u := range a.usages {
		index[keyOf(u)] = i
		a.byFile[u.File] = append(a.byFile[u.File], i)
		if !u.Checked {
			a.unchecked[u.File] = true
		}
	}
	a.sitesOf = make([][]int, len(a.fs))
	for i, f := range a.fs {
		deprecated := f.Change == string(model.ChangeDeprecated)
		if !deprecated && !compileTimeKinds[f.Change] {
			continue // arbiter/load-time-exempt
		}
		var keys []usageKey
		if len(f.Sites) > 0 {
			for _, s := range f.Sites {
				keys = append(keys, keyOf(s))
			}
		} else {
			keys = append(keys, findingKey(f))
		}
		sites := []int{} // judged even when no usage matches: never confirmed then
		for _, k := range keys {
			if u, ok := index[k]; ok {
				sites = append(sites, u)
				if !deprecated {
					a.atUsage[u] = append(a.atUsage[u], i)
				}
			}
		}
		a.sitesOf[i] = sites
	}
}

// innermost is the usage with the smallest span containing d's start, or -1.
func (a *arbiter) innermost(d model.Diagnostic) int {
	return a.narrowest(d.File, func(u model.Usage) bool {
		return u.Start <= d.Start && (d.Start < u.End || u.Start == u.End && d.Start == u.Start)
	})
}

// narrowest is the usage of file with the smallest span that holds, or -1;
// between equal spans, one a change was joined at wins.
func (a *arbiter) narrowest(file string, holds func(model.Usage) bool) int {
	best := -1
	for _, i := range a.byFile[file] {
		u := a.usages[i]
		if !holds(u) {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		b := a.usages[best]
		if w, bw := u.End-u.Start, b.End-b.Start; w < bw || w == bw && len(a.atUsage[i]) > 0 && len(a.atUsage[best]) == 0 {
			best = i
		}
	}
	return best
}

// confirm attaches d to the finding that best explains it at the innermost
// usage containing it, and reports whether there was one.
func (a *arbiter) confirm(d model.Diagnostic) bool {
	u := a.innermost(d)
	if u < 0 || len(a.atUsage[u]) == 0 {
		return false
	}
	cands := a.atUsage[u]
	best := slices.MinFunc(cands, func(x, y int) int {
		fx, fy := a.fs[x], a.fs[y]
		return cmp.Or(
			cmp.Compare(fy.Confidence, fx.Confidence),
			cmp.Compare(kindRank(model.ChangeKind(fx.Change)), kindRank(model.ChangeKind(fy.Change))),
			cmp.Compare(fx.Path, fy.Path),
			cmp.Compare(x, y),
		)
	})
	f := &a.fs[best]
	f.Evidence = append(f.Evidence, d)
	if d.Root != nil && d.Root.Kind != model.CauseUsage && f.Root == "" {
		f.Root = rootRef(*d.Root)
	}
	a.confirmed[best] = true
	return true
}

// judge gives every finding its verdict and drops the changes a confirmed
// usage did not need.
func (a *arbiter) judge() []model.Finding {
	confirmedAt := maps.Clone(a.explained)
	for i := range a.confirmed {
		for _, u := range a.sitesOf[i] {
			confirmedAt[u] = true
		}
	}
	out := make([]model.Finding, 0, len(a.fs))
	for i := range a.fs {
		f := a.fs[i]
		sites := a.sitesOf[i]
		switch {
		case sites == nil: // arbiter/load-time-exempt
		case f.Change == string(model.ChangeDeprecated): // arbiter/deprecation-kept
		case a.confirmed[i]:
			if a.unchecked[f.File] {
				a.judgeUnchecked(&f, sites)
			} else {
				arbiterRow("arbiter/confirmed").apply(&f)
			}
		case a.anyConfirmed(sites, confirmedAt):
			continue // arbiter/best-explanation
		case f.Severity != model.Breaking: // arbiter/additive-kept
		case a.unchecked[f.File]:
			a.judgeUnchecked(&f, sites)
		case a.opts.Compile.NotCompiled[f.File]:
			arbiterRow("arbiter/not-compiled").apply(&f)
		default:
			if file := a.targetFile(f.Path); file != "" && a.opts.Compile.UnresolvedTargetFiles[file] {
				arbiterRow("arbiter/unresolved-target").apply(&f, "{file}", file)
			} else {
				arbiterRow("arbiter/compiles").apply(&f)
			}
		}
		out = append(out, f)
	}
	return out
}

// judgeUnchecked: in a file the repository does not type-check, the code
// only ever meets what loading gives, so the runtime probe decides: a
// change a site meets keeps the finding breaking, the same shape at every
// site makes it info, and no probe (or one that could not decide) leaves
// it unverified.
func (a *arbiter) judgeUnchecked(f *model.Finding, sites []int) {
	us := make([]model.Usage, 0, len(sites))
	for _, u := range sites {
		us = append(us, a.usages[u])
	}
	hits, decided := RuntimeHits(a.opts.Runtime, us, a.opts.Installed)
	// A load that throws breaks the load (the module-format finding's
	// site), and says nothing of the member's shape: the member's change
	// is then neither seen nor ruled out.
	if slices.ContainsFunc(hits, isLoadThrow) {
		hits, decided = slices.DeleteFunc(hits, isLoadThrow), false
	}
	switch {
	case len(hits) > 0:
		f.Runtime = hits
		arbiterRow("arbiter/runtime-hit").apply(f, "{detail}", hits[0].Detail)
	case decided:
		arbiterRow("arbiter/runtime-same-shape").apply(f)
	default:
		arbiterRow("arbiter/unchecked-file").apply(f)
	}
}

func isLoadThrow(c model.RuntimeChange) bool {
	return c.Kind == model.RuntimeRequireThrows || c.Kind == model.RuntimeImportThrows
}

func (a *arbiter) anyConfirmed(sites []int, at map[int]bool) bool {
	for _, u := range sites {
		if at[u] {
			return true
		}
	}
	return false
}

// targetFile is the declaration file of a changed symbol in the target: its
// own, else its nearest declared ancestor's, else (a removed symbol) the
// file that declared it in the installed version, which the target ships
// under the same name more often than not.
func (a *arbiter) targetFile(p string) string {
	if s := a.target[p]; s != nil && s.File != "" {
		return s.File
	}
	if q, err := path.Parse(p); err == nil {
		anc := q.Ancestors()
		for k := len(anc) - 1; k >= 0; k-- {
			if s := a.target[anc[k].String()]; s != nil && s.File != "" {
				return s.File
			}
		}
	}
	if s := a.installed[p]; s != nil {
		return s.File
	}
	return ""
}
