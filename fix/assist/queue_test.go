package assist

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptide/uptide/internal/testkit/fakellm"
)

// scripted answers each site's calls in turn from a table; a site with a
// gate waits for it to close before answering. It is the queue's
// provider in these tests; the HTTP providers are tested against
// internal/testkit/fakellm.
type scripted struct {
	mu      sync.Mutex
	replies map[string][]string
	gates   map[string]chan struct{}
	calls   []Request
}

func (s *scripted) Name() string                { return "scripted" }
func (s *scripted) Reserve(req Request) float64 { return 0.01 }
func (s *scripted) Complete(ctx context.Context, req Request) (Reply, error) {
	s.mu.Lock()
	s.calls = append(s.calls, req)
	gate := s.gates[req.Site.ID]
	list := s.replies[req.Site.ID]
	text := "no reply scripted"
	if len(list) > 0 {
		text, s.replies[req.Site.ID] = list[0], list[1:]
	}
	s.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return Reply{}, ctx.Err()
		}
	}
	return Reply{Text: text, InputTokens: 100, OutputTokens: 50, Cost: 0.01}, nil
}

func (s *scripted) callsFor(id string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, c := range s.calls {
		if c.Site.ID == id {
			out = append(out, c)
		}
	}
	return out
}

func newTestQueue(t *testing.T, p Provider, limit float64, sites ...Site) (*Queue, *ruleValidator) {
	t.Helper()
	v := &ruleValidator{}
	var f *Fixer
	if p != nil {
		f = &Fixer{Provider: p, Validator: v, Read: readTest, Budget: NewBudget(limit)}
	}
	q := NewQueue(context.Background(), sites, f)
	t.Cleanup(q.Close)
	return q, v
}

var (
	goodOne = reply(diffOf("src/a.ts", "  return make();\n}\n\nexport function two", "  return make(0);\n}\n\nexport function two"), "make takes its seed now")
	goodB   = reply(diffOf("src/b.ts", "make()", "make(0)"), "pass the seed")
	// bothA fixes both calls of a.ts in one patch.
	bothA = reply(diffOf("src/a.ts", "  return make();\n}\n\nexport function two() {\n  return make();", "  return make(0);\n}\n\nexport function two() {\n  return make(0);"), "both calls")
)

func TestQueueProposesValidatesAndAccepts(t *testing.T) {
	p := &scripted{replies: map[string][]string{
		"one": {"I think you should pass a seed.", goodOne},
		"b":   {"```json\n" + goodB + "\n```"},
	}}
	q, _ := newTestQueue(t, p, 1, site("one", "src/a.ts", 4, errOne), site("b", "src/b.ts", 3, errB))
	items := waitFor(t, q, "both proposals", settled)
	for _, it := range items {
		if it.Status != Valid {
			t.Fatalf("%s: %v (%s)", it.Site.ID, it.Status, it.Reason)
		}
	}
	if items[0].Attempts != 2 || items[1].Attempts != 1 {
		t.Fatalf("attempts = %d, %d; want 2 (a malformed reply, then a good one), 1", items[0].Attempts, items[1].Attempts)
	}
	second := p.callsFor("one")[1]
	if second.Attempt != 2 || !strings.Contains(second.User, "not the JSON object") {
		t.Fatalf("the retry was not told why the first reply was not kept:\n%s", second.User)
	}
	if got := q.Spent(); got < 0.0299 || got > 0.0301 {
		t.Fatalf("spent %v, want 0.03 for three calls", got)
	}
	if n := q.AcceptRule("lib/make-arg"); n != 2 {
		t.Fatalf("AcceptRule = %d, want 2", n)
	}
	items = q.Items()
	if items[0].Status != Accepted || !strings.Contains(items[0].Diff, "+  return make(0);") {
		t.Fatalf("accepted item: %+v", items[0])
	}
}

