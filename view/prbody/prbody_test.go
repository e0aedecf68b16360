package prbody_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/verify"
	kept "github.com/uptide/uptide/internal/testkit/golden"
	"github.com/uptide/uptide/view/prbody"
)

// hostile is text from outside the run (a package name, a compiler
// message, a commit subject) written to break a markdown body.
const hostile = "```\n# Heading <script>alert(1)</script> [x](http://e) @team *b* | t\n1. list"

func reports() map[string]*fix.Report {
	diag := func(file string, line int, msg string) model.Diagnostic {
		return model.Diagnostic{File: file, Line: line, Column: 3, Code: 2345, Message: msg}
	}
	verified := &fix.Report{Package: "zod", From: "3.23.8", To: "4.0.17", Branch: "uptide/zod-4.0.17", Status: fix.StatusVerified,
		Risk:    fix.Risk{Level: model.RiskMedium, Why: []string{"a major version", "tests cover 1 of 2 workspaces"}},
		Moves:   []fix.Move{{Name: "zod", From: "3.23.8", To: "4.0.17", Why: "the upgrade"}, {Name: "@types/zod-extra", From: "1.0.0", To: "2.0.0", Why: "companion: its peer range needs zod 4"}},
		Install: &fix.Install{Manager: "pnpm", Version: "9.15.9", Lockfile: "pnpm-lock.yaml"},
		Commits: []fix.Commit{{Sha: "1111111111aaaaaaaaaa", Subject: "Upgrade zod to 4.0.17"}, {Sha: "2222222222bbbbbbbbbb", Subject: "zod rules: 2 sites"},
			{Sha: "3333333333cccccccccc", Subject: "Patch src/form.ts:12 (zod-error-message)"}},
		Patches:   []fix.PatchResult{{File: "src/form.ts", Line: 12, Rule: "zod-error-message", Applied: true}},
		Rules:     &fix.RulesReport{Pack: "zod", Commit: "2222222222bbbbbbbbbb", Sites: []fix.RuleSite{{File: "src/a.ts", Line: 3, Rule: "zod-string-email"}, {File: "src/b.ts", Line: 9, Rule: "zod-error-param"}}},
		Decisions: []string{"z.string().email() is deprecated in zod 4: the rule moved it to z.email()", "custom messages in src/form.ts depend on zod 3's wording"},
		Services:  &verify.Services{Needs: []verify.ServiceSkip{{File: "db.test.ts", Needs: "postgres"}}, Targets: []verify.Target{{Name: "DATABASE_URL", Value: "postgres://[redacted]@db.internal:5432/app", From: "environment"}}},
		Types:     fix.TypesReport{Compiler: "TypeScript 5.8.3", Projects: []string{"tsconfig.json"}, Files: 42, Baseline: 1},
		Tests: fix.TestsReport{Results: []verify.TestResult{{Run: verify.TestRun{Command: []string{"sh", "-c", "vitest run"}, Scope: "related tests of 3 files"}, Status: "passed", Passed: 12, Failed: 0}},
			NoTests: []string{"packages/cli"}},
		Style:    fix.StyleReport{Formatter: "prettier", Linter: "eslint", Formatted: []string{"src/a.ts"}},
		Clone:    fix.CloneReport{Removed: true},
		Checkout: fix.CheckoutReport{Branch: "uptide/zod-4.0.17", Sha: "3333333333cccccccccc", Created: true, RunFile: "/repo/.git/uptide/uptide/zod-4.0.17/run.json"}}
	failed := &fix.Report{Package: "left`pad", From: "1.0.0", To: "2.0.0", Branch: "uptide/left-pad-2.0.0", Status: fix.StatusFailed, Reason: "1 new type error",
		Risk:      fix.Risk{Level: model.RiskHigh, Why: []string{hostile}},
		Moves:     []fix.Move{{Name: "left`pad", From: "1.0.0", To: "2.0.0", Why: "the upgrade"}},
		Install:   &fix.Install{Manager: "npm", Version: "10.9.2", Lockfile: "package-lock.json"},
		Commits:   []fix.Commit{{Sha: "4444444444dddddddddd", Subject: hostile}},
		Patches:   []fix.PatchResult{{File: "src/x.ts", Line: 1, Rule: "r", Reason: "the patch did not apply: " + hostile}},
		Decisions: []string{hostile},
		Types:     fix.TypesReport{Compiler: "TypeScript 5.4.5", Projects: []string{"tsconfig.json"}, Files: 3, New: []model.Diagnostic{diag("src/x.ts", 1, "Type '`a`' is not <assignable>\n  to ```b```")}},
		Style:     fix.StyleReport{Linter: "eslint", NewFailures: map[string][]string{"src/x.ts": {"no-unused-vars: <x> is unused"}}},
		Sites:     []fix.Site{{File: "src/x.ts", Line: 1, Rule: "removed", Message: hostile}},
		Clone:     fix.CloneReport{Repo: "/tmp/uptide-runs/run-1/repo", Kept: true, Why: "the run did not verify"},
	}
	return map[string]*fix.Report{"verified": verified, "failed-hostile": failed}
}

// The body of a verified run and of a failed one full of hostile text,
// held by goldens.
func TestBodyGolden(t *testing.T) {
	for name, r := range reports() {
		t.Run(name, func(t *testing.T) {
			golden(t, filepath.Join("testdata", name+".md"), prbody.Body(r))
		})
	}
}

