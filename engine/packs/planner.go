package packs

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/plan"
	"github.com/uptide/uptide/internal/lists"
)

// Planner is a pack bound to a repository's files: the plan's dry run and
// fix's edits read the same files through it. It implements plan.Pack.
type Planner struct {
	pack   *Pack
	root   string
	files  map[string]string
	errs   map[string]error
	syntax Syntax
	facts  Facts
}

// WithFacts gives the transforms what the pack read from the upgrade's
// two versions.
func (pl *Planner) WithFacts(f Facts) *Planner {
	pl.facts = f
	return pl
}

// WithSyntax gives the transforms that need syntax a parser; without one
// they take no site.
func (pl *Planner) WithSyntax(s Syntax) *Planner {
	pl.syntax = s
	return pl
}

var _ plan.Pack = (*Planner)(nil)

// Planner binds the pack to the repository at root.
func (p *Pack) Planner(root string) *Planner {
	return &Planner{pack: p, root: root, files: map[string]string{}, errs: map[string]error{}}
}

// Name names the pack.
func (pl *Planner) Name() string { return pl.pack.Package }

func (pl *Planner) read(file string) (string, error) {
	if c, ok := pl.files[file]; ok {
		return c, nil
	}
	if err, ok := pl.errs[file]; ok {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(pl.root, filepath.FromSlash(file)))
	if err != nil {
		err = fmt.Errorf("reading %s for the %s pack: %w", file, pl.pack.Package, err)
		pl.errs[file] = err
		return "", err
	}
	pl.files[file] = string(b)
	return string(b), nil
}

// RuleFor files a finding under a pack rule; transformTakes is the dry run
// of the rule's transform over the site.
func (pl *Planner) RuleFor(f model.Finding) (id, title string, transformTakes, perFile bool) {
	content, _ := pl.read(f.File) // an unreadable file is a site no transform takes
	r, ok := pl.pack.Rule(f, content)
	if !ok {
		return "", "", false, false
	}
	takes := false
	if r.Transform != nil && content != "" {
		if es, ok := r.Edits(Site{Finding: f, Content: content, Syntax: pl.syntax, Facts: pl.facts}); ok {
			_, err := Apply(es, content)
			takes = err == nil
		}
	}
	return r.ID, r.Title, takes, r.PerFile
}

// FileEdit is every rule edit of one file, and the rules they come from.
type FileEdit struct {
	File  string
	Edits []Edit
	Rules []string
}

// Edits are the rule edits over findings, grouped per file: the sites the
// plan counted by rule. The same edit from two findings is made once; a
// file whose edits overlap is an error naming it (nothing of it is edited).
func (pl *Planner) Edits(findings []model.Finding) ([]FileEdit, error) {
	byFile := map[string]*FileEdit{}
	seen := map[Edit]bool{}
	for _, f := range findings {
		content, err := pl.read(f.File)
		if err != nil {
			return nil, err
		}
		r, ok := pl.pack.Rule(f, content)
		if !ok || r.Transform == nil {
			continue
		}
		es, ok := r.Edits(Site{Finding: f, Content: content, Syntax: pl.syntax, Facts: pl.facts})
		if !ok {
			continue
		}
		fe := byFile[f.File]
		if fe == nil {
			fe = &FileEdit{File: f.File}
			byFile[f.File] = fe
		}
		for _, e := range es {
			if !seen[e] {
				seen[e] = true
				fe.Edits = append(fe.Edits, e)
			}
		}
		fe.Rules = lists.AppendUnique(fe.Rules, r.ID)
	}
	out := make([]FileEdit, 0, len(byFile))
	for _, fe := range byFile {
		if _, err := Apply(fe.Edits, pl.files[fe.File]); err != nil {
			return nil, err
		}
		sort.Slice(fe.Edits, func(i, j int) bool { return fe.Edits[i].Start < fe.Edits[j].Start })
		sort.Strings(fe.Rules)
		out = append(out, *fe)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out, nil
}

var _ plan.Previewer = (*Planner)(nil)
var _ plan.Noter = (*Planner)(nil)

// Note is the pack's line under a rule of the plan, "" for none.
func (pl *Planner) Note(ruleID string) string {
	if pl.pack.PlanNote == nil {
		return ""
	}
	return pl.pack.PlanNote(ruleID, pl.facts)
}

// NotesUse says whether a rule of the pack is keyed by the uses of path
// (change "use"): its every use is noted in the plan, whatever the diff
// says of the symbol.
func (pl *Planner) NotesUse(path string) bool {
	for _, r := range pl.pack.Rules {
		for _, k := range r.Keys() {
			if k.On == Use && pathMatches(k.Path, path) {
				return true
			}
		}
	}
	return false
}

// Review is the rule's review notes (fix's "Decisions for you" when a run
// has a site of it).
func (pl *Planner) Review(ruleID string) []string {
	for _, r := range pl.pack.Rules {
		if r.ID == ruleID {
			return append([]string(nil), r.Notes...)
		}
	}
	return nil
}

// Preview is what the rule's transform will do at a site it takes: the
// changed lines of the file, before and after, as hunks ("@@ file:line @@",
// "-" old lines, "+" new ones); "" for a site no transform takes.
func (pl *Planner) Preview(f model.Finding) string {
	content, err := pl.read(f.File)
	if err != nil {
		return ""
	}
	r, ok := pl.pack.Rule(f, content)
	if !ok {
		return ""
	}
	es, ok := r.Edits(Site{Finding: f, Content: content, Syntax: pl.syntax, Facts: pl.facts})
	if !ok {
		return ""
	}
	return previewEdits(f.File, content, es)
}

// previewEdits renders edits of one file as hunks of whole lines: edits
// on the same or adjacent lines share a hunk.
func previewEdits(file, content string, edits []Edit) string {
	es := append([]Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	lineStart := func(at int) int { return strings.LastIndexByte(content[:at], '\n') + 1 }
	lineEnd := func(at int) int {
		if i := strings.IndexByte(content[at:], '\n'); i >= 0 {
			return at + i
		}
		return len(content)
	}
	type hunk struct {
		start, end int // whole lines [start, end) of content
		edits      []Edit
	}
	var hunks []hunk
	for _, e := range es {
		if e.Start < 0 || e.End > len(content) || e.Start > e.End {
			return ""
		}
		start, end := lineStart(e.Start), lineEnd(e.End)
		if n := len(hunks); n > 0 && start <= hunks[n-1].end+1 {
			hunks[n-1].end = max(hunks[n-1].end, end)
			hunks[n-1].edits = append(hunks[n-1].edits, e)
			continue
		}
		hunks = append(hunks, hunk{start: start, end: end, edits: []Edit{e}})
	}
	var b strings.Builder
	for _, h := range hunks {
		old := content[h.start:h.end]
		shifted := make([]Edit, len(h.edits))
		for i, e := range h.edits {
			shifted[i] = Edit{File: e.File, Start: e.Start - h.start, End: e.End - h.start, New: e.New}
		}
		updated, err := Apply(shifted, old)
		if err != nil {
			return ""
		}
		fmt.Fprintf(&b, "@@ %s:%d @@\n", file, strings.Count(content[:h.start], "\n")+1)
		for _, l := range strings.Split(old, "\n") {
			b.WriteString("-" + l + "\n")
		}
		for _, l := range strings.Split(updated, "\n") {
			b.WriteString("+" + l + "\n")
		}
	}
	return b.String()
}
