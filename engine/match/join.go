package match

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
)

// Options are what the join needs besides the changes and the usages.
type Options struct {
	// Package names the analyzed package on every finding.
	Package string
	// Installed is the surface the usages were resolved against: its
	// signatures say which types a used symbol is declared with. Without
	// it, changes do not reach usages through declared types.
	Installed *model.Surface
}

// origin says how a change reached a usage.
type origin uint8

const (
	originDirect    origin = iota // at the name written or its canonical target
	originContainer               // at a removed or moved ancestor
	originDeclared                // at a type the used symbol is declared with
)

// hit is one change reaching one usage.
type hit struct {
	change model.Change
	origin origin
	// via is the path of the usage the change was found through.
	via string
}

// surfaceIndex answers path lookups on a surface; a nil surface has none.
type surfaceIndex map[string]*model.Symbol

func indexSurface(s *model.Surface) surfaceIndex {
	if s == nil {
		return nil
	}
	m := make(surfaceIndex, len(s.Symbols))
	for i := range s.Symbols {
		m[s.Symbols[i].Path] = &s.Symbols[i]
	}
	return m
}

func (ix surfaceIndex) has(p string) bool { _, ok := ix[p]; return ok }

type joiner struct {
	opts      Options
	byPath    map[string][]model.Change
	installed surfaceIndex
	target    surfaceIndex
}

// Match joins changes to usages: every change that reaches a usage becomes
// a finding at the usage, its severity resolved by the direction table and
// its confidence the change's times the usage's certainty. target is the
// target version's surface, which says which paths still exist there.
// The result is sorted, with stable ids.
func Match(changes []model.Change, usages []model.Usage, target *model.Surface, opts Options) []model.Finding {
	j := &joiner{
		opts:      opts,
		byPath:    map[string][]model.Change{},
		installed: indexSurface(opts.Installed),
		target:    indexSurface(target),
	}
	for _, c := range changes {
		j.byPath[c.Path] = append(j.byPath[c.Path], c)
	}
	for p := range j.byPath {
		cs := j.byPath[p]
		sort.SliceStable(cs, func(a, b int) bool { return changeLess(cs[a], cs[b]) })
	}
	var out []joined
	for _, u := range dedupeUsages(usages) {
		for _, h := range j.hits(u) {
			out = append(out, joined{j.finding(u, h), u})
		}
	}
	return finalize(groupRemovedAtSite(out))
}

// changeLess orders the changes at one path so "first wins" is
// deterministic: the canonical one before its alias duplicates.
func changeLess(a, b model.Change) bool {
	if (a.AliasOf == "") != (b.AliasOf == "") {
		return a.AliasOf == ""
	}
	if a.Kind != b.Kind {
		return kindRank(a.Kind) < kindRank(b.Kind)
	}
	if a.Confidence != b.Confidence {
		return a.Confidence > b.Confidence
	}
	return a.Rule < b.Rule
}

// usageKey identifies a usage, and the findings made at it.
type usageKey struct {
	file         string
	line, column int
	symbol       string
}

func keyOf(u model.Usage) usageKey {
	return usageKey{u.File, u.Line, u.Column, u.SymbolPath}
}

func findingKey(f model.Finding) usageKey {
	return usageKey{f.File, f.Line, f.Column, f.SymbolPath}
}

// dedupeUsages sorts usages by position and keeps one per key.
func dedupeUsages(usages []model.Usage) []model.Usage {
	us := append([]model.Usage(nil), usages...)
	slices.SortStableFunc(us, model.CompareUsages)
	out := us[:0]
	seen := map[usageKey]bool{}
	for _, u := range us {
		if k := keyOf(u); !seen[k] {
			seen[k] = true
			out = append(out, u)
		}
	}
	return out
}

// usagePaths is the name written, then its canonical target when it differs.
func usagePaths(u model.Usage) []string {
	var out []string
	if u.SymbolPath != "" {
		out = append(out, u.SymbolPath)
	}
	if u.CanonicalPath != "" && u.CanonicalPath != u.SymbolPath {
		out = append(out, u.CanonicalPath)
	}
	return out
}

func written(u model.Usage) string {
	if u.SymbolPath != "" {
		return u.SymbolPath
	}
	return u.CanonicalPath
}

