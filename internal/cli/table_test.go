package cli

import (
	"github.com/uptide/uptide/engine/model"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/uptide/uptide/view"
)

func TestTableFitsWidth(t *testing.T) {
	tb := &table{
		header:   []string{"PACKAGE", "WHERE", "VERSIONS", "NOTES"},
		flexible: []bool{true, true, false, true},
		keep:     3,
	}
	tb.add("@aws-sdk/s3-request-presigner", "packages/api, packages/web, apps/admin", "3.500.0 → 3.600.0", "group @aws-sdk/* (2 packages)")
	tb.add("react", "apps/web", "18.3.1 → 19.1.0", "")
	for _, width := range []int{160, 80, 60, 40} {
		out := tb.render(width, "  ", nil)
		for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if w := runewidth.StringWidth(line); w > width {
				t.Errorf("width %d: line of %d columns: %q", width, w, line)
			}
			if strings.HasSuffix(line, " ") {
				t.Errorf("width %d: trailing space in %q", width, line)
			}
		}
		if !strings.Contains(out, "3.500.0 → 3.600.0") {
			t.Errorf("width %d: the versions column must never be truncated:\n%s", width, out)
		}
	}
	wide := tb.render(160, "", nil)
	if !strings.Contains(wide, "@aws-sdk/s3-request-presigner") || strings.Contains(wide, "…") {
		t.Errorf("nothing should be truncated at 160 columns:\n%s", wide)
	}
	narrow := tb.render(60, "", nil)
	if !strings.Contains(narrow, "…") {
		t.Errorf("60 columns should truncate with an ellipsis:\n%s", narrow)
	}
}

func TestVersionsAndWhere(t *testing.T) {
	if got := model.Where([]string{".", "packages/web"}); got != "(root), packages/web" {
		t.Errorf("where = %q", got)
	}
	for _, tc := range []struct{ installed, target, want string }{
		{"1.0.0", "2.0.0", "1.0.0 → 2.0.0"},
		{"1.0.0", "1.0.0", "1.0.0"},
		{"", "2.0.0", "? → 2.0.0"},
	} {
		r := rowFor(tc.installed, tc.target)
		if got := view.Versions(r.Installed, r.Target); got != tc.want {
			t.Errorf("versions(%q, %q) = %q, want %q", tc.installed, tc.target, got, tc.want)
		}
	}
}
