package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/uptide/uptide/internal/fakellm"
)

// fix --assist end to end: the npm fixture's upgrade breaks two files,
// the assisted fixer asks the fake Anthropic API (the real client over
// HTTP, ANTHROPIC_BASE_URL pointing at it) for each site, validates each
// reply with the real compiler in the private clone, and fix commits the
// accepted patches and verifies.

const assistKey = "sk-ant-e2e-5d1f0c"

var (
	titlePatch = "--- a/src/title.ts\n+++ b/src/title.ts\n@@ -3,3 +3,3 @@\n export function titleSlug(title: string): string {\n-  return slugify(title, { lower: true });\n+  return slugify(title, { lower: true, locale: \"en\" });\n }\n"
	shortPatch = "--- a/src/short.ts\n+++ b/src/short.ts\n@@ -1,5 +1,3 @@\n-import { truncate } from \"slugkit\";\n-\n export function shortTitle(title: string): string {\n-  return truncate(title, 20);\n+  return title.slice(0, 20);\n }\n"
	// suppressing silences the error instead of fixing it.
	suppressing = "--- a/src/title.ts\n+++ b/src/title.ts\n@@ -3,3 +3,4 @@\n export function titleSlug(title: string): string {\n+  // @ts-ignore\n   return slugify(title, { lower: true });\n }\n"
)

func structured(diff, why string) fakellm.Step {
	b, _ := json.Marshal(map[string]string{"diff": diff, "explanation": why})
	return fakellm.Step{Text: "```json\n" + string(b) + "\n```", InputTokens: 900, OutputTokens: 150}
}

type assistReport struct {
	fixReport
	Assist *struct {
		Provider string  `json:"provider"`
		Sites    int     `json:"sites"`
		Accepted int     `json:"accepted"`
		Calls    int     `json:"calls"`
		Cost     float64 `json:"cost"`
		Note     string  `json:"note"`
		Items    []struct {
			File     string `json:"file"`
			Status   string `json:"status"`
			Attempts []struct {
				InputTokens int    `json:"inputTokens"`
				Kept        bool   `json:"kept"`
				Reason      string `json:"reason"`
			} `json:"attempts"`
		} `json:"items"`
	} `json:"assist"`
}

// runAssist runs fix --assist against srv: the Anthropic API when srv
// expects a key (ANTHROPIC_BASE_URL points the real client at it), else
// an OpenAI-compatible local server given by --llm-url.
func runAssist(t *testing.T, srv *fakellm.Server, fe fixEnv, dir string) (assistReport, result) {
	t.Helper()
	args := []string{"fix", "slugkit", "--target", "slugkit@2.0.0", "--assist", "--max-cost", "0.5", "--json", "--verbose"}
	fe.extra = append(append([]string{}, fe.extra...), "OPENAI_API_KEY=")
	if srv.Key != "" {
		fe.extra = append(fe.extra, "ANTHROPIC_API_KEY="+srv.Key, "ANTHROPIC_BASE_URL="+srv.URL)
	} else {
		fe.extra = append(fe.extra, "ANTHROPIC_API_KEY=")
		args = append(args, "--llm-url", srv.URL+"/v1", "--model", "qwen2.5-coder")
	}
	r := run(t, fe.env, dir, args...)
	var rep assistReport
	t.Logf("stderr:\n%s", r.stderr)
	decode(t, r, &rep)
	if strings.Contains(r.stdout+r.stderr, assistKey) {
		t.Errorf("the API key was printed")
	}
	for _, req := range srv.Requests() {
		switch req.API {
		case "anthropic":
			if req.Header.Get("x-api-key") != assistKey || req.Model != "claude-sonnet-4-6" {
				t.Errorf("request without the key header or the default model: %+v", req.Header)
			}
		case "openai":
			if req.Header.Get("authorization") != "" || req.Model != "qwen2.5-coder" || req.Path != "/v1/chat/completions" {
				t.Errorf("local request: %s %s %v", req.Path, req.Model, req.Header)
			}
		}
		// Only the site's scope goes out: src/count.ts is never sent.
		if strings.Contains(req.User, "three") {
			t.Errorf("a file outside the site's scope was sent:\n%s", req.User)
		}
	}
	return rep, r
}