// hits is every change reaching u, at most one per change kind.
func (j *joiner) hits(u model.Usage) []hit {
	var out []hit
	have := map[model.ChangeKind]bool{}
	add := func(h hit) {
		if !have[h.change.Kind] {
			have[h.change.Kind] = true
			out = append(out, h)
		}
	}
	// Removed and moved first: the outermost gone ancestor explains the
	// rest of the path, so nothing under it is reported again.
	if h, ok := j.removal(u); ok {
		add(h)
	}
	if u.Access == model.AccessImport {
		return out // join/import-binding
	}
	for _, p := range usagePaths(u) {
		for _, c := range j.byPath[p] {
			switch c.Kind {
			case model.ChangeRemoved, model.ChangeMoved, model.ChangeAdded: // join/added-ignored
				continue
			case model.ChangeDeprecated:
				if p != written(u) { // join/deprecation-written
					continue
				}
			}
			add(hit{change: c, origin: originDirect, via: p})
		}
	}
	for _, h := range j.declared(u) {
		add(h)
	}
	return out
}

// removal finds the outermost removed or moved path among the usage's paths
// and their ancestors (join/container-outermost), unless the symbol
// survives at the top level of the target (join/container-survives).
func (j *joiner) removal(u model.Usage) (hit, bool) {
	for _, p := range usagePaths(u) {
		q, err := path.Parse(p)
		if err != nil {
			continue
		}
		chain := append(q.Ancestors(), q)
		for _, a := range chain {
			as := a.String()
			for _, c := range j.byPath[as] {
				if c.Kind != model.ChangeRemoved && c.Kind != model.ChangeMoved {
					continue
				}
				if j.survives(u, q, a) {
					return hit{}, false
				}
				o := originDirect
				if !a.Equal(q) {
					o = originContainer
				}
				return hit{change: c, origin: o, via: p}, true
			}
		}
	}
	return hit{}, false
}

// survives reports whether the consumer's symbol still exists in the target
// although gone is gone: under a name of the usage that gone does not
// contain, or as a top-level export of the name below gone.
func (j *joiner) survives(u model.Usage, p, gone path.Path) bool {
	if j.target == nil {
		return false
	}
	gs := gone.String()
	for _, q := range usagePaths(u) {
		if q != gs && !path.IsAncestor(gs, q) && j.target.has(q) {
			return true
		}
	}
	if gone.Equal(p) || !gone.IsAncestorOf(p) {
		return false
	}
	// Only a static member (a namespace's export) can live on at the top
	// level; an instance member is gone with its class.
	rest := p.Segments[gone.Len():]
	if rest[0].Kind != path.Name || rest[0].Sep != path.SepStatic {
		return false
	}
	top := path.Path{Scope: p.Scope, Segments: append([]path.Segment(nil), rest...)}
	top.Segments[0].Sep = 0
	return j.target.has(top.String())
}

// declaredKinds are the changes of a declared type that reach its users.
var declaredKinds = map[model.ChangeKind]bool{
	model.ChangeType: true, model.ChangeNarrowed: true, model.ChangeWidened: true,
	model.ChangeSignature: true, model.ChangeRemoved: true,
}

// declared is the changes to the types the used symbol is declared with,
// one level deep (join/declared-type).
func (j *joiner) declared(u model.Usage) []hit {
	if j.installed == nil {
		return nil
	}
	usedPath := u.CanonicalPath
	sym := j.installed[usedPath]
	if sym == nil {
		usedPath = u.SymbolPath
		sym = j.installed[usedPath]
	}
	if sym == nil || sym.Signature == "" {
		return nil
	}
	used, err := path.Parse(usedPath)
	if err != nil {
		return nil
	}
	var out []hit
	for _, name := range namedTypes(sym.Signature) {
		t := resolveName(name, used, j.installed.has)
		if t == "" {
			t = resolveName(name, used, func(p string) bool { return len(j.byPath[p]) > 0 })
		}
		if t == "" || t == usedPath || path.IsAncestor(t, usedPath) {
			continue
		}
		for _, c := range j.byPath[t] {
			if declaredKinds[c.Kind] {
				out = append(out, hit{change: c, origin: originDeclared, via: t})
			}
		}
	}
	return out
}

func (j *joiner) finding(u model.Usage, h hit) model.Finding {
	c := h.change
	d := ResolveDirection(c, u.Access)
	f := model.Finding{
		Package:     j.opts.Package,
		Path:        canonicalOf(c),
		SymbolPath:  u.SymbolPath,
		Change:      string(c.Kind),
		Severity:    d.Severity,
		Confidence:  round3(c.Confidence * Certainty(u.Via)),
		Reason:      reason(u, h, d),
		Workspace:   u.Workspace,
		File:        u.File,
		Line:        u.Line,
		Column:      u.Column,
		Access:      u.Access,
		Via:         u.Via,
		Replacement: c.Replacement,
		Rule:        string(c.Kind),
	}
	f.Fixability, _ = FixabilityOf(FixInput{Change: f.Change, Severity: f.Severity, Via: u.Via, ChangeRule: c.Rule, Replacement: c.Replacement})
	return f
}

