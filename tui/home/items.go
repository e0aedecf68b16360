package home

import (
	"sort"
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/tui/state"
)

// SortMode orders the top-level entries of the table.
type SortMode int

// The sort modes, in the order `s` cycles through them.
const (
	ByUrgency SortMode = iota
	ByName
	ByFiles
	sortModes
)

func (s SortMode) String() string {
	switch s {
	case ByName:
		return "name"
	case ByFiles:
		return "importing files"
	}
	return "urgency"
}

// item is one line of the table: a dependency, a group's parent line, or a
// group member indented below it.
type item struct {
	id     int // the dependency (a group line: its lead)
	group  int // index in Store.Groups, -1 for a dependency outside groups
	parent bool
	member bool
}

// entry is a top-level line with the members it would expand to.
type entry struct {
	item
	members []int
}

// build lists the visible lines: groups and dependencies that pass the
// minor/patch toggle and the filter, sorted, members under expanded groups.
func build(s *state.Store, mode SortMode, all bool, filter string, collapsed map[int]bool) []item {
	filter = strings.ToLower(strings.TrimSpace(filter))
	var entries []entry
	for gi, g := range s.Groups {
		if len(g.Members) == 0 {
			continue
		}
		shown, match := false, filter == "" || strings.Contains(strings.ToLower(g.Title), filter)
		for _, id := range g.Members {
			shown = shown || all || urgent(s.Deps[id])
			match = match || matches(s.Deps[id], filter)
		}
		if shown && match {
			entries = append(entries, entry{item: item{id: g.Members[0], group: gi, parent: true}, members: g.Members})
		}
	}
	for _, d := range s.Deps {
		if d.Row.Group != "" && s.GroupOf(d.ID) != nil {
			continue
		}
		if (all || urgent(d)) && matches(d, filter) {
			entries = append(entries, entry{item: item{id: d.ID, group: -1}})
		}
	}
	sortEntries(s, entries, mode)
	items := make([]item, 0, len(entries))
	for _, e := range entries {
		items = append(items, e.item)
		if !e.parent || collapsed[e.group] {
			continue
		}
		members := append([]int(nil), e.members...)
		sort.SliceStable(members[1:], func(i, j int) bool {
			return s.Deps[members[1+i]].Row.Name < s.Deps[members[1+j]].Row.Name
		})
		for _, id := range members {
			items = append(items, item{id: id, group: e.group, member: true})
		}
	}
	return items
}

// urgent: what the table shows before `m`: majors, and rows that need a
// look (unknown installed version, registry failure).
func urgent(d state.Dep) bool {
	return state.IsMajor(d.Update) || d.Row.Installed == "" || d.Row.Status == engine.StatusNotChecked
}

func matches(d state.Dep, filter string) bool {
	return filter == "" || strings.Contains(strings.ToLower(d.Row.Name), filter) ||
		strings.Contains(strings.ToLower(d.Row.Package), filter)
}

func sortEntries(s *state.Store, es []entry, mode SortMode) {
	files := func(e entry) int {
		if e.parent {
			return groupFiles(s, e.members)
		}
		return len(s.Deps[e.id].Row.ImportingFiles)
	}
	name := func(e entry) string {
		if e.parent {
			return s.Groups[e.group].Title
		}
		return s.Deps[e.id].Row.Name
	}
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		switch mode {
		case ByUrgency:
			if ra, rb := rank(s.Deps[a.id]), rank(s.Deps[b.id]); ra != rb {
				return ra < rb
			}
			fallthrough
		case ByFiles:
			if fa, fb := files(a), files(b); fa != fb {
				return fa > fb
			}
		}
		if na, nb := name(a), name(b); na != nb {
			return na < nb
		}
		return a.id < b.id
	})
}

// rank orders update kinds by urgency: the most majors crossed first, rows
// that need a look next, then minor, patch, prerelease, current.
func rank(d state.Dep) int {
	switch {
	case state.IsMajor(d.Update):
		n := 1
		if i := strings.Index(d.Update, "×"); i >= 0 {
			n, _ = strconv.Atoi(strings.TrimSpace(d.Update[i+len("×"):]))
		}
		return 100 - min(n, 99)
	case d.Row.Installed == "" || d.Row.Status == engine.StatusNotChecked:
		return 100
	case d.Update == "minor":
		return 101
	case d.Update == "patch":
		return 102
	case d.Update != "":
		return 103
	}
	return 104
}

// groupFiles counts the distinct files importing any member of a group.
func groupFiles(s *state.Store, members []int) int {
	if len(members) == 1 {
		return len(s.Deps[members[0]].Row.ImportingFiles)
	}
	seen := map[string]bool{}
	for _, id := range members {
		for _, f := range s.Deps[id].Row.ImportingFiles {
			seen[f] = true
		}
	}
	return len(seen)
}
