package view

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/model"
)

// List is list's report as it is shown by `uptide list`: the header, the
// table of decisions, then the blocks below it. The planner's dependency
// table draws its rows with the same Row, so a dependency reads the same
// on both.
type List struct {
	// Head follows "uptide · ": the repository, its manager, workspaces
	// and lockfile, the dependencies and how many are behind.
	Head string
	// Rows are the table's lines: majors, unknown installed versions, and
	// with all every other checked row.
	Rows []ListRow
	// Hidden counts the minor and patch rows the table leaves out without
	// all.
	Hidden     int
	Groups     []ListGroup
	Companions []CompanionBlock
	// Skipped are the dependencies not from a registry, NotChecked the
	// registry failures by host and reason.
	Skipped    []SkippedLine
	NotChecked []HostFailures
	// Unknown are the checked rows whose installed version is unknown,
	// with why.
	Unknown  []Line
	Problems []string
	Notes    []string
}

// ListRow is one dependency as a table shows it.
type ListRow struct {
	Name string
	// Where is the workspaces, or the catalog, or "shared: " and them.
	Where string
	// Versions is "installed → target" ("?" for an unknown installed
	// version; the installed one alone when there is no move).
	Versions string
	// Kind is the update kind's word in its tone: majors bad, minor warn,
	// patch good.
	Kind Span
	// Files is the importing files count, "" while the sources were not
	// scanned (which is not zero).
	Files string
	// Notes are what is remarkable about the row, in order: deprecated,
	// its release group, an alias.
	Notes []Note
	// Look says why the row needs a look instead of an update: the
	// registry did not answer for it, or its installed version is unknown.
	Look Span
}

// NoteKind says what a note is about, so a screen that shows a fact in
// its own way (the planner lists groups as groups) can leave it out
// without reading its words.
type NoteKind uint8

const (
	NoteDeprecated NoteKind = iota
	NoteGroup
	NoteAlias
)

// Note is a mark on a row ("deprecated", "group react", "alias of x") and
// its detail (the deprecation message), which a wide column shows after
// the mark.
type Note struct {
	Kind   NoteKind
	Mark   Span
	Detail string
}

// Text is the note with its detail: "deprecated: use y".
func (n Note) Text() string {
	if n.Detail == "" {
		return n.Mark.Text
	}
	return n.Mark.Text + ": " + n.Detail
}

// NotesText is a row's notes in one column, "; " between them.
func (r ListRow) NotesText() string {
	s := make([]string, len(r.Notes))
	for i, n := range r.Notes {
		s[i] = n.Text()
	}
	return strings.Join(s, "; ")
}

// NotesTone is the tone of the notes column: a warning when the
// installed version is deprecated.
func (r ListRow) NotesTone() Tone {
	for _, n := range r.Notes {
		if n.Kind == NoteDeprecated {
			return Warn
		}
	}
	return Plain
}

// ListGroup is a release group: its title and members, why they move
// together, and the command that checks them as one.
type ListGroup struct {
	Title   string
	Members string
	Why     string
	Check   string
}

// CompanionBlock is what one upgrade drags along: "zod 3 → 4 moves with:"
// and a row per companion or conflict.
type CompanionBlock struct {
	Head string
	Rows []CompanionRow
}

// CompanionRow is a companion's cells; a conflict is drawn bad.
type CompanionRow struct {
	Name, Versions, Why string
	Conflict            bool
}

// SkippedLine is a dependency not from a registry: its name, where and
// spec ("(root) link:../x"), why.
type SkippedLine struct {
	Name, Where, Reason string
}

// HostFailures are the registry failures of one host for one reason.
type HostFailures struct {
	Host, Reason string
	Names        []string
}

// NewList turns discovery's report into what list shows; all lists the
// minor and patch updates too.
func NewList(rep *model.DiscoverReport, all bool) List {
	var v List
	for _, r := range rep.Rows {
		if r.Status != model.RowOK {
			continue
		}
		switch {
		case Urgent(r.Update, r.Installed):
			v.Rows = append(v.Rows, Row(r))
		case r.Update.Level == model.LevelMinor || r.Update.Level == model.LevelPatch:
			if all {
				v.Rows = append(v.Rows, Row(r))
			} else {
				v.Hidden++
			}
		case all:
			v.Rows = append(v.Rows, Row(r))
		}
	}
	repo := rep.Repository
	lock := repo.Lockfile
	if lock == "" {
		lock = "no lockfile"
		for _, pr := range rep.Problems {
			if lockfile.IsName(filepath.Base(pr.File)) {
				lock = filepath.Base(pr.File) + " unreadable"
			}
		}
	}
	behind, majors := Behind(rep.Rows)
	v.Head = fmt.Sprintf("%s (%s, %s, %s) · %d dependencies · %d behind, %d major",
		repo.Name, repo.PackageManager, Count(len(repo.Workspaces), "workspace"), lock,
		len(rep.Rows), behind, majors)
	for _, g := range rep.Groups {
		v.Groups = append(v.Groups, ListGroup{Title: g.Title, Members: strings.Join(g.Members, ", "), Why: g.Why, Check: GroupCheckCommand(g)})
	}
	for _, c := range rep.Companions {
		if len(c.Companions)+len(c.Conflicts) > 0 {
			v.Companions = append(v.Companions, CompanionBlock{Head: fmt.Sprintf("%s %s → %s moves with:", c.Name, c.From, c.To), Rows: CompanionRows(c)})
		}
	}
	for _, s := range rep.Skipped {
		v.Skipped = append(v.Skipped, SkippedLine{Name: s.Name, Where: model.Where([]string{s.Workspace}) + " " + s.Spec, Reason: s.Reason})
	}
	v.NotChecked = NotCheckedByHost(rep.NotChecked)
	for _, r := range rep.Rows {
		if r.Status == model.RowOK && r.Installed == "" && r.Reason != "" {
			v.Unknown = append(v.Unknown, Line{{"!", Warn}, {fmt.Sprintf(" %s (%s): unknown installed version, %s", r.Name, model.Where(r.Workspaces), r.Reason), Plain}})
		}
	}
	for _, p := range rep.Problems {
		v.Problems = append(v.Problems, ProblemLine(p))
	}
	v.Notes = rep.Notes
	return v
}

