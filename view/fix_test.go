package view_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/verify"
	kept "github.com/uptide/uptide/internal/testkit/golden"
	"github.com/uptide/uptide/view"
)

// The fix report as shown, every section and tone, held by a golden: the
// CLI and the planner both draw exactly this.
func TestFixGolden(t *testing.T) {
	for name, r := range fixReports() {
		t.Run(name, func(t *testing.T) {
			got := drawFix(view.Fix(r))
			golden(t, filepath.Join("testdata", "fix-"+name+".golden"), got)
		})
	}
}

// drawFix writes a view with its tones marked: [bad]✗[/].
func drawFix(v view.FixReport) string {
	var b strings.Builder
	b.WriteString(marked(view.Line{v.Verdict}) + "  " + v.Head + "\n")
	if v.Reason != "" {
		b.WriteString("  reason: " + v.Reason + "\n")
	}
	for _, s := range v.Sections {
		b.WriteString("== " + s.Title + " | " + marked(view.Line{s.Aside}) + "\n")
		for _, l := range s.Lines {
			b.WriteString(marked(l) + "\n")
		}
	}
	b.WriteString("== where\n")
	for _, l := range v.Where {
		b.WriteString(marked(l) + "\n")
	}
	return b.String()
}

var toneNames = map[view.Tone]string{view.Good: "good", view.Bad: "bad", view.Warn: "warn", view.Dim: "dim", view.Strong: "strong"}

func marked(l view.Line) string {
	var b strings.Builder
	for _, s := range l {
		if n, ok := toneNames[s.Tone]; ok && s.Text != "" {
			b.WriteString("[" + n + "]" + s.Text + "[/]")
			continue
		}
		b.WriteString(s.Text)
	}
	return b.String()
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	kept.Compare(t, "./view", path, got)
}

