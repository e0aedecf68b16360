package check

import "testing"

// The release a package's declared typescript range starts at, as the
// message "needs TypeScript ≥ X" says it.
func TestLowestSatisfying(t *testing.T) {
	for _, tt := range []struct{ rng, want string }{
		{">=5.0", "5.0"},
		{"^5.5.0", "5.5"},
		{">=4.9.5 <6", "4.9.5"},
		{"~5.1.3", "5.1.3"},
		{"5.x || 6.x", "5.0"},
		{"*", "2.0"},
		{"not a range", ""},
		{">=99", ""},
	} {
		if got := lowestSatisfying(tt.rng); got != tt.want {
			t.Errorf("lowestSatisfying(%q) = %q, want %q", tt.rng, got, tt.want)
		}
	}
}
