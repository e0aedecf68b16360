package tui_test

import (
	"strings"
	"testing"
)

// moveTo presses down until the cursor is on a line containing s.
func (h *harness) moveTo(s string) {
	h.t.Helper()
	h.press("g")
	for i := 0; i < 100; i++ {
		if strings.Contains(h.cursorLine(), s) {
			return
		}
		h.press("down")
	}
	h.t.Fatalf("no line with %q; the screen is:\n%s", s, h.view())
}

func firstRow(view string) string {
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		if strings.Contains(l, "PACKAGE") && i+1 < len(lines) {
			return lines[i+1]
		}
	}
	return ""
}

func TestHomeKeys(t *testing.T) {
	live := demoLive(t)
	tests := []struct {
		name  string
		keys  []string
		check func(t *testing.T, h *harness)
	}{
		{"starts on the most urgent line", nil, func(t *testing.T, h *harness) {
			wantIn(t, h.cursorLine(), "▾ react (2 packages)")
		}},
		{"down and j move down, k up", []string{"down", "j", "k"}, func(t *testing.T, h *harness) {
			wantIn(t, h.cursorLine(), "    react ")
		}},
		{"up stops at the top", []string{"up", "up"}, func(t *testing.T, h *harness) {
			wantIn(t, h.cursorLine(), "react (2 packages)")
		}},
		{"G goes to the bottom, g to the top", []string{"G"}, func(t *testing.T, h *harness) {
			wantIn(t, h.cursorLine(), "@types/react-dom")
			h.press("g")
			wantIn(t, h.cursorLine(), "react (2 packages)")
		}},
		{"end and home too", []string{"end", "home"}, func(t *testing.T, h *harness) {
			wantIn(t, h.cursorLine(), "react (2 packages)")
		}},
		{"pgdown and pgup page", []string{"pgdown"}, func(t *testing.T, h *harness) {
			wantIn(t, h.cursorLine(), "@types/react-dom")
			h.press("pgup")
			wantIn(t, h.cursorLine(), "react (2 packages)")
		}},
		{"left collapses a group, right expands it", []string{"left"}, func(t *testing.T, h *harness) {
			wantIn(t, h.view(), "▸ react (2 packages)")
			wantNot(t, h.view(), "    react-dom")
			h.press("right")
			wantIn(t, h.view(), "▾ react (2 packages)")
			wantIn(t, h.view(), "    react-dom")
		}},
		{"left on a member collapses its group onto the parent", []string{"down", "h"}, func(t *testing.T, h *harness) {
			wantIn(t, h.cursorLine(), "▸ react (2 packages)")
		}},
		{"m shows minor, patch and current rows", []string{"m"}, func(t *testing.T, h *harness) {
			wantIn(t, h.view(), "@aws-sdk/* (2 packages)")
			wantIn(t, h.view(), "legacy-lodash")
			wantIn(t, h.view(), "alias of lodash")
			h.press("m")
			wantNot(t, h.view(), "legacy-lodash")
			wantIn(t, h.view(), "5 minor/patch/current hidden (m)")
		}},
		{"/ filters by name", []string{"/", "z", "o", "d"}, func(t *testing.T, h *harness) {
			wantIn(t, h.view(), "/zod")
			wantIn(t, h.view(), "3.25.76 → 4.1.12")
			wantNot(t, h.view(), "express")
		}},
		{"/ keeps a group whose member matches", []string{"/", "o", "p", "e", "n"}, func(t *testing.T, h *harness) {
			wantIn(t, h.view(), "ai (2 packages)") // its member @ai-sdk/openai matches
			wantNot(t, h.view(), "express")
		}},
		{"enter keeps the filter, esc clears it", []string{"/", "e", "x", "p", "enter"}, func(t *testing.T, h *harness) {
			wantIn(t, h.view(), "filter: exp")
			wantNot(t, h.view(), "is-number")
			h.press("esc")
			wantIn(t, h.view(), "is-number")
		}},
		{"esc in the input clears the filter", []string{"/", "z", "esc"}, func(t *testing.T, h *harness) {
			wantIn(t, h.view(), "express")
			wantNot(t, h.view(), "filter:")
		}},
		{"q and ? are text while filtering", []string{"/", "q", "?"}, func(t *testing.T, h *harness) {
			if h.quit {
				t.Fatal("q quit while typing a filter")
			}
			wantIn(t, h.view(), "/q?")
			wantIn(t, h.view(), `No dependency matches "q?"`)
		}},
		{"s cycles the sort", []string{"s"}, func(t *testing.T, h *harness) {
			wantIn(t, h.view(), "sort: name")
			wantIn(t, firstRow(h.view()), "@ai-sdk/react")
			h.press("s")
			wantIn(t, h.view(), "sort: importing files")
			wantIn(t, firstRow(h.view()), "react (2 packages)")
			h.press("s")
			wantIn(t, h.view(), "sort: urgency")
		}},
		{"space selects and moves down", []string{"space"}, func(t *testing.T, h *harness) {
			wantIn(t, h.line("●"), "react (2 packages)")
			wantIn(t, h.cursorLine(), "    react ")
			wantIn(t, h.view(), "1 selected")
			h.press("up", "space")
			wantNot(t, h.view(), "●")
		}},
		{"enter opens the details, esc goes back", []string{"enter"}, func(t *testing.T, h *harness) {
			wantIn(t, h.view(), "react 18.3.1 → 19.1.0 · packages/web · latest")
			wantIn(t, h.view(), "Companions  of react 18.3.1 → 19.1.0")
			h.press("esc")
			wantIn(t, h.view(), "PACKAGE")
		}},
		{"t opens the target picker, esc goes back", []string{"t"}, func(t *testing.T, h *harness) {
			h.until("versions", func() bool { return h.contains("VERSION") })
			wantIn(t, h.view(), "Target for react")
			h.press("esc")
			wantIn(t, h.view(), "PACKAGE")
		}},
		{"? opens the help, esc and ? close it", []string{"?"}, func(t *testing.T, h *harness) {
			wantIn(t, h.view(), "expand group")
			wantIn(t, h.view(), "What the table shows")
			h.press("esc")
			wantIn(t, h.view(), "PACKAGE")
			h.press("?", "?")
			wantIn(t, h.view(), "PACKAGE")
		}},
		{"q quits", []string{"q"}, func(t *testing.T, h *harness) {
			if !h.quit {
				t.Fatal("q did not quit")
			}
		}},
		{"ctrl+c quits, even while filtering", []string{"/", "ctrl+c"}, func(t *testing.T, h *harness) {
			if !h.quit {
				t.Fatal("ctrl+c did not quit")
			}
		}},
		{"q quits from the details", []string{"enter", "q"}, func(t *testing.T, h *harness) {
			if !h.quit {
				t.Fatal("q did not quit")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, newFake(live), 120, 36)
			h.until("discovery", h.discovered)
			h.press(tt.keys...)
			tt.check(t, h)
		})
	}
}

