package home

import (
	"cmp"
	"slices"
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
// minor/patch toggle and the filter, sorted, members under expanded groups;
// and counts the top-level lines the toggle hides.
func build(s *state.Store, mode SortMode, all bool, filter string, collapsed map[int]bool) (items []item, hidden int) {
	filter = strings.ToLower(strings.TrimSpace(filter))
	var entries []entry
	for gi, g := range s.Groups {
		if len(g.Members) == 0 {
			continue
		}
		shown, match := false, filter == "" || strings.Contains(strings.ToLower(g.Title), filter)
		for _, id := range g.Members {
			shown = shown || all || urgent(&s.Deps[id])
			match = match || matches(&s.Deps[id], filter)
		}
		switch {
		case !match:
		case shown:
			entries = append(entries, entry{item: item{id: g.Members[0], group: gi, parent: true}, members: g.Members})
		default:
			hidden++
		}
	}
	for i := range s.Deps {
		d := &s.Deps[i]
		if s.GroupOf(d.ID) != nil || !matches(d, filter) {
			continue
		}
		if all || urgent(d) {
			entries = append(entries, entry{item: item{id: d.ID, group: -1}})
		} else {
			hidden++
		}
	}
	sortEntries(s, entries, mode)
	items = make([]item, 0, len(entries))
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
	return items, hidden
}

// urgent: what the table shows before `m`: majors, and rows that need a
// look (unknown installed version, registry failure).
func urgent(d *state.Dep) bool {
	return state.IsMajor(d.Update) || d.Row.Installed == "" || d.Row.Status == engine.StatusNotChecked
}

func matches(d *state.Dep, filter string) bool {
	return filter == "" || strings.Contains(strings.ToLower(d.Row.Name), filter) ||
		strings.Contains(strings.ToLower(d.Row.Package), filter)
}

func sortEntries(s *state.Store, es []entry, mode SortMode) {
	// Keys are computed once per entry: a group's file count is a set
	// union, too dear to redo in every comparison.
	type keyed struct {
		e     entry
		rank  int
		files int
		name  string
	}
	ks := make([]keyed, len(es))
	for i, e := range es {
		k := keyed{e: e, rank: rank(&s.Deps[e.id])}
		if e.parent {
			k.files, k.name = groupFiles(s, e.members), s.Groups[e.group].Title
		} else {
			k.files, k.name = len(s.Deps[e.id].Row.ImportingFiles), s.Deps[e.id].Row.Name
		}
		ks[i] = k
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if mode == ByUrgency && a.rank != b.rank {
			return cmp.Compare(a.rank, b.rank)
		}
		if mode != ByName && a.files != b.files {
			return cmp.Compare(b.files, a.files)
		}
		if a.name != b.name {
			return strings.Compare(a.name, b.name)
		}
		return cmp.Compare(a.e.id, b.e.id)
	})
	for i := range ks {
		es[i] = ks[i].e
	}
}

// rank orders update kinds by urgency: the most majors crossed first, rows
// that need a look next, then minor, patch, prerelease, current.
func rank(d *state.Dep) int {
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
