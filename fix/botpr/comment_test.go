package botpr

import (
	"strings"
	"testing"

	"github.com/uptide/uptide/fix"
)

// The comment starts with its marker and the verdict; a decision's
// indented lines are items under it.
func TestCommentLayout(t *testing.T) {
	got := Comment(&Report{PR: 1, Head: "0123456789abcdef", Status: Failed, Reason: "the zod 3.0.0 → 4.0.0 migration did not verify", Lockfile: "pnpm-lock.yaml",
		Moves: []Move{{Importer: "catalog:default", Name: "zod", From: "3.0.0", To: "4.0.0"}},
		Migrations: []Migration{{Package: "zod", From: "3.0.0", To: "4.0.0", Status: "failed", Reason: "1 site left for you",
			Sites: []fix.Site{{File: "src/a.ts", Line: 3, Message: "deepPartial removed"}}, Decisions: []string{"changelog:", "  entry one"}}}})
	for _, want := range []string{Marker + "\n### uptide\n\n✗ **not pushed**: the zod 3.0.0 → 4.0.0 migration did not verify\n",
		"| `zod` | catalog:default | 3.0.0 | 4.0.0 |", "- left for you: `src/a.ts:3` deepPartial removed\n",
		"- decision for you: changelog:\n  - entry one\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the comment lacks %q:\n%s", want, got)
		}
	}
}
