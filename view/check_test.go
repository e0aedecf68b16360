package view_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

// A check report's packages as shown, every line, row and tone, held by
// goldens: `uptide check` and the planner's details both draw exactly
// this. The reports are a rich synthetic one and check's JSON goldens.
func TestCheckGolden(t *testing.T) {
	for name, path := range map[string]string{
		"rich":       "testdata/check-rich.json",
		"companions": "../cmd/uptide/testdata/json-golden/check-companions.json",
		"no-compile": "../cmd/uptide/testdata/json-golden/check-no-compile.json",
		"npm-app":    "../cmd/uptide/testdata/json-golden/check-npm-app.json",
	} {
		t.Run(name, func(t *testing.T) {
			rep := readCheck(t, path)
			var b strings.Builder
			for i := range rep.Packages {
				b.WriteString(drawCheck(view.Check(&rep.Packages[i])))
			}
			golden(t, filepath.Join("testdata", "check-"+name+".golden"), b.String())
		})
	}
}

// The plan rows number the rules in the order view.Entries lists them, so a
// screen's cursor over the rule rows finds the rule's sites.
func TestCheckPlanRowsFollowRules(t *testing.T) {
	rep := readCheck(t, "testdata/check-rich.json")
	pr := rep.Packages[0]
	rules := view.Entries(pr.Plan)
	v := view.Check(&pr)
	seen := 0
	for _, r := range v.Plan {
		if r.Rule < 0 {
			continue
		}
		if r.Rule != seen || !strings.HasSuffix(r.Cells[0].Text, rules[r.Rule].Rule.Title) {
			t.Errorf("row %q numbered %d, want rule %d %q", r.Cells[0].Text, r.Rule, seen, rules[seen].Rule.Title)
		}
		seen++
	}
	if seen != len(rules) || seen < 6 {
		t.Errorf("%d rule rows for %d rules", seen, len(rules))
	}
}

func readCheck(t *testing.T, path string) model.CheckReport {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(raw, &env) == nil && len(env.Data) > 0 {
		raw = env.Data
	}
	var rep model.CheckReport
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(rep.Packages) == 0 {
		t.Fatalf("%s: no packages", path)
	}
	return rep
}

// drawCheck writes a package's view with its tones marked.
func drawCheck(v view.CheckPackage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s · %s   %s (analyzed %v)\n", v.Title, v.Where, marked(view.Line{v.Verdict}), v.Analyzed)
	lines := func(name string, ls []view.Line) {
		if len(ls) > 0 {
			b.WriteString("== " + name + "\n")
		}
		for _, l := range ls {
			b.WriteString(marked(l) + "\n")
		}
	}
	lines("head", v.Head)
	if len(v.Companions) > 0 {
		b.WriteString("== companions\n")
	}
	for _, r := range v.Companions {
		fmt.Fprintf(&b, "%s | %s | %s (conflict %v)\n", r.Name, r.Versions, r.Why, r.Conflict)
	}
	if len(v.Plan) > 0 {
		b.WriteString("== " + strings.Join(view.PlanHeader, " | ") + "\n")
	}
	for _, r := range v.Plan {
		fmt.Fprintf(&b, "%2d %-10s %s\n", r.Rule, r.Severity, cells(r.Cells))
	}
	lines("rule notes", v.RuleNotes)
	lines("hidden", v.Hidden)
	if len(v.Sites) > 0 {
		b.WriteString("== sites\n")
	}
	for _, s := range v.Sites {
		fmt.Fprintf(&b, "%s (hidden %v; evidence %d, also %q)\n", marked(s.Line()), s.Hidden, len(s.Evidence), s.Also)
		for _, l := range s.Under() {
			b.WriteString(marked(l) + "\n")
		}
	}
	lines("pre-existing", v.PreExisting)
	lines("runtime", v.Runtime)
	lines("tail", v.Tail)
	return b.String()
}

// cells are a row's cells, tones marked, between bars.
func cells(r view.Cells) string {
	var out []string
	for _, c := range r {
		out = append(out, marked(view.Line{c}))
	}
	return strings.Join(out, " | ")
}
