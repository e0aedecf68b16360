package triage

import (
	"encoding/json"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// Registry answers are untrusted: any peer range, advisory range, version
// or publish time gives a plan (never a panic), the same plan every time.
func FuzzPlan(f *testing.F) {
	f.Add("^2.0.0", "<4.17.21", "2.0.0", "2024-01-10T00:00:00Z", "major ×2")
	f.Add("not a range", ">=x", "v1", "yesterday", "major")
	f.Add("", "", "", "", "")
	f.Fuzz(func(t *testing.T, peer, vulnerable, version, when, update string) {
		in := Input{
			Rows: []model.DependencyRow{row("a", "1.0.0", version, update), row("b", "1.0.0", "2.0.0", "major")},
			Releases: map[string]*model.Packument{
				"a": packument("a", map[string]map[string]string{version: {"b": peer}}, map[string]string{version: when, "1.0.0": when}),
				"b": packument("b", map[string]map[string]string{"2.0.0": {"a": peer}}, nil),
			},
			Advisories: map[string][]model.Advisory{"a": {{Title: "t", Severity: "high", VulnerableVersions: vulnerable}}},
			Now:        now,
		}
		first, _ := json.Marshal(Plan(in))
		second, _ := json.Marshal(Plan(in))
		if string(first) != string(second) {
			t.Fatalf("two plans differ:\n%s\n%s", first, second)
		}
	})
}
