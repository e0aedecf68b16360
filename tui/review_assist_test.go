package tui_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/assist"
	"github.com/uptide/uptide/internal/testkit/fakellm"
	"github.com/uptide/uptide/tui"
	"github.com/uptide/uptide/tui/review"
)

// appFile is the upgraded App.tsx the queue's proposals patch.
const appFile = "export function App() {\n  const input = useRef<HTMLInputElement>();\n  const other = useRef<HTMLDivElement>();\n  return null;\n}\n"

// nullRefs is the compile of App.tsx as a rule: a useRef without an
// argument is an error on its line. (The real compile is fix's; the
// queue's screen is under test.)
type nullRefs struct{}

func (nullRefs) Validate(_ context.Context, file, content string) (assist.Compiled, error) {
	var c assist.Compiled
	before, after := strings.Split(appFile, "\n"), strings.Split(content, "\n")
	for i, l := range before {
		if strings.Contains(l, ">();") && (i >= len(after) || !strings.Contains(after[i], ">();")) {
			c.Gone = append(c.Gone, model.Diagnostic{File: file, Line: i + 1, Code: 2554, Message: "Expected 1 arguments, but got 0."})
		}
	}
	return c, nil
}

// The review screen over the assisted fixer's real queue asking the
// fake Anthropic API: proposals arrive in the background, the cost meter
// follows them, a suppressing reply is never acceptable, and the
// hand-off carries the accepted patch.
func TestReviewWithTheAssistedQueue(t *testing.T) {
	srv := fakellm.New("sk-test")
	defer srv.Close()
	structured := func(diff string) fakellm.Step {
		b, _ := json.Marshal(map[string]string{"diff": diff, "explanation": "React 19's useRef requires its initial value."})
		return fakellm.Step{Text: string(b), InputTokens: 2000, OutputTokens: 300}
	}
	good := "--- a/src/App.tsx\n+++ b/src/App.tsx\n@@ -2,1 +2,1 @@\n-  const input = useRef<HTMLInputElement>();\n+  const input = useRef<HTMLInputElement>(null);\n"
	ignore := "--- a/src/App.tsx\n+++ b/src/App.tsx\n@@ -3,1 +3,2 @@\n+  // @ts-ignore\n   const other = useRef<HTMLDivElement>();\n"
	srv.For("(site at line 2)", structured(good))
	srv.For("(site at line 3)", structured(ignore), structured(ignore), structured(ignore))
	site := func(id string, line int) assist.Site {
		return assist.Site{ID: id, Package: "react", From: "18.3.1", To: "19.1.0", Rule: "react/useRef-arg", RuleTitle: "useRef needs an argument",
			File: "src/App.tsx", Line: line, Errors: []model.Diagnostic{{File: "src/App.tsx", Line: line, Code: 2554, Message: "Expected 1 arguments, but got 0."}},
			Scope: assist.Scope{StartLine: 1, EndLine: 5, Text: appFile}}
	}
	got := make(chan []fix.Patch, 1)
	f := newFake(demoLive(t))
	f.fix = func(ctx context.Context, req tui.CheckRequest, progress func(model.Phase, string), rv tui.Review) (*fix.Report, error) {
		fixer := &assist.Fixer{Provider: &assist.Anthropic{Key: "sk-test", BaseURL: srv.URL}, Validator: nullRefs{},
			Read: func(string) (string, error) { return appFile, nil }, Budget: assist.NewBudget(1)}
		q := assist.NewQueue(ctx, []assist.Site{site("input", 2), site("other", 3)}, fixer)
		defer q.Close()
		patches, err := rv(ctx, review.FromQueue(q), 0)
		if err != nil {
			return nil, err
		}
		got <- patches
		return &fix.Report{Package: "react", To: req.Target, Status: fix.StatusVerified}, nil
	}
	f.reply("react") <- checkReply{res: breaking(2)}
	h := newHarness(t, f, 120, 40)
	h.until("discovery", h.discovered)
	h.moveTo("react (2 packages)")
	h.press("c")
	h.until("the check", func() bool { return strings.Contains(h.view(), "✗ 2 breaking") })
	h.press("enter", "f")
	h.until("both proposals", func() bool {
		v := h.view()
		return strings.Contains(v, "2 sites") && strings.Contains(v, "✓ validated") && strings.Contains(v, "not valid · 3/3")
	})
	// Four calls at Sonnet's list price: 4 × (2000 × $3 + 300 × $15) / 1e6.
	wantAll(t, h.view(), "spent $0.04 of $1.00", "useRef<HTMLInputElement>(null)")
	h.press("down")
	h.until("the suppressing site", func() bool { return strings.Contains(h.view(), "@ts-ignore") })
	h.press("a")
	h.until("the refusal", func() bool { return strings.Contains(h.view(), "only a validated patch can be accepted") })
	h.press("up", "a", "enter")
	h.until("the summary", func() bool { return strings.Contains(h.view(), "Accepted patches (1)") })
	h.press("enter")
	patches := <-got
	if len(patches) != 1 || patches[0].Finding != "input" || !strings.Contains(patches[0].Diff, "(null)") {
		t.Fatalf("handed off %+v", patches)
	}
	if n := len(srv.Requests()); n != 4 {
		t.Errorf("%d calls, want 4 (one good reply, three suppressing)", n)
	}
}
