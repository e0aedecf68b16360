package packs

import (
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// TestZodMessageParamLeavesConflicts: the message → error rename takes only
// a key of an object literal with no other source of the message; two
// sources, a spread that may bring one, a method, a read of .message and a
// run without a parser go to the assisted fixer.
func TestZodMessageParamLeavesConflicts(t *testing.T) {
	r, ok := ruleByID(Named("zod"), "zod-message-param")
	if !ok {
		t.Fatal("no zod-message-param rule")
	}
	syntax := testSyntax(t)
	cases := []struct {
		name, line string
		takes      bool
	}{
		{"plain key", `z.string().min(1, { message: 'a' })`, true},
		{"error beside it", `z.string().min(1, { message: 'a', error: 'b' })`, false},
		{"quoted error beside it", `z.string().min(1, { "error": 'b', message: 'a' })`, false},
		{"required_error beside it", `z.string({ required_error: 'A', message: 'B' })`, false},
		{"errorMap beside it", `z.string({ message: 'B', errorMap: () => ({ message: 'x' }) })`, false},
		{"spread", `z.string({ ...base, message: 'B' })`, false},
		{"error in a nested object", `z.string().refine(f, { message: 'a', params: { error: 1 } })`, true},
		{"error as the value", `z.string().min(1, { message: error })`, true},
		{"method", `z.string().min(1, { message() { return 'a' } })`, false},
		{"read of .message", `z.string().min(1, err.message)`, false},
	}
	for _, c := range cases {
		content := "import { z } from 'zod';\nconst x = " + c.line + ";\n"
		col := strings.Index(c.line, "message") + len("const x = ") + 1
		f := model.Finding{Change: "deprecated", Path: "$ZodCheckParams#message", File: "a.ts", Line: 2, Column: col}
		if got, ok := Named("zod").Rule(f, content); !ok || got.ID != r.ID {
			t.Fatalf("%s: claimed by %q", c.name, got.ID)
		}
		edits, ok := r.Edits(Site{Finding: f, Content: content, Syntax: syntax})
		if ok != c.takes {
			t.Errorf("%s: transform takes %v (%+v), want %v", c.name, ok, edits, c.takes)
			continue
		}
		if ok {
			out, err := Apply(edits, content)
			if err != nil || strings.Contains(out, "message:") || !strings.Contains(out, "error:") {
				t.Errorf("%s: edited to %q (%v)", c.name, out, err)
			}
		}
	}
	content := "import { z } from 'zod';\nconst x = z.string().min(1, { message: 'a' });\n"
	f := model.Finding{Change: "deprecated", Path: "$ZodCheckParams#message", File: "a.ts", Line: 2, Column: 32}
	if edits, ok := r.Edits(Site{Finding: f, Content: content}); ok {
		t.Errorf("without a parser the rename took the site: %+v", edits)
	}
}
