package fix

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/uptide/uptide/engine/model"
)

// Errors inside node_modules are never sites (issue 23): the ones check's
// cause holds as evidence are that cause, once, at its manifest; the ones
// no finding explains are one cause per package; the assisted fixer is
// given none of them.
func TestDependencyErrorsAreNoSites(t *testing.T) {
	parse := []model.Diagnostic{
		{File: "node_modules/zod/v4/core/api.d.ts", Line: 237, Code: 1139, Message: "Type parameter declaration expected."},
		{File: "node_modules/zod/v4/core/api.d.ts", Line: 237, Code: 1005, Message: "',' expected."},
	}
	other := []model.Diagnostic{
		{File: "packages/web/node_modules/@types/x/index.d.ts", Line: 3, Code: 2304, Message: "Cannot find name 'NoInfer'."},
		{File: "packages/web/node_modules/@types/x/index.d.ts", Line: 9, Code: 2304, Message: "Cannot find name 'NoInfer'."},
	}
	own := model.Diagnostic{File: "src/user.ts", Line: 8, Code: 2339, Message: "Property 'errors' does not exist on type 'ZodError'."}
	rep := model.PackageReport{
		Findings: []model.Finding{
			{ID: "cause", Severity: model.Breaking, Change: "newer-typescript", File: "package.json", Reason: "zod 4.6.7's declarations need TypeScript ≥ 5.0", Evidence: parse},
		},
		Plan: model.Plan{Rules: []model.PlanRule{{ID: "newer-typescript", Title: "upgrade typescript to ≥ 5.0", Findings: []string{"cause"}}}},
	}
	news := append(append(append([]model.Diagnostic{}, parse...), other...), own)
	var lines []string
	for _, s := range sitesLeft([]model.PackageReport{rep}, news, nil, nil, nil) {
		lines = append(lines, s.File+":"+itoa(s.Line)+" "+s.Rule+" "+s.Finding)
	}
	want := []string{"package.json:0 upgrade typescript to ≥ 5.0 cause", "package.json:0 errors inside @types/x ", "src/user.ts:8 TS2339 "}
	if d := cmp.Diff(want, lines); d != "" {
		t.Errorf("sites left (-want +got):\n%s", d)
	}
	var asked []string
	for _, s := range assistSites([]model.PackageReport{rep}, news, nil) {
		asked = append(asked, s.File+":"+itoa(s.Line))
	}
	if d := cmp.Diff([]string{"src/user.ts:8"}, asked); d != "" {
		t.Errorf("assisted sites (-want +got):\n%s", d)
	}
}
