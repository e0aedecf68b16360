package fix

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix/verify"
)

func repoDeclaring(names ...string) *model.Repository {
	ws := model.Workspace{Path: "."}
	for _, n := range names {
		ws.Declarations = append(ws.Declarations, model.Declaration{Name: n, Package: n})
	}
	return &model.Repository{Workspaces: []model.Workspace{ws}}
}

// react moves with react-dom (lockstep member), its @types and the
// companions check planned; a new peer is added; a conflict stops fix.
func TestPlanOfJoinsMembersTypesAndCompanions(t *testing.T) {
	rep := model.PackageReport{Title: "react", Package: "react", Installed: "18.3.1", Target: "19.1.0", Workspaces: []string{"."},
		Members: []model.MemberReport{
			{Name: "react", Installed: "18.3.1", Target: "19.1.0", TypesVia: &model.TypesVia{Package: "@types/react", From: "18.3.12", To: "19.1.2"}},
		},
		Companions: model.CompanionPlan{Companions: []model.Companion{
			{Name: "react-dom", From: "18.3.1", To: "19.1.0", Why: "released in lockstep"},
			{Name: "@testing-library/dom", To: "10.4.0", Why: "add @testing-library/dom@^10.0.0 (new peer)"},
		}}}
	pl, err := planOf("react", []model.PackageReport{rep}, repoDeclaring("react", "react-dom", "@types/react"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range pl.managerMoves {
		s := m.Name + "@" + m.To
		if m.Add {
			s += " (add to " + strings.Join(m.Workspaces, ",") + ")"
		}
		got = append(got, s)
	}
	want := []string{"react@19.1.0", "@types/react@19.1.2", "react-dom@19.1.0", "@testing-library/dom@10.4.0 (add to .)"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("moves (-want +got):\n%s", d)
	}
	if s := upgradeSubject("react", pl); s != "upgrade react 18.3.1 → 19.1.0 (+ @types/react, react-dom, @testing-library/dom)" {
		t.Errorf("subject %q", s)
	}
	if len(pl.conflicts) != 0 || !pl.added["@testing-library/dom"] {
		t.Errorf("conflicts %q added %v", pl.conflicts, pl.added)
	}

	rep.Companions.Conflicts = []model.Conflict{{Name: "@ai-sdk/react", From: "0.0.70", Why: "no release accepts react 19"}}
	pl, err = planOf("react", []model.PackageReport{rep}, repoDeclaring("react"))
	if err != nil || len(pl.conflicts) != 1 || !strings.Contains(pl.conflicts[0], "@ai-sdk/react 0.0.70: no release accepts react 19") {
		t.Errorf("conflict: %v %q", err, pl.conflicts)
	}
	same := model.PackageReport{Title: "zod", Package: "zod", Installed: "4.1.12", Target: "4.1.12", Members: []model.MemberReport{{Name: "zod", Installed: "4.1.12", Target: "4.1.12"}}}
	if _, err := planOf("zod", []model.PackageReport{same}, repoDeclaring("zod")); err == nil || !strings.Contains(err.Error(), "at 4.1.12 already") {
		t.Errorf("no upgrade: %v", err)
	}
	if _, err := planOf("zod", nil, repoDeclaring()); err == nil || !strings.Contains(err.Error(), "uptide list") {
		t.Errorf("no report: %v", err)
	}
	if _, err := planOf("zod", []model.PackageReport{{Title: "zod", Package: "zod", Reason: "not installed: run npm install"}}, repoDeclaring()); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Errorf("no target: %v", err)
	}
	// Check's report of a target it could not resolve keeps the row's
	// latest as its target but plans no move: no upgrade to it.
	unresolved := model.PackageReport{Title: "zod", Package: "zod", Installed: "3.25.76", Target: "4.1.12", Status: model.StatusNotAnalyzed,
		Reason: "--target zod@99: the registry has no version, dist-tag or range \"99\" of zod", Members: []model.MemberReport{}}
	if _, err := planOf("zod", []model.PackageReport{unresolved}, repoDeclaring("zod")); err == nil || !strings.Contains(err.Error(), "zod@99") {
		t.Errorf("an unresolved target: %v", err)
	}
}

// What is left: each new error, named by the finding it confirms, and the
// breaking findings no compiler sees unless a patch addressed them.
func TestSitesLeft(t *testing.T) {
	ev := model.Diagnostic{File: "src/title.ts", Line: 4, Code: 2345, Message: "Argument of type … is not assignable"}
	rep := model.PackageReport{
		Findings: []model.Finding{
			{ID: "f1", Severity: model.Breaking, File: "src/title.ts", Line: 4, Evidence: []model.Diagnostic{ev}},
			{ID: "f2", Severity: model.Breaking, Change: "module-format", File: "src/legacy.js", Line: 1, Reason: "require() of an ESM-only package"},
			{ID: "f3", Severity: model.Breaking, Change: "module-format", File: "src/old.js", Line: 2, Reason: "require()"},
			{ID: "f4", Severity: model.Breaking, Change: "missing-peer", Replacement: "@testing-library/dom", File: "src/t.ts", Line: 1},
			{ID: "f5", Severity: model.Unverified, Change: "removed", File: "src/x.ts", Line: 9},
		},
		Plan: model.Plan{Rules: []model.PlanRule{{Title: "options gain a required field", Findings: []string{"f1"}}, {Title: "ESM only", Findings: []string{"f2", "f3"}}}},
	}
	moved := ev
	moved.Line = 6 // an edit above shifted it
	down := model.Diagnostic{File: "src/title.ts", Line: 7, Code: 7006, Message: "Parameter 'e' implicitly has an 'any' type."}
	rep.Findings[0].Downstream = []model.Diagnostic{down}
	got := sitesLeft([]model.PackageReport{rep}, []model.Diagnostic{moved, down, {File: "src/other.ts", Line: 2, Code: 2339, Message: "no such property"}},
		[]PatchResult{{Finding: "f3", Applied: true}, {Finding: "f2", Applied: false}}, map[string]bool{"@testing-library/dom": true}, nil)
	var lines []string
	for _, s := range got {
		lines = append(lines, s.File+":"+itoa(s.Line)+" "+s.Rule+" "+s.Finding)
	}
	want := []string{"src/legacy.js:1 ESM only f2", "src/other.ts:2 TS2339 ", "src/title.ts:6 options gain a required field f1"}
	if d := cmp.Diff(want, lines); d != "" {
		t.Errorf("sites (-want +got):\n%s", d)
	}
}

func itoa(n int) string { return fmtInt(n) }

func fmtInt(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestNewDiagnosticsIgnoresPositions(t *testing.T) {
	base := []model.Diagnostic{{File: "a.ts", Line: 1, Code: 1, Message: "m"}, {File: "a.ts", Line: 2, Code: 1, Message: "m"}}
	after := []model.Diagnostic{{File: "a.ts", Line: 5, Code: 1, Message: "m"}, {File: "a.ts", Line: 6, Code: 1, Message: "m"}, {File: "a.ts", Line: 7, Code: 1, Message: "m"}, {File: "b.ts", Line: 1, Code: 1, Message: "m"}}
	got := newDiagnostics(base, after)
	if len(got) != 2 || got[0].Line != 7 || got[1].File != "b.ts" {
		t.Errorf("%+v", got)
	}
}

// One site per line with new errors: identical messages at several lines
// of one file are as many sites (express 5's handlers), the errors a root
// cause explains are one site at its anchor, and a finding's downstream
// errors fold under the line of its own error.
func TestSitesLeftOneLinePerSite(t *testing.T) {
	handler := func(line int) model.Diagnostic {
		return model.Diagnostic{File: "src/users.ts", Line: line, Code: 2322, Message: "Type 'Response' is not assignable to type 'void | Promise<void>'."}
	}
	jsx := func(file string, line int) model.Diagnostic {
		return model.Diagnostic{File: file, Line: line, Code: 2503, Message: "Cannot find namespace 'JSX'."}
	}
	removed := model.Diagnostic{File: "src/user.ts", Line: 8, Code: 2339, Message: "Property 'errors' does not exist on type 'ZodError'."}
	implicit := model.Diagnostic{File: "src/user.ts", Line: 8, Code: 7006, Message: "Parameter 'e' implicitly has an 'any' type."}
	rep := model.PackageReport{
		Findings: []model.Finding{
			{ID: "h", Severity: model.Breaking, File: "src/users.ts", Line: 5, Evidence: []model.Diagnostic{handler(5), handler(6), handler(7)}},
			{ID: "anchor", Severity: model.Breaking, AnchorOnly: true, File: "tsconfig.json", Line: 4, Reason: "jsx: preserve reads the global JSX namespace",
				Downstream: []model.Diagnostic{jsx("src/a.tsx", 3), jsx("src/b.tsx", 9)}},
			{ID: "z", Severity: model.Breaking, File: "src/user.ts", Line: 8, Evidence: []model.Diagnostic{removed}, Downstream: []model.Diagnostic{implicit}},
		},
		Plan: model.Plan{Rules: []model.PlanRule{{Title: "handlers return nothing", Findings: []string{"h"}}}},
	}
	got := sitesLeft([]model.PackageReport{rep}, []model.Diagnostic{jsx("src/a.tsx", 3), jsx("src/b.tsx", 9), implicit, removed, handler(5), handler(6), handler(7)}, nil, nil, nil)
	var lines []string
	for _, s := range got {
		lines = append(lines, s.File+":"+itoa(s.Line)+" "+s.Rule+" "+itoa(len(s.Errors)))
	}
	want := []string{"src/user.ts:8 TS2339 2", "src/users.ts:5 handlers return nothing 1", "src/users.ts:6 handlers return nothing 1",
		"src/users.ts:7 handlers return nothing 1", "tsconfig.json:4 TS2503 2"}
	if d := cmp.Diff(want, lines); d != "" {
		t.Errorf("sites (-want +got):\n%s", d)
	}
}

// A target that types itself removes its @types package only where a
// dependency declares it: a peer entry alone (a library's promise to its
// users) is no entry the install deletes, so it plans no removal, which
// the manager would refuse as nothing to remove.
func TestPlanOfRemovesOnlyDeclaredTypes(t *testing.T) {
	rep := model.PackageReport{Title: "bcryptjs", Package: "bcryptjs", Installed: "2.4.3", Target: "3.0.3", Workspaces: []string{"."},
		Members: []model.MemberReport{{Name: "bcryptjs", Installed: "2.4.3", Target: "3.0.3"}},
		Companions: model.CompanionPlan{Companions: []model.Companion{
			{Name: "@types/bcryptjs", From: "2.4.6", Why: "bcryptjs 3.0.3 ships its own types", Remove: true},
		}}}
	moves := func(r *model.Repository) []string {
		pl, err := planOf("bcryptjs", []model.PackageReport{rep}, r)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range pl.managerMoves {
			out = append(out, fmt.Sprintf("%s@%s remove=%v", m.Name, m.To, m.Remove))
		}
		return out
	}
	dev := repoDeclaring("bcryptjs", "@types/bcryptjs")
	if got, want := moves(dev), []string{"bcryptjs@3.0.3 remove=false", "@types/bcryptjs@ remove=true"}; !cmp.Equal(got, want) {
		t.Errorf("declared: moves %q, want %q", got, want)
	}
	peer := repoDeclaring("bcryptjs")
	peer.Workspaces[0].Declarations = append(peer.Workspaces[0].Declarations,
		model.Declaration{Name: "@types/bcryptjs", Package: "@types/bcryptjs", Type: model.Peer})
	if got, want := moves(peer), []string{"bcryptjs@3.0.3 remove=false"}; !cmp.Equal(got, want) {
		t.Errorf("a peer entry only: moves %q, want %q", got, want)
	}
}

// A test run that failed ran against the upgrade: the risk says the
// verification failed, never also "no test ran" (antfu/pnpm-workspace-utils,
// jsonc-eslint-parser 3: vitest 14 passed, 62 failed). A run that executed
// no test (every suite failed to load) did not.
func TestRiskCountsFailedTestRunsAsRun(t *testing.T) {
	const none = "no test ran against the upgrade"
	for _, tc := range []struct {
		name   string
		result verify.TestResult
		none   bool
	}{
		{"passed", verify.TestResult{Status: model.TestPassed, Passed: 3}, false},
		{"some failed", verify.TestResult{Status: model.TestFailed, Passed: 14, Failed: 62}, false},
		{"no test executed", verify.TestResult{Status: model.TestFailed}, true},
	} {
		r := &Report{Status: StatusFailed, Reason: "tests failing", From: "2.4.2", To: "3.3.0"}
		r.Tests.Results = []verify.TestResult{tc.result}
		got := risk(r)
		if has := strings.Contains(strings.Join(got.Why, "\n"), none); has != tc.none {
			t.Errorf("%s: risk %q says %q: %v, want %v", tc.name, got.Why, none, has, tc.none)
		}
	}
}

// A site the runtime probe judged breaking in a file the repository does
// not type-check (plain JavaScript, no tsconfig: fix's compile is skipped)
// is a site left, although check's own compile gave it evidence: before,
// hagopj13/node-express-boilerplate's http-status 2 fix listed none of
// check's 133 breaking sites. Once fix's compile reports its error, it is
// listed there, once.
func TestSitesLeftKeepsWhatOnlyTheProbeSaw(t *testing.T) {
	ev := model.Diagnostic{File: "src/app.js", Line: 58, Code: 2339, Message: "Property 'NOT_FOUND' does not exist"}
	rep := model.PackageReport{Findings: []model.Finding{{
		ID: "f1", Severity: model.Breaking, Change: "removed", File: "src/app.js", Line: 58, Evidence: []model.Diagnostic{ev},
		Runtime: []model.RuntimeChange{{Kind: model.RuntimeKeyRemoved, Loader: model.LoaderRequire, Key: "NOT_FOUND"}},
	}}}
	for _, tc := range []struct {
		name string
		diag []model.Diagnostic
	}{{"not compiled", nil}, {"compiled", []model.Diagnostic{ev}}} {
		got := sitesLeft([]model.PackageReport{rep}, tc.diag, nil, nil, nil)
		if len(got) != 1 || got[0].File != "src/app.js" || got[0].Line != 58 || got[0].Finding != "f1" {
			t.Errorf("%s: sites %+v, want src/app.js:58 once", tc.name, got)
		}
	}
}
