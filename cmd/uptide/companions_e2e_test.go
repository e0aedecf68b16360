package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// companionLines renders a plan's companions and conflicts as
// "name from → to" and "✗ name from" lines, sorted as the plan is.
func companionLines(p model.CompanionPlan) []string {
	var out []string
	for _, c := range p.Companions {
		out = append(out, c.Name+" "+c.From+" → "+c.To)
	}
	for _, c := range p.Conflicts {
		out = append(out, "✗ "+c.Name+" "+c.From)
	}
	return out
}

func planOf(t *testing.T, rep model.DiscoverReport, name string) model.CompanionPlan {
	t.Helper()
	for _, p := range rep.Companions {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("list plans no companions for %s (plans: %d)", name, len(rep.Companions))
	return model.CompanionPlan{}
}

// TestCompanionsMoveAsLittleAsPossible is issue 9's plan through the real
// binary over a real npm install of fixtures/check/npm-companions: each
// companion takes the newest release of its installed line that agrees
// with the target, crosses a line only when none does and says so, and a
// package's own nested dependency never drags it along.
func TestCompanionsMoveAsLittleAsPossible(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-companions")
	npmInstall(t, e, dir)

	r := run(t, e, dir, "list", "--json")
	if r.code != 0 {
		t.Fatalf("list exit %d\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
	}
	var rep model.DiscoverReport
	decode(t, r, &rep)

	react := planOf(t, rep, "react")
	want := []string{
		"lucide-react 0.378.0 → 0.400.3",
		"react-dom 18.3.1 → 19.1.0",
		"react-helmet-async 2.0.0 → 2.0.5",
		"storybook 8.0.0 → 8.6.14",
	}
	if got := companionLines(react); !slices.Equal(got, want) {
		t.Errorf("react 18 → 19 companions:\n got %q\nwant %q", got, want)
	}
	for _, c := range react.Companions {
		crosses := strings.Contains(c.Why, "crosses a")
		if (c.Name == "lucide-react") != crosses {
			t.Errorf("%s: %q: only lucide-react leaves its line (no 0.378.x accepts react 19)", c.Name, c.Why)
		}
	}

	resolvers := planOf(t, rep, "@hookform/resolvers")
	if got := companionLines(resolvers); !slices.Equal(got, []string{"zod 3.22.4 → 3.25.76"}) {
		t.Errorf("@hookform/resolvers companions %q, want zod on its 3.x line", got)
	}

	// eslint depends on kleur ^4.1.5 and keeps its own nested copy.
	for _, p := range rep.Companions {
		if p.Name == "kleur" && len(p.Companions)+len(p.Conflicts) > 0 {
			t.Errorf("kleur 4 → 5 drags %q; a nested dependency is never a reason to move", companionLines(p))
		}
	}

	// check links zod 3.25.76, not 4: zod 4's removed ZodError#errors is
	// no finding of the resolver's.
	r = run(t, e, dir, "check", "@hookform/resolvers", "--json")
	var chk model.CheckReport
	decode(t, r, &chk)
	if r.code != 0 {
		t.Errorf("check exit %d, want 0 (nothing breaking)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
	}
	pr := packageReport(t, chk, "@hookform/resolvers")
	if got := companionLines(pr.Companions); !slices.Equal(got, []string{"zod 3.22.4 → 3.25.76"}) {
		t.Errorf("check's companions %q, want zod 3.22.4 → 3.25.76", got)
	}
	if s := listed(pr); len(s) != 0 {
		t.Errorf("check lists %v; zod stays on 3.x, so nothing breaks", s)
	}

	// The human output aligns the companion columns.
	r = run(t, e, dir, "check", "@hookform/resolvers", "--ci")
	if !strings.Contains(r.stdout, "zod  3.22.4 → 3.25.76  @hookform/resolvers 5.2.0 peer-requires zod") {
		t.Errorf("check output lacks the zod companion line:\n%s", r.stdout)
	}
}
