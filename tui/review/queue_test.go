package review

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix/assist"
	"github.com/uptide/uptide/internal/testkit/fakellm"
)

// gone is a compile in which the patched file has no error left.
type gone struct{ errs []model.Diagnostic }

func (g gone) Validate(context.Context, string, string) (assist.Compiled, error) {
	return assist.Compiled{Gone: g.errs}, nil
}

// The screen's Source over a real queue asking the fake Anthropic API.
func TestFromQueue(t *testing.T) {
	srv := fakellm.New("k")
	defer srv.Close()
	file := "const x = f();\n"
	diff := "--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-const x = f();\n+const x = f(1);\n"
	b, _ := json.Marshal(map[string]string{"diff": diff, "explanation": "f takes one argument"})
	srv.Script(fakellm.Step{Text: string(b), InputTokens: 1000, OutputTokens: 100})
	errs := []model.Diagnostic{{File: "a.ts", Line: 1, Code: 2554, Message: "Expected 1 arguments, but got 0."}}
	site := assist.Site{ID: "s1", Rule: "r", RuleTitle: "f needs an argument", File: "a.ts", Line: 1, Errors: errs,
		Scope: assist.Scope{StartLine: 1, EndLine: 1, Text: file}}
	f := &assist.Fixer{Provider: &assist.Anthropic{Key: "k", BaseURL: srv.URL}, Validator: gone{errs},
		Read: func(string) (string, error) { return file, nil }, Budget: assist.NewBudget(1)}
	src := FromQueue(assist.NewQueue(context.Background(), []assist.Site{site}, f))
	defer src.(interface{ Close() }).Close()
	limit := time.After(20 * time.Second)
	for src.Items()[0].Status != Valid {
		select {
		case <-src.Changed():
		case <-limit:
			t.Fatalf("no proposal: %+v", src.Items())
		}
	}
	it := src.Items()[0]
	if it.Attempts != 1 || it.Explanation != "f takes one argument" || !strings.Contains(it.Diff, "+const x = f(1);") || it.Cost <= 0 {
		t.Fatalf("item %+v", it)
	}
	if n := src.AcceptRule("r"); n != 1 || src.Items()[0].Status != Accepted {
		t.Fatalf("AcceptRule %d: %v", n, src.Items()[0].Status)
	}
	p := PatchOf(src.Items()[0])
	if p.File != "a.ts" || p.Rule != "f needs an argument" || p.Finding != "s1" || p.Diff != it.Diff {
		t.Fatalf("patch %+v", p)
	}
	if src.Provider() != "anthropic claude-sonnet-4-6" || src.Spent() != it.Cost {
		t.Fatalf("provider %q spent %v", src.Provider(), src.Spent())
	}
}

// Without a provider every site is the user's: manual, said so, and no
// key asks for anything.
func TestNoProvider(t *testing.T) {
	src := NoProvider([]assist.Site{{ID: "a", File: "src/a.ts", Line: 1}, {ID: "b", File: "src/b.ts", Line: 2}})
	src.Focus("a")
	src.Retry("a", "try harder")
	src.Replace("b", "--- a/src/b.ts\n+++ b/src/b.ts\n")
	src.Accept("a")
	if src.Provider() != "" || src.Spent() != 0 {
		t.Errorf("provider %q spent %v, want none", src.Provider(), src.Spent())
	}
	items := src.Items()
	if len(items) != 2 {
		t.Fatalf("%d items", len(items))
	}
	for _, it := range items {
		if it.Status != Manual || it.Reason != assist.NoProviderNote || it.Attempts != 0 {
			t.Errorf("%s: %v %q after %d attempts, want manual, said so, none", it.Site.ID, it.Status, it.Reason, it.Attempts)
		}
	}
}
