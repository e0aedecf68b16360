package status

import "testing"

// A title too wide for its line loses its middle parts, then its second is
// cut or dropped; its last part (the planner's counts) is kept whole as
// long as anything fits.
func TestFitTitle(t *testing.T) {
	const home = "uptide · a-very-long-monorepo-name (pnpm, 40 workspaces) · 312 dependencies · 27 behind, 20 major"
	const details = "react 18.3.1 → 19.1.0 · packages/web · latest"
	for _, tc := range []struct {
		title string
		room  int
		want  string
	}{
		{home, 200, home},
		{home, 80, "uptide · a-very-long-monorepo-name (pnpm, 40 workspaces) · 27 behind, 20 major"},
		{home, 50, "uptide · a-very-long-monore… · 27 behind, 20 major"},
		{home, 30, "uptide · 27 behind, 20 major"},
		{home, 20, "uptide · 27 behind,…"},
		{details, 40, "react 18.3.1 → 19.1.0 · packag… · latest"},
		{details, 31, "react 18.3.1 → 19.1.0 · latest"},
	} {
		if got := fitTitle(tc.title, tc.room); got != tc.want {
			t.Errorf("fitTitle(%q, %d) = %q, want %q", tc.title, tc.room, got, tc.want)
		}
	}
}
