package state_test

import (
	"reflect"
	"testing"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/state"
)

func early(name, ws, installed, target string) model.DependencyRow {
	return model.DependencyRow{Name: name, Package: name, Workspaces: []string{ws}, Installed: installed, Target: target, Status: "ok"}
}

func TestApplyRows(t *testing.T) {
	repo := &model.RepoSummary{Name: "acme"}
	s := state.NewStore(nil)
	if ids, reshaped := s.ApplyRows(state.Rows{ByPackage: map[string][]model.DependencyRow{"a": {early("a", ".", "1.0.0", "2.0.0")}}}); ids != nil || reshaped {
		t.Fatalf("package rows before the first set changed %v (reshaped %v)", ids, reshaped)
	}
	if _, reshaped := s.ApplyRows(state.Rows{Repository: repo, All: []model.DependencyRow{
		early("a", ".", "1.0.0", ""), early("b", "x", "1.0.0", ""), early("c", ".", "1.0.0", ""),
	}}); !reshaped || len(s.Deps) != 3 {
		t.Fatalf("the first set: reshaped %v, %d deps", reshaped, len(s.Deps))
	}
	if !s.Pending(&s.Deps[0]) {
		t.Error("a row without a target while discovering is not pending")
	}
	s.Deps[1].Selected = true

	// Same decisions, now with targets: in place, IDs kept.
	ids, reshaped := s.ApplyRows(state.Rows{ByPackage: map[string][]model.DependencyRow{
		"c": {early("c", ".", "1.0.0", "1.1.0")}, "a": {early("a", ".", "1.0.0", "2.0.0")},
	}})
	if reshaped || !reflect.DeepEqual(ids, []int{0, 2}) {
		t.Fatalf("in place: ids %v reshaped %v, want [0 2] in place", ids, reshaped)
	}
	if d := s.Deps[0]; d.Target != "2.0.0" || !d.Update.IsZero() && d.Row.Target != "2.0.0" {
		t.Errorf("a: %+v", d)
	}
	if s.Deps[2].Target != "1.1.0" || s.Pending(&s.Deps[2]) {
		t.Errorf("c: target %q pending %v", s.Deps[2].Target, s.Pending(&s.Deps[2]))
	}

	// b splits in two decisions (a workspace asks for a dist-tag): the
	// store is rebuilt, b's place and selection kept.
	_, reshaped = s.ApplyRows(state.Rows{ByPackage: map[string][]model.DependencyRow{
		"b": {early("b", "x", "1.0.0", "2.0.0"), early("b", "y", "1.0.0", "3.0.0-rc.1")},
	}})
	if !reshaped || len(s.Deps) != 4 {
		t.Fatalf("split: reshaped %v, %d deps", reshaped, len(s.Deps))
	}
	var names []string
	for _, d := range s.Deps {
		names = append(names, d.Row.Name+"@"+d.Row.Workspaces[0])
	}
	if want := []string{"a@.", "b@x", "b@y", "c@."}; !reflect.DeepEqual(names, want) {
		t.Errorf("order %v, want %v", names, want)
	}
	if !s.Deps[1].Selected || s.Deps[2].Selected {
		t.Errorf("selection: b@x %v, b@y %v; want only b@x", s.Deps[1].Selected, s.Deps[2].Selected)
	}

	// The report keeps the selection by key; later rows change nothing.
	s.Load(&model.DiscoverReport{Repository: *repo, Rows: []model.DependencyRow{
		early("c", ".", "1.0.0", "1.1.0"), early("b", "x", "1.0.0", "2.0.0"), early("a", ".", "1.0.0", "2.0.0"),
	}})
	if !s.Deps[1].Selected || s.Deps[0].Selected || s.Deps[2].Selected {
		t.Errorf("after the report only b should be selected: %v %v %v", s.Deps[0].Selected, s.Deps[1].Selected, s.Deps[2].Selected)
	}
	if ids, reshaped := s.ApplyRows(state.Rows{Repository: repo, All: nil}); ids != nil || reshaped || len(s.Deps) != 3 {
		t.Errorf("rows after the report changed the store: %v %v %d", ids, reshaped, len(s.Deps))
	}
}

// The Mirror follows a run's batches as the store does: it reshapes when
// ApplyRows does, and the store it builds holds the rows ApplyRows left.
func TestMirrorFollowsApplyRows(t *testing.T) {
	repo := &model.RepoSummary{Name: "acme"}
	batches := []state.Rows{
		{Repository: repo, All: []model.DependencyRow{early("a", ".", "1.0.0", ""), early("b", "x", "1.0.0", ""), early("c", ".", "1.0.0", "")}},
		{ByPackage: map[string][]model.DependencyRow{"c": {early("c", ".", "1.0.0", "1.1.0")}, "a": {early("a", ".", "1.0.0", "2.0.0")}}},
		{ByPackage: map[string][]model.DependencyRow{"b": {early("b", "x", "1.0.0", "2.0.0"), early("b", "y", "1.0.0", "3.0.0-rc.1")}}},
		{ByPackage: map[string][]model.DependencyRow{"b": {early("b", "x", "1.0.0", "2.0.1"), early("b", "y", "1.0.0", "3.0.0-rc.1")}}},
		{ByPackage: map[string][]model.DependencyRow{"a": {}, "c": {early("c", ".", "1.0.0", "1.2.0")}}},
		{ByPackage: map[string][]model.DependencyRow{"d": {early("d", ".", "1.0.0", "4.0.0")}}},
	}
	s := state.NewStore(nil)
	var m state.Mirror
	if m.Store(nil) != nil {
		t.Fatal("a store before the first set of rows")
	}
	for i, b := range batches {
		_, want := s.ApplyRows(b)
		if got := m.Apply(b); got != want {
			t.Fatalf("batch %d: mirror reshaped %v, store %v", i, got, want)
		}
		built := m.Store(nil)
		if !reflect.DeepEqual(built.Report.Rows, s.Report.Rows) {
			t.Fatalf("batch %d: mirror rows\n%+v\nstore rows\n%+v", i, built.Report.Rows, s.Report.Rows)
		}
		for id := range built.Deps {
			if g, w := built.Deps[id], s.Deps[id]; g.Target != w.Target || g.TargetWhy != w.TargetWhy || g.ID != w.ID {
				t.Errorf("batch %d: dep %d is %+v, the store's %+v", i, id, g, w)
			}
		}
	}
}

