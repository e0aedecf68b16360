package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/verify"
	"github.com/uptide/uptide/view"
)

// The rules' sites are listed under the pack that edited them, and a plan
// whose rule edits could not be made says why.
func TestRenderFixRules(t *testing.T) {
	r := &fix.Report{Package: "zod", From: "3.23.8", To: "4.0.17", Status: fix.StatusVerified,
		Rules: &fix.RulesReport{Pack: "zod", Commit: "abc", Sites: []fix.RuleSite{
			{File: "src/errors.ts", Line: 5, Rule: "zod-error-issues", Finding: "f1"},
			{File: "src/schemas.ts", Line: 13, Rule: "zod-record-key", Finding: "f2"},
		}}}
	var b bytes.Buffer
	renderFix(&b, r, palette{})
	want := "\nRules  the zod pack\n  src/errors.ts:5  zod-error-issues\n  src/schemas.ts:13  zod-record-key\n"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("rendered:\n%s\nwant it to hold:\n%s", b.String(), want)
	}
	r.Decisions = []string{"Stripe API 2023-10-16 → 2024-04-10: 1 changelog entries", "  2024-04-10 · breaking · Product: features is renamed"}
	b.Reset()
	renderFix(&b, r, palette{})
	if !strings.Contains(b.String(), "\nDecisions for you\n  Stripe API 2023-10-16 → 2024-04-10: 1 changelog entries\n    2024-04-10 · breaking") {
		t.Fatalf("rendered:\n%s", b.String())
	}
	r.Rules = &fix.RulesReport{Pack: "zod", Sites: []fix.RuleSite{}, Reason: "edits 3..9 and 5..7 of src/a.ts overlap: refusing both"}
	b.Reset()
	renderFix(&b, r, palette{})
	if !strings.Contains(b.String(), "no rule edit made: edits 3..9 and 5..7 of src/a.ts overlap") {
		t.Fatalf("rendered:\n%s", b.String())
	}
}

// A runner that found no test is not a failure: it is marked apart from a
// failed run.
func TestRenderFixTestsMarks(t *testing.T) {
	run := verify.TestRun{Command: []string{"node", "--test"}, Scope: "root test script"}
	r := &fix.Report{Package: "zod", Status: fix.StatusVerified, Tests: fix.TestsReport{Results: []verify.TestResult{
		{Run: run, Status: "no-tests", Passed: 0, Failed: 0},
		{Run: run, Status: "failed", Passed: 1, Failed: 2},
		{Run: run, Status: "passed", Passed: 3, Failed: 0},
	}}}
	var b bytes.Buffer
	renderFix(&b, r, palette{})
	for _, want := range []string{"  – no-tests  node --test · root test script", "  ✗ failed  node --test", "  ✓ passed  node --test"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("rendered:\n%s\nwant a line with %q", b.String(), want)
		}
	}
}

// Left for you is one line per site, the errors its edit fixes folded
// under it when they are more than the line itself says.
func TestRenderFixSitesLeft(t *testing.T) {
	param := model.Diagnostic{File: "src/legacy.ts", Line: 12, Column: 30, Code: 2551, Message: "Property 'param' does not exist on type 'Request'."}
	sendfile := model.Diagnostic{File: "src/legacy.ts", Line: 12, Column: 7, Code: 2551, Message: "Property 'sendfile' does not exist on type 'Response'."}
	r := &fix.Report{Package: "express", Status: fix.StatusFailed, Sites: []fix.Site{
		{File: "src/legacy.ts", Line: 6, Rule: "TS2551", Message: param.Message, Errors: []model.Diagnostic{{File: "src/legacy.ts", Line: 6, Column: 16, Code: 2551, Message: param.Message}}},
		{File: "src/legacy.ts", Line: 12, Rule: "TS2551", Message: sendfile.Message, Errors: []model.Diagnostic{sendfile, param}},
	}}
	var b bytes.Buffer
	renderFix(&b, r, palette{})
	want := "\nLeft for you  2 sites\n" +
		"  src/legacy.ts:6  TS2551  Property 'param' does not exist on type 'Request'.\n" +
		"  src/legacy.ts:12  TS2551  Property 'sendfile' does not exist on type 'Response'.\n" +
		"      12:7 TS2551 Property 'sendfile' does not exist on type 'Response'.\n" +
		"      12:30 TS2551 Property 'param' does not exist on type 'Request'.\n"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("rendered:\n%s\nwant it to hold:\n%s", b.String(), want)
	}
}

// A cause with hundreds of errors inside a dependency prints the first few
// under its site and counts the rest, which --json lists whole.
func TestRenderFixSiteFoldsACausesManyErrors(t *testing.T) {
	var errs []model.Diagnostic
	for i := 1; i <= 331; i++ {
		errs = append(errs, model.Diagnostic{File: "node_modules/zod/v4/core/core.d.ts", Line: i, Column: 1, Code: 1005, Message: "';' expected."})
	}
	r := &fix.Report{Package: "zod", Status: fix.StatusFailed, Sites: []fix.Site{
		{File: "package.json", Rule: "upgrade typescript to ≥ 5.0", Message: "zod 4.6.7's declarations need TypeScript ≥ 5.0", Errors: errs},
	}}
	var b bytes.Buffer
	renderFix(&b, r, palette{})
	out := b.String()
	if !strings.Contains(out, "  package.json  upgrade typescript to ≥ 5.0") || strings.Contains(out, "package.json:0") {
		t.Fatalf("the cause's line:\n%s", out)
	}
	if got := strings.Count(out, "TS1005"); got != view.FoldedShown {
		t.Errorf("%d folded errors printed, want %d:\n%s", got, view.FoldedShown, out)
	}
	if !strings.Contains(out, fmt.Sprintf("… and %d more", 331-view.FoldedShown)) {
		t.Errorf("the rest is not counted:\n%s", out)
	}
}
