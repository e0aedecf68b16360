package review

import (
	"strings"
	"testing"

	"github.com/uptide/uptide/fix/unidiff"
)

// Two columns are used only when every changed line fits its column:
// a change cut at the column's edge would hide what the patch does.
func TestChangesFit(t *testing.T) {
	long := "export function App(props: { upload?: Upload }): React.JSX.Element {"
	diff := func(old, new string) []unidiff.Hunk {
		t.Helper()
		h, err := unidiff.Parse(unidiff.Make("a.tsx", "x\n"+old+"\ny\n", "x\n"+new+"\ny\n", 1), "a.tsx")
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	if !changesFit(diff("a()", "b()"), 58) {
		t.Error("a short change should fit two 58-column halves")
	}
	if changesFit(diff("a()", long), 58) {
		t.Errorf("a %d-column change should not fit a 58-column half", len(long))
	}
	if !changesFit(diff("a()", long), 58+len(long)) {
		t.Error("the same change should fit a column wide enough")
	}
	// Context lines may be cut.
	ctx := strings.Repeat("c", 100)
	h, err := unidiff.Parse(unidiff.Make("a.tsx", ctx+"\na\n", ctx+"\nb\n", 1), "a.tsx")
	if err != nil {
		t.Fatal(err)
	}
	if !changesFit(h, 20) {
		t.Error("a long context line should not force one column")
	}
}
