package model

import (
	"slices"
	"testing"
)

// The one severity order the finding ids, the diff's choice of a change's
// finding and the reports share: least to most serious.
func TestSeverityRank(t *testing.T) {
	order := []Severity{"", Additive, Info, Deprecated, Unverified, Breaking}
	ranked := slices.Clone(order)
	slices.Reverse(ranked)
	slices.SortFunc(ranked, func(a, b Severity) int { return a.Rank() - b.Rank() })
	if !slices.Equal(ranked, order) {
		t.Errorf("by Rank: %q, want %q", ranked, order)
	}
}

// Diagnostics and usages sort by place first, whatever else differs.
func TestCanonicalOrders(t *testing.T) {
	ds := []Diagnostic{{File: "b.ts", Start: 1}, {File: "a.ts", Start: 9, Code: 1}, {File: "a.ts", Start: 9, Code: 1, Message: "x"}, {File: "a.ts", Start: 2, Code: 9}}
	slices.SortStableFunc(ds, CompareDiagnostics)
	want := []Diagnostic{{File: "a.ts", Start: 2, Code: 9}, {File: "a.ts", Start: 9, Code: 1}, {File: "a.ts", Start: 9, Code: 1, Message: "x"}, {File: "b.ts", Start: 1}}
	if !slices.Equal(ds, want) {
		t.Errorf("diagnostics: %+v, want %+v", ds, want)
	}
	us := []Usage{{File: "a.ts", Start: 5, SymbolPath: "z.a"}, {File: "a.ts", Start: 5, End: 3}, {File: "a.ts", Start: 1, Via: "x"}}
	slices.SortStableFunc(us, CompareUsages)
	if us[0].Start != 1 || us[1].SymbolPath != "z.a" || us[2].End != 3 {
		t.Errorf("usages: %+v", us)
	}
}