// Urgent is what list's table shows without --all and the planner's
// before `m`: a major, or a row whose installed version is unknown and
// needs a look.
func Urgent(k model.UpdateKind, installed string) bool {
	return k.IsMajor() || installed == ""
}

// Row is a dependency as both tables show it, moving to the row's Target
// with its Update (the planner passes the target picked there).
func Row(r model.DependencyRow) ListRow {
	v := ListRow{Name: r.Name, Where: model.Where(r.Workspaces), Versions: Versions(r.Installed, r.Target), Kind: UpdateSpan(r.Update)}
	switch {
	case r.Catalog != "":
		v.Where = "catalog:" + strings.TrimPrefix(r.Catalog, "default") + " " + v.Where
	case r.Shared:
		v.Where = "shared: " + v.Where
	}
	if r.ImportingFiles != nil {
		v.Files = strconv.Itoa(len(r.ImportingFiles))
	}
	if r.Deprecated != "" {
		v.Notes = append(v.Notes, Note{Kind: NoteDeprecated, Mark: Span{"deprecated", Warn}, Detail: r.Deprecated})
	}
	if r.Group != "" {
		v.Notes = append(v.Notes, Note{Kind: NoteGroup, Mark: Span{"group " + r.Group, Dim}})
	}
	if r.Package != r.Name {
		v.Notes = append(v.Notes, Note{Kind: NoteAlias, Mark: Span{"alias of " + r.Package, Dim}})
	}
	switch {
	case r.Status == model.RowNotChecked:
		v.Look = Span{"not checked: " + r.Reason, Bad}
	case r.Installed == "" && r.Reason != "":
		v.Look = Span{"unknown version: " + r.Reason, Warn}
	}
	return v
}

// Versions is "installed → target": "?" for an unknown installed
// version, the installed one alone when there is no move.
func Versions(installed, target string) string {
	inst := installed
	if inst == "" {
		inst = "?"
	}
	if target == "" || target == installed {
		return inst
	}
	return inst + " → " + target
}

// UpdateSpan is an update kind's word ("major ×2", "minor") in its tone.
func UpdateSpan(k model.UpdateKind) Span {
	switch k.Level {
	case model.LevelMajor:
		return Span{k.String(), Bad}
	case model.LevelMinor:
		return Span{k.String(), Warn}
	case model.LevelPatch:
		return Span{k.String(), Good}
	}
	return Span{k.String(), Plain}
}

// CompanionRows are a companion plan's rows: each companion (a removal,
// a new package, a move), then each conflict.
func CompanionRows(cp model.CompanionPlan) []CompanionRow {
	var rows []CompanionRow
	for _, c := range cp.Companions {
		switch {
		case c.Remove:
			rows = append(rows, CompanionRow{Name: "remove " + c.Name, Versions: c.From, Why: c.Why})
		case c.From == "":
			to := c.To
			if to == "" {
				to = "?"
			}
			rows = append(rows, CompanionRow{Name: c.Name, Versions: "new → " + to, Why: c.Why})
		default:
			rows = append(rows, CompanionRow{Name: c.Name, Versions: Versions(c.From, c.To), Why: c.Why})
		}
	}
	for _, c := range cp.Conflicts {
		rows = append(rows, CompanionRow{Name: "✗ " + c.Name, Versions: c.From, Why: "conflict: " + c.Why, Conflict: true})
	}
	return rows
}

// PlanMarks are the marks a companion plan puts after a name in the
// planner: the companions beyond the given group members, the conflicts.
func PlanMarks(p *model.CompanionPlan, inGroup map[string]bool) []Span {
	if p == nil {
		return nil
	}
	var m []Span
	n := 0
	for _, c := range p.Companions {
		if !inGroup[c.Name] {
			n++
		}
	}
	if n > 0 {
		m = append(m, Span{"+" + Count(n, "companion"), Dim})
	}
	if n := len(p.Conflicts); n > 0 {
		m = append(m, Span{"✗ " + Count(n, "conflict"), Bad})
	}
	return m
}

// GroupCheckCommand checks the group as one decision: check takes a
// one-scope group with any member, the others only with --group.
func GroupCheckCommand(g model.Group) string {
	cmd := "uptide check " + g.Members[0]
	if g.Kind != model.GroupFamily && g.Kind != model.GroupExplicit {
		cmd += " --group"
	}
	return cmd
}

// NotCheckedByHost groups registry failures by host and reason.
func NotCheckedByHost(ncs []model.NotChecked) []HostFailures {
	var out []HostFailures
	idx := map[string]int{}
	for _, nc := range ncs {
		host := nc.Host
		if host == "" {
			host = "registry"
		}
		k := host + "\x00" + nc.Reason
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, HostFailures{Host: host, Reason: nc.Reason})
		}
		out[i].Names = append(out[i].Names, nc.Name)
	}
	return out
}
