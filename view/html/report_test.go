package html_test

import (
	"github.com/uptide/uptide/engine/model"
)

// richCheck is a check report with every part the page draws: a package
// with a plan of every kind, previews, companions and a conflict, hidden
// and unlisted findings, coverage with skipped files and pre-existing
// errors, unanalyzed loads, warnings and notes; a release group; a package
// not analyzed; computed loads and problems.
func richCheck() *model.CheckReport {
	diag := func(file string, line, code int, msg string) model.Diagnostic {
		return model.Diagnostic{File: file, Line: line, Column: 5, Code: code, Message: msg}
	}
	zod := model.PackageReport{
		Title: "zod", Package: "zod", Workspaces: []string{".", "packages/api"}, Installed: "3.23.8", Target: "4.1.12", Update: model.Major(1),
		Members: []model.MemberReport{{Name: "zod", Installed: "3.23.8", Target: "4.1.12", Workspaces: []string{"."}, Status: model.StatusAnalyzed, Sites: 7, Files: 3, Changes: 40, BreakingChanges: 12}},
		Status:  model.StatusAnalyzed, Verdict: "breaking", Summary: "✗ 3 breaking · 1 possible",
		Counts: model.FindingCounts{Breaking: 3, Possible: 1, Deprecated: 1, Hidden: 1, Sites: 7, Unanalyzed: 1},
		Findings: []model.Finding{
			{ID: "a46084e2a59731e5", Package: "zod", Path: "ZodError.errors", Change: "removed", Severity: model.Breaking, Reason: "ZodError.errors was removed: use .issues", Fixability: model.Mechanical,
				File: "src/user.ts", Line: 9, Column: 21, Rule: "zod-error-issues",
				Evidence: []model.Diagnostic{diag("src/user.ts", 9, 2339, "Property 'errors' does not exist on type 'ZodError<unknown>'.")}},
			{ID: "b20fe4e015cfe631", Package: "zod", Path: "ZodString.email", Change: "deprecated", Severity: model.Deprecated, Reason: "z.string().email() is deprecated: z.email()", Fixability: model.Mechanical,
				File: "src/user.ts", Line: 3, Column: 60, Rule: "zod-string-formats"},
			{ID: "c0ffee0000000001", Package: "zod", Change: "TS2322", Severity: model.Breaking, Reason: "Type 'string' is not assignable to type 'number'.", Fixability: model.Assisted,
				File: "src/form.ts", Line: 14, Column: 3, Rule: "TS2322", Similar: 1,
				Evidence: []model.Diagnostic{diag("src/form.ts", 14, 2322, "Type 'string' is not assignable\n  to type 'number'.")}},
			{ID: "d00d000000000002", Package: "zod", Change: "cause", Severity: model.Breaking, Reason: "the jsx option of tsconfig.json", AnchorOnly: true, Fixability: model.Manual,
				File: "tsconfig.json", Line: 4, Rule: "cause:jsx",
				Downstream: []model.Diagnostic{diag("src/a.tsx", 1, 7026, "JSX element implicitly has type 'any'."), diag("src/b.tsx", 2, 7026, "JSX element implicitly has type 'any'.")}},
			{ID: "e0e0000000000003", Package: "zod", Path: "z.infer", Change: "signature", Severity: model.Unverified, Reason: "z.infer's signature changed", File: "src/types.ts", Line: 2, Rule: "signature"},
			{ID: "f0f0000000000004", Package: "zod", Path: "ZodType.describe", Change: "signature", Severity: model.Severity("info"), Reason: "describe gained an overload", File: "src/x.ts", Line: 8, Hidden: true},
			{ID: "0a0a000000000005", Package: "zod", Change: "module-format", Severity: model.Breaking, Reason: "require() of an ESM-only package", File: "scripts/gen.cjs", Line: 1,
				Sites: []model.Usage{{File: "scripts/gen.cjs", Line: 1}, {File: "scripts/gen.cjs", Line: 12}}},
		},
		Unanalyzed: []model.Unanalyzed{{Workspace: ".", File: "src/dyn.ts", Line: 4, Kind: "require", Reason: "the specifier is computed", Specifier: "`zod/${v}`"}},
		Compile: model.CompileReport{Status: model.StatusAnalyzed, Compiler: "the repo's TypeScript 5.4.5", Asked: 12, Compiled: 11,
			Skipped: []model.SkippedFile{{File: "src/legacy.js", Reason: "not type-checked (no checkJs)"}}, PreExisting: 1,
			PreExistingErrors: []model.Diagnostic{diag("src/old.ts", 30, 2304, "Cannot find name 'foo'.")}, NewErrors: 4,
			Line: "Compiled against 4.1.12 with the repo's TypeScript 5.4.5 · 11 of 12 files · 1 pre-existing error"},
		ModuleFormat: model.ModuleFormatReport{Status: model.StatusNotAnalyzed, Reason: "no Node version found"},
		Companions: model.CompanionPlan{Name: "zod", From: "3.23.8", To: "4.1.12",
			Companions: []model.Companion{{Name: "@hookform/resolvers", From: "3.3.0", To: "5.2.2", Why: "5.2.2 peer-requires zod ^4"}, {Name: "@types/zod", From: "1.0.0", Remove: true, Why: "zod 4.1.12 ships its own types"}, {Name: "zod-to-json", To: "1.0.0", Why: "new peer"}},
			Conflicts:  []model.Conflict{{Name: "zod-form", From: "0.9.0", Why: "no release accepts zod 4"}}},
		Plan: model.Plan{Package: "zod", Target: "4.1.12", Pack: "zod",
			Rules: []model.PlanRule{
				{ID: "cause:jsx", Title: "the jsx option", Sites: 1, Manual: 1, Errors: 2, Findings: []string{"d00d000000000002"}, Fix: map[string]string{"d00d000000000002": "manual"}},
				{ID: "zod-error-issues", Title: "ZodError.errors is .issues", Sites: 1, ByRule: 1, Findings: []string{"a46084e2a59731e5"}, Fix: map[string]string{"a46084e2a59731e5": "rule"},
					Previews: map[string]string{"a46084e2a59731e5": "@@ src/user.ts:9 @@\n-    return r.error.errors.map((e) => e.message);\n+    return r.error.issues.map((e) => e.message);\n"},
					Note:     "the pack renames it", Review: []string{"check the error formatting you log"}},
				{ID: "TS2322", Title: "TS2322 '_' is not assignable to '_'", Sites: 1, ByAgent: 1, Findings: []string{"c0ffee0000000001"}, Fix: map[string]string{"c0ffee0000000001": "agent"}},
				{ID: "module-format", Title: "require() of an ESM-only zod", Sites: 1, Manual: 1, PerFile: true, Errors: 2, Findings: []string{"0a0a000000000005"}, Fix: map[string]string{"0a0a000000000005": "manual"}},
			},
			Unverified: []model.PlanRule{{ID: "signature", Title: "z.infer's signature changed", Sites: 1, Manual: 1, Findings: []string{"e0e0000000000003"}}},
			Deprecations: []model.PlanRule{{ID: "zod-string-formats", Title: "string formats are top-level", Sites: 1, ByRule: 1, Findings: []string{"b20fe4e015cfe631"}, Fix: map[string]string{"b20fe4e015cfe631": "rule"},
				Previews: map[string]string{"b20fe4e015cfe631": "@@ src/user.ts:3 @@\n-  email: z.string().email(),\n+  email: z.email(),\n"}}},
			Noted:  []model.PlanRule{{ID: "zod-noted", Title: "refinements run after the shape", Sites: 1, Note: "read the migration guide"}},
			Totals: model.PlanTotals{Sites: 4, ByRule: 1, ByAgent: 1, Manual: 2, Errors: 5},
			Next:   []string{"uptide fix zod --target zod@4.1.12", "uptide check zod --details"}},
		Importers:  []model.Importer{{Workspace: "packages/web", Package: "zod", Status: model.StatusSkipped, Reason: "it resolves to another copy", Files: []string{"packages/web/a.ts"}}},
		Undeclared: []model.Undeclared{{Workspace: "packages/web", Package: "zod", Status: model.StatusSkipped, Reason: "its import does not resolve"}},
		Notes:      []string{"zod 4 ships zod/v3 for a gradual move"},
		Warnings:   []string{"1 load was not analyzed"},
	}
	aws := model.PackageReport{
		Title: "@aws-sdk/* (2 packages)", Package: "@aws-sdk/client-s3", Workspaces: []string{"packages/api"}, Installed: "3.501.0", Target: "3.600.0", Update: model.UpdateKind{Level: model.LevelMinor},
		Group: &model.Group{Title: "@aws-sdk/* (2 packages)", Kind: model.GroupFamily, Members: []string{"@aws-sdk/client-s3", "@aws-sdk/s3-request-presigner"}, Why: "one scope, released together"},
		Members: []model.MemberReport{
			{Name: "@aws-sdk/client-s3", Installed: "3.501.0", Target: "3.600.0", Status: model.StatusAnalyzed, Sites: 2, Files: 1},
			{Name: "@aws-sdk/s3-request-presigner", Installed: "3.501.0", Target: "3.600.0", Status: model.StatusPartial, Reason: "no declarations", Sites: 1, Files: 1,
				TypesVia: &model.TypesVia{Package: "@types/presigner", From: "3.0.0"}},
		},
		Status: model.StatusAnalyzed, Verdict: "safe", Summary: "✓ safe",
		Compile: model.CompileReport{Status: model.StatusAnalyzed, Line: "Compiled against 3.600.0 with the repo's TypeScript 5.4.5 · 2 of 2 files · 0 pre-existing errors"},
	}
	gone := model.PackageReport{Title: "left-pad", Package: "left-pad", Workspaces: []string{"."}, Installed: "1.0.0", Target: "2.0.0", Update: model.Major(1),
		Status: model.StatusNotAnalyzed, Reason: "the registry has no 2.0.0", Summary: "not analyzed", Warnings: []string{"left-pad 2.0.0 has no tarball"}}
	return &model.CheckReport{
		Repository:    model.RepoSummary{Root: "/repo", Name: "acme", PackageManager: "pnpm", Workspaces: []string{".", "packages/api", "packages/web"}},
		Packages:      []model.PackageReport{aws, gone, zod},
		Problems:      []model.Problem{{File: "packages/bad/package.json", Line: 3, Message: "unexpected token: fix the JSON"}},
		ComputedLoads: []model.ComputedLoad{{Workspace: ".", File: "src/plugins.ts", Line: 7, Kind: "import", Specifier: "`./plugins/${name}`", Reason: "reaches no re-exporting file"}},
		Notes:         []string{"checked against latest"},
	}
}

