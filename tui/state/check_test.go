package state_test

import (
	"reflect"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/tui/state"
)

// report is a package report as engine.Check writes one for react moving
// from 18 to 19 with two breaking sites under one rule and one possible.
func report() model.PackageReport {
	return model.PackageReport{
		Title: "react (2 packages)", Package: "react", Workspaces: []string{"packages/web"},
		Installed: "18.3.1", Target: "19.1.0", Update: model.Major(1),
		Status: model.StatusAnalyzed, Verdict: "breaking", Summary: "✗ 2 breaking · 1 possible",
		Counts: model.FindingCounts{Breaking: 2, Possible: 1, Deprecated: 1, Hidden: 3, Sites: 9},
		Findings: []model.Finding{
			{ID: "f1", Package: "react", Path: "render", Severity: model.Breaking, File: "src/a.tsx", Line: 3},
			{ID: "f2", Package: "react", Path: "render", Severity: model.Breaking, File: "src/b.tsx", Line: 7},
			{ID: "f3", Package: "react-dom", Path: "findDOMNode", Severity: model.Unverified, File: "src/c.tsx", Line: 1},
			{ID: "f4", Package: "react", Path: "React.ElementRef", Severity: model.Deprecated, File: "src/d.tsx", Line: 2},
		},
		Compile: model.CompileReport{
			Status: model.StatusAnalyzed, Compiler: "the repo's TypeScript 5.4.5",
			Asked: 12, Compiled: 11, PreExisting: 4, NewErrors: 2,
			Line: "compiled 11/12 files with the repo's TypeScript 5.4.5",
		},
		Plan: model.Plan{
			Package: "react", Target: "19.1.0",
			Rules: []model.PlanRule{{ID: "react-19/render", Title: "ReactDOM.render is removed", Sites: 2, ByRule: 2, Findings: []string{"f1", "f2"},
				Previews: map[string]string{"f1": "@@ src/a.tsx:3 @@\n-render(a)\n+createRoot(a)\n"}}},
			Unverified: []model.PlanRule{{ID: "removed:findDOMNode", Title: "findDOMNode removed", Sites: 1, Manual: 1, Findings: []string{"f3", "gone"}}},
			Deprecations: []model.PlanRule{{ID: "react-elementref", Title: "ElementRef deprecated for ComponentRef", Sites: 1, ByRule: 1, Findings: []string{"f4"},
				Fix: map[string]string{"f4": "rule"}}},
			Next: []string{
				"uptide check react --target react@19.1.0 --target react-dom@19.1.0 --details",
			},
		},
		Notes:    []string{"react-dom moves with react"},
		Warnings: []string{"3 bare imports inside react@19.1.0 unresolved"},
	}
}

func TestResultOfMapsTheReport(t *testing.T) {
	rep := report()
	got := state.ResultOf(&rep)
	want := &state.CheckResult{
		Verdict: model.VerdictBreaking, Summary: "✗ 2 breaking · 1 possible",
		Breaking: 2, Possible: 1, Deprecated: 1,
		Compiler: "the repo's TypeScript 5.4.5", Coverage: "compiled 11/12 files with the repo's TypeScript 5.4.5",
		Files: 11, FilesTotal: 12, PreExisting: 4,
		Rules: []state.PlanRule{
			{ID: "react-19/render", Title: "ReactDOM.render is removed", Severity: model.Breaking, Sites: 2, ByRule: 2, Findings: rep.Findings[:2],
				Previews: map[string]string{"f1": "@@ src/a.tsx:3 @@\n-render(a)\n+createRoot(a)\n"}},
			// A finding id the report does not hold is left out, not invented.
			{ID: "removed:findDOMNode", Title: "findDOMNode removed", Severity: model.Unverified, Sites: 1, Manual: 1, Findings: rep.Findings[2:3]},
			// The deprecated uses fix moves by rule, after the rest.
			{ID: "react-elementref", Title: "ElementRef deprecated for ComponentRef", Severity: model.Deprecated, Sites: 1, ByRule: 1,
				Findings: rep.Findings[3:], Fix: map[string]string{"f4": "rule"}},
		},
		Notes:       []string{"react-dom moves with react", "⚠ 3 bare imports inside react@19.1.0 unresolved"},
		NextCommand: "uptide check react --target react@19.1.0 --target react-dom@19.1.0 --details",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ResultOf:\n got %+v\nwant %+v", got, want)
	}
	if l := got.Label(); l != "✗ 2 breaking" {
		t.Errorf("Label() = %q, want ✗ 2 breaking", l)
	}
}