func canonicalOf(c model.Change) string {
	if c.AliasOf != "" {
		return c.AliasOf
	}
	return c.Path
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// verb says what happened to a symbol, in a sentence whose subject it is.
func verb(c model.Change) string {
	switch c.Kind {
	case model.ChangeRemoved:
		return "was removed"
	case model.ChangeMoved:
		if c.Replacement != "" {
			return "moved to " + c.Replacement
		}
		return "moved to another entry point"
	case model.ChangeSignature:
		return "changed its signature"
	case model.ChangeType:
		return "changed its type"
	case model.ChangeRequired:
		return "became required"
	case model.ChangeNarrowed:
		return "was narrowed"
	case model.ChangeWidened:
		return "was widened"
	case model.ChangeDeprecated:
		return "is deprecated"
	}
	return "changed (" + string(c.Kind) + ")"
}

// reason is the one sentence a finding carries: what changed, seen from
// the usage, and why that matters on the usage's side of the contract.
func reason(u model.Usage, h hit, d Direction) string {
	c := h.change
	var b strings.Builder
	switch h.origin {
	case originContainer:
		fmt.Fprintf(&b, "%s %s, and %s with it", c.Path, verb(c), written(u))
	case originDeclared:
		fmt.Fprintf(&b, "%s, the type of %s, %s", c.Path, written(u), verb(c))
	default:
		fmt.Fprintf(&b, "%s %s", written(u), verb(c))
	}
	if d.Reason != "" {
		b.WriteString(": ")
		b.WriteString(d.Reason)
	}
	if c.Note != "" {
		b.WriteString("; ")
		b.WriteString(c.Note)
	}
	return b.String()
}

// joined is a finding with the usage it was made at.
type joined struct {
	f model.Finding
	u model.Usage
}

// groupRemovedAtSite folds the removed or moved import bindings of one file
// and the removed or moved names destructured on one line into one finding
// listing them (join/several-removed): one site, one edit.
func groupRemovedAtSite(js []joined) []model.Finding {
	type siteKey struct {
		workspace, file string
		line            int // 0 for import bindings: the file's imports are one site
	}
	groups := map[siteKey][]int{}
	var order []siteKey
	for i, jf := range js {
		f := jf.f
		if f.Change != string(model.ChangeRemoved) && f.Change != string(model.ChangeMoved) {
			continue
		}
		var k siteKey
		switch {
		case f.Access == model.AccessImport:
			k = siteKey{f.Workspace, f.File, 0}
		case f.Via == model.ViaDestructure:
			k = siteKey{f.Workspace, f.File, f.Line}
		default:
			continue
		}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	drop := map[int]bool{}
	var merged []model.Finding
	for _, k := range order {
		idx := groups[k]
		if len(idx) < 2 {
			continue
		}
		members := make([]joined, len(idx))
		for n, i := range idx {
			members[n] = js[i]
			drop[i] = true
		}
		merged = append(merged, mergeRemoved(members))
	}
	out := make([]model.Finding, 0, len(js)-len(drop)+len(merged))
	for i, jf := range js {
		if !drop[i] {
			out = append(out, jf.f)
		}
	}
	return append(out, merged...)
}

// mergeRemoved makes one finding of the removals at one site. The sites
// keep each usage, so the arbiter can confirm the finding through any of
// them.
func mergeRemoved(ms []joined) model.Finding {
	slices.SortStableFunc(ms, func(a, b joined) int { return model.CompareUsages(a.u, b.u) })
	base := 0
	for i, m := range ms {
		if m.f.Change == string(model.ChangeRemoved) {
			base = i
			break
		}
	}
	f := ms[base].f
	f.Replacement = ""
	names := make([]string, 0, len(ms))
	mechanical := true
	for _, jm := range ms {
		m := jm.f
		if m.Confidence > f.Confidence {
			f.Confidence = m.Confidence
		}
		if m.Fixability != model.Mechanical {
			mechanical = false
		}
		name := m.SymbolPath
		switch {
		case m.Change == string(model.ChangeMoved) && m.Replacement != "":
			name += " (moved to " + m.Replacement + ")"
		case m.Change == string(model.ChangeMoved):
			name += " (moved)"
		case m.Replacement != "":
			name += " (now " + m.Replacement + ")"
		}
		names = append(names, name)
		f.Sites = append(f.Sites, jm.u)
	}
	f.Line, f.Column = ms[0].u.Line, ms[0].u.Column
	f.Fixability = model.Manual
	if mechanical {
		f.Fixability = model.Mechanical
	}
	f.Reason = fmt.Sprintf("%d names this site uses are gone from the target: %s", len(ms), strings.Join(names, ", "))
	return f
}
