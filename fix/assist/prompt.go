package assist

import (
	"fmt"
	"strings"
)

// MaxAttempts is how many replies the fixer asks for one site before the
// site is the user's: the first and two retries, each told why the one
// before was not kept.
const MaxAttempts = 3

// replyTokens bounds a reply: a diff of one declaration and a paragraph.
const replyTokens = 4096

// systemPrompt says what the reply must be. It names the validation so
// the model does not spend an attempt on a patch that cannot pass.
const systemPrompt = `You fix one TypeScript compile error that a dependency upgrade caused in a user's repository.
You see one site: the finding, the compiler errors, the enclosing declaration (the only source you get) and, when a migration guide covers the change, its text.
Reply with one JSON object and nothing else: {"diff": "<unified diff>", "explanation": "<one short paragraph: what changed and why>"}.
The diff edits only the file named in the prompt, with ---/+++ headers naming it and @@ hunks whose context lines are copied exactly from the source shown (the line numbers given are the file's).
Every patch is compiled before anyone sees it: it is kept only when the errors shown disappear and no new error appears.
Never suppress a diagnostic: no @ts-ignore, @ts-expect-error, @ts-nocheck, eslint-disable, and no new "as any" or "as unknown as" casts. Fix the code for the new version of the package instead.`

// Feedback is what a retry tells the model about the attempt before it.
type Feedback struct {
	// Diff is the previous attempt's diff ("" when the reply had none).
	Diff string
	// Reason says why it was not kept: the validation's words, with the
	// compiler's new messages when the compile judged it.
	Reason string
}

// NewRequest is the prompt for one attempt at site: the site's finding,
// errors, scope and guide, and, on a retry, why the attempt before was
// not kept and what the user hinted.
func NewRequest(site Site, attempt int, hint string, prev *Feedback) Request {
	var b strings.Builder
	fmt.Fprintf(&b, "Upgrade: %s %s → %s\n", site.Package, site.From, site.To)
	fmt.Fprintf(&b, "Rule: %s\n", site.RuleTitle)
	if site.Reason != "" && site.Reason != site.RuleTitle {
		fmt.Fprintf(&b, "Finding: %s\n", site.Reason)
	}
	fmt.Fprintf(&b, "File: %s (site at line %d)\n\n", site.File, site.Line)
	b.WriteString("Compiler errors on the upgraded code (each must disappear):\n")
	for _, d := range site.Errors {
		fmt.Fprintf(&b, "- %s:%d:%d TS%d %s\n", d.File, d.Line, d.Column, d.Code, d.Message)
	}
	if site.Guide != "" {
		fmt.Fprintf(&b, "\nMigration guide for this rule:\n%s\n", strings.TrimRight(site.Guide, "\n"))
	}
	fmt.Fprintf(&b, "\nThe enclosing declaration, lines %d-%d of %s (line numbers are not part of the source):\n", site.Scope.StartLine, site.Scope.EndLine, site.File)
	for i, l := range strings.SplitAfter(strings.TrimSuffix(site.Scope.Text, "\n"), "\n") {
		fmt.Fprintf(&b, "%5d | %s", site.Scope.StartLine+i, strings.TrimSuffix(l, "\n"))
		b.WriteByte('\n')
	}
	if prev != nil {
		fmt.Fprintf(&b, "\nAttempt %d of %d. Your previous reply was not kept: %s\n", attempt, MaxAttempts, prev.Reason)
		if prev.Diff != "" {
			fmt.Fprintf(&b, "Its diff was:\n%s\n", strings.TrimRight(prev.Diff, "\n"))
		}
	}
	if hint != "" {
		fmt.Fprintf(&b, "\nThe user adds: %s\n", hint)
	}
	b.WriteString("\nReply with the JSON object only.")
	return Request{System: systemPrompt, User: b.String(), MaxTokens: replyTokens, Site: site, Attempt: attempt, Hint: hint}
}
