package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/assist"
)

func TestAssistFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fix", "zod", "--llm-url", "http://localhost:11434/v1"}, "--llm-url chooses the assisted fixer's provider: add --assist"},
		{[]string{"fix", "zod", "--max-cost", "3"}, "--max-cost chooses"},
		{[]string{"fix", "zod", "--assist", "--llm-url", "http://x", "--llm-cmd", "tool"}, "give one"},
		{[]string{"fix", "zod", "--assist", "--llm-url", "localhost:11434"}, "give the http(s) URL"},
		{[]string{"fix", "zod", "--assist", "--max-cost", "-1"}, "--max-cost -1"},
	} {
		_, stderr, code := runCLI(t, tc.args...)
		if code != ExitIncomplete || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	out, _, _ := runCLI(t, "fix", "--help")
	for _, want := range []string{"--assist", "--llm-url", "--llm-cmd", "--model", "--max-cost"} {
		if !strings.Contains(out, want) {
			t.Errorf("fix --help lacks %s", want)
		}
	}
}

// The planner gets a queue only when a provider is configured; the
// hook's queue is the assisted fixer's.
func TestPlannerQueueFollowsTheFlags(t *testing.T) {
	g := &Globals{Cwd: t.TempDir(), Env: testEnv(t)}
	live, err := newLive(g, &LLMFlags{MaxCost: 1})
	if err != nil || live.NewQueue != nil {
		t.Fatalf("without a provider: %v, hook set %v", err, live.NewQueue != nil)
	}
	g.Env = append(g.Env, "ANTHROPIC_API_KEY=sk-test")
	live, err = newLive(g, &LLMFlags{MaxCost: 2})
	if err != nil || live.NewQueue == nil {
		t.Fatalf("with ANTHROPIC_API_KEY: %v, hook set %v", err, live.NewQueue != nil)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src, resumed, err := live.NewQueue(ctx, fix.AssistInput{})
	if err != nil || resumed != 0 || src.Provider() != "anthropic "+assist.DefaultAnthropicModel || src.Budget() != 2 {
		t.Fatalf("queue: %v %d %q %v", err, resumed, src.Provider(), src.Budget())
	}
}

// fix --assist without a provider makes no call and says so.
func TestAutoAssistWithoutProvider(t *testing.T) {
	hook := autoAssist(nil, 1, nil)
	out, err := hook(context.Background(), fix.AssistInput{Sites: []assist.Site{{ID: "a", File: "src/a.ts", Line: 1}}})
	if err != nil || out.Provider != "" || out.Calls != 0 || len(out.Patches) != 0 || out.Note != assist.NoProviderNote {
		t.Fatalf("%+v %v", out, err)
	}
}

// The review's accepted set round-trips through the cache, per
// repository and upgrade; a damaged file is named.
func TestSavedReview(t *testing.T) {
	cacheDir := t.TempDir()
	env := Env{"UPTIDE_CACHE_DIR=" + cacheDir}
	cwd := t.TempDir()
	file, saved, err := loadReview(env, cwd, "zod", "4.0.0")
	if err != nil || saved != nil {
		t.Fatalf("%v %v", saved, err)
	}
	if filepath.Dir(file) != filepath.Join(cacheDir, "reviews") {
		t.Fatalf("the review is kept in %s, not in the cache the environment names (%s)", file, cacheDir)
	}
	saveReview(file, "zod", "4.0.0", []assist.Item{{Site: assist.Site{ID: "f1", RuleTitle: "ZodError#errors is ZodError#issues", File: "src/a.ts", Line: 4}, Diff: "d", Explanation: "e"}})
	_, saved, err = loadReview(env, cwd, "zod", "4.0.0")
	if err != nil || len(saved) != 1 || saved[0] != (assist.Saved{ID: "f1", Diff: "d", Explanation: "e"}) {
		t.Fatalf("%+v %v", saved, err)
	}
	if _, other, _ := loadReview(env, cwd, "zod", "4.1.0"); other != nil {
		t.Fatal("another target's review was loaded")
	}
	if err := os.WriteFile(file, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := loadReview(env, cwd, "zod", "4.0.0"); err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "remove it") {
		t.Fatalf("a damaged file: %v", err)
	}
}

func TestRenderFixAssist(t *testing.T) {
	var b strings.Builder
	renderFix(&b, &fix.Report{Assist: &fix.AssistReport{Provider: "anthropic claude-sonnet-4-6", Sites: 3, Accepted: 2, Calls: 4, Cost: 0.0123,
		Note: "src/a.ts:4 not valid after 3 attempts (the diff suppresses a diagnostic instead of fixing it: it adds @ts-ignore)"}}, palette{})
	want := "\nAssisted\n  anthropic claude-sonnet-4-6 · 3 sites · 2 accepted · 4 calls · $0.01 estimated\n  src/a.ts:4 not valid after 3 attempts (the diff suppresses a diagnostic instead of fixing it: it adds @ts-ignore)\n"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("got\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	renderFix(&b, &fix.Report{Assist: &fix.AssistReport{Sites: 3, Note: assist.NoProviderNote}}, palette{})
	if !strings.Contains(b.String(), "\nAssisted\n  "+assist.NoProviderNote+"\n") {
		t.Fatalf("without a provider: %q", b.String())
	}
}
