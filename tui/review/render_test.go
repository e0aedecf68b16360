package review

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/uptide/uptide/fix/assist"
	"github.com/uptide/uptide/fix/unidiff"
	"github.com/uptide/uptide/tui/state"
	"github.com/uptide/uptide/tui/theme"
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

// The queue's head counts as proposing only the proposals in flight; the
// sites the fixer has not reached yet are waiting (issue 25 item 7).
func TestQueueHeadCountsProposalsInFlight(t *testing.T) {
	s := &state.Shared{Store: state.NewStore(nil), Styles: theme.New(lipgloss.NewRenderer(io.Discard), theme.Default())}
	sites := []assist.Site{{ID: "a", File: "a.ts", Line: 1}, {ID: "b", File: "b.ts", Line: 1}, {ID: "c", File: "c.ts", Line: 1},
		{ID: "d", File: "d.ts", Line: 1}, {ID: "e", File: "e.ts", Line: 1}}
	m := New(s, "react", "18.3.1", "19.1.0", nil)
	m.SetSize(100, 30)
	m.src = NoProvider(nil)
	for i, st := range []Status{Proposing, Proposing, Waiting, Waiting, Valid} {
		m.items = append(m.items, Item{Site: sites[i], Status: st})
	}
	head := m.viewQueue()[0]
	if want := "5 sites · 0 accepted · 1 validated · 2 proposing · 2 waiting"; head != want {
		t.Errorf("head %q, want %q", head, want)
	}
}
