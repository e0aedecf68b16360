package modformat

import "testing"

func TestNodeAdmits(t *testing.T) {
	for _, tc := range []struct {
		rng, node     string
		admits, known bool
	}{
		{">=22.12.0", "20", false, true},
		{">=22.12.0", "22", true, true},
		{">=22.12.0", "22.11", false, true},
		{">=22.12.0", "22.12", true, true},
		{">=22.12.0", "22.11.0", false, true},
		{">=22.12.0", "24", true, true},
		{"^20.19.0 || >=22.12.0", "20", true, true},
		{"^20.19.0 || >=22.12.0", "20.18.1", false, true},
		{">=18", "16", false, true},
		{">=22.12.0", "lts", false, false},
		{">=22.12.0", "", false, false},
		{"", "20", false, false},
		{"not a range", "20", false, false},
	} {
		admits, known := NodeAdmits(tc.rng, tc.node)
		if admits != tc.admits || known != tc.known {
			t.Errorf("NodeAdmits(%q, %q) = %v, %v; want %v, %v", tc.rng, tc.node, admits, known, tc.admits, tc.known)
		}
	}
}
