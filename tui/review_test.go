package tui_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/assist"
	"github.com/uptide/uptide/tui"
	"github.com/uptide/uptide/tui/review"
)

// tableSource is a review queue whose proposals are all there at once:
// the screen's behaviour, not the fixer's, is under test here (the fixer
// and its queue have their own tests in fix/assist).
type tableSource struct {
	mu      sync.Mutex
	items   []review.Item
	changed chan struct{}
	focused []string
	hints   []string
}

func (s *tableSource) Items() []review.Item {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]review.Item(nil), s.items...)
}
func (s *tableSource) Provider() string { return "anthropic claude-sonnet-4-5" }
func (s *tableSource) Spent() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := 0.0
	for _, it := range s.items {
		sum += it.Cost
	}
	return sum
}
func (s *tableSource) Budget() float64 { return 1 }
func (s *tableSource) Focus(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.focused = append(s.focused, id)
}
func (s *tableSource) set(id string, st review.Status) {
	s.mu.Lock()
	for i := range s.items {
		if s.items[i].Site.ID == id {
			s.items[i].Status = st
		}
	}
	s.mu.Unlock()
	s.changed <- struct{}{}
}
func (s *tableSource) Accept(id string) { s.set(id, review.Accepted) }
func (s *tableSource) Reject(id string) { s.set(id, review.Rejected) }
func (s *tableSource) Skip(id string)   { s.set(id, review.Skipped) }
func (s *tableSource) Retry(id, hint string) {
	s.mu.Lock()
	s.hints = append(s.hints, id+": "+hint)
	s.mu.Unlock()
	s.set(id, review.Proposing)
}
func (s *tableSource) Replace(id, diff string) {}
func (s *tableSource) AcceptRule(rule string) int {
	s.mu.Lock()
	n := 0
	for i := range s.items {
		if s.items[i].Site.Rule == rule && s.items[i].Status == review.Valid {
			s.items[i].Status = review.Accepted
			n++
		}
	}
	s.mu.Unlock()
	s.changed <- struct{}{}
	return n
}
func (s *tableSource) Files(id string) (string, string, error) {
	return "", "", fmt.Errorf("no editor here")
}
func (s *tableSource) Changed() <-chan struct{} { return s.changed }

func reactSites() *tableSource {
	site := func(id, rule, title, file string, line int, code int, msg string) assist.Site {
		return assist.Site{ID: id, Package: "react", From: "18.3.1", To: "19.1.0", Rule: rule, RuleTitle: title, Reason: title,
			File: file, Line: line, Errors: []model.Diagnostic{{File: file, Line: line, Code: code, Message: msg}}}
	}
	return &tableSource{changed: make(chan struct{}, 100), items: []review.Item{
		{Site: site("f-ref", "react/useRef-arg", "useRef needs an argument", "packages/web/src/App.tsx", 10, 2554, "Expected 1 arguments, but got 0."),
			Status: review.Valid, Attempts: 1, Cost: 0.012,
			Explanation: "React 19's useRef requires its initial value; undefined keeps the ref's type.",
			Diff:        "--- a/packages/web/src/App.tsx\n+++ b/packages/web/src/App.tsx\n@@ -9,3 +9,3 @@\n export function App(props: { upload?: Upload }): JSX.Element {\n-  const input = useRef<HTMLInputElement>();\n+  const input = useRef<HTMLInputElement>(null);\n   const [count] = useState(0);\n"},
		{Site: site("f-jsx", "react/global-jsx", "the global JSX namespace is gone", "packages/web/src/App.tsx", 9, 2503, "Cannot find namespace 'JSX'."),
			Status: review.Valid, Attempts: 1, Cost: 0.011,
			Explanation: "React 19 types only declare JSX under React.",
			Diff:        "--- a/packages/web/src/App.tsx\n+++ b/packages/web/src/App.tsx\n@@ -9,1 +9,1 @@\n-export function App(props: { upload?: Upload }): JSX.Element {\n+export function App(props: { upload?: Upload }): React.JSX.Element {\n"},
		{Site: site("f-render", "react-dom/render", "render was removed from react-dom", "packages/web/src/main.tsx", 5, 2305, "Module '\"react-dom\"' has no exported member 'render'."),
			Status: review.Valid, Attempts: 2, Cost: 0.024,
			Explanation: "react-dom 19 removed render; createRoot from react-dom/client replaces it.",
			Diff:        "--- a/packages/web/src/main.tsx\n+++ b/packages/web/src/main.tsx\n@@ -1,1 +1,1 @@\n-import { render } from \"react-dom\";\n+import { createRoot } from \"react-dom/client\";\n"},
		{Site: site("f-any", "TS2322", "TS2322", "packages/web/src/List.tsx", 30, 2322, "Type 'Element' is not assignable to type 'ReactNode'."),
			Status: review.Invalid, Attempts: 3, Cost: 0.03, Reason: "the patch adds a suppression (as any)"},
	}}
}

