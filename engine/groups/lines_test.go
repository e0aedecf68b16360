package groups

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

// The react 18 → 19 plan of issue 9: libraries whose installed line has a
// release accepting react 19 stay on it.
func lineRegistry() Packuments {
	react18 := "^16.8.0 || ^17.0.0 || ^18.0.0"
	react19 := "^16.8.0 || ^17.0.0 || ^18.0.0 || ^19.0.0"
	return merge(reactRegistry(), registry(
		pk("storybook",
			v("8.0.0", peer("react", react18)),
			v("8.6.0", peer("react", react19)),
			v("8.6.14", peer("react", react19)),
			v("10.0.0", peer("react", "^18.0.0 || ^19.0.0"))),
		pk("lucide-react",
			v("0.378.0", peer("react", react18)),
			v("0.378.2", peer("react", react18)),
			v("0.400.0", peer("react", react19)),
			v("0.400.3", peer("react", react19)),
			v("0.450.0", peer("react", react19)),
			v("1.0.0", peer("react", "^19.0.0"))),
		pk("react-helmet-async",
			v("2.0.0", peer("react", react18)),
			v("2.0.5", peer("react", react19)),
			v("3.0.0", peer("react", "^19.0.0"))),
		pk("@hookform/resolvers",
			v("3.9.0", peer("zod", "^3.0.0")),
			v("5.2.0", peer("zod", "^3.25.0 || ^4.0.0"))),
		pk("zod", v("3.22.4"), v("3.25.76"), v("4.0.0"), v("4.1.12")),
		pk("kleur", v("4.1.5"), v("5.0.0")),
		pk("eslint", v("9.0.0", dep("kleur", "^4.1.5")), v("10.0.0")),
		pk("@changesets/cli", v("2.27.0", dep("kleur", "^4.1.5")), v("2.29.0", dep("kleur", "^5.0.0"))),
		// Its newest 1.x accepts react 19 but not react-dom 19.
		pk("a-select",
			v("1.0.0", peer("react", react18), peer("react-dom", react18)),
			v("1.1.0", peer("react", react19), peer("react-dom", react19)),
			v("1.2.0", peer("react", react19), peer("react-dom", react18))),
	))
}

func TestCompanionsStayOnTheirLine(t *testing.T) {
	p := lineRegistry()
	react := Dep{Name: "react", Installed: "18.3.1", Workspace: "."}
	cases := []struct {
		name       string
		target     Dep
		to         string
		candidates []Dep
		companions []model.Companion
		conflicts  []model.Conflict
	}{
		{
			name:   "react 18 → 19: the newest release of each installed line that accepts react 19",
			target: react, to: "19.1.0",
			candidates: []Dep{
				{Name: "storybook", Installed: "8.0.0"},
				{Name: "react-helmet-async", Installed: "2.0.0"},
			},
			companions: []model.Companion{
				{Name: "react-helmet-async", From: "2.0.0", To: "2.0.5", Why: "accepts react 19.1.0 (peer ^16.8.0 || ^17.0.0 || ^18.0.0 || ^19.0.0)"},
				{Name: "storybook", From: "8.0.0", To: "8.6.14", Why: "accepts react 19.1.0 (peer ^16.8.0 || ^17.0.0 || ^18.0.0 || ^19.0.0)"},
			},
		},
		{
			name:   "a 0.y line crosses to the nearest minor that agrees, and says so",
			target: react, to: "19.1.0",
			candidates: []Dep{{Name: "lucide-react", Installed: "0.378.0"}},
			companions: []model.Companion{
				{Name: "lucide-react", From: "0.378.0", To: "0.400.3",
					Why: "accepts react 19.1.0 (peer ^16.8.0 || ^17.0.0 || ^18.0.0 || ^19.0.0); crosses a minor: no 0.378.x accepts react 19.1.0"},
			},
		},
		{
			name:   "a new peer range: the newest release of the installed major inside it",
			target: Dep{Name: "@hookform/resolvers", Installed: "3.9.0"}, to: "5.2.0",
			candidates: []Dep{{Name: "zod", Installed: "3.22.4"}},
			companions: []model.Companion{
				{Name: "zod", From: "3.22.4", To: "3.25.76", Why: "@hookform/resolvers 5.2.0 peer-requires zod ^3.25.0 || ^4.0.0"},
			},
		},
		{
			name:   "a package's own nested dependency never moves it",
			target: Dep{Name: "kleur", Installed: "4.1.5"}, to: "5.0.0",
			candidates: []Dep{
				{Name: "eslint", Installed: "9.0.0"},
				{Name: "@changesets/cli", Installed: "2.27.0"},
			},
		},
		{
			name:   "a pick agrees with every mover, also one decided after it",
			target: react, to: "19.0.0",
			candidates: []Dep{
				{Name: "a-select", Installed: "1.0.0"},
				{Name: "react-dom", Installed: "18.3.1"},
			},
			companions: []model.Companion{
				{Name: "a-select", From: "1.0.0", To: "1.1.0", Why: "accepts react 19.0.0 (peer ^16.8.0 || ^17.0.0 || ^18.0.0 || ^19.0.0)"},
				{Name: "react-dom", From: "18.3.1", To: "19.0.0", Why: "released in lockstep (19.0.0 peer-requires react ^19.0.0)"},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Companions(c.target, c.to, c.candidates, p)
			want := model.CompanionPlan{Name: c.target.Name, From: c.target.Installed, To: c.to,
				Companions: orEmpty(c.companions), Conflicts: orEmpty(c.conflicts)}
			ruleReasons(t, got.Companions)
			if d := cmp.Diff(want, got, noReason); d != "" {
				t.Errorf("plan (-want +got):\n%s", d)
			}
		})
	}
}