func fixReports() map[string]*fix.Report {
	diag := func(file string, line int, msg string) model.Diagnostic {
		return model.Diagnostic{File: file, Line: line, Column: 3, Code: 2345, Message: msg}
	}
	var many []model.Diagnostic
	for i := 0; i < 9; i++ {
		many = append(many, diag("src/b.ts", i+1, "bad\nsecond line"))
	}
	rich := &fix.Report{Package: "zod", From: "3.23.8", To: "4.0.17", Branch: "uptide/zod-4.0.17", Status: fix.StatusFailed, Reason: "2 new type errors",
		Risk:  fix.Risk{Level: "high", Why: []string{"a major", "no tests"}},
		Moves: []fix.Move{{Name: "zod", From: "3.23.8", To: "4.0.17", Why: "the upgrade"}, {Name: "@types/x", To: "", From: "1.0.0", Why: "removal"}, {Name: "y", To: "2.0.0", Why: ""}},
		Install: &fix.Install{Manager: "pnpm", Version: "9.15.9", Binary: "/x/pnpm.cjs", BinaryWhy: "packageManager names it", Lockfile: "pnpm-lock.yaml",
			Normalized: []string{"a removed", "b removed"}},
		Commits:   []fix.Commit{{Sha: "0123456789abcdef", Subject: "upgrade zod"}},
		Patches:   []fix.PatchResult{{File: "src/a.ts", Line: 3, Rule: "r", Applied: false, Reason: "did not apply"}, {File: "src/c.ts", Line: 1, Applied: true}},
		Rules:     &fix.RulesReport{Pack: "zod", Sites: []fix.RuleSite{{File: "src/e.ts", Line: 5, Rule: "zod-error"}}, Reason: "overlap"},
		Decisions: []string{"decide this"},
		Assist:    &fix.AssistReport{Provider: "p", Sites: 1, Accepted: 1, Calls: 1, Cost: 0.5, Note: "a\nb"},
		Services:  &verify.Services{Needs: []verify.ServiceSkip{{File: "t.test.ts", Needs: "postgres"}}, Runs: []string{"npm test"}},
		Types: fix.TypesReport{Compiler: "TypeScript 5.8.3", Projects: []string{"tsconfig.json"}, Files: 3, Baseline: 1,
			New: []model.Diagnostic{diag("src/a.ts", 4, "x"), diag("node_modules/zod/index.d.ts", 1, "y"), diag("node_modules/zod/b.d.ts", 2, "z"), diag("/outside/q.d.ts", 2, "w")}},
		Tests: fix.TestsReport{Results: []verify.TestResult{{Run: verify.TestRun{Command: []string{"sh", "-c", "vitest run"}, Scope: "root"}, Status: "failed", Passed: -1, Failed: -1, Rerun: true,
			FailingFiles: []string{"src/a.test.ts", "test/db.test.ts"}, UnrelatedFailing: []string{"test/db.test.ts"}}},
			NoTests: []string{".", "packages/a"}, Skipped: []verify.ServiceSkip{{File: "db.test.ts", Needs: "DATABASE_URL"}}, NotRun: []string{"lint: none"}},
		Style: fix.StyleReport{Formatter: "prettier", Linter: "eslint", Formatted: []string{"a"}, NewFailures: map[string][]string{"src/a.ts": {"no-unused"}, "src/0.ts": {"x", "y"}}},
		Sites: []fix.Site{{File: "src/b.ts", Line: 2, Rule: "removed", Message: "m\nn", Errors: many}, {File: "src/d.ts", Rule: "r2", Message: "m2", Errors: []model.Diagnostic{diag("src/d.ts", 0, "m2")}},
			{File: "src/f.ts", Line: 7, Rule: "r3", Message: "m3", Errors: []model.Diagnostic{diag("src/g.ts", 1, "elsewhere")}}},
		NotRun:   []string{"e2e"},
		Clone:    fix.CloneReport{Repo: "/tmp/r/repo", Kept: true, Why: "failed"},
		Checkout: fix.CheckoutReport{Changed: []string{"src/a.ts"}, BranchWhy: "a branch of that name exists", Fetch: "git fetch /tmp/r/repo x:y", RunFile: "/r/run.json"},
		Publish:  &fix.Publish{Status: fix.PublishBlocked, Reason: "the run did not verify: 2 new type errors"},
	}
	plainRun := &fix.Report{Package: "zod", Status: fix.StatusNotRun, Reason: "dirty", Risk: fix.Risk{Level: "low"}}
	verified := &fix.Report{Package: "a", From: "1", To: "2", Status: fix.StatusVerified, Risk: fix.Risk{Level: "medium"},
		Install:  &fix.Install{Manager: "npm", Version: "11", Lockfile: "package-lock.json"},
		Types:    fix.TypesReport{Compiler: "TS", Projects: []string{"a", "b"}, Files: 1},
		Tests:    fix.TestsReport{Results: []verify.TestResult{{Run: verify.TestRun{Command: []string{"node", "--test"}}, Status: "no-tests", Passed: 0}, {Status: "passed", Passed: 2}}},
		Clone:    fix.CloneReport{Removed: true},
		Checkout: fix.CheckoutReport{Branch: "uptide/a-2", Sha: "abcdef0123456789", Created: true},
		Publish:  &fix.Publish{Status: fix.PublishOpened, URL: "https://github.com/acme/app/pull/1"}}
	noProjects := &fix.Report{Package: "a", Status: fix.StatusFailed, Reason: "r", Risk: fix.Risk{Level: "low"}, Install: &fix.Install{Manager: "yarn"}, Types: fix.TypesReport{Reason: "no tsconfig"},
		Services: &verify.Services{Needs: []verify.ServiceSkip{{File: "x", Needs: "y"}}, Targets: []verify.Target{{Name: "DB", Value: "pg://[redacted]", From: "environment"}}},
		Assist:   &fix.AssistReport{Note: "no provider"}}
	steps := []fix.BatchStep{{Package: "chalk", From: "5.3.0", To: "5.4.1", Commit: "1111111111aaaa"},
		{Package: "slugkit", From: "1.0.0", To: "2.0.0", Commit: "2222222222bbbb"}, {Package: "postcss", From: "8.4.31", To: "8.4.38", Commit: "3333333333cccc"}}
	broken := &fix.Report{Package: "chalk slugkit postcss", Branch: "uptide/batch-3-packages", Status: fix.StatusFailed, Reason: "step 2 of 3 broke the batch",
		Risk: fix.Risk{Level: "medium"}, Steps: steps, BrokeAt: &fix.BrokeAt{Step: 2, Package: "slugkit", From: "1.0.0", To: "2.0.0", Commit: "2222222222bbbb",
			NewErrors: []model.Diagnostic{diag("src/title.ts", 5, "Property 'locale' is missing")}, FailingTests: []string{"root"}, Good: []string{"1111111111aaaa"},
			Probes: []fix.Probe{{Step: 1, Commit: "1111111111aaaa"}, {Step: 2, Commit: "2222222222bbbb", Broken: true}}, Whole: "uptide/batch-3-packages-whole"}}
	batch := &fix.Report{Package: "chalk postcss", Branch: "uptide/batch-2-packages", Status: fix.StatusVerified, Risk: fix.Risk{Level: "low"},
		Steps: []fix.BatchStep{steps[0], steps[2]}}
	return map[string]*fix.Report{"failed-rich": rich, "not-run": plainRun, "verified": verified, "no-projects": noProjects,
		"batch-broken": broken, "batch-verified": batch}
}
