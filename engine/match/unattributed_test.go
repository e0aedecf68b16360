package match

import (
	"slices"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func inWorkspace(d model.Diagnostic, ws string) model.Diagnostic { d.Workspace = ws; return d }

// TestUnattributedKeepsWorkspaceAndFile: errors alike in different files
// and workspaces stay apart, each finding at its own workspace and file with
// every diagnostic of that file as evidence; their rule is shared, so the
// plan still groups them per TS code.
func TestUnattributedKeepsWorkspaceAndFile(t *testing.T) {
	msg := func(a, b string) string { return "Type '" + a + "' is not assignable to type '" + b + "'." }
	diags := []model.Diagnostic{
		inWorkspace(diag("packages/web/src/a.ts", 310, 2322, msg("string", "number")), "packages/web"),
		inWorkspace(diag("packages/web/src/a.ts", 720, 2322, msg("Foo", "Bar")), "packages/web"),
		inWorkspace(diag("packages/api/src/b.ts", 120, 2322, msg("Baz", "Qux")), "packages/api"),
		// The compile of the root gives no workspace: the arbiter's is used.
		inWorkspace(diag("src/c.ts", 450, 2322, msg("A", "B")), ""),
	}
	got := Arbitrate(nil, nil, diags, ArbiterOptions{Package: pkg, Workspace: ".", Compile: ran})
	type place struct {
		ws, file string
		lines    []int
	}
	var places []place
	rules, ids := map[string]bool{}, map[string]bool{}
	for _, f := range got {
		p := place{ws: f.Workspace, file: f.File}
		for _, d := range f.Evidence {
			if d.File != f.File || d.Workspace != f.Workspace {
				t.Errorf("finding at %s (%s) holds evidence from %s (%s)", f.File, f.Workspace, d.File, d.Workspace)
			}
			p.lines = append(p.lines, d.Line)
		}
		places = append(places, p)
		rules[f.Rule] = true
		ids[f.ID] = true
		if f.Change != "TS2322" || f.Severity != model.Breaking {
			t.Errorf("finding %s %s, want a breaking TS2322", f.Change, f.Severity)
		}
	}
	want := []place{
		{"packages/api", "packages/api/src/b.ts", []int{1}},
		{"packages/web", "packages/web/src/a.ts", []int{3, 7}},
		{".", "src/c.ts", []int{4}},
	}
	if !slices.EqualFunc(places, want, func(a, b place) bool {
		return a.ws == b.ws && a.file == b.file && slices.Equal(a.lines, b.lines)
	}) {
		t.Fatalf("findings at %+v, want %+v", places, want)
	}
	if len(rules) != 1 {
		t.Errorf("rules %v: errors of one code and message shape share one plan rule", rules)
	}
	if len(ids) != len(got) {
		t.Errorf("ids %v are not one per file", ids)
	}
}

// TestUnattributedIDs: an unattributed finding's id names its file, code
// and message shape, and survives lines moving and other files gaining or
// losing the same error.
func TestUnattributedIDs(t *testing.T) {
	a := diag("src/a.ts", 310, 2322, "Type 'string' is not assignable to type 'number'.")
	idOf := func(file string, diags ...model.Diagnostic) string {
		for _, f := range Arbitrate(nil, nil, diags, ArbiterOptions{Package: pkg, Workspace: ".", Compile: ran}) {
			if f.File == file {
				return f.ID
			}
		}
		t.Fatalf("no finding in %s", file)
		return ""
	}
	moved := a
	moved.Line, moved.Start = 9, 910
	b := diag("src/b.ts", 110, 2322, "Type 'X' is not assignable to type 'Y'.")
	other := diag("src/a.ts", 310, 2345, "Argument of type 'string' is not assignable to parameter of type 'number'.")

	base := idOf("src/a.ts", a)
	if got := idOf("src/a.ts", moved); got != base {
		t.Errorf("moving the error changed the id: %s → %s", base, got)
	}
	// Sorted before src/a.ts's error, another file's error used to lend
	// the group its file and change every id.
	if got := idOf("src/a.ts", a, b); got != base {
		t.Errorf("another file's error changed the id: %s → %s", base, got)
	}
	if idOf("src/b.ts", a, b) == base {
		t.Error("two files share an id")
	}
	if idOf("src/a.ts", other) == base {
		t.Error("two codes share an id")
	}
}