func TestResultOfOutcome(t *testing.T) {
	for _, tc := range []struct {
		name              string
		status            model.AnalysisStatus
		verdict           model.Verdict
		reason, summary   string
		want              model.Verdict
		wantReason, label string
	}{
		{"breaking", model.StatusAnalyzed, "breaking", "", "", model.VerdictBreaking, "", "✗ 2 breaking"},
		{"possible", model.StatusAnalyzed, "possible", "", "", model.VerdictPossible, "", "? 1 possible"},
		{"safe", model.StatusAnalyzed, "safe", "", "✓ no impact in 9 sites", model.VerdictSafe, "", "✓ safe"},
		{"breaking over partial coverage keeps the reason", model.StatusPartial, "breaking", "compile: 1 file skipped", "", model.VerdictBreaking, "compile: 1 file skipped", "✗ 2 breaking"},
		{"clean but partial is not safe", model.StatusPartial, "safe", "2 loads not analyzed", "", model.VerdictPartial, "2 loads not analyzed", "partial: 2 loads not analyzed"},
		{"partial verdict", model.StatusPartial, "partial", "", "no impact in 3 analyzed sites", model.VerdictPartial, "no impact in 3 analyzed sites", "partial: no impact in 3 analyzed sites"},
		{"unknown verdict", model.StatusPartial, "unknown", "9 loads not analyzed", "? unknown", model.VerdictPartial, "9 loads not analyzed", "partial: 9 loads not analyzed"},
		{"not analyzed", model.StatusNotAnalyzed, "", "no such version 99.0.0", "", model.VerdictNone, "no such version 99.0.0", "not analyzed: no such version 99.0.0"},
		{"up to date", model.StatusSkipped, "", "installed 19.1.0 is already the target", "✓ up to date", model.VerdictSafe, "", "✓ safe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := report()
			rep.Status, rep.Verdict, rep.Reason, rep.Summary = tc.status, tc.verdict, tc.reason, tc.summary
			rep.Counts = model.FindingCounts{Breaking: 2, Possible: 1}
			if tc.verdict == "safe" || tc.verdict == "partial" {
				rep.Counts.Breaking, rep.Counts.Possible = 0, 0
			}
			if tc.verdict == "possible" {
				rep.Counts.Breaking = 0
			}
			got := state.ResultOf(&rep)
			if got.Verdict != tc.want || got.Reason != tc.wantReason {
				t.Errorf("outcome %q (%q), want %q (%q)", got.Verdict, got.Reason, tc.want, tc.wantReason)
			}
			if l := got.Label(); l != tc.label {
				t.Errorf("Label() = %q, want %q", l, tc.label)
			}
		})
	}
}

func TestResultOfWithoutNextCommand(t *testing.T) {
	// A report without a target offers no command.
	rep := report()
	rep.Plan.Next = nil
	if got := state.ResultOf(&rep).NextCommand; got != "" {
		t.Errorf("NextCommand = %q, want none", got)
	}
}

// A target the repository's TypeScript cannot read: the command to go on
// with is checking the typescript upgrade it needs, not the detailed check.
func TestResultOfNeedsTypeScriptFirst(t *testing.T) {
	rep := report()
	rep.Plan.Next = []string{"uptide check typescript --target typescript@5.0.4", "uptide check zod --target zod@4.6.7 --details"}
	if got := state.ResultOf(&rep).NextCommand; got != rep.Plan.Next[0] {
		t.Errorf("NextCommand = %q, want %q", got, rep.Plan.Next[0])
	}
	rep.Plan.Next = []string{"uptide check zod --target zod@4.6.7 --details", "uptide fix zod --target zod@4.6.7"}
	rep.Plan.Fix = rep.Plan.Next[1]
	if got := state.ResultOf(&rep).NextCommand; got != rep.Plan.Next[1] {
		t.Errorf("NextCommand = %q, want the fix", got)
	}
}

// The fix is the plan's Fix, never a command picked by its words: a plan
// that offers no fix goes on with its first command whatever the others
// say.
func TestResultOfPicksTheFixByKind(t *testing.T) {
	rep := report()
	rep.Plan.Next = []string{"uptide check zod --target zod@4.6.7 --details", "uptide fix zod --target zod@4.6.7"}
	rep.Plan.Fix = ""
	if got := state.ResultOf(&rep).NextCommand; got != rep.Plan.Next[0] {
		t.Errorf("NextCommand = %q, want %q: the plan offers no fix", got, rep.Plan.Next[0])
	}
}

// The workspaces importing a package beyond its declared, analyzed ones
// read as `uptide check` prints them (internal/cli TestImporterLines).
func TestResultOfImporters(t *testing.T) {
	tests := []struct {
		name       string
		status     model.AnalysisStatus
		reason     string
		undeclared []model.Undeclared
		importers  []model.Importer
		want       []string
	}{
		{name: "none", status: model.StatusAnalyzed,
			importers: []model.Importer{{Workspace: "packages/core", Package: "zod", Declared: true, Status: model.StatusAnalyzed}}},
		{name: "undeclared, resolved via another workspace", status: model.StatusAnalyzed,
			undeclared: []model.Undeclared{{Workspace: "packages/ui", Package: "zod", Via: "@acme/core", ViaWorkspace: "packages/core", Resolved: "3.25.76", Status: model.StatusAnalyzed}},
			want:       []string{"packages/ui · imports zod without declaring it (resolved via @acme/core)"}},
		{name: "undeclared at the root, skipped with a reason", status: model.StatusAnalyzed,
			undeclared: []model.Undeclared{{Workspace: ".", Package: "zod", Status: model.StatusSkipped, Reason: "its import of zod does not resolve"}},
			want:       []string{"(root) · imports zod without declaring it: skipped, its import of zod does not resolve"}},
		{name: "undeclared, analyzed without a via", status: model.StatusAnalyzed,
			undeclared: []model.Undeclared{{Workspace: "apps/x", Package: "zod", Status: model.StatusAnalyzed}},
			want:       []string{"apps/x · imports zod without declaring it"}},
		{name: "declared but left out for a reason of its own", status: model.StatusAnalyzed,
			importers: []model.Importer{{Workspace: "apps/api", Package: "zod", Declared: true, Status: model.StatusNotAnalyzed, Reason: "it declares zod at a version this check did not cover"}},
			want:      []string{"apps/api · imports zod: not analyzed, it declares zod at a version this check did not cover"}},
		{name: "a report not analyzed says its reason once", status: model.StatusNotAnalyzed, reason: "node_modules does not hold zod",
			importers: []model.Importer{{Workspace: "apps/api", Package: "zod", Declared: true, Status: model.StatusNotAnalyzed, Reason: "node_modules does not hold zod"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := model.PackageReport{Title: "zod", Package: "zod", Status: tc.status, Reason: tc.reason, Verdict: "safe",
				Undeclared: tc.undeclared, Importers: tc.importers}
			if got := state.ResultOf(&rep).Importers; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Importers:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