// A peer no release on the line agrees with still crosses: a conflict is
// only for a package no release at all agrees with.
func TestCompanionsCrossToTheNearestLine(t *testing.T) {
	p := registry(
		pk("core", v("1.0.0"), v("3.0.0")),
		pk("plugin",
			v("1.0.0", peer("core", "^1.0.0")),
			v("1.5.0", peer("core", "^1.0.0")),
			v("2.0.0", peer("core", "^1.0.0 || ^3.0.0")),
			v("2.3.0", peer("core", "^1.0.0 || ^3.0.0")),
			v("4.0.0", peer("core", "^3.0.0"))))
	got := Companions(Dep{Name: "core", Installed: "1.0.0"}, "3.0.0", []Dep{{Name: "plugin", Installed: "1.0.0"}}, p)
	want := []model.Companion{{Name: "plugin", From: "1.0.0", To: "2.3.0",
		Why: "accepts core 3.0.0 (peer ^1.0.0 || ^3.0.0); crosses a major: no 1.x accepts core 3.0.0"}}
	ruleReasons(t, got.Companions)
	if d := cmp.Diff(want, got.Companions, noReason); d != "" {
		t.Errorf("companions (-want +got):\n%s", d)
	}
}

func BenchmarkCompanionsLines(b *testing.B) {
	p := lineRegistry()
	cands := []Dep{
		{Name: "react-dom", Installed: "18.3.1"},
		{Name: "@types/react", Installed: "18.3.12"},
		{Name: "@types/react-dom", Installed: "18.3.5"},
		{Name: "storybook", Installed: "8.0.0"},
		{Name: "lucide-react", Installed: "0.378.0"},
		{Name: "react-helmet-async", Installed: "2.0.0"},
		{Name: "a-select", Installed: "1.0.0"},
		{Name: "@testing-library/react", Installed: "14.3.1"},
		{Name: "eslint", Installed: "9.0.0"},
		{Name: "kleur", Installed: "4.1.5"},
		{Name: "zod", Installed: "3.22.4"},
	}
	target := Dep{Name: "react", Installed: "18.3.1"}
	b.ReportAllocs()
	for b.Loop() {
		ix := NewIndex(p)
		if got := ix.Companions(target, "19.0.0", cands); len(got.Companions) == 0 {
			b.Fatal("no companions")
		}
	}
}
