// Package packs owns the migration packs: per package, the version ranges a
// pack covers and its rules as data (id, title, guide text for the assisted
// fixer, review notes, follow-ups) with a local transform that yields exact
// text-range edits. Files are never reprinted: an edit replaces one byte
// range, and Apply refuses edits that overlap.
package packs

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/engine/semver"
)

// Edit replaces the bytes [Start, End) of File with New.
type Edit struct {
	File       string
	Start, End int
	New        string
}

// Site is what a transform sees: the finding, the file's text and, when
// the caller has a parser, its syntax.
type Site struct {
	Finding model.Finding
	Content string
	// Syntax is nil without a parser; a transform that needs it then does
	// not take the site.
	Syntax Syntax
	// Facts are what the pack read from the two versions (nil when it
	// reads none, or could not).
	Facts Facts
}

// Node is one syntax node: the parser's kind name ("CallExpression") and
// its byte range, first token to end.
type Node struct {
	Kind       string
	Start, End int
}

// Syntax answers what the compiler's parser sees at a byte offset of a
// file's text: the nodes holding it, innermost first (the TypeScript
// driver's ancestors query).
type Syntax func(file, text string, offset int) ([]Node, error)

// Transform returns the edits that fix one site, or ok=false when the site
// is not the shape the rule knows (it then goes to the assisted fixer).
type Transform func(s Site) (edits []Edit, ok bool)

// Rule is one migration rule of a pack, as data.
type Rule struct {
	ID    string
	Title string
	// On, Path and Token are the rule's key (see Key): what check
	// reports at its sites on the package's real declarations.
	On    On
	Path  string
	Token string
	// Also are further keys of the same fix: the same site reported
	// another way (a removed overload's return type where the overload
	// itself survives, a compiler code where nothing was attributed).
	Also []Key
	// Guide is what the assisted fixer is told about the rule.
	Guide string
	// Notes go under "Decisions for you" when the run has a site of it.
	Notes []string
	// FollowUps are checks after the edit no diagnostic points at.
	FollowUps []string
	PerFile   bool
	// Transform is nil for a rule only the assisted fixer handles.
	Transform Transform
}

// Pack is a migration pack for one package.
type Pack struct {
	Package string
	// From and To are npm ranges the upgrade's versions must satisfy.
	From, To string
	Rules    []Rule
	// Facts, when set, reads what the rules need from the two versions'
	// declarations (the installed and the target package's directories):
	// stripe's pinned API versions.
	Facts func(fromDir, toDir string) (Facts, error)
	// Decisions, when set, are the pack's own review items for an upgrade
	// between those facts, beside its rules' notes.
	Decisions func(f Facts) []string
	// PlanNote, when set, is one line the plan shows under a rule.
	PlanNote func(ruleID string, f Facts) string
	// Places, when set, finds in one of the repository's source files
	// (slash path, content) what the upgrade changes that no diagnostic points
	// at (zod's default messages asserted in a test), as review items
	// naming file:line; fix lists them under "Decisions for you".
	Places func(file, content string) []string
}

// Facts are named values a pack read from the upgrade's two versions.
type Facts map[string]string

// Review is what goes under "Decisions for you" for a run whose sites
// fall under the rule ids: each such rule's notes, then the pack's own
// decisions over the facts. Notes are scoped to the run: a rule without a
// site says nothing.
func (p *Pack) Review(ruleIDs []string, f Facts) []string {
	var out []string
	for _, r := range p.Rules {
		for _, id := range ruleIDs {
			if id == r.ID {
				out = append(out, r.Notes...)
				break
			}
		}
	}
	if p.Decisions != nil && f != nil {
		out = append(out, p.Decisions(f)...)
	}
	return out
}

// Covers says whether the pack covers the upgrade from → to.
func (p *Pack) Covers(from, to string) bool {
	return satisfies(p.From, from) && satisfies(p.To, to)
}

func satisfies(rng, v string) bool {
	c, err := semver.ParseRange(rng)
	if err != nil {
		return false
	}
	return c.Satisfies(v)
}

// Rule finds the rule that claims a finding; content is the site's file,
// read for rules keyed by a compiler code and a token.
func (p *Pack) Rule(f model.Finding, content string) (Rule, bool) {
	for _, r := range p.Rules {
		for _, k := range r.Keys() {
			if k.claims(f, content) {
				return r, true
			}
		}
	}
	return Rule{}, false
}

