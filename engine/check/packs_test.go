package check

import (
	"context"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// TestPackFor: the plan gets a pack only when a moving member's versions
// lie inside a pack's ranges; react's comes from @types/react in its group.
func TestPackFor(t *testing.T) {
	c := &checker{root: t.TempDir()}
	m := func(name, from, to string) member {
		return member{row: model.DependencyRow{Name: name, Installed: from}, target: to}
	}
	cases := []struct {
		name    string
		members []member
		want    string
	}{
		{"zod major", []member{m("zod", "3.23.8", "4.1.5")}, "zod"},
		{"zod minor", []member{m("zod", "3.22.4", "3.25.76")}, ""},
		{"react with its types", []member{m("react", "18.3.1", "19.1.0"), m("@types/react", "18.3.12", "19.1.2")}, "@types/react"},
		{"types not moving", []member{m("react", "18.3.1", "19.1.0"), m("@types/react", "19.1.2", "19.1.2")}, ""},
		{"no pack", []member{m("lodash", "3.0.0", "4.0.0")}, ""},
	}
	for _, tc := range cases {
		got := ""
		if p := c.packFor(context.Background(), unit{lead: tc.members[0], members: tc.members}, nil); p != nil {
			got = p.Name()
		}
		if got != tc.want {
			t.Errorf("%s: pack %q, want %q", tc.name, got, tc.want)
		}
	}
	// react typed by @types/react (not a member of its group): the pack is
	// the types release's, found through the member's TypesVia.
	react := member{row: model.DependencyRow{Name: "react", Installed: "18.3.1"}, target: "19.1.0"}
	run := &memberRun{m: react}
	run.rep.TypesVia = &model.TypesVia{Package: "@types/react", From: "18.3.3", To: "19.1.2"}
	if p := c.packFor(context.Background(), unit{lead: react, members: []member{react}}, []*memberRun{run}); p == nil || p.Name() != "@types/react" {
		t.Errorf("react typed by @types/react 18.3.3 → 19.1.2: pack %v, want @types/react", p)
	}
	run.rep.TypesVia.To = "18.3.3"
	if p := c.packFor(context.Background(), unit{lead: react, members: []member{react}}, []*memberRun{run}); p != nil {
		t.Errorf("types not moving: pack %s, want none", p.Name())
	}
}
