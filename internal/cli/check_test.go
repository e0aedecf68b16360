package cli

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

func TestParseTargets(t *testing.T) {
	tests := []struct {
		flags   []string
		want    map[string]string
		wantErr string
	}{
		{nil, map[string]string{}, ""},
		{[]string{"zod@4.1.12"}, map[string]string{"zod": "4.1.12"}, ""},
		{[]string{"@aws-sdk/client-s3@3.600.0", "zod@next"}, map[string]string{"@aws-sdk/client-s3": "3.600.0", "zod": "next"}, ""},
		{[]string{"zod@4", "zod@4"}, map[string]string{"zod": "4"}, ""},
		{[]string{"zod"}, nil, "package@version"},
		{[]string{"@aws-sdk/client-s3"}, nil, "package@version"},
		{[]string{"zod@"}, nil, "package@version"},
		{[]string{"zod@4", "zod@3"}, nil, "twice"},
	}
	for _, tt := range tests {
		got, err := parseTargets(tt.flags)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || exitCode(err) != ExitIncomplete {
				t.Errorf("parseTargets(%v) error %v, want one saying %q (exit 2)", tt.flags, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !maps.Equal(got, tt.want) {
			t.Errorf("parseTargets(%v) = %v, %v; want %v", tt.flags, got, err, tt.want)
		}
	}
}

func TestCheckExitCode(t *testing.T) {
	pkg := func(status model.AnalysisStatus, verdict model.Verdict) model.PackageReport {
		return model.PackageReport{Status: status, Verdict: verdict}
	}
	tests := []struct {
		name string
		pkgs []model.PackageReport
		want int
	}{
		{"safe", []model.PackageReport{pkg(model.StatusAnalyzed, "safe")}, ExitOK},
		{"possible impact only", []model.PackageReport{pkg(model.StatusAnalyzed, "possible")}, ExitOK},
		{"up to date", []model.PackageReport{pkg(model.StatusSkipped, "")}, ExitOK},
		{"breaking", []model.PackageReport{pkg(model.StatusAnalyzed, "safe"), pkg(model.StatusPartial, "breaking")}, ExitBreaking},
		{"breaking beats incomplete", []model.PackageReport{pkg(model.StatusNotAnalyzed, ""), pkg(model.StatusAnalyzed, "breaking")}, ExitBreaking},
		{"not analyzed", []model.PackageReport{pkg(model.StatusAnalyzed, "safe"), pkg(model.StatusNotAnalyzed, "")}, ExitIncomplete},
		{"partial verdict", []model.PackageReport{pkg(model.StatusPartial, "partial")}, ExitIncomplete},
		{"unknown verdict", []model.PackageReport{pkg(model.StatusPartial, "unknown")}, ExitIncomplete},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkExitCode(&model.CheckReport{Packages: tt.pkgs}); got != tt.want {
				t.Errorf("exit %d, want %d", got, tt.want)
			}
		})
	}
}