// What the body says of a verified run: every move with its reason, the
// commits, the rules and their commit, the decisions as tasks, the
// verification, the risk; and nothing of where the tests connect.
func TestBodySaysWhatMovedAndWhy(t *testing.T) {
	body := prbody.Body(reports()["verified"])
	for _, want := range []string{
		"## Upgrade `zod` 3.23.8 → 4.0.17",
		"**✓ verified** by `uptide fix`",
		"### Risk · medium", "a major version",
		"- `@types/zod-extra` 1.0.0 → 2.0.0: companion: its peer range needs zod 4",
		"- `1111111111` Upgrade zod to 4.0.17",
		"- `src/a.ts:3` zod-string-email", "- in commit `2222222222`",
		"- [ ] custom messages in src/form.ts depend on zod 3's wording",
		"### Verification", "#### Types", "TypeScript 5.8.3", "✓ no new errors",
		"#### Tests", "vitest run", "12 passed, 0 failed", "no tests cover",
		"#### Style", "eslint: no new lint failure",
		"Verified head: `3333333333cccccccccc`",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the body lacks %q:\n%s", want, body)
		}
	}
	for _, never := range []string{"db.internal", "DATABASE_URL", "/repo/.git", "Clone"} {
		if strings.Contains(body, never) {
			t.Errorf("the body holds %q, which stays with whoever ran it:\n%s", never, body)
		}
	}
}

// Hostile text stays text: no line of the body opens a code block, a
// heading, an HTML tag, a link or a list of its own, and no @ mentions.
func TestHostileTextStaysText(t *testing.T) {
	body := prbody.Body(reports()["failed-hostile"])
	titles := []string{"## Upgrade ", "### Risk ", "### Moves", "### Changes ", "### Decisions for you", "### Verification", "#### Types", "#### Style", "### Left for you "}
	var headings []string
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " "), "```") {
			t.Errorf("a line opens a code block: %q", line)
		}
		if strings.HasPrefix(line, "#") {
			headings = append(headings, line)
		}
		if strings.HasPrefix(strings.TrimLeft(line, " "), "1.") {
			t.Errorf("a line starts a list of its own: %q", line)
		}
	}
	if len(headings) != len(titles) {
		t.Errorf("headings %q, want %d", headings, len(titles))
	}
	for i, h := range headings {
		if i < len(titles) && !strings.HasPrefix(h, titles[i]) {
			t.Errorf("heading %d is %q, want %q", i, h, titles[i])
		}
	}
	for _, never := range []string{"<script>", "<assignable>", " [x](http", "@team", "\n# Heading"} {
		if strings.Contains(body, never) {
			t.Errorf("hostile text %q reached the body as markup:\n%s", never, body)
		}
	}
	if !strings.Contains(body, "## Upgrade `` left`pad `` 1.0.0 → 2.0.0") {
		t.Errorf("a name with a backtick is not one code span:\n%s", body)
	}
}

func TestCode(t *testing.T) {
	for in, want := range map[string]string{"zod": "`zod`", "a`b": "`` a`b ``", "``x": "``` ``x ```", "a\nb": "`a b`"} {
		if got := prbody.Code(in); got != want {
			t.Errorf("Code(%q) = %q, want %q", in, got, want)
		}
	}
}

// Store writes pr-body.md beside run.json, and a run's own record's body
// beside it; a run with no record gets none.
func TestStore(t *testing.T) {
	dir := t.TempDir()
	r := reports()["verified"]
	r.Checkout.RunFile = filepath.Join(dir, "run.json")
	prbody.Store(r)
	data, err := os.ReadFile(filepath.Join(dir, "pr-body.md"))
	if err != nil || string(data) != prbody.Body(r) {
		t.Fatalf("pr-body.md: %v\n%s", err, data)
	}
	if got := prbody.FileName(filepath.Join(dir, "runs", "run-7.json")); got != filepath.Join(dir, "runs", "run-7.pr-body.md") {
		t.Errorf("FileName of a run's own record: %s", got)
	}
	r.Checkout.RunFile = ""
	prbody.Store(r)
	if len(r.NotRun) != 0 {
		t.Errorf("a run without a record: %v", r.NotRun)
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	kept.Compare(t, "./view/prbody", path, got)
}

// Escape keeps what a line's start would make markup, and leaves what
// reads plainly mid-line as it is.
func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"zod 3.23.8 → 4.0.17": "zod 3.23.8 → 4.0.17",
		"1. list":             "1\\. list",
		"12) list":            "12\\) list",
		"# heading":           "\\# heading",
		"- item":              "\\- item",
		"+ item":              "\\+ item",
		"a_b*c`d[e]f|g~h\\i":  "a\\_b\\*c\\`d\\[e\\]f\\|g\\~h\\\\i",
		"<b>&amp;":            "&lt;b&gt;&amp;amp;",
		"@types/node":         "@\u2060types/node",
		"a\nb":                "a b",
		"2":                   "2",
		"2.0.0":               "2.0.0",
		"-x":                  "-x",
		"---":                 "\\---",
		"#x":                  "#x",
		"## x":                "\\## x",
	} {
		if got := prbody.Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}
