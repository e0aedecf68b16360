package engine

import (
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
		if p := c.packFor(unit{lead: tc.members[0], members: tc.members}); p != nil {
			got = p.Name()
		}
		if got != tc.want {
			t.Errorf("%s: pack %q, want %q", tc.name, got, tc.want)
		}
	}
}