// fixWithReview is a fix run that hands the review the table, then
// reports what it was handed.
func fixWithReview(src *tableSource, got chan<- []fix.Patch) func(ctx context.Context, req tui.CheckRequest, progress func(model.Phase, string), rv tui.Review) (*fix.Report, error) {
	return func(ctx context.Context, req tui.CheckRequest, progress func(model.Phase, string), rv tui.Review) (*fix.Report, error) {
		progress("clone", "cloning into a private clone")
		progress("install", "installing react@19.1.0 react-dom@19.1.0")
		patches, err := rv(ctx, src, 0)
		if err != nil {
			return nil, err
		}
		got <- patches
		progress("edits", "applying the accepted patches")
		rep := &fix.Report{Package: "react", From: "18.3.1", To: req.Target, Status: fix.StatusVerified,
			Branch: "uptide/react-" + req.Target, Checkout: fix.CheckoutReport{Branch: "uptide/react-" + req.Target}}
		rep.Commits = append(rep.Commits, fix.Commit{Sha: "1111111aaaa", Subject: "upgrade react 18.3.1 → 19.1.0 (+ react-dom)"})
		for i, p := range patches {
			rep.Commits = append(rep.Commits, fix.Commit{Sha: fmt.Sprintf("%d222222bbbb", i+2), Subject: fmt.Sprintf("fix %s:%d (%s)", p.File, p.Line, p.Rule)})
		}
		return rep, nil
	}
}

// The review flow through the app: details → f → the queue (accept two,
// reject one, retry one with a hint) → the hand-off summary → the run's
// report; the run is handed exactly the accepted patches.
func TestReviewQueueAcceptRejectHandOff(t *testing.T) {
	src := reactSites()
	got := make(chan []fix.Patch, 1)
	f := newFake(demoLive(t))
	f.fix = fixWithReview(src, got)
	f.reply("react") <- checkReply{res: breaking(2)}
	h := newHarness(t, f, 120, 40)
	h.until("discovery", h.discovered)
	h.moveTo("react (2 packages)")
	h.press("c")
	h.until("the check", func() bool { return strings.Contains(h.view(), "✗ 2 breaking") })
	h.press("enter")
	h.until("details", func() bool { return strings.Contains(h.view(), "Release group") })
	h.press("f")
	h.until("the queue", func() bool { return strings.Contains(h.view(), "4 sites") })
	v := h.view()
	wantAll(t, v, "spent $0.08 of $1.00", "useRef needs an argument", "TS2554", "✓ validated", "useRef<HTMLInputElement>(null)")
	// 120 columns: the diff is side by side.
	wantIn(t, v, "│")

	h.press("a") // accept useRef, move to JSX
	h.until("the JSX site", func() bool { return strings.Contains(h.view(), "Cannot find namespace 'JSX'") })
	h.press("a") // accept JSX, move to render
	h.until("the render site", func() bool { return strings.Contains(h.view(), "react-dom/client") })
	h.press("x") // reject render, move to the invalid one
	h.until("the invalid site", func() bool { return strings.Contains(h.view(), "adds a suppression") })
	h.press("a") // not validated: refused
	h.until("the refusal", func() bool { return strings.Contains(h.view(), "only a validated patch can be accepted") })
	h.press("r")
	for _, r := range "use ReactNode" {
		h.press(string(r))
	}
	h.press("enter")
	h.until("the retry", func() bool { return strings.Contains(h.view(), "retrying with your hint") })
	if len(src.hints) != 1 || src.hints[0] != "f-any: use ReactNode" {
		t.Errorf("hints %q", src.hints)
	}

	h.press("enter")
	h.until("the summary", func() bool { return strings.Contains(h.view(), "Hand off to fix") })
	v = h.view()
	wantAll(t, v, "Accepted patches (2)", "useRef needs an argument", "the global JSX namespace is gone", "Left for you (2)",
		"packages/web/src/main.tsx:5", "rejected", "Estimated cost spent  $0.08")
	h.press("enter")
	h.until("the report", func() bool { return strings.Contains(h.view(), "✓ verified") })
	patches := <-got
	var names []string
	for _, p := range patches {
		names = append(names, p.Finding+"@"+p.File)
	}
	if strings.Join(names, " ") != "f-ref@packages/web/src/App.tsx f-jsx@packages/web/src/App.tsx" {
		t.Errorf("handed off %q", names)
	}
	// The report has the words uptide fix prints (view.Fix decides both).
	wantAll(t, h.view(), "Changes  uptide/react-19.1.0", "Branch  uptide/react-19.1.0 updated at", "in your checkout (nothing else in it changed)",
		"fix packages/web/src/App.tsx:10 (useRef needs an argument)")
}

