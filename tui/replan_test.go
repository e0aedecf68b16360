package tui_test

import (
	"strings"
	"testing"
)

// pickTarget opens the picker on the cursor's line and chooses version.
func (h *harness) pickTarget(version string) {
	h.t.Helper()
	h.press("t")
	h.until("versions", func() bool { return h.contains("VERSION") })
	for i := 0; i < 30 && !strings.HasPrefix(strings.TrimLeft(h.cursorLine(), "❯•● "), version+" "); i++ {
		h.press("down")
	}
	if !strings.Contains(h.cursorLine(), version) {
		h.t.Fatalf("no version %s in the picker:\n%s", version, h.view())
	}
	h.press("enter")
	h.until("the new plan", func() bool { return !h.contains("re-planning") && h.contains("PACKAGE") })
}

// lineWith returns the first screen line containing every one of parts.
func (h *harness) lineWith(parts ...string) string {
	for _, l := range strings.Split(h.view(), "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			return l
		}
	}
	return ""
}

// A target picked on a release group's lead moves its members with it,
// and what is checked, shown and offered to fix follows.
func TestTargetPickMovesTheGroup(t *testing.T) {
	for _, tc := range []struct {
		name, group, pick string
		member, memberTo  string
		why               string
		with              []string // the check request's group members and companions
		next              string
	}{
		{
			name: "react back a minor", group: "react (2 packages)", pick: "19.0.0",
			member: "react-dom", memberTo: "18.3.1 → 19.0.0", why: "with react 19.0.0: released in lockstep",
			// @ai-sdk/react 1.0.0 accepts react ~19.0.0, so 19.0.0 has no conflict.
			with: []string{"react-dom@19.0.0", "@ai-sdk/react@1.0.0", "@types/react@19.0.0", "@types/react-dom@19.0.1"},
			next: "uptide check react --target react@19.0.0 --target react-dom@19.0.0 --group --details",
		},
		{
			name: "react staying keeps react-dom", group: "react (2 packages)", pick: "18.3.1",
			member: "react-dom", memberTo: "18.3.1", why: "with react 18.3.1: stays",
		},
		{
			name: "ai moves its providers, and zod along", group: "ai (2 packages)", pick: "4.0.0",
			member: "@ai-sdk/openai", memberTo: "0.0.70 → 1.0.0", why: "with ai 4.0.0: pins @ai-sdk/provider 1.0.0 like ai 4.0.0",
			with: []string{"@ai-sdk/openai@1.0.0", "zod@3.25.76"},
			// zod is ai's companion, not a member: check plans it itself.
			next: "uptide check ai --target ai@4.0.0 --target @ai-sdk/openai@1.0.0 --group --details",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(demoLive(t))
			h := newHarness(t, f, 160, 40)
			h.until("discovery", h.discovered)
			h.moveTo("▾ " + tc.group)
			h.pickTarget(tc.pick)
			h.press("m") // a group that stays is no longer urgent
			h.moveTo("▾ " + tc.group)
			memberLine := ""
			for _, l := range strings.Split(h.view(), "\n") {
				if strings.HasPrefix(strings.TrimLeft(l, "❯● "), tc.member+" ") && strings.Contains(l, "    "+tc.member) {
					memberLine = l
				}
			}
			wantIn(t, memberLine, tc.memberTo)

			h.press("enter")
			wantIn(t, h.view(), "Release group")
			if l := h.lineWith("  "+tc.member+" ", "with "); !strings.Contains(l, tc.why) {
				t.Fatalf("member line %q lacks %q:\n%s", l, tc.why, h.view())
			}
			if tc.next != "" {
				wantIn(t, strings.Join(strings.Fields(h.view()), " "), tc.next)
			} else {
				wantNot(t, h.view(), "Next ")
			}
			if tc.with == nil {
				return
			}
			h.press("c")
			req := h.nextStarted(f)
			var with []string
			for _, c := range req.With {
				with = append(with, c.Name+"@"+c.To)
			}
			if got := strings.Join(with, ","); got != strings.Join(tc.with, ",") {
				t.Errorf("check request moves %s, want %s", got, strings.Join(tc.with, ","))
			}
		})
	}
}