// richPlan is an upgrade plan with every part the page draws: a checked
// breaking step with companions and an advisory, a step waiting for
// another, the cheap batch, an unchecked step, a blocked cycle.
func richPlan() *model.UpgradePlanReport {
	return &model.UpgradePlanReport{
		Repository: model.RepoSummary{Root: "/repo", Name: "acme", PackageManager: "npm", Workspaces: []string{"."}},
		Plan: model.UpgradePlan{
			Steps: []model.PlanStep{
				{ID: "typescript", Moves: []model.StepMove{{Name: "typescript", From: "4.9.5", To: "5.4.5", Update: model.Major(1), Why: "the upgrade"}}, Checked: true, Verdict: "safe",
					Priorities: []model.Priority{{Kind: model.PriorityBlocking, Package: "typescript", Reason: "zod waits for it", Count: 1}}},
				{ID: "zod", Moves: []model.StepMove{{Name: "zod", From: "3.23.8", To: "4.1.12", Update: model.Major(1), Why: "the upgrade"}, {Name: "@hookform/resolvers", From: "3.3.0", To: "5.2.2", Update: model.Major(1), Why: "5.2.2 peer-requires zod ^4"}},
					After:   []model.StepAfter{{Step: "typescript", Why: "zod 4.1.12 needs TypeScript ≥ 5.0"}},
					Checked: true, Verdict: "breaking", Effort: model.Effort{Sites: 4, ByRule: 1, ByAgent: 1, Manual: 2, Files: 3},
					Priorities: []model.Priority{{Kind: model.PriorityAdvisory, Package: "zod", Reason: "ReDoS in email validation", Severity: "moderate", FixedIn: "3.22.3", URL: "https://example.invalid/advisories/1"},
						{Kind: model.PriorityBehind, Package: "zod", Reason: "1 major behind", Count: 1}}},
				{ID: "cheap-batch", Batch: true, Moves: []model.StepMove{{Name: "dayjs", From: "1.11.9", To: "1.11.13", Update: model.UpdateKind{Level: model.LevelPatch}}, {Name: "slugkit", From: "1.0.0", To: "1.2.0", Update: model.UpdateKind{Level: model.LevelMinor}}}, Checked: true, Verdict: "safe"},
				{ID: "express", Moves: []model.StepMove{{Name: "express", From: "4.19.2", To: "5.1.0", Update: model.Major(1)}}, Verdict: "unchecked",
					Priorities: []model.Priority{{Kind: model.PriorityDeprecated, Package: "express", Reason: "4.x is deprecated: upgrade to 5"}}},
				{ID: "a", Moves: []model.StepMove{{Name: "a", From: "1.0.0", To: "2.0.0", Update: model.Major(1)}}, Checked: true, Verdict: "partial", Reason: "the compile did not run", Blocked: "a cycle: a and b need each other first"},
				{ID: "b", Moves: []model.StepMove{{Name: "b", From: "1.0.0", To: "2.0.0", Update: model.Major(1)}}, Checked: true, Verdict: "possible", Blocked: "a cycle: a and b need each other first"},
			},
			Cycles:     [][]string{{"a", "b"}},
			Unchecked:  []string{"express"},
			Totals:     model.Effort{Sites: 4, ByRule: 1, ByAgent: 1, Manual: 2, Files: 3},
			Advisories: model.AdvisoryStatus{Asked: true},
		},
		Ceiling: &model.Ceiling{Package: "zod", Installed: "3.23.8", Version: "3.25.76", Latest: "4.1.12",
			Steps: []model.CeilingStep{{Version: "4.1.12", Verdict: "breaking", Sites: 4}, {Version: "3.25.76", Verdict: "safe"}}},
		Problems: []model.Problem{{File: "packages/x/package.json", Message: "unreadable"}},
		Notes:    []string{"checks from this checkout's last check"},
	}
}