// Leaving the queue before the hand-off ends the run (its context) and
// returns to the details.
func TestReviewLeaveCancelsTheRun(t *testing.T) {
	src := reactSites()
	ended := make(chan error, 1)
	f := newFake(demoLive(t))
	f.fix = func(ctx context.Context, req tui.CheckRequest, progress func(model.Phase, string), rv tui.Review) (*fix.Report, error) {
		_, err := rv(ctx, src, 0)
		ended <- err
		return &fix.Report{Status: fix.StatusNotRun, Reason: "interrupted"}, nil
	}
	f.reply("react") <- checkReply{res: breaking(2)}
	h := newHarness(t, f, 80, 24)
	h.until("discovery", h.discovered)
	h.moveTo("react (2 packages)")
	h.press("c")
	h.until("the check", func() bool { return strings.Contains(h.view(), "✗ 2 breaking") })
	h.press("enter", "f")
	h.until("the queue", func() bool { return strings.Contains(h.view(), "4 sites") })
	// 80 columns: the diff is unified.
	wantIn(t, h.view(), "+  const input = useRef<HTMLInputElement>(null);")
	h.press("esc")
	h.until("the details", func() bool { return strings.Contains(h.view(), "Release group") })
	if err := <-ended; err == nil {
		t.Errorf("the review returned no error after the user left")
	}
	wantIn(t, h.view(), "fix stopped")
}

func TestGoldenReviewQueue120x40(t *testing.T) {
	runGolden(t, screenplay{width: 120, height: 40,
		before: func(f *fakeEngine) {
			f.reply("react") <- checkReply{res: breaking(2)}
			f.fix = fixWithReview(reactSites(), make(chan []fix.Patch, 1))
		},
		steps: []step{
			{keys: []string{"c"}, waitFor: "✗ 2 breaking"},
			{keys: []string{"enter"}, waitFor: "Release group"},
			{keys: []string{"f"}, waitFor: "4 sites"},
		}})
}

func TestGoldenReviewDiff80x24(t *testing.T) {
	runGolden(t, screenplay{width: 80, height: 24,
		before: func(f *fakeEngine) {
			f.reply("react") <- checkReply{res: breaking(2)}
			f.fix = fixWithReview(reactSites(), make(chan []fix.Patch, 1))
		},
		steps: []step{
			{keys: []string{"c"}, waitFor: "✗ 2 breaking"},
			{keys: []string{"enter"}, waitFor: "Release group"},
			{keys: []string{"f"}, waitFor: "4 sites"},
			{keys: []string{"down", "down"}, waitFor: "react-dom/client"},
		}})
}

func TestGoldenReviewHandOff(t *testing.T) {
	runGolden(t, screenplay{width: 100, height: 30,
		before: func(f *fakeEngine) {
			f.reply("react") <- checkReply{res: breaking(2)}
			f.fix = fixWithReview(reactSites(), make(chan []fix.Patch, 1))
		},
		steps: []step{
			{keys: []string{"c"}, waitFor: "✗ 2 breaking"},
			{keys: []string{"enter"}, waitFor: "Release group"},
			{keys: []string{"f"}, waitFor: "4 sites"},
			{keys: []string{"A"}, waitFor: "accepted 1 validated"},
			{keys: []string{"enter"}, waitFor: "Hand off to fix"},
		}})
}

func wantAll(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		wantIn(t, s, sub)
	}
}

// A run whose branch could not be moved says why, and the command that
// takes its commits from the kept clone, on the report after the hand-off
// as fix's own report does.
func TestReviewReportBranchNotMoved(t *testing.T) {
	src := reactSites()
	got := make(chan []fix.Patch, 1)
	handOff := fixWithReview(src, got)
	const why = "uptide/react-19.1.0 already exists at 0123456789, which is not an ancestor of this run's commits, so it was not moved: the commits stay in the clone"
	const fetch = "git fetch /runs/run-1/repo uptide/react-19.1.0:uptide/react-19.1.0-2"
	f := newFake(demoLive(t))
	f.fix = func(ctx context.Context, req tui.CheckRequest, progress func(model.Phase, string), rv tui.Review) (*fix.Report, error) {
		rep, err := handOff(ctx, req, progress, rv)
		if rep != nil {
			rep.Checkout = fix.CheckoutReport{BranchWhy: why, Fetch: fetch}
			rep.Clone = fix.CloneReport{Kept: true, Repo: "/runs/run-1/repo", Why: "its commits exist nowhere else"}
		}
		return rep, err
	}
	f.reply("react") <- checkReply{res: breaking(2)}
	h := newHarness(t, f, 120, 40)
	h.until("discovery", h.discovered)
	h.moveTo("react (2 packages)")
	h.press("c")
	h.until("the check", func() bool { return strings.Contains(h.view(), "✗ 2 breaking") })
	h.press("enter", "f")
	h.until("the queue", func() bool { return strings.Contains(h.view(), "4 sites") })
	h.press("a")
	h.until("the JSX site", func() bool { return strings.Contains(h.view(), "Cannot find namespace 'JSX'") })
	h.press("enter")
	h.until("the summary", func() bool { return strings.Contains(h.view(), "Hand off to fix") })
	h.press("enter")
	h.until("the report", func() bool { return strings.Contains(h.view(), "✓ verified") })
	<-got
	v := h.view()
	wantAll(t, v, "Branch  uptide/react-19.1.0 already exists at 0123456789, which is not an ancestor of this run's commits,",
		"moved: the commits stay in the clone", "        to take them as a new branch, run in your checkout:", "        "+fetch, "Clone   kept at /runs/run-1/repo")
	if strings.Contains(v, "in the clone only") {
		t.Errorf("the report names the branch without a reason:\n%s", v)
	}
}
