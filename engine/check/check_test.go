package check

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/modformat"
	"github.com/uptide/uptide/engine/typescript"
)

func TestUsedPaths(t *testing.T) {
	usages := map[string][]model.Usage{
		".":   {{SymbolPath: "z.object", CanonicalPath: "object"}},
		"web": {{SymbolPath: "ZodError#errors", CanonicalPath: "ZodError#errors"}},
	}
	tests := []struct {
		name    string
		changed []string
		want    []string
	}{
		{"a path written at a site", []string{"z.object"}, []string{"z.object"}},
		{"a canonical target", []string{"object"}, []string{"object"}},
		{"an ancestor of a used path", []string{"ZodError"}, []string{"ZodError"}},
		{"a member of a used container", []string{"z.object#shape"}, []string{"z.object#shape"}},
		{"an unrelated path is not asked", []string{"ZodNumber#int", "string"}, nil},
		{"sorted, whatever the input order", []string{"ZodError#errors", "object"}, []string{"ZodError#errors", "object"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := usedPaths(tt.changed, usages); !slices.Equal(got, tt.want) {
				t.Errorf("usedPaths(%v) = %v, want %v", tt.changed, got, tt.want)
			}
		})
	}
}

func TestWithoutConfirmedIsAMultiset(t *testing.T) {
	a := model.Diagnostic{File: "a.ts", Start: 4, Code: 2339, Message: "gone"}
	b := model.Diagnostic{File: "a.ts", Start: 9, Code: 2554, Message: "args"}
	tests := []struct {
		name      string
		diags     []model.Diagnostic
		confirmed []model.Diagnostic
		want      []model.Diagnostic
	}{
		{"nothing confirmed keeps all", []model.Diagnostic{a, b}, nil, []model.Diagnostic{a, b}},
		{"a confirmed one goes", []model.Diagnostic{a, b}, []model.Diagnostic{a}, []model.Diagnostic{b}},
		{"one confirmation removes one copy", []model.Diagnostic{a, a}, []model.Diagnostic{a}, []model.Diagnostic{a}},
		{"lines do not enter the key", []model.Diagnostic{{File: "a.ts", Start: 4, Code: 2339, Message: "gone", Line: 7}}, []model.Diagnostic{a}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			confirmed := map[diagKey]int{}
			for _, d := range tt.confirmed {
				confirmed[keyOfDiag(d)]++
			}
			if got := withoutConfirmed(tt.diags, confirmed); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestIsCompilerOnly(t *testing.T) {
	for change, want := range map[string]bool{
		"TS2345": true, "cause": true, "TS": false, "TSX1": false, "removed": false, "module-format": false,
	} {
		if got := isCompilerOnly(model.Finding{Change: change}); got != want {
			t.Errorf("isCompilerOnly(%q) = %v, want %v", change, got, want)
		}
	}
}

func TestCompileReport(t *testing.T) {
	judged := func(ws string, asked, compiled, pre, newErrs int, skipped ...typescript.SkippedFile) *wsCompile {
		res := &typescript.CompileResult{Compiler: "the repo's TypeScript 5.4.5", PreExisting: pre,
			Coverage: typescript.CompileCoverage{Asked: asked, Compiled: compiled, Skipped: skipped}}
		for i := 0; i < newErrs; i++ {
			res.New = append(res.New, model.Diagnostic{Code: 2339})
		}
		status := model.StatusAnalyzed
		if len(skipped) > 0 {
			status = model.StatusPartial
		}
		return &wsCompile{ws: ws, ran: true, status: status, res: res}
	}
	tests := []struct {
		name     string
		compiles []*wsCompile
		enabled  bool
		status   model.AnalysisStatus
		line     string
	}{
		{"--no-compile", nil, false, model.StatusSkipped, "compile check skipped (--no-compile): nothing is confirmed"},
		{"one workspace", []*wsCompile{judged(".", 3, 3, 1, 2)}, true, model.StatusAnalyzed,
			"compiled 3 of 3 files with the repo's TypeScript 5.4.5 · 1 pre-existing error"},
		{"workspaces are summed", []*wsCompile{judged("a", 2, 2, 0, 0), judged("b", 1, 1, 2, 0)}, true, model.StatusAnalyzed,
			"compiled 3 of 3 files with the repo's TypeScript 5.4.5 · 2 pre-existing errors"},
		{"a skipped file makes it partial", []*wsCompile{judged(".", 2, 1, 0, 0, typescript.SkippedFile{File: "x.ts", Reason: "outside the tsconfig"})}, true, model.StatusPartial,
			"compiled 1 of 2 files with the repo's TypeScript 5.4.5 · 0 pre-existing errors · 1 skipped"},
		{"nothing uses the package", []*wsCompile{{ws: ".", ran: true, status: model.StatusSkipped, reason: "no file in the root workspace uses the package"}}, true, model.StatusSkipped,
			"not compiled: no file uses the package"},
		{"an overlay that could not run", []*wsCompile{{ws: ".", status: model.StatusNotAnalyzed, reason: "linking the targets: boom", files: []string{"a.ts"}}}, true, model.StatusNotAnalyzed,
			"not compiled: linking the targets: boom"},
		{"nothing to judge: the declarations stay", []*wsCompile{{ws: ".", settled: true, status: model.StatusSkipped, reason: "@types/x has no release for x 2.0.0 other than 1.0.0: the compiler has nothing to judge", files: []string{"a.ts"}}}, true, model.StatusSkipped,
			"not compiled: @types/x has no release for x 2.0.0 other than 1.0.0: the compiler has nothing to judge"},
		{"skipped without a compile", []*wsCompile{{ws: ".", status: model.StatusSkipped, reason: "boom", files: []string{"a.ts"}}}, true, model.StatusNotAnalyzed,
			"not compiled: boom"},
		{"one of two workspaces failed", []*wsCompile{judged("a", 1, 1, 0, 0), {ws: "b", status: model.StatusNotAnalyzed, reason: "boom", files: []string{"b/x.ts"}}}, true, model.StatusPartial,
			"compiled 1 of 2 files with the repo's TypeScript 5.4.5 · 0 pre-existing errors"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := compileReport(tt.compiles, tt.enabled)
			if r.Status != tt.status || r.Line != tt.line {
				t.Errorf("status %q line %q, want %q %q", r.Status, r.Line, tt.status, tt.line)
			}
			if r.Skipped == nil {
				t.Error("skipped is nil: absence must be an empty list")
			}
		})
	}
}

func TestFormatFindingsOnePerFile(t *testing.T) {
	fr := modformat.FormatReport{StopsRequire: true, Entries: []modformat.EntryFormat{{Subpath: ".", StopsRequire: true, NotRequirable: true, Reason: "pkg@2 gives require() nothing"}}}
	site := func(file string, line int, loader model.Loader) model.Usage {
		return model.Usage{Workspace: ".", File: file, Line: line, Column: 1, SymbolPath: "f", CanonicalPath: "f", Access: model.AccessCall, Loader: loader, Subpath: "."}
	}
	sites := []model.Usage{
		site("a.js", 3, model.LoaderRequire), site("a.js", 9, model.LoaderRequire),
		site("b.ts", 1, model.LoaderImport), // import() loads ESM everywhere
		site("c.js", 2, model.LoaderRequire),
	}
	got := formatFindings("pkg", fr, sites, nil, nil, modformat.NodeInfo{}, nil)
	if len(got) != 2 {
		t.Fatalf("%d findings, want one per file that requires the package: %+v", len(got), got)
	}
	a := got[0]
	if a.File != "a.js" || a.Line != 3 || len(a.Sites) != 2 || a.Severity != model.Breaking || a.Change != changeModuleFormat {
		t.Errorf("a.js finding %+v", a)
	}
	if !strings.Contains(a.Reason, "2 require() sites") || a.Fixability != model.Manual {
		t.Errorf("a.js reason %q, fixability %s", a.Reason, a.Fixability)
	}
	if got[1].File != "c.js" {
		t.Errorf("second finding in %s, want c.js", got[1].File)
	}
}

func TestVerifyInstall(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("node_modules/zod/package.json", `{"name":"zod","version":"3.25.76"}`)
	write("packages/web/node_modules/zod/package.json", `{"name":"zod","version":"3.22.4"}`)
	row := func(name, installed string, ws ...string) member {
		return member{row: model.DependencyRow{Name: name, Package: name, Installed: installed, InstalledSource: model.FromLockfile, Workspaces: ws}}
	}
	tests := []struct {
		name    string
		members []member
		want    string // "" for no error
	}{
		{"hoisted copy at the lockfile's version", []member{row("zod", "3.25.76", ".", "packages/api")}, ""},
		{"a workspace's own copy wins", []member{row("zod", "3.22.4", "packages/web")}, ""},
		{"stale", []member{row("zod", "3.25.76", "packages/web")}, "zod (packages/web) 3.22.4 in node_modules, 3.25.76 in the lockfile"},
		{"missing", []member{row("react", "18.3.1", ".")}, "node_modules does not hold react"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &checker{root: root, disc: &model.DiscoverReport{Repository: model.RepoSummary{PackageManager: "npm", Lockfile: "package-lock.json"}}}
			err := c.verifyInstall([]unit{{lead: tt.members[0], members: tt.members}})
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "run npm install first")):
				t.Errorf("error %v, want it to say %q and what to run", err, tt.want)
			}
		})
	}
}