func TestFixAssistVerifiesWithAcceptedPatches(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	before := checkoutDigest(t, dir)
	srv := fakellm.New(assistKey)
	defer srv.Close()
	srv.For("File: src/title.ts", structured(titlePatch, "slugkit 2 requires a locale"))
	// short.ts may be one site or two (the import and the call): the
	// second is resolved by the first's patch or gets the same one.
	srv.For("File: src/short.ts",
		fakellm.Step{Status: 429, ErrorType: "rate_limit_error", ErrorMessage: "slow down", RetryAfter: "0"},
		structured(shortPatch, "truncate is gone; slice does what it did"), structured(shortPatch, "the same"))
	rep, r := runAssist(t, srv, fe, dir)
	if r.code != 0 || rep.Status != "verified" {
		t.Fatalf("exit %d status %s (%s), want 0 verified\n%s\n%s", r.code, rep.Status, rep.Reason, r.stdout, r.stderr)
	}
	got := strings.Join(subjects(rep.fixReport), "\n")
	if !strings.HasPrefix(got, "upgrade slugkit 1.0.0 → 2.0.0\nfix src/short.ts:") || !strings.Contains(got, "\nfix src/title.ts:4 (") || len(rep.Commits) != 3 {
		t.Errorf("commits:\n%s\nwant the upgrade and one commit per accepted patch", got)
	}
	a := rep.Assist
	if a == nil || a.Provider != "anthropic claude-sonnet-4-6" || a.Accepted != 2 || a.Calls < 2 || a.Cost <= 0 || a.Cost > 0.5 {
		t.Fatalf("assist report %+v", a)
	}
	for _, it := range a.Items {
		if it.File == "src/title.ts" && (it.Status != "accepted" || len(it.Attempts) != 1 || !it.Attempts[0].Kept || it.Attempts[0].InputTokens != 900) {
			t.Errorf("title.ts's record %+v", it)
		}
	}
	if show := git(t, dir, "show", "uptide/slugkit-2.0.0:src/title.ts"); !strings.Contains(show, `locale: "en"`) {
		t.Errorf("the branch's title.ts:\n%s", show)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
	assertNoTrap(t, fe, dir)
	for _, req := range srv.Requests() {
		if strings.Contains(req.User, "File: src/title.ts") && !strings.Contains(req.User, "return slugify(title, { lower: true });") {
			t.Errorf("the title.ts prompt lacks its enclosing declaration:\n%s", req.User)
		}
	}
}

// A local model behind --llm-url (no key) answers title.ts with a
// suppression three times: never accepted, the site stays the user's.
func TestFixAssistRejectsASuppressingReply(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	srv := fakellm.New("")
	defer srv.Close()
	srv.For("File: src/title.ts", structured(suppressing, "ignore it"), structured(suppressing, "ignore it"), structured(suppressing, "ignore it"))
	srv.For("File: src/short.ts", structured(shortPatch, "slice"), structured(shortPatch, "slice"))
	rep, r := runAssist(t, srv, fe, dir)
	if r.code != 1 || rep.Status != "failed" {
		t.Fatalf("exit %d status %s, want 1 failed: the title site is left\n%s\n%s", r.code, rep.Status, r.stdout, r.stderr)
	}
	left := false
	for _, s := range rep.Sites {
		left = left || s.File == "src/title.ts"
	}
	if !left {
		t.Errorf("src/title.ts is not among the sites left: %+v", rep.Sites)
	}
	for _, c := range rep.Commits {
		if strings.Contains(c.Subject, "title.ts") {
			t.Errorf("a suppressing patch was committed: %s", c.Subject)
		}
	}
	if rep.Assist == nil || rep.Assist.Accepted != 1 || rep.Assist.Cost != 0 || !strings.HasPrefix(rep.Assist.Provider, "openai-compatible qwen2.5-coder") || !strings.Contains(rep.Assist.Note, "src/title.ts:4 not valid after 3 attempts") ||
		!strings.Contains(rep.Assist.Note, "@ts-ignore") {
		t.Fatalf("assist report %+v", rep.Assist)
	}
	var title []fakellm.Request
	for _, req := range srv.Requests() {
		if strings.Contains(req.User, "File: src/title.ts") {
			title = append(title, req)
		}
	}
	if len(title) != 3 || !strings.Contains(title[2].User, "suppresses a diagnostic") {
		t.Fatalf("%d calls for title.ts, want 3 with the reason fed back", len(title))
	}
}
