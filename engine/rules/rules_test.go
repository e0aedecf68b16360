package rules

import "testing"

// TestIDsUnique: an id names one rule across the diff, the match and every
// pack, so a report or a test that names it cannot mean two.
func TestIDsUnique(t *testing.T) {
	seen := map[string]Rule{}
	for _, r := range All() {
		if r.ID == "" || r.Title == "" || r.Table == "" {
			t.Errorf("%s rule %+v lacks an id, a title or a table", r.Source, r)
		}
		if was, dup := seen[r.ID]; dup {
			t.Errorf("id %q names two rules: %s %s (%s) and %s %s (%s)", r.ID, was.Source, was.Table, was.Title, r.Source, r.Table, r.Title)
		}
		seen[r.ID] = r
	}
}

// TestAllSources: the catalogue holds each source's rules under it.
func TestAllSources(t *testing.T) {
	want := map[string]Source{"removed": Diff, "direction/parameter/widened": Diff, "verdict/safe": Match, "cause/config": Match, "react-vfc": Pack, "zod-record-key": Pack, "stripe-api-version": Pack}
	for _, r := range All() {
		if s, ok := want[r.ID]; ok {
			if r.Source != s {
				t.Errorf("%s is listed under %s, want %s", r.ID, r.Source, s)
			}
			delete(want, r.ID)
		}
	}
	for id := range want {
		t.Errorf("the catalogue lacks %s", id)
	}
}