func TestExcludesOnlyWorkspacesBelow(t *testing.T) {
	c := &checker{root: "/repo", disc: &model.DiscoverReport{Rows: []model.DependencyRow{
		{Name: "zod", Installed: "3.25.76", Workspaces: []string{".", "packages/api"}},
		{Name: "zod", Installed: "3.22.4", Workspaces: []string{"packages/web"}},
		{Name: "react", Installed: "18.3.1", Workspaces: []string{"packages/ui"}},
	}}}
	if got, want := c.excludes("zod", "."), []string{"/repo/packages/api", "/repo/packages/web"}; !slices.Equal(got, want) {
		t.Errorf("root excludes %v, want %v", got, want)
	}
	if got := c.excludes("zod", "packages/web"); len(got) != 0 {
		t.Errorf("a leaf workspace excludes %v, want nothing (the root is above it)", got)
	}
}

func TestUnusedTargets(t *testing.T) {
	m := func(name, pkg string) member { return member{row: model.DependencyRow{Name: name, Package: pkg}} }
	units := []unit{{members: []member{m("zod", "zod"), m("legacy", "zod-legacy")}}}
	tests := []struct {
		targets map[string]string
		want    []string
	}{
		{nil, []string{}},
		{map[string]string{"zod": "4"}, []string{}},
		{map[string]string{"zod-legacy": "2"}, []string{}}, // the registry name behind an alias
		{map[string]string{"react": "19", "zod": "4", "ai": "4"}, []string{
			"--target ai@4 was not used: ai is not among the packages checked",
			"--target react@19 was not used: react is not among the packages checked",
		}},
	}
	for _, tt := range tests {
		if got := unusedTargets(tt.targets, units); !slices.Equal(got, tt.want) {
			t.Errorf("unusedTargets(%v) = %q, want %q", tt.targets, got, tt.want)
		}
	}
}

func TestAllAtTarget(t *testing.T) {
	m := func(installed, target, reason string) member {
		return member{row: model.DependencyRow{Installed: installed}, target: target, reason: reason}
	}
	tests := []struct {
		name string
		u    unit
		want bool
	}{
		{"alone at its target", unit{members: []member{m("1.0.0", "1.0.0", "")}}, true},
		{"a group where one member moves", unit{members: []member{m("1.0.0", "1.0.0", ""), m("1.0.0", "1.1.0", "")}}, false},
		{"a bad --target is not up to date", unit{members: []member{m("1.0.0", "1.0.0", "no such version")}}, false},
	}
	for _, tt := range tests {
		if got := allAtTarget(tt.u); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