// Keys are every key of the rule, its own first.
func (r Rule) Keys() []Key {
	return append([]Key{{On: r.On, Path: r.Path, Token: r.Token}}, r.Also...)
}

// Edits runs the rule's transform over a site. A finding of a compiler
// code stands for its similar diagnostics too (the same code, folded into
// it by check): each of them in the site's file is edited the same way,
// and the site is taken only when every one of them is.
func (r Rule) Edits(s Site) ([]Edit, bool) {
	if r.Transform == nil {
		return nil, false
	}
	edits, ok := r.Transform(s)
	if !ok {
		return nil, false
	}
	code := model.CompilerCode(s.Finding.Change)
	if code == 0 {
		return edits, true
	}
	seen := map[Edit]bool{}
	for _, e := range edits {
		seen[e] = true
	}
	for _, d := range s.Finding.Evidence {
		if d.File != s.Finding.File || d.Code != code || (d.Line == s.Finding.Line && d.Column == s.Finding.Column) {
			continue
		}
		at := s
		at.Finding.Line, at.Finding.Column = d.Line, d.Column
		more, ok := r.Transform(at)
		if !ok {
			return nil, false
		}
		for _, e := range more {
			if !seen[e] {
				seen[e] = true
				edits = append(edits, e)
			}
		}
	}
	return edits, true
}

// Guide is the guide text of a rule id, empty when the pack has none.
func (p *Pack) Guide(ruleID string) string {
	for _, r := range p.Rules {
		if r.ID == ruleID {
			return r.Guide
		}
	}
	return ""
}

// Packs is every pack Uptide ships.
func Packs() []*Pack { return []*Pack{reactPack(), stripePack(), zodPack()} }

// Named is the pack of the package name (what a plan's Pack says), or nil.
func Named(name string) *Pack {
	for _, p := range Packs() {
		if p.Package == name {
			return p
		}
	}
	return nil
}

// For returns the pack for a package upgrade, or nil outside its versions.
func For(pkg, from, to string) *Pack {
	for _, p := range Packs() {
		if p.Package == pkg && p.Covers(from, to) {
			return p
		}
	}
	return nil
}

// Apply applies edits to one file's content. Edits must lie inside the
// content and must not overlap; otherwise nothing is applied.
func Apply(edits []Edit, content string) (string, error) {
	es := append([]Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	for i, e := range es {
		if e.Start < 0 || e.End < e.Start || e.End > len(content) {
			return "", fmt.Errorf("edit %d..%d of %s lies outside the file (%d bytes): re-run check", e.Start, e.End, e.File, len(content))
		}
		if i > 0 && e.Start < es[i-1].End {
			return "", fmt.Errorf("edits %d..%d and %d..%d of %s overlap: refusing both", es[i-1].Start, es[i-1].End, e.Start, e.End, e.File)
		}
	}
	var b strings.Builder
	at := 0
	for _, e := range es {
		b.WriteString(content[at:e.Start])
		b.WriteString(e.New)
		at = e.End
	}
	b.WriteString(content[at:])
	return b.String(), nil
}

// maxPlaces bounds the review items Places adds to a run; the rest are
// counted.
const maxPlaces = 50

// PlacesIn runs Places over the repository's files (slash paths relative
// to root); files over repo.ReadSource's 1 MiB, symlinks and unreadable
// ones are skipped.
func (p *Pack) PlacesIn(root string, files []string) []string {
	if p.Places == nil {
		return nil
	}
	var out []string
	var buf []byte
	more := 0
	for _, f := range files {
		if !repo.IsSource(f) {
			continue // Places reads sources: no image, lockfile or data file is opened
		}
		full := filepath.Join(root, filepath.FromSlash(f))
		// Lstat: a tracked symlink may point out of the repository.
		if fi, err := os.Lstat(full); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		data, ok := repo.ReadSource(full, &buf)
		if !ok {
			continue
		}
		for _, place := range p.Places(f, string(data)) {
			if len(out) == maxPlaces {
				more++
				continue
			}
			out = append(out, place)
		}
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("… and %d more such places", more))
	}
	return out
}
