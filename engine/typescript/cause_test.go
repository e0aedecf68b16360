package typescript

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// causePackages are installed at 1.0.0 in testdata/compile/causes and
// checked against 2.0.0 together, one package per root kind.
var causePackages = []string{"reactish", "refkit", "matchkit", "rowkit", "errkit"}

// TestCompileTracesRoots runs the tracer on a real compile: every new
// diagnostic of the fixture, with the root the driver traced it to ("-"
// for none).
func TestCompileTracesRoots(t *testing.T) {
	a := sharedAdapter(t)
	ctx := context.Background()
	var installed []string
	var targets []LinkedPackage
	for _, p := range causePackages {
		installed = append(installed, p+"@1.0.0")
		targets = append(targets, LinkedPackage{p, fixturePkg(p, "2.0.0")})
	}
	repo := fixtureRepo(t, "causes", installed...)
	ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: repo, TempDir: t.TempDir(), Targets: targets})
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Cleanup()
	r, err := a.Compile(ctx, CompileRequest{RepoRoot: repo, Overlay: ov})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range r.New {
		got[fmt.Sprintf("%s:%d TS%d", d.File, d.Line, d.Code)] = rootSummary(d.Root)
	}
	tests := []struct {
		kind model.CauseKind
		name string
		diag string
		root string
	}{
		{model.CauseConfig, "every element errors without the global JSX namespace: the jsx line of the tsconfig the workspace extends",
			"src/view.tsx:2 TS7026", `config tsconfig.base.json:3:5 jsx "jsx": "react" with no jsxImportSource reads the global JSX namespace, which the target no longer declares`},
		{model.CauseParameter, "an argument the repository's parameter typed with the package's Ref rejects (first site)",
			"src/wheel-a.ts:3 TS2345", "parameter src/hooks.ts:5:26 useWheel(ref)"},
		{model.CauseParameter, "the second site traces to the same parameter",
			"src/wheel-b.ts:3 TS2345", "parameter src/hooks.ts:5:26 useWheel(ref)"},
		{model.CauseAugmentation, "a member the repository's declare module added, gone with the interface it merged into",
			"src/shot.ts:2 TS2339", "augmentation src/setup.ts:3:13 Matchers#toMatchShot in its declare module \"matchkit\" block"},
		{model.CauseDeclaration, "unknown flows from a repository function whose type changed (first site)",
			"src/rows-a.ts:3 TS18046", "declaration src/make.ts:2:17 make whose type changed from () => Rows to () => unknown"},
		{model.CauseDeclaration, "the second site traces to the same function",
			"src/rows-b.ts:3 TS18046", "declaration src/make.ts:2:17 make whose type changed from () => Rows to () => unknown"},
		{model.CauseUsage, "a callback parameter is implicitly any because a member three receivers up is gone: the usage of that member",
			"src/err.ts:2 TS7006", "usage src/err.ts:2:40 check(1).error.errors which the target no longer declares"},
		{"", "the removed member's own error is its site, not traced",
			"src/err.ts:2 TS2339", "-"},
		{"", "unknown straight from the package's call: the site is never its own cause",
			"src/rows-c.ts:2 TS2571", "-"},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind)+"/"+tt.name, func(t *testing.T) {
			root, ok := got[tt.diag]
			if !ok {
				t.Fatalf("no new diagnostic %s; got %s", tt.diag, summary(got))
			}
			if root != tt.root {
				t.Errorf("%s root\n got %s\nwant %s", tt.diag, root, tt.root)
			}
		})
	}
	if len(got) != len(tests) {
		t.Errorf("%d new diagnostics, want %d: %s", len(got), len(tests), summary(got))
	}
	for _, d := range r.New {
		if d.Root != nil && d.Root.Workspace != d.Workspace {
			t.Errorf("%s:%d root workspace %q, want the compile's %q", d.File, d.Line, d.Root.Workspace, d.Workspace)
		}
	}
}

func rootSummary(r *model.Root) string {
	if r == nil {
		return "-"
	}
	s := fmt.Sprintf("%s %s:%d:%d %s", r.Kind, r.File, r.Line, r.Column, r.Name)
	if r.Detail != "" {
		s += " " + r.Detail
	}
	return s
}

func summary(m map[string]string) string {
	var out []string
	for k, v := range m {
		out = append(out, k+" → "+v)
	}
	sort.Strings(out)
	return "\n  " + strings.Join(out, "\n  ")
}

func TestWithRootsKeepsRepositoryPlaces(t *testing.T) {
	tests := []struct {
		name string
		root model.Root
		keep bool
	}{
		{"a parameter in the repository", model.Root{Kind: model.CauseParameter, File: "src/hooks.ts", Line: 5, Column: 26, Name: "useWheel(ref)"}, true},
		{"a usage", model.Root{Kind: model.CauseUsage, File: "src/err.ts", Line: 2, Column: 40, Name: "r.error.errors"}, true},
		{"a kind this engine does not know", model.Root{Kind: "guess", File: "src/a.ts", Line: 1, Column: 1, Name: "x"}, false},
		{"an absolute path outside the repository", model.Root{Kind: model.CauseConfig, File: "/etc/tsconfig.json", Line: 1, Column: 1, Name: "jsx"}, false},
		{"a Windows drive path", model.Root{Kind: model.CauseConfig, File: "C:/x/tsconfig.json", Line: 1, Column: 1, Name: "jsx"}, false},
		{"above the repository", model.Root{Kind: model.CauseDeclaration, File: "../other/a.ts", Line: 1, Column: 1, Name: "make"}, false},
		{"inside node_modules", model.Root{Kind: model.CauseDeclaration, File: "node_modules/zod/index.d.ts", Line: 1, Column: 1, Name: "make"}, false},
		{"no line", model.Root{Kind: model.CauseDeclaration, File: "src/a.ts", Column: 1, Name: "make"}, false},
		{"no name", model.Root{Kind: model.CauseDeclaration, File: "src/a.ts", Line: 1, Column: 1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.root
			ds := withRoots(withWorkspace([]model.Diagnostic{{File: "src/a.ts", Line: 1, Column: 1, Code: 7006, Root: &r}}, "web"), "web")
			switch {
			case tt.keep && (ds[0].Root == nil || ds[0].Root.Workspace != "web"):
				t.Errorf("root %+v dropped or without the workspace", ds[0].Root)
			case !tt.keep && ds[0].Root != nil:
				t.Errorf("root %+v kept", ds[0].Root)
			}
			if r.Workspace != "" {
				t.Errorf("the driver's root was modified in place: %+v", r)
			}
		})
	}
}
