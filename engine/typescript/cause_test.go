package typescript

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// tracedCompile installs the packages (and the ones only installed) at
// 1.0.0 in testdata/compile/<repo>, checks the packages against 2.0.0
// together, and returns every new diagnostic
// ("file:line TScode") with the root the driver traced it to ("-" for none).
func tracedCompile(t *testing.T, repo string, only []string, packages ...string) map[string]string {
	t.Helper()
	a := sharedAdapter(t)
	ctx := context.Background()
	var installed []string
	for _, p := range only {
		installed = append(installed, p+"@1.0.0")
	}
	var targets []LinkedPackage
	for _, p := range packages {
		installed = append(installed, p+"@1.0.0")
		targets = append(targets, LinkedPackage{Name: p, Dir: fixturePkg(p, "2.0.0")})
	}
	dir := fixtureRepo(t, repo, installed...)
	ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: dir, TempDir: t.TempDir(), Targets: targets})
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Cleanup()
	r, err := a.Compile(ctx, CompileRequest{RepoRoot: dir, Overlay: ov})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range r.New {
		got[fmt.Sprintf("%s:%d TS%d", d.File, d.Line, d.Code)] = rootSummary(d.Root)
		if d.Root != nil && d.Root.Workspace != d.Workspace {
			t.Errorf("%s:%d root workspace %q, want the compile's %q", d.File, d.Line, d.Root.Workspace, d.Workspace)
		}
	}
	return got
}

// TestCompileTracesRoots runs the tracer on real compiles, one package per
// root kind: causes upgrades them all at once; causes-props only refkit,
// whose Ref its components' props name (a JSX element type-checks its
// props only while the JSX namespace is there).
func TestCompileTracesRoots(t *testing.T) {
	compiles := map[string]map[string]string{
		"causes":       tracedCompile(t, "causes", nil, "reactish", "refkit", "matchkit", "rowkit", "errkit", "globkit"),
		"causes-props": tracedCompile(t, "causes-props", []string{"reactish"}, "refkit"),
	}
	tests := []struct {
		kind model.CauseKind
		name string
		repo string
		diag string
		root string
	}{
		{model.CauseConfig, "every element errors without the global JSX namespace: the jsx line of the tsconfig the workspace extends",
			"causes", "src/view.tsx:2 TS7026", `config tsconfig.base.json:3:5 jsx "jsx": "react" with no jsxImportSource reads the global JSX namespace, which the target no longer declares`},
		{model.CauseParameter, "an argument the repository's parameter typed with the package's Ref rejects (first site)",
			"causes", "src/wheel-a.ts:3 TS2345", "parameter src/hooks.ts:5:26 useWheel(ref)"},
		{model.CauseParameter, "the second site traces to the same parameter",
			"causes", "src/wheel-b.ts:3 TS2345", "parameter src/hooks.ts:5:26 useWheel(ref)"},
		{model.CauseParameter, "a JSX attribute the repository's prop typed with the package's Ref rejects",
			"causes-props", "src/page-a.tsx:4 TS2322", "parameter src/panel.tsx:6:32 Panel(target)"},
		{model.CauseParameter, "the second element traces to the same prop",
			"causes-props", "src/page-b.tsx:4 TS2322", "parameter src/panel.tsx:6:32 Panel(target)"},
		{model.CauseAugmentation, "a member the repository's declare module added, gone with the interface it merged into",
			"causes", "src/shot.ts:2 TS2339", "augmentation src/setup.ts:3:13 Matchers#toMatchShot in its declare module \"matchkit\" block"},
		{model.CauseAugmentation, "a member the repository's declare global added to an interface the package no longer uses: the block",
			"causes", "src/kit.ts:2 TS2339", "augmentation src/globals.ts:2:1 Kit#shot in its declare global block"},
		{model.CauseDeclaration, "unknown flows from a repository function whose type changed (first site)",
			"causes", "src/rows-a.ts:3 TS18046", "declaration src/make.ts:2:17 make whose type changed from () => Rows to () => unknown"},
		{model.CauseDeclaration, "the second site traces to the same function",
			"causes", "src/rows-b.ts:3 TS18046", "declaration src/make.ts:2:17 make whose type changed from () => Rows to () => unknown"},
		{model.CauseUsage, "a callback parameter is implicitly any because a member three receivers up is gone: the usage of that member",
			"causes", "src/err.ts:2 TS7006", "usage src/err.ts:2:40 check(1).error.errors which the target no longer declares"},
		{model.CauseUsage, "a destructured callback parameter (TS7031) traces the same way",
			"causes", "src/err.ts:3 TS7031", "usage src/err.ts:3:16 check(2).error.errors which the target no longer declares"},
		{"", "the removed member's own error is its site, not traced",
			"causes", "src/err.ts:2 TS2339", "-"},
		{"", "the removed member's own error is its site, not traced (second line)",
			"causes", "src/err.ts:3 TS2339", "-"},
		{"", "unknown straight from the package's call: the site is never its own cause",
			"causes", "src/rows-c.ts:2 TS2571", "-"},
	}
	seen := map[string]int{}
	for _, tt := range tests {
		t.Run(string(tt.kind)+"/"+tt.name, func(t *testing.T) {
			got := compiles[tt.repo]
			root, ok := got[tt.diag]
			if !ok {
				t.Fatalf("no new diagnostic %s in %s; got %s", tt.diag, tt.repo, summary(got))
			}
			if root != tt.root {
				t.Errorf("%s root\n got %s\nwant %s", tt.diag, root, tt.root)
			}
		})
		seen[tt.repo]++
	}
	for repo, got := range compiles {
		if len(got) != seen[repo] {
			t.Errorf("%s: %d new diagnostics, want %d: %s", repo, len(got), seen[repo], summary(got))
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

// FuzzDriverRoot: whatever root a driver answers with, the client keeps it
// only when it names a repository place, and never panics.
func FuzzDriverRoot(f *testing.F) {
	f.Add(`{"file":"src/err.ts","line":2,"column":52,"code":7006,"message":"m","root":{"kind":"usage","file":"src/err.ts","line":2,"column":40,"name":"check(1).error.errors","detail":"which the target no longer declares"}}`)
	f.Add(`{"file":"src/view.tsx","line":2,"code":7026,"root":{"kind":"config","file":"tsconfig.base.json","line":3,"column":5,"name":"jsx"}}`)
	f.Add(`{"file":"a.ts","root":{"kind":"declaration","file":"../x.ts","line":1,"column":1,"name":"make"}}`)
	f.Add(`{"file":"a.ts","root":null}`)
	f.Fuzz(func(t *testing.T, data string) {
		var d model.Diagnostic
		if json.Unmarshal([]byte(data), &d) != nil {
			return
		}
		ds := withRoots(withWorkspace([]model.Diagnostic{d}, "ws"), "ws")
		if r := ds[0].Root; r != nil {
			if !validRoot(*r) || r.Workspace != "ws" {
				t.Fatalf("kept %+v", r)
			}
			if strings.Contains(r.File, "..") && slices.Contains(strings.Split(r.File, "/"), "..") {
				t.Fatalf("kept a root above the repository: %+v", r)
			}
		}
	})
}