// The replies that must never be accepted, each three times, over the
// fake API's two wire formats in turn: the site ends not valid, saying
// why, after exactly three calls.
func TestQueueRejectsWhatDoesNotValidate(t *testing.T) {
	suppress := reply(diffOf("src/b.ts", "export const b = make();", "// @ts-ignore\nexport const b = make();"), "silence it")
	cast := reply(diffOf("src/b.ts", "make()", "(make as any)()"), "cast it")
	other := reply(diffOf("src/a.ts", "  return make();\n}\n\nexport function two", "  return make(0);\n}\n\nexport function two"), "wrong file")
	both := reply(diffOf("src/b.ts", "make()", "make(0)")+strings.TrimPrefix(diffOf("src/a.ts", "  return make();\n}\n\nexport function two", "  return make(0);\n}\n\nexport function two"), ""), "two files")
	nope := reply(diffOf("src/b.ts", "import { make }", "import { make, nope }"), "import more")
	for i, tc := range []struct {
		name    string
		replies []string
		reason  string
	}{
		{"suppressing", []string{suppress, suppress, suppress}, "adds @ts-ignore"},
		{"cast", []string{suppress, cast, cast}, `adds "as any"`},
		{"other file", []string{other, other, other}, "edits src/a.ts"},
		{"multi-file", []string{both, both, both}, "edits src/a.ts"},
		{"not compiling", []string{nope, nope, nope}, "still reports"},
		{"malformed", []string{"", "{}", "Sure, change make() to make(0)."}, "not the JSON object"},
		{"no diff", []string{`{"explanation": "none"}`, `{"explanation": "none"}`, `{"explanation": "none"}`}, `no "diff"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakellm.New("")
			defer srv.Close()
			for _, r := range tc.replies {
				srv.Script(fakellm.Step{Text: r})
			}
			var p Provider = &OpenAI{URL: srv.URL + "/v1", Model: "qwen2.5-coder"}
			if i%2 == 0 {
				srv.Key = testKey
				p = &Anthropic{Key: testKey, BaseURL: srv.URL}
			}
			q, _ := newTestQueue(t, p, 1, site("b", "src/b.ts", 3, errB))
			it := waitFor(t, q, "the proposal", settled)[0]
			if it.Status != Invalid || !strings.Contains(it.Reason, tc.reason) {
				t.Fatalf("status %v, reason %q; want not valid, %q", it.Status, it.Reason, tc.reason)
			}
			reqs := srv.Requests()
			if it.Attempts != MaxAttempts || len(reqs) != MaxAttempts {
				t.Fatalf("%d attempts, %d calls; want %d", it.Attempts, len(reqs), MaxAttempts)
			}
			if !strings.Contains(reqs[2].User, "Attempt 3 of 3. Your previous reply was not kept: ") {
				t.Fatalf("the last call was not told why:\n%s", reqs[2].User)
			}
			q.Accept("b")
			if q.Items()[0].Status == Accepted {
				t.Fatal("an invalid proposal was accepted")
			}
		})
	}
}

// A site whose errors an accepted patch already removed is resolved
// without a call: "two" waits behind two busy sites while "one" is
// accepted with a patch that fixes both calls of a.ts.
func TestQueueResolvesWithoutACall(t *testing.T) {
	gate := make(chan struct{})
	p := &scripted{
		replies: map[string][]string{"one": {bothA}, "b1": {goodB}, "b2": {goodB}, "two": {goodOne}},
		gates:   map[string]chan struct{}{"b1": gate, "b2": gate},
	}
	q, _ := newTestQueue(t, p, 1, site("one", "src/a.ts", 4, errOne), site("b1", "src/b.ts", 3, errB),
		site("b2", "src/b.ts", 3, errB), site("two", "src/a.ts", 8, errTwo))
	waitFor(t, q, "one validated, b1 and b2 asked", func(items []Item) bool {
		return items[0].Status == Valid && items[1].Status == Proposing && items[2].Status == Proposing
	})
	q.Accept("one")
	items := q.Items()
	if items[3].Status != Resolved || items[3].ResolvedBy != "one" {
		t.Fatalf("two: %v (%s), want resolved by one", items[3].Status, items[3].Reason)
	}
	close(gate)
	items = waitFor(t, q, "the rest", settled)
	if n := len(p.callsFor("two")); n != 0 {
		t.Fatalf("%d calls for a resolved site", n)
	}
	// Taking the patch back gives the site back to the fixer.
	q.Reject("one")
	items = waitFor(t, q, "two proposed", func(items []Item) bool { return items[3].Status == Valid })
	if items[3].ResolvedBy != "" {
		t.Fatalf("two is still resolved by %s", items[3].ResolvedBy)
	}
}

func TestQueueBudgetMakesSitesManual(t *testing.T) {
	p := &scripted{replies: map[string][]string{"one": {goodOne}, "b": {goodB}}}
	q, _ := newTestQueue(t, p, 0.015, site("one", "src/a.ts", 4, errOne), site("b", "src/b.ts", 3, errB))
	items := waitFor(t, q, "both", settled)
	valid, manual := 0, 0
	for _, it := range items {
		switch it.Status {
		case Valid:
			valid++
		case Manual:
			manual++
			if !strings.Contains(it.Reason, "budget is spent") || it.Attempts != 0 {
				t.Fatalf("manual site: %+v", it)
			}
		}
	}
	if valid != 1 || manual != 1 || len(p.calls) != 1 {
		t.Fatalf("valid %d, manual %d, calls %d; want one call within $0.015", valid, manual, len(p.calls))
	}
}

func TestQueueWithoutProviderIsManual(t *testing.T) {
	q, v := newTestQueue(t, nil, 0, site("one", "src/a.ts", 4, errOne))
	it := q.Items()[0]
	if it.Status != Manual || it.Reason != NoProviderNote || q.Provider() != "" || q.Spent() != 0 {
		t.Fatalf("%+v", it)
	}
	q.Retry("one", "try harder")
	if q.Items()[0].Status != Manual || v.calls != 0 {
		t.Fatal("a retry without a provider did something")
	}
}

func TestQueueRetryWithHintAndEdit(t *testing.T) {
	nope := reply(diffOf("src/b.ts", "import { make }", "import { make, nope }"), "import more")
	p := &scripted{replies: map[string][]string{"b": {nope, nope, nope, goodB}}}
	q, _ := newTestQueue(t, p, 1, site("b", "src/b.ts", 3, errB))
	waitFor(t, q, "three failures", func(items []Item) bool { return items[0].Status == Invalid })
	q.Retry("b", "pass 0 as the seed")
	it := waitFor(t, q, "the retry", settled)[0]
	if it.Status != Valid || it.Attempts != 4 {
		t.Fatalf("after the retry: %v, %d attempts (%s)", it.Status, it.Attempts, it.Reason)
	}
	last := p.callsFor("b")[3]
	if last.Hint != "pass 0 as the seed" || !strings.Contains(last.User, "pass 0 as the seed") || !strings.Contains(last.User, "still reports") {
		t.Fatalf("the retry's prompt lacks the hint or the compiler's message:\n%s", last.User)
	}
	before, after, err := q.Files("b")
	if err != nil || before != testFiles["src/b.ts"] || !strings.Contains(after, "make(0)") {
		t.Fatalf("Files: %q %q %v", before, after, err)
	}
	q.Replace("b", diffOf("src/b.ts", "make()", "make() as any"))
	it = waitFor(t, q, "the edit", settled)[0]
	if it.Status != Invalid || !strings.Contains(it.Reason, "as any") {
		t.Fatalf("an edit adding a cast: %v (%s)", it.Status, it.Reason)
	}
	q.Replace("b", diffOf("src/b.ts", "make()", "make(1)"))
	it = waitFor(t, q, "the edit", settled)[0]
	if it.Status != Valid || !strings.Contains(it.Diff, "make(1)") || len(p.calls) != 4 {
		t.Fatalf("a good edit: %v (%s), %d calls", it.Status, it.Reason, len(p.calls))
	}
}

func TestAcceptValidated(t *testing.T) {
	p := &scripted{replies: map[string][]string{"one": {goodOne}, "b": {reply(diffOf("src/b.ts", "make()", "make() as unknown as number"), "cast")}}}
	q, _ := newTestQueue(t, p, 1, site("one", "src/a.ts", 4, errOne), site("b", "src/b.ts", 3, errB))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	acc, err := AcceptValidated(ctx, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(acc) != 1 || acc[0].Site.ID != "one" {
		t.Fatalf("accepted %+v", acc)
	}
	s := Summarize(q.Items())
	if s.Accepted != 1 || s.Invalid != 1 || s.Calls != 4 {
		t.Fatalf("summary %+v", s)
	}
}

// Two patches of one file, each valid alone, that cannot both apply:
// the second is refused at acceptance, naming the first.
func TestQueueRefusesAConflictingAccept(t *testing.T) {
	// twoToo fixes line 8 but also rewrites line 4, as "one" does
	// differently.
	twoToo := reply(diffOf("src/a.ts", "  return make();\n}\n\nexport function two() {\n  return make();", "  return make(1);\n}\n\nexport function two() {\n  return make(2);"), "both, differently")
	p := &scripted{replies: map[string][]string{"one": {goodOne}, "two": {twoToo}}}
	q, _ := newTestQueue(t, p, 1, site("one", "src/a.ts", 4, errOne), site("two", "src/a.ts", 8, errTwo))
	waitFor(t, q, "both proposals", func(items []Item) bool { return items[0].Status == Valid && items[1].Status == Valid })
	q.Accept("one")
	q.Accept("two")
	it := q.Items()[1]
	if it.Status != Invalid || !strings.Contains(it.Reason, "no longer applies") {
		t.Fatalf("two: %v (%s), want refused", it.Status, it.Reason)
	}
	r := Records(q.Items())
	if r[0].Status != "accepted" || len(r[0].Attempts) != 1 || !r[0].Attempts[0].Kept || r[0].Attempts[0].InputTokens != 100 ||
		r[0].Attempts[0].Validation == nil || r[0].Attempts[0].Validation.Compiled == nil {
		t.Fatalf("record %+v", r[0])
	}
}

// An earlier review's accepted set comes back without a call when it
// still validates; a saved patch that no longer does is proposed again.
func TestQueueRestoresSavedPatches(t *testing.T) {
	p := &scripted{replies: map[string][]string{"b": {goodB}}}
	var saved [][]Item
	var mu sync.Mutex
	f := &Fixer{Provider: p, Validator: &ruleValidator{}, Read: readTest, Budget: NewBudget(1)}
	q, n := NewQueueWith(context.Background(), []Site{site("one", "src/a.ts", 4, errOne), site("b", "src/b.ts", 3, errB)}, f, Options{
		Saved: []Saved{
			{ID: "one", Diff: diffOf("src/a.ts", "  return make();\n}\n\nexport function two", "  return make(0);\n}\n\nexport function two"), Explanation: "earlier"},
			{ID: "b", Diff: diffOf("src/b.ts", "make()", "make() as any")},
			{ID: "gone", Diff: "x"},
		},
		Persist: func(acc []Item) { mu.Lock(); saved = append(saved, acc); mu.Unlock() },
	})
	defer q.Close()
	if n != 1 {
		t.Fatalf("restored %d, want 1", n)
	}
	items := waitFor(t, q, "b proposed", settled)
	if items[0].Status != Accepted || items[0].Explanation != "earlier" || len(p.callsFor("one")) != 0 {
		t.Fatalf("one: %v, %d calls", items[0].Status, len(p.callsFor("one")))
	}
	if items[1].Status != Valid || len(p.callsFor("b")) != 1 {
		t.Fatalf("b: %v (%s)", items[1].Status, items[1].Reason)
	}
	q.Accept("b")
	mu.Lock()
	last := saved[len(saved)-1]
	mu.Unlock()
	if len(last) != 2 || last[1].Site.ID != "b" {
		t.Fatalf("persisted %+v", last)
	}
}

// A site the user rejected is resolved too when an accepted patch of
// another removes its errors, and is rejected again when that patch is
// taken back.
func TestQueueResolvesARejectedSite(t *testing.T) {
	p := &scripted{replies: map[string][]string{"one": {bothA}, "two": {goodOne}}}
	q, _ := newTestQueue(t, p, 1, site("one", "src/a.ts", 4, errOne), site("two", "src/a.ts", 8, errTwo))
	waitFor(t, q, "both validated", func(items []Item) bool { return items[0].Status == Valid && items[1].Status == Valid })
	q.Reject("two")
	q.Accept("one")
	items := q.Items()
	if items[1].Status != Resolved || items[1].ResolvedBy != "one" {
		t.Fatalf("two: %v (%s), want resolved by one", items[1].Status, items[1].Reason)
	}
	q.Reject("one")
	if items := q.Items(); items[1].Status != Rejected {
		t.Fatalf("two: %v after one was taken back, want rejected", items[1].Status)
	}
}