func TestDetailsKeys(t *testing.T) {
	live := demoLive(t)
	tests := []struct {
		name  string
		keys  []string
		check func(t *testing.T, h *harness, f *fakeEngine)
	}{
		{"t opens the picker above the details, esc returns to them", []string{"enter", "t"}, func(t *testing.T, h *harness, f *fakeEngine) {
			h.until("versions", func() bool { return h.contains("VERSION") })
			h.press("esc")
			wantIn(t, h.view(), "Companions")
			h.press("esc")
			wantIn(t, h.view(), "PACKAGE")
		}},
		{"c checks the dependency shown", []string{"enter", "c"}, func(t *testing.T, h *harness, f *fakeEngine) {
			req := h.nextStarted(f)
			if req.Row.Name != "react" || req.Target != "19.1.0" {
				t.Fatalf("checked %s %s, want react 19.1.0", req.Row.Name, req.Target)
			}
			h.until("running", func() bool { return h.contains("compiling target 1/3") })
		}},
		{"? opens the help above the details", []string{"enter", "?"}, func(t *testing.T, h *harness, f *fakeEngine) {
			wantIn(t, h.view(), "What the table shows")
			h.press("esc")
			wantIn(t, h.view(), "Companions")
		}},
		{"down and up scroll without a plan", []string{"enter", "down", "down", "up", "pgdown", "pgup", "G", "g"}, func(t *testing.T, h *harness, f *fakeEngine) {
			wantIn(t, h.view(), "Installed   18.3.1 (lockfile)")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(live)
			h := newHarness(t, f, 120, 36)
			h.until("discovery", h.discovered)
			h.press(tt.keys...)
			tt.check(t, h, f)
		})
	}
}

func wantIn(t *testing.T, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Fatalf("want %q in:\n%s", sub, s)
	}
}

func wantNot(t *testing.T, s, sub string) {
	t.Helper()
	if strings.Contains(s, sub) {
		t.Fatalf("do not want %q in:\n%s", sub, s)
	}
}
