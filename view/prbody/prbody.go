// Package prbody writes a fix run's report as the markdown description of
// its pull request: what moved and why, the rules and patches with their
// commits, the decisions left to the reviewer, the verification and the
// risk. The words are view.Fix's, so the terminal, the HTML page and the
// pull request never disagree. It is pure apart from Store, which keeps
// the body beside the run's stored record (never committed).
//
// Everything in a report can come from outside (package names, compiler
// messages, commit subjects, test output): every piece of it is escaped
// for markdown, so none of it can open a code block, a link, an HTML tag,
// a heading or a mention in the body.
package prbody

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/view"
)

// Title is the pull request's title: "Upgrade zod 3.23.8 → 4.0.17".
func Title(r *fix.Report) string {
	return "Upgrade " + view.Fix(r).Head
}

// Body is the pull request's description of a run.
func Body(r *fix.Report) string {
	v := view.Fix(r)
	var b strings.Builder
	fmt.Fprintf(&b, "## Upgrade %s\n\n", headline(r))
	fmt.Fprintf(&b, "**%s** by `uptide fix`", Escape(v.Verdict.Text))
	if v.Reason != "" {
		fmt.Fprintf(&b, ": %s", Escape(v.Reason))
	}
	b.WriteString("\n")
	verification := false
	for _, s := range v.Sections {
		if s.Title == "" {
			// A section without a title goes on the block above it.
			lines(&b, s.Lines, false)
			continue
		}
		switch s.Title {
		case "Services":
			// Where the tests connect stays with the person who ran
			// them: a pull request is read by more people.
			continue
		case "Types", "Tests", "Style":
			if !verification {
				b.WriteString("\n### Verification\n")
				verification = true
			}
			fmt.Fprintf(&b, "\n#### %s\n\n", Escape(s.Title))
		default:
			verification = false
			fmt.Fprintf(&b, "\n### %s", Escape(s.Title))
			if s.Aside.Text != "" {
				fmt.Fprintf(&b, " · %s", Escape(s.Aside.Text))
			}
			b.WriteString("\n\n")
		}
		switch s.Title {
		case "Moves":
			moves(&b, r)
		case "Changes":
			commits(&b, r)
			lines(&b, s.Lines[len(r.Commits):], false)
		case "Rules":
			rules(&b, r)
			lines(&b, s.Lines[len(r.Rules.Sites):], false)
		case "Decisions for you":
			lines(&b, s.Lines, true)
		default:
			lines(&b, s.Lines, false)
		}
	}
	b.WriteString("\n---\n")
	if head := lastCommit(r); head != "" {
		word := "Head"
		if r.Status == fix.StatusVerified {
			word = "Verified head"
		}
		fmt.Fprintf(&b, "%s: `%s`. ", word, head)
	}
	b.WriteString("Written by `uptide fix` from the run's report; the branch's commits are the change.\n")
	return b.String()
}

// headline is the package and its move, the name as code.
func headline(r *fix.Report) string {
	h := Code(r.Package)
	if r.To != "" {
		h += fmt.Sprintf(" %s → %s", Escape(r.From), Escape(r.To))
	}
	return h
}

// lastCommit is the branch's last commit: the one verification ran on.
func lastCommit(r *fix.Report) string {
	if r.Checkout.Sha != "" {
		return r.Checkout.Sha
	}
	if n := len(r.Commits); n > 0 {
		return r.Commits[n-1].Sha
	}
	return ""
}

func moves(b *strings.Builder, r *fix.Report) {
	for _, m := range r.Moves {
		from, to := view.MoveEnds(m)
		fmt.Fprintf(b, "- %s %s → %s", Code(m.Name), Escape(from), Escape(to))
		if m.Why != "" {
			fmt.Fprintf(b, ": %s", Escape(m.Why))
		}
		b.WriteString("\n")
	}
}

func commits(b *strings.Builder, r *fix.Report) {
	for _, c := range r.Commits {
		fmt.Fprintf(b, "- %s %s\n", Code(view.Short(c.Sha)), Escape(c.Subject))
	}
}

