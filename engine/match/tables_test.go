package match

import (
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

type fixCase struct {
	rule string
	in   FixInput
	want model.Fixability
}

var fixCases = []fixCase{
	{rule: "fix/additive", in: FixInput{Change: "widened", Severity: model.Additive}, want: model.NoFix},
	{rule: "fix/additive", in: FixInput{Change: "signature", Severity: model.Additive, Via: model.ViaInferred}, want: model.NoFix},
	{rule: "fix/unattributed", in: FixInput{Change: "TS2322", Severity: model.Breaking}, want: model.UnknownFix},
	{rule: "fix/cause", in: FixInput{Change: model.ChangeCause, Severity: model.Breaking}, want: model.Manual},
	{rule: "fix/inferred", in: FixInput{Change: "moved", Severity: model.Breaking, Via: model.ViaInferred}, want: model.UnknownFix},
	{rule: "fix/moved", in: FixInput{Change: "moved", Severity: model.Breaking, Replacement: "./v4"}, want: model.Mechanical},
	{rule: "fix/renamed", in: FixInput{Change: "removed", Severity: model.Breaking, Replacement: "safeParse"}, want: model.Mechanical},
	{rule: "fix/deprecated-replacement", in: FixInput{Change: "deprecated", Severity: model.Deprecated, Replacement: "z.output"}, want: model.Mechanical},
	{rule: "fix/param-removed", in: FixInput{Change: "signature", Severity: model.Breaking, ChangeRule: "sig/param/removed"}, want: model.Mechanical},
	{rule: "fix/param-required", in: FixInput{Change: "signature", Severity: model.Breaking, ChangeRule: "sig/param/added-required"}, want: model.Assisted},
	{rule: "fix/param-required", in: FixInput{Change: "signature", Severity: model.Breaking, ChangeRule: "sig/param/made-required"}, want: model.Assisted},
	{rule: "fix/type-incompatible", in: FixInput{Change: "type", Severity: model.Breaking}, want: model.Assisted},
	{rule: "fix/type-incompatible", in: FixInput{Change: "narrowed", Severity: model.Breaking}, want: model.Assisted},
	{rule: "fix/return-incompatible", in: FixInput{Change: "signature", Severity: model.Breaking, ChangeRule: "sig/return/changed"}, want: model.Assisted},
	{rule: "fix/manual", in: FixInput{Change: "removed", Severity: model.Breaking}, want: model.Manual},
	{rule: "fix/manual", in: FixInput{Change: "deprecated", Severity: model.Deprecated}, want: model.Manual},
	{rule: "fix/manual", in: FixInput{Change: "required", Severity: model.Breaking}, want: model.Manual},
	{rule: "fix/manual", in: FixInput{Change: "module-format", Severity: model.Breaking}, want: model.Manual},
}

func TestFixabilityRows(t *testing.T) {
	for _, tc := range fixCases {
		t.Run(tc.rule+"/"+tc.in.Change, func(t *testing.T) {
			got, row := FixabilityOf(tc.in)
			if got != tc.want || row != tc.rule {
				t.Errorf("FixabilityOf(%+v) = %s by %s, want %s by %s", tc.in, got, row, tc.want, tc.rule)
			}
		})
	}
}

type certaintyCase struct {
	rule string
	via  model.Via
	want float64
}

var certaintyCases = []certaintyCase{
	{"via/direct", model.ViaDirect, 1},
	{"via/direct", "", 1},
	{"via/alias", model.ViaAlias, 0.95},
	{"via/reexport", model.ViaReexport, 0.95},
	{"via/destructure", model.ViaDestructure, 0.9},
	{"via/require", model.ViaRequire, 0.85},
	{"via/inferred", model.ViaInferred, 0.8},
	{"via/inferred", "guessed", 0.8},
}

func TestCertaintyRows(t *testing.T) {
	for _, tc := range certaintyCases {
		if got := Certainty(tc.via); got != tc.want {
			t.Errorf("Certainty(%q) = %v, want %v (%s)", tc.via, got, tc.want, tc.rule)
		}
	}
}

type verdictCase struct {
	rule                 string
	name                 string
	findings             []model.Finding
	analyzed, unanalyzed int
	want                 string
}

func finding(sev model.Severity, hidden bool) model.Finding {
	return model.Finding{Severity: sev, Hidden: hidden}
}

var verdictCases = []verdictCase{
	{rule: "verdict/breaking", name: "breaking and possible", findings: []model.Finding{finding(model.Breaking, false), finding(model.Breaking, false), finding(model.Unverified, false), finding(model.Info, true)},
		analyzed: 12, want: "✗ 2 breaking · 1 possible"},
	{rule: "verdict/breaking", name: "breaking with sites not analyzed says so", findings: []model.Finding{finding(model.Breaking, false)},
		analyzed: 2, unanalyzed: 8, want: "✗ 1 breaking · ⚠ 8 sites not analyzed"},
	{rule: "verdict/unknown", name: "more than a fifth not analyzed", analyzed: 3, unanalyzed: 1, want: "? unknown · ⚠ 1 site not analyzed"},
	{rule: "verdict/unknown", name: "nothing analyzed at all", unanalyzed: 2, want: "? unknown · ⚠ 2 sites not analyzed"},
	{rule: "verdict/possible", name: "only unverified", findings: []model.Finding{finding(model.Unverified, false), finding(model.Deprecated, false)},
		analyzed: 5, want: "? 1 possible"},
	{rule: "verdict/partial", name: "exactly a fifth not analyzed", findings: []model.Finding{finding(model.Breaking, true)},
		analyzed: 4, unanalyzed: 1, want: "no impact in 4 analyzed sites · ⚠ 1 site not analyzed"},
	{rule: "verdict/safe", name: "every site analyzed", findings: []model.Finding{finding(model.Info, true), finding(model.Additive, true), finding(model.Deprecated, false)},
		analyzed: 7, want: "✓ no impact in 7 sites"},
	{rule: "verdict/safe", name: "one site", analyzed: 1, want: "✓ no impact in 1 site"},
}

func TestVerdictRows(t *testing.T) {
	for _, tc := range verdictCases {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			status, line := Verdict(tc.findings, tc.analyzed, tc.unanalyzed)
			if want := verdictStatus(tc.rule); status != want {
				t.Errorf("status = %q, want %q", status, want)
			}
			if line != tc.want {
				t.Errorf("line = %q, want %q", line, tc.want)
			}
		})
	}
}