// Adopt keeps what the user gave the store it replaces: the selection,
// by Key, and the progress counts.
func TestAdoptCarriesTheSelection(t *testing.T) {
	repo := &model.RepoSummary{Name: "acme"}
	rows := []model.DependencyRow{early("a", ".", "1.0.0", ""), early("b", "x", "1.0.0", ""), early("c", ".", "1.0.0", "")}
	s := state.NewStore(nil)
	s.ApplyRows(state.Rows{Repository: repo, All: rows})
	s.Deps[1].Selected = true
	s.Done, s.Total = 2, 3
	next := state.Prepare(&model.DiscoverReport{Repository: *repo, Rows: []model.DependencyRow{
		early("c", ".", "1.0.0", "1.1.0"), early("b", "x", "1.0.0", "2.0.0"), early("b", "y", "1.0.0", "2.0.0"), early("a", ".", "1.0.0", "2.0.0"),
	}}, nil, nil, nil)
	s.Adopt(next)
	var sel []string
	for _, d := range s.Deps {
		if d.Selected {
			sel = append(sel, d.Row.Name+"@"+d.Row.Workspaces[0])
		}
	}
	if !reflect.DeepEqual(sel, []string{"b@x"}) || s.Discovering || s.Done != 2 || s.Total != 3 {
		t.Errorf("after Adopt: selected %v, discovering %v, %d/%d", sel, s.Discovering, s.Done, s.Total)
	}
}

// A row discovery held below its latest (a lockstep group whose member tops
// out lower) says why in the planner, not "the latest dist-tag".
func TestRowTargetWhy(t *testing.T) {
	s := state.NewStore(nil)
	held := early("storybook", ".", "8.0.0", "8.6.14")
	held.Latest, held.TargetWhy = "10.0.0", "@storybook/addon-essentials stops at 8.6.14: 8.6.14 is the newest release every member of the group has"
	latest := early("react", ".", "18.3.1", "19.1.0")
	latest.Latest = "19.1.0"
	s.ApplyRows(state.Rows{Repository: &model.RepoSummary{Name: "acme"}, All: []model.DependencyRow{held, latest, early("chalk", ".", "5.4.1", "5.4.1")}})
	for _, tt := range []struct {
		i    int
		want string
	}{{0, held.TargetWhy}, {1, state.WhyLatest}, {2, state.WhyPinned}} {
		if got := s.Deps[tt.i].TargetWhy; got != tt.want {
			t.Errorf("%s: TargetWhy %q, want %q", s.Deps[tt.i].Row.Name, got, tt.want)
		}
	}
}

// A pick and a follow are fields, not words: the lead picked in the
// picker knows it, its group's member knows whose pick it follows, and a
// member picked on its own follows no one any more.
func TestPickAndFollowAreTyped(t *testing.T) {
	row := func(name string) model.DependencyRow {
		return model.DependencyRow{Name: name, Package: name, Workspaces: []string{"."}, Installed: "1.0.0",
			Target: "2.0.0", Latest: "2.0.0", Update: model.Major(1), Group: "lead (2 packages)", Status: model.RowOK}
	}
	rep := &model.DiscoverReport{
		Rows:   []model.DependencyRow{row("lead"), row("member")},
		Groups: []model.Group{{Title: "lead (2 packages)", Members: []string{"lead", "member"}, Versions: []string{"1.0.0", "1.0.0"}}},
	}
	s := state.Prepare(rep, nil, nil, nil)
	if s.Deps[0].PickedTarget || s.Deps[1].Follows != "" {
		t.Fatalf("discovered targets: picked %v, follows %q", s.Deps[0].PickedTarget, s.Deps[1].Follows)
	}
	s.SetTarget(0, "3.0.0")
	s.ApplyPlan(0, &engine.TargetPlan{Name: "lead", From: "1.0.0", To: "3.0.0", Group: "lead (2 packages)",
		Members: []model.Companion{{Name: "member", From: "1.0.0", To: "3.0.0", Why: "the same release as lead 3.0.0"}}})
	lead, member := s.Deps[0], s.Deps[1]
	if !lead.PickedTarget || lead.Follows != "" {
		t.Errorf("lead: picked %v follows %q, want picked, following no one", lead.PickedTarget, lead.Follows)
	}
	if member.PickedTarget || member.Follows != "lead" || member.Target != "3.0.0" || member.Update != model.Major(2) {
		t.Errorf("member: picked %v follows %q → %s (%s), want following lead to 3.0.0 (major ×2)",
			member.PickedTarget, member.Follows, member.Target, member.Update)
	}
	s.SetTarget(1, "2.0.0")
	if member := s.Deps[1]; !member.PickedTarget || member.Follows != "" {
		t.Errorf("member picked on its own: picked %v follows %q", member.PickedTarget, member.Follows)
	}
}
