package plan

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

// A target the repository's TypeScript cannot read: upgrading typescript
// is the first rule (manual, whatever pack covers the upgrade, before a
// rule with more sites), Next checks that upgrade first and offers no fix;
// errors inside a dependency no newer TypeScript explains are one manual
// rule per package.
func TestPlanNewerTypeScriptFirst(t *testing.T) {
	findings := []model.Finding{
		fnd("ts", changeNewerTypeScript, model.Breaking, "package.json", repl("typescript@>=5.0")),
		fnd("dep", changeDependencyErrors, model.Breaking, "package.json", at("@types/x")),
		fnd("r1", "TS2339", model.Breaking, "src/a.ts"),
		fnd("r2", "TS2339", model.Breaking, "src/b.ts", similar(2)),
	}
	pack := testPack{rules: map[string]packRule{"TS2339": {id: "zod-issues", title: "errors is issues"}}}
	p := Build(findings, Options{Package: "zod", Target: "4.6.7", Pack: pack, TypeScriptRelease: "5.0.4"})
	var got []string
	for _, r := range p.Rules {
		got = append(got, r.ID+" "+r.Title+" "+fixOf(r))
	}
	want := []string{
		"newer-typescript upgrade typescript to ≥ 5.0 manual",
		"zod-issues errors is issues rule",
		"dependency-errors:@types/x errors inside @types/x's declarations manual",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rules (-want +got):\n%s", d)
	}
	wantNext := []string{"uptide check typescript --target typescript@5.0.4", "uptide check zod --target zod@4.6.7 --details"}
	if d := cmp.Diff(wantNext, p.Next); d != "" {
		t.Errorf("next (-want +got):\n%s", d)
	}
	// Without a release the registry serves, only the detailed check.
	p = Build(findings[:1], Options{Package: "zod", Target: "4.6.7", Repo: Repo{Cwd: "app dir"}})
	if d := cmp.Diff([]string{"uptide check --cwd 'app dir' zod --target zod@4.6.7 --details"}, p.Next); d != "" {
		t.Errorf("next (-want +got):\n%s", d)
	}
	if got := CheckTypeScript(Repo{Cwd: "app dir"}, "5.0.4"); got != "uptide check --cwd 'app dir' typescript --target typescript@5.0.4" {
		t.Errorf("CheckTypeScript %q", got)
	}
	// Two members needing different releases: the rule asks for the newer.
	two := []model.Finding{
		fnd("a", changeNewerTypeScript, model.Breaking, "package.json", at("react"), repl("typescript@>=5.10")),
		fnd("b", changeNewerTypeScript, model.Breaking, "package.json", at("react-dom"), repl("typescript@>=5.9")),
		fnd("c", changeNewerTypeScript, model.Breaking, "package.json", at("x"), repl("typescript")),
	}
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 2, 0}} {
		var fs []model.Finding
		for _, i := range order {
			fs = append(fs, two[i])
		}
		if p := Build(fs, Options{Package: "react", Target: "19.1.0"}); len(p.Rules) != 1 || p.Rules[0].Title != "upgrade typescript to ≥ 5.10" || p.Rules[0].Sites != 3 {
			t.Errorf("order %v: rules %+v", order, p.Rules)
		}
	}
	if _, title := RuleKey(fnd("x", changeNewerTypeScript, model.Breaking, "package.json", repl("typescript"))); title != "upgrade typescript" {
		t.Errorf("title without a known release: %q", title)
	}
}

// fixOf is who makes a rule's sites: manual, agent or rule.
func fixOf(r model.PlanRule) string {
	switch {
	case r.Manual == r.Sites:
		return "manual"
	case r.ByAgent == r.Sites:
		return "agent"
	}
	return "rule"
}