func TestCheckWithoutNamesPointsAtList(t *testing.T) {
	_, stderr, code := runCLI(t, "check", "--cwd", t.TempDir())
	if code != ExitIncomplete || !strings.Contains(stderr, "uptide list") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestRenderCheck(t *testing.T) {
	rep := &model.CheckReport{
		Repository: model.RepoSummary{Name: "acme", PackageManager: "pnpm", Workspaces: []string{".", "web"}},
		Packages: []model.PackageReport{{
			Title: "zod", Package: "zod", Workspaces: []string{"web"}, Installed: "3.25.76", Target: "4.1.12", Update: model.Major(1),
			Status: model.StatusPartial, Verdict: "breaking", Summary: "✗ 2 breaking · 1 possible",
			Members: []model.MemberReport{{Name: "zod", Installed: "3.25.76", Target: "4.1.12", Status: model.StatusAnalyzed}},
			Findings: []model.Finding{
				{ID: "a1", Severity: model.Breaking, File: "web/a.ts", Line: 9, Reason: "ZodError#errors was removed",
					Evidence: []model.Diagnostic{{File: "web/a.ts", Line: 9, Code: 2339, Message: "Property 'errors' does not exist"}}},
				{ID: "h1", Severity: model.Info, File: "web/a.ts", Line: 3, Reason: "diff says x, but your code compiles", Hidden: true},
			},
			Counts:     model.FindingCounts{Breaking: 2, Possible: 1, Hidden: 1},
			Unanalyzed: []model.Unanalyzed{{File: "web/load.js", Line: 4, Kind: "require", Reason: "the module specifier is computed"}},
			Compile:    model.CompileReport{Line: "compiled 3 of 3 files with the repo's TypeScript 5.4.5 · 0 pre-existing errors"},
			Companions: model.CompanionPlan{Companions: []model.Companion{{Name: "@types/x", From: "1.0.0", To: "2.0.0", Why: "types of x"}}},
			Plan: model.Plan{
				Rules: []model.PlanRule{
					{ID: "removed:ZodError#errors", Title: "ZodError#errors removed", Sites: 2, Manual: 2},
					{ID: "cause", Title: "one edit at tsconfig.json:4", Sites: 1, Manual: 1, Errors: 12},
				},
				Unverified: []model.PlanRule{{ID: "signature", Title: "call signature changed", Sites: 1, Manual: 1}},
				Next:       []string{"uptide check zod --target zod@4.1.12 --details"},
			},
		}},
	}
	tests := []struct {
		name     string
		view     checkView
		want     []string
		wantNone []string
	}{
		{"summary", checkView{elapsed: 2300 * time.Millisecond},
			[]string{
				"uptide check · acme (pnpm, 2 workspaces) · 2.3s",
				"zod      web    3.25.76 → 4.1.12    major  ✗ 2 breaking · 1 possible",
				"@types/x  1.0.0 → 2.0.0  types of x",
				"✗ ZodError#errors removed",
				"1 fix, 12 errors",
				"Possible impact (unverified, not counted)",
				"? call signature changed",
				"1 finding hidden",
				"compiled 3 of 3 files with the repo's TypeScript 5.4.5",
				"Not analyzed",
				"web/load.js:4  require  the module specifier is computed",
				"Next  uptide check zod --target zod@4.1.12 --details",
			},
			[]string{"web/a.ts:9 TS2339"}},
		{"details", checkView{details: true},
			[]string{"✗ web/a.ts:9", "web/a.ts:9 TS2339 Property 'errors' does not exist"},
			[]string{"web/a.ts:3"}},
		{"all", checkView{all: true},
			[]string{"web/a.ts:3", "diff says x, but your code compiles"},
			[]string{"hidden (info"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			renderCheck(&b, rep, tt.view, palette{}, 200)
			out := b.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.wantNone {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestImporterLines(t *testing.T) {
	pr := model.PackageReport{
		Title: "stripe", Package: "stripe", Status: model.StatusAnalyzed,
		Undeclared: []model.Undeclared{
			{Workspace: "apps/ui", Package: "stripe", Via: "@acme/core", ViaWorkspace: "packages/core", Resolved: "14.25.0", Status: model.StatusAnalyzed},
			{Workspace: ".", Package: "stripe", Status: model.StatusSkipped, Reason: "its import of stripe does not resolve"},
		},
		Importers: []model.Importer{
			{Workspace: "packages/core", Package: "stripe", Declared: true, Status: model.StatusAnalyzed},
			{Workspace: "apps/ui", Package: "stripe", Status: model.StatusAnalyzed},
			{Workspace: "apps/api", Package: "stripe", Declared: true, Status: model.StatusNotAnalyzed, Reason: "it declares stripe at a version this check did not cover"},
		},
	}
	want := []string{
		"apps/ui · imports stripe without declaring it (resolved via @acme/core)",
		"(root) · imports stripe without declaring it: skipped, its import of stripe does not resolve",
		"apps/api · imports stripe: not analyzed, it declares stripe at a version this check did not cover",
	}
	if got := view.ImporterLines(&pr); !slices.Equal(got, want) {
		t.Errorf("ImporterLines:\n got %q\nwant %q", got, want)
	}
	// A report not analyzed at all says why once, not once per importer.
	pr.Status, pr.Reason = model.StatusNotAnalyzed, "it declares stripe at a version this check did not cover"
	if got := view.ImporterLines(&pr); len(got) != 2 {
		t.Errorf("ImporterLines of an unanalyzed report: %q", got)
	}
	var b bytes.Buffer
	renderCheck(&b, &model.CheckReport{Packages: []model.PackageReport{pr}}, checkView{}, palette{}, 120)
	if !strings.Contains(b.String(), "\n  apps/ui · imports stripe without declaring it (resolved via @acme/core)\n") {
		t.Errorf("the report does not print the undeclared importer under the package:\n%s", b.String())
	}
}

func TestRenderCompanionsAligns(t *testing.T) {
	var b strings.Builder
	renderCompanions(&b, view.CompanionRows(model.CompanionPlan{
		Companions: []model.Companion{
			{Name: "react-dom", From: "18.3.1", To: "19.1.0", Why: "released in lockstep"},
			{Name: "lucide-react", From: "0.378.0", To: "0.400.3", Why: "accepts react 19.1.0; crosses a minor: no 0.378.x accepts react 19.1.0"},
		},
		Conflicts: []model.Conflict{{Name: "@ai-sdk/react", From: "0.0.70", Why: "no release accepts react 19.1.0"}},
	}), palette{}, 200)
	want := "  Companions\n" +
		"    react-dom        18.3.1 → 19.1.0    released in lockstep\n" +
		"    lucide-react     0.378.0 → 0.400.3  accepts react 19.1.0; crosses a minor: no 0.378.x accepts react 19.1.0\n" +
		"    ✗ @ai-sdk/react  0.0.70             conflict: no release accepts react 19.1.0\n"
	if got := b.String(); got != want {
		t.Errorf("companions:\n%s\nwant:\n%s", got, want)
	}
}

// A member whose target types itself is not "types via @types/x" at the
// installed release alone: the line says its own declarations take over.
func TestRenderOwnTypesMember(t *testing.T) {
	var b strings.Builder
	renderPackage(&b, model.PackageReport{Title: "bcryptjs", Installed: "2.4.3", Target: "3.0.3", Members: []model.MemberReport{
		{Name: "bcryptjs", Installed: "2.4.3", Target: "3.0.3", Status: model.StatusAnalyzed, TypesVia: &model.TypesVia{Package: "@types/bcryptjs", From: "2.4.6"}},
	}}, checkView{}, palette{}, 200)
	if want := "bcryptjs 2.4.3 → 3.0.3 · types via @types/bcryptjs 2.4.6 → its own\n"; !strings.Contains(b.String(), want) {
		t.Errorf("rendered:\n%s\nwant a line %q", b.String(), want)
	}
}
