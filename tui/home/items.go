package home

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/view"
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

// index is what the table derives from the store once per change of the
// store, so that a filter keystroke, a sort or a toggle only re-lists
// lines: lowercase names to match, and the sort keys.
type index struct {
	name, pkg  []string // lowercase, by dependency ID
	urgent     []bool
	rank       []int
	files      []int
	groupTitle []string // lowercase, by group
	groupFiles []int
	// order and members are filled on first use.
	order   [sortModes][]entry
	members map[int][]int
}

func newIndex(s *state.Store) *index {
	n := len(s.Deps)
	ix := &index{name: make([]string, n), pkg: make([]string, n), urgent: make([]bool, n), rank: make([]int, n), files: make([]int, n), members: map[int][]int{}}
	for i := range s.Deps {
		ix.update(s, i)
	}
	ix.groupTitle = make([]string, len(s.Groups))
	ix.groupFiles = make([]int, len(s.Groups))
	for gi, g := range s.Groups {
		ix.groupTitle[gi] = strings.ToLower(g.Title)
		ix.groupFiles[gi] = groupFiles(s, g.Members)
	}
	return ix
}

// update re-derives what dependency id contributes; the sort orders are
// dropped, to be redone on use, when its sort keys changed.
func (ix *index) update(s *state.Store, id int) {
	d := &s.Deps[id]
	ix.name[id] = strings.ToLower(d.Row.Name)
	ix.pkg[id] = ix.name[id]
	if d.Row.Package != d.Row.Name {
		ix.pkg[id] = strings.ToLower(d.Row.Package)
	}
	u, r, f := urgent(s, d), rank(s, d), len(d.Row.ImportingFiles)
	if u != ix.urgent[id] || r != ix.rank[id] || f != ix.files[id] {
		// A check's progress moves no line; a target or a file count may.
		ix.urgent[id], ix.rank[id], ix.files[id] = u, r, f
		ix.order = [sortModes][]entry{}
	}
}

func (ix *index) matches(id int, filter string) bool {
	return filter == "" || strings.Contains(ix.name[id], filter) || strings.Contains(ix.pkg[id], filter)
}

// sorted lists every top-level entry (each group, each dependency outside
// a group) in the mode's order, once per mode and store change: the order
// does not depend on the filter or the toggles, which only skip entries.
func (ix *index) sorted(s *state.Store, mode SortMode) []entry {
	if ix.order[mode] != nil {
		return ix.order[mode]
	}
	es := []entry{}
	for gi, g := range s.Groups {
		if len(g.Members) > 0 {
			es = append(es, entry{item: item{id: g.Members[0], group: gi, parent: true}, members: g.Members})
		}
	}
	for i := range s.Deps {
		if s.GroupOf(i) == nil {
			es = append(es, entry{item: item{id: i, group: -1}})
		}
	}
	sortEntries(s, ix, es, mode)
	ix.order[mode] = es
	return es
}

// build lists the visible lines: groups and dependencies that pass the
// minor/patch toggle and the filter, sorted, members under expanded groups;
// and counts the top-level lines the toggle hides.
func build(s *state.Store, ix *index, mode SortMode, all bool, filter string, collapsed map[int]bool) (items []item, hidden int) {
	filter = strings.ToLower(strings.TrimSpace(filter))
	for _, e := range ix.sorted(s, mode) {
		shown, match := all, false
		if e.parent {
			match = filter == "" || strings.Contains(ix.groupTitle[e.group], filter)
			for _, id := range e.members {
				shown = shown || ix.urgent[id]
				match = match || ix.matches(id, filter)
			}
		} else {
			shown, match = all || ix.urgent[e.id], ix.matches(e.id, filter)
		}
		switch {
		case !match:
			continue
		case !shown:
			hidden++
			continue
		}
		items = append(items, e.item)
		if !e.parent || collapsed[e.group] {
			continue
		}
		for _, id := range ix.memberOrder(s, e) {
			items = append(items, item{id: id, group: e.group, member: true})
		}
	}
	return items, hidden
}

// memberOrder is a group's members as listed under it: the lead, then the
// rest by name.
func (ix *index) memberOrder(s *state.Store, e entry) []int {
	if m, ok := ix.members[e.group]; ok {
		return m
	}
	members := append([]int(nil), e.members...)
	sort.SliceStable(members[1:], func(i, j int) bool {
		return s.Deps[members[1+i]].Row.Name < s.Deps[members[1+j]].Row.Name
	})
	ix.members[e.group] = members
	return members
}

// urgent: what the table shows before `m`: what list shows without
// --all (majors, unknown installed versions), and rows the registry did
// not answer for or that are still waiting for it.
func urgent(s *state.Store, d *state.Dep) bool {
	return view.Urgent(d.Update, d.Row.Installed) || d.Row.Status == model.RowNotChecked || s.Pending(d) || d.Advisory()
}

func sortEntries(s *state.Store, ix *index, es []entry, mode SortMode) {
	// Keys are gathered once per entry, and positions (ints) are sorted
	// rather than the entries, which hold pointers the collector would be
	// told about on every move.
	n := len(es)
	ranks, files, names := make([]int, n), make([]int, n), make([]string, n)
	for i, e := range es {
		ranks[i] = ix.rank[e.id]
		if e.parent {
			files[i], names[i] = ix.groupFiles[e.group], s.Groups[e.group].Title
		} else {
			files[i], names[i] = ix.files[e.id], s.Deps[e.id].Row.Name
		}
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	// The order is total (the ID breaks ties), so no stable sort is needed.
	slices.SortFunc(perm, func(a, b int) int {
		if mode == ByUrgency && ranks[a] != ranks[b] {
			return cmp.Compare(ranks[a], ranks[b])
		}
		if mode != ByName && files[a] != files[b] {
			return cmp.Compare(files[b], files[a])
		}
		if names[a] != names[b] {
			return strings.Compare(names[a], names[b])
		}
		return cmp.Compare(es[a].id, es[b].id)
	})
	sorted := make([]entry, n)
	for i, p := range perm {
		sorted[i] = es[p]
	}
	copy(es, sorted)
}

// rank orders update kinds by urgency: a security advisory on the
// installed version first, then the most majors crossed, rows that need a
// look (or wait for the registry) next, then minor, patch, prerelease,
// current.
func rank(s *state.Store, d *state.Dep) int {
	switch {
	case d.Advisory():
		return 0
	case d.Update.IsMajor():
		return 100 - min(d.Update.Majors, 99)
	case d.Row.Installed == "" || d.Row.Status == model.RowNotChecked || s.Pending(d):
		return 100
	case d.Update.Level == model.LevelMinor:
		return 101
	case d.Update.Level == model.LevelPatch:
		return 102
	case !d.Update.IsZero():
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
