package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/view"
)

// zodParseErrors are n parse errors inside zod 4's declarations, as
// TypeScript 4.4 reports them.
func zodParseErrors(n int) []model.Diagnostic {
	var out []model.Diagnostic
	for i := 0; i < n; i++ {
		out = append(out, model.Diagnostic{File: "node_modules/zod/v4/core/api.d.ts", Line: 237 + i, Column: 32, Code: 1005, Message: "',' expected."})
	}
	return out
}

// The errors inside a dependency are one line per package in fix's Types,
// and a cause shows its first few in check's details: 331 lines of
// "',' expected." say nothing the first does not.
func TestRenderDependencyErrorsFolded(t *testing.T) {
	own := model.Diagnostic{File: "src/user.ts", Line: 8, Column: 20, Code: 2339, Message: "Property 'errors' does not exist on type 'ZodError'."}
	r := &fix.Report{Package: "zod", Status: fix.StatusFailed, Install: &fix.Install{Manager: "npm"},
		Types: fix.TypesReport{Status: model.StatusAnalyzed, Compiler: "TypeScript 4.4.4", Projects: []string{"tsconfig.json"},
			New: append(zodParseErrors(331), own)}}
	var b bytes.Buffer
	renderFix(&b, r, palette{})
	out := b.String()
	for _, want := range []string{"✗ 332 new errors", "src/user.ts\n    8:20 TS2339", "331 errors inside zod (--json lists every one); the first:\n    node_modules/zod/v4/core/api.d.ts:237:32 TS1005 ',' expected.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("types:\n%s\nwant it to hold %q", out, want)
		}
	}
	if n := strings.Count(out, "node_modules/"); n != 1 {
		t.Errorf("%d lines name node_modules:\n%s", n, out)
	}

	pr := model.PackageReport{Findings: []model.Finding{{ID: "c1", Severity: model.Breaking, Change: "newer-typescript", File: "package.json",
		Reason: "zod 4.6.7's declarations need TypeScript ≥ 5.0", Evidence: zodParseErrors(331)}}}
	b.Reset()
	palette{}.lines(&b, view.SiteLines(view.Check(&pr).Sites, false))
	out = b.String()
	if n := strings.Count(out, "node_modules/zod/"); n != view.ShownDependencyErrors {
		t.Errorf("%d evidence lines shown, want %d:\n%s", n, view.ShownDependencyErrors, out)
	}
	if want := fmt.Sprintf("… %d more inside dependencies (--json lists every one)", 331-view.ShownDependencyErrors); !strings.Contains(out, want) {
		t.Errorf("details:\n%s\nwant %q", out, want)
	}
}