func rules(b *strings.Builder, r *fix.Report) {
	for _, s := range r.Rules.Sites {
		fmt.Fprintf(b, "- %s %s\n", Code(fmt.Sprintf("%s:%d", s.File, s.Line)), Escape(s.Rule))
	}
	if r.Rules.Commit != "" && len(r.Rules.Sites) > 0 {
		fmt.Fprintf(b, "- in commit %s\n", Code(view.Short(r.Rules.Commit)))
	}
}

// lines writes a section's lines as a list, nested as they are indented
// (two spaces a level, the first level at two); a message's continuation
// lines stay in its item.
func lines(b *strings.Builder, ls []view.Line, tasks bool) {
	for _, l := range ls {
		text := l.Text()
		trimmed := strings.TrimLeft(text, " ")
		level := (len(text)-len(trimmed))/2 - 1
		if level < 0 {
			level = 0
		}
		parts := strings.Split(trimmed, "\n")
		for i := range parts {
			parts[i] = Escape(strings.TrimSpace(parts[i]))
		}
		mark := "- "
		if tasks {
			mark = "- [ ] "
		}
		fmt.Fprintf(b, "%s%s%s\n", strings.Repeat("  ", level), mark, strings.Join(parts, "<br>"))
	}
}

// Code is s as an inline code span, whatever backticks it holds: the
// fence is one backtick longer than its longest run, and a newline is a
// space (a code span is one line here).
func Code(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
			continue
		}
		run = 0
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// escaped are the characters markdown (GitHub's flavour included) gives a
// meaning to anywhere in a line; a backslash makes each literal. Others
// mean something only where a line (a list item's text) starts: see
// Escape.
const escaped = "\\`*_[]|~"

// Escape makes untrusted text literal in a markdown line: its
// punctuation backslash-escaped, HTML's three characters as entities, an
// @ kept from mentioning anyone (a word joiner after it: @types/node is
// a package, not a team), and newlines as spaces. What would open a
// heading, a list or a rule at the start of a list item's text is
// escaped there (blockStart); elsewhere "3.23.8" stays as it reads.
func Escape(s string) string {
	var b strings.Builder
	if n := blockStart(s); n > 0 {
		b.WriteString(s[:n-1] + "\\" + s[n-1:n])
		s = s[n:]
	}
	for _, c := range s {
		switch {
		case c == '<':
			b.WriteString("&lt;")
		case c == '>':
			b.WriteString("&gt;")
		case c == '&':
			b.WriteString("&amp;")
		case c == '@':
			b.WriteString("@\u2060")
		case c == '\n' || c == '\r':
			b.WriteByte(' ')
		case strings.ContainsRune(escaped, c):
			b.WriteByte('\\')
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// blockStart is how long the marker is that would make s, at the start
// of a list item's text, a heading ("# ", "##"), a list ("- ", "+ ",
// "1. ", "1) ") or a rule ("--"); 0 when it starts none. The marker's
// last character is the one to escape.
func blockStart(s string) int {
	spaced := func(i int) bool { return i >= len(s) || s[i] == ' ' || s[i] == '\t' }
	if s == "" {
		return 0
	}
	switch s[0] {
	case '#':
		if len(s) > 1 && s[1] == '#' || spaced(1) {
			return 1
		}
	case '-':
		if len(s) > 1 && s[1] == '-' || spaced(1) {
			return 1
		}
	case '+':
		if spaced(1) {
			return 1
		}
	}
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if digits > 0 && digits < len(s) && (s[digits] == '.' || s[digits] == ')') && spaced(digits+1) {
		return digits + 1
	}
	return 0
}

// FileName is the stored body of a run record: pr-body.md beside
// run.json (the run behind the branch), runs/<run-id>.pr-body.md beside a
// run's own record.
func FileName(runFile string) string { return fix.BesideRecord(runFile, "pr-body.md", ".pr-body.md") }

// Store writes the body of a stored run beside its record (see FileName);
// a run that stored no record has none. A body that cannot be written is
// said in the report's NotRun: the run itself is not undone for it.
func Store(r *fix.Report) {
	if r == nil || filepath.Ext(r.Checkout.RunFile) != ".json" {
		return
	}
	if err := os.WriteFile(FileName(r.Checkout.RunFile), []byte(Body(r)), 0o600); err != nil {
		r.NotRun = append(r.NotRun, "storing the run's pull request body: "+err.Error())
	}
}
