package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/uptide/uptide/internal/testkit/fakellm"
)

// fix --assist end to end. The zod tutorial's upgrade to 4 leaves, after
// the zod pack's rule edits, one site the pack covers without a transform
// (deepPartial, "by agent"): the assisted fixer asks the fake Anthropic API
// (the real client over HTTP, ANTHROPIC_BASE_URL pointing at it) for it,
// validates the reply with the real compiler in the private clone, and fix
// commits the accepted patch and verifies. The npm fixture's slugkit has no
// pack: its sites are the plan's "manual", and no call is made for them.

const assistKey = "sk-ant-e2e-5d1f0c"

var (
	partialPatch = "--- a/src/schemas.ts\n+++ b/src/schemas.ts\n@@ -18,1 +18,1 @@\n-export const userPatchSchema = userSchema.deepPartial();\n+export const userPatchSchema = userSchema.partial();\n"
	// suppressing silences the error instead of fixing it.
	suppressing = "--- a/src/schemas.ts\n+++ b/src/schemas.ts\n@@ -18,1 +18,2 @@\n+// @ts-ignore\n export const userPatchSchema = userSchema.deepPartial();\n"
	zodTarget   = []string{"zod", "--target", "zod@4.0.17"}
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
func runAssist(t *testing.T, srv *fakellm.Server, fe fixEnv, dir string, upgrade ...string) (assistReport, result) {
	t.Helper()
	args := append(append([]string{"fix"}, upgrade...), "--assist", "--max-cost", "0.5", "--json", "--verbose")
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
		// Only the site's scope goes out: src/errors.ts is never sent.
		if strings.Contains(req.User, "formatErrors") {
			t.Errorf("a file outside the site's scope was sent:\n%s", req.User)
		}
	}
	return rep, r
}

func TestFixAssistVerifiesWithAcceptedPatches(t *testing.T) {
	fe := newFixEnv(t)
	dir := packApp(t, fe, "zod-tutorial")
	before := checkoutDigest(t, dir)
	srv := fakellm.New(assistKey)
	defer srv.Close()
	srv.For("File: src/schemas.ts",
		fakellm.Step{Status: 429, ErrorType: "rate_limit_error", ErrorMessage: "slow down", RetryAfter: "0"},
		structured(partialPatch, "zod 4 has no deepPartial; partial() is what this schema needs"))
	rep, r := runAssist(t, srv, fe, dir, zodTarget...)
	if r.code != 0 || rep.Status != "verified" {
		t.Fatalf("exit %d status %s (%s), want 0 verified\n%s\n%s", r.code, rep.Status, rep.Reason, r.stdout, r.stderr)
	}
	got := strings.Join(subjects(rep.fixReport), "\n")
	if !strings.HasPrefix(got, "upgrade zod 3.23.8 → 4.0.17\napply zod rules: ") || !strings.Contains(got, "\nfix src/schemas.ts:18 (") || len(rep.Commits) != 3 {
		t.Errorf("commits:\n%s\nwant the upgrade, the rule edits and one commit for the accepted patch", got)
	}
	a := rep.Assist
	if a == nil || a.Provider != "anthropic claude-sonnet-4-6" || a.Sites != 1 || a.Accepted != 1 || a.Calls < 1 || a.Cost <= 0 || a.Cost > 0.5 {
		t.Fatalf("assist report %+v", a)
	}
	for _, it := range a.Items {
		if it.Status != "accepted" || len(it.Attempts) != 1 || !it.Attempts[0].Kept || it.Attempts[0].InputTokens != 900 {
			t.Errorf("the site's record %+v", it)
		}
	}
	if show := git(t, dir, "show", "uptide/zod-4.0.17:src/schemas.ts"); !strings.Contains(show, "userSchema.partial()") {
		t.Errorf("the branch's schemas.ts:\n%s", show)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
	assertNoTrap(t, fe, dir)
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the fake API")
	}
	for _, req := range reqs {
		if !strings.Contains(req.User, "userSchema.deepPartial()") || !strings.Contains(req.User, "deepPartial") {
			t.Errorf("the prompt lacks its enclosing declaration or the pack's guide:\n%s", req.User)
		}
		// The rule edits are done first: the by-rule sites are not asked.
		if strings.Contains(req.User, "File: src/errors.ts") {
			t.Errorf("a by-rule site was sent:\n%s", req.User)
		}
	}
}

// A local model behind --llm-url (no key) answers the deepPartial site with
// a suppression three times: never accepted, the site stays the user's.
func TestFixAssistRejectsASuppressingReply(t *testing.T) {
	fe := newFixEnv(t)
	dir := packApp(t, fe, "zod-tutorial")
	srv := fakellm.New("")
	defer srv.Close()
	srv.For("File: src/schemas.ts", structured(suppressing, "ignore it"), structured(suppressing, "ignore it"), structured(suppressing, "ignore it"))
	rep, r := runAssist(t, srv, fe, dir, zodTarget...)
	if r.code != 1 || rep.Status != "failed" {
		t.Fatalf("exit %d status %s, want 1 failed: the deepPartial site is left\n%s\n%s", r.code, rep.Status, r.stdout, r.stderr)
	}
	left := false
	for _, s := range rep.Sites {
		left = left || s.File == "src/schemas.ts" && s.Line == 18
	}
	if !left {
		t.Errorf("src/schemas.ts:18 is not among the sites left: %+v", rep.Sites)
	}
	for _, c := range rep.Commits {
		if strings.HasPrefix(c.Subject, "fix ") {
			t.Errorf("a suppressing patch was committed: %s", c.Subject)
		}
	}
	if rep.Assist == nil || rep.Assist.Accepted != 0 || rep.Assist.Cost != 0 || !strings.HasPrefix(rep.Assist.Provider, "openai-compatible qwen2.5-coder") || !strings.Contains(rep.Assist.Note, "src/schemas.ts:18 not valid after 3 attempts") ||
		!strings.Contains(rep.Assist.Note, "@ts-ignore") {
		t.Fatalf("assist report %+v", rep.Assist)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || !strings.Contains(reqs[2].User, "suppresses a diagnostic") {
		t.Fatalf("%d calls, want 3 with the reason fed back", len(reqs))
	}
}

// No migration pack covers slugkit: its sites are the plan's "manual", and
// with a provider configured still no call is made; the report says why.
func TestFixAssistCallsNothingWithoutAPack(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	srv := fakellm.New(assistKey)
	defer srv.Close()
	rep, r := runAssist(t, srv, fe, dir, "slugkit", "--target", "slugkit@2.0.0")
	if r.code != 1 || rep.Status != "failed" {
		t.Fatalf("exit %d status %s, want 1 failed: the sites are left\n%s\n%s", r.code, rep.Status, r.stdout, r.stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d calls for sites no pack covers, want none", n)
	}
	if rep.Assist == nil || rep.Assist.Calls != 0 || rep.Assist.Accepted != 0 || !strings.Contains(rep.Assist.Note, "no migration pack covers slugkit 1.0.0 → 2.0.0") {
		t.Fatalf("assist report %+v", rep.Assist)
	}
	if len(rep.Sites) == 0 {
		t.Error("no site left for the user")
	}
}