// TestRuleRegistry keeps every table in step with its tests: every row has
// a case, every case names a row that exists.
func TestRuleRegistry(t *testing.T) {
	covered := map[string]int{}
	name := func(id, where string) {
		if _, ok := RuleByID(id); !ok {
			t.Errorf("%s names unknown rule %q", where, id)
		}
		covered[id]++
	}
	for _, c := range directionCases {
		name(c.row, "direction case "+c.name)
	}
	for _, c := range certaintyCases {
		name(c.rule, "certainty case "+string(c.via))
	}
	for _, c := range joinCases {
		name(c.rule, "join case "+c.name)
	}
	for _, c := range arbiterCases {
		name(c.rule, "arbiter case "+c.name)
	}
	for _, c := range untypedCases {
		name(c.rule, "untyped case "+c.name)
	}
	for _, c := range causeCases {
		name(c.rule, "cause case "+c.name)
	}
	for _, c := range foldCases {
		name(c.rule, "fold case "+c.name)
	}
	for _, c := range fixCases {
		name(c.rule, "fixability case "+c.in.Change)
	}
	for _, c := range verdictCases {
		name(c.rule, "verdict case "+c.name)
	}
	for _, r := range Rules() {
		if covered[r.ID] == 0 {
			t.Errorf("rule %q (%s: %s) has no test case", r.ID, r.Table, r.Title)
		}
		if r.Title == "" || r.Table == "" || !strings.Contains(r.ID, "/") {
			t.Errorf("rule %q needs a title, a table and a table-prefixed id", r.ID)
		}
	}
}

func TestRuleByIDUnknown(t *testing.T) {
	if _, ok := RuleByID("direction/renamed"); ok {
		t.Fatal("an unknown id resolved")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("mustRule accepted an unknown id")
		}
	}()
	mustRule("nope")
}
