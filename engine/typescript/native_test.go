package typescript

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

func TestParseNativeOutput(t *testing.T) {
	tests := []struct {
		name string
		out  string
		want []nativeDiag
	}{
		{
			name: "located errors, relative to the process's directory",
			out: "src/index.ts(6,45): error TS2339: Property 'errors' does not exist on type 'ZodError<unknown>'.\n" +
				"../outside/x.ts(1,1): error TS2307: Cannot find module 'zod/mini' or its corresponding type declarations.\n",
			want: []nativeDiag{
				{File: "src/index.ts", Line: 6, Column: 45, Category: "error", Code: 2339, Message: "Property 'errors' does not exist on type 'ZodError<unknown>'."},
				{File: "../outside/x.ts", Line: 1, Column: 1, Category: "error", Code: 2307, Message: "Cannot find module 'zod/mini' or its corresponding type declarations."},
			},
		},
		{
			name: "a message chain continues on indented lines",
			out: "src/a.ts(3,3): error TS2345: Argument of type '{ a: { b: string; }; }' is not assignable to parameter of type '{ a: { b: number; }; }'.\n" +
				"  The types of 'a.b' are incompatible between these types.\n" +
				"    Type 'string' is not assignable to type 'number'.\n" +
				"src/a.ts(4,1): error TS2304: Cannot find name 'x'.\n",
			want: []nativeDiag{
				{File: "src/a.ts", Line: 3, Column: 3, Category: "error", Code: 2345, Message: "Argument of type '{ a: { b: string; }; }' is not assignable to parameter of type '{ a: { b: number; }; }'.\n  The types of 'a.b' are incompatible between these types.\n    Type 'string' is not assignable to type 'number'."},
				{File: "src/a.ts", Line: 4, Column: 1, Category: "error", Code: 2304, Message: "Cannot find name 'x'."},
			},
		},
		{
			name: "global errors have no location, and chains too",
			out: "error TS2688: Cannot find type definition file for 'nonexistent'.\r\n" +
				"  The file is in the program because:\r\n" +
				"    Entry point of type library 'nonexistent' specified in compilerOptions\r\n" +
				"error TS6053: File '/nope/x.ts' not found.\n",
			want: []nativeDiag{
				{Category: "error", Code: 2688, Message: "Cannot find type definition file for 'nonexistent'.\n  The file is in the program because:\n    Entry point of type library 'nonexistent' specified in compilerOptions"},
				{Category: "error", Code: 6053, Message: "File '/nope/x.ts' not found."},
			},
		},
		{
			name: "a path with parentheses; a summary and blank lines are not diagnostics",
			out: "\nsrc/(group)/page.tsx(2,10): error TS2322: Type 'string' is not assignable to type 'number'.\n\n" +
				"Found 1 error in src/(group)/page.tsx:2\n",
			want: []nativeDiag{
				{File: "src/(group)/page.tsx", Line: 2, Column: 10, Category: "error", Code: 2322, Message: "Type 'string' is not assignable to type 'number'."},
			},
		},
		{
			name: "nothing before the first diagnostic continues it",
			out:  "  stray indented line\nwarning TS6385: 'x' is deprecated.\n",
			want: []nativeDiag{{Category: "warning", Code: 6385, Message: "'x' is deprecated."}},
		},
		{name: "no output", out: "", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseNativeOutput([]byte(tt.out))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestParseNativeOutputRejectsOutOfRange(t *testing.T) {
	out := "ok.ts(1,1): error TS1: fine\nsrc/a.ts(99999999999999999999,1): error TS2322: x\n"
	_, err := parseNativeOutput([]byte(out))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("err %v, want one naming output line 2", err)
	}
}

func TestLineStartsAndOffsets(t *testing.T) {
	tests := []struct {
		name         string
		text         string
		line, column int
		want         int
	}{
		{"first line", "abc\ndef\n", 1, 2, 1},
		{"second line", "abc\ndef\n", 2, 3, 6},
		{"CRLF counts both", "ab\r\ncd", 2, 1, 4},
		{"lone CR is a break", "ab\rcd", 2, 2, 4},
		{"a byte order mark is not counted", "\ufeffconst q = 1;\nx", 2, 1, 13},
		{"characters outside the BMP take two units", "const s = \"h\u00e9llo \U0001F600\"; const n: number = s;\nx", 1, 29, 28},
		{"U+2028 and U+2029 break lines", "a\u2028b\u2029c", 3, 1, 4},
		{"a column past its line stops at the line's end", "ab\ncd", 1, 50, 2},
		{"a line past the text is its last line's start", "ab\ncd", 9, 1, 3},
		{"line 0 is the start", "ab", 0, 5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := offsetOf(lineStarts([]byte(tt.text)), tt.line, tt.column); got != tt.want {
				t.Errorf("offset of %d:%d = %d, want %d", tt.line, tt.column, got, tt.want)
			}
		})
	}
}

func TestNewOnlyDiags(t *testing.T) {
	d := func(file string, start, code int, msg string) model.Diagnostic {
		return model.Diagnostic{File: file, Start: start, Code: code, Message: msg}
	}
	tests := []struct {
		name       string
		base, over []model.Diagnostic
		want       []model.Diagnostic
	}{
		{
			name: "an error the baseline has is not new, wherever it moved",
			base: []model.Diagnostic{d("a.ts", 10, 2322, "m")},
			over: []model.Diagnostic{d("a.ts", 40, 2322, "m")},
			want: []model.Diagnostic{},
		},
		{
			name: "a multiset: the second copy is new, and the one that moved is the one reported",
			base: []model.Diagnostic{d("a.ts", 10, 2554, "m")},
			over: []model.Diagnostic{d("a.ts", 30, 2554, "m"), d("a.ts", 10, 2554, "m")},
			want: []model.Diagnostic{d("a.ts", 30, 2554, "m")},
		},
		{
			name: "file, code and message all count",
			base: []model.Diagnostic{d("a.ts", 1, 2322, "m"), d("b.ts", 1, 2554, "n")},
			over: []model.Diagnostic{d("b.ts", 1, 2322, "m"), d("b.ts", 1, 2554, "other"), d("", 0, 2688, "g")},
			want: []model.Diagnostic{d("", 0, 2688, "g"), d("b.ts", 1, 2322, "m"), d("b.ts", 1, 2554, "other")},
		},
		{
			name: "gone errors are not reported",
			base: []model.Diagnostic{d("a.ts", 1, 2322, "m")},
			over: nil,
			want: []model.Diagnostic{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, newOnlyDiags(tt.base, tt.over)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestMergePaths(t *testing.T) {
	tests := []struct {
		name            string
		workspace, side map[string][]string
		want            map[string][]string
	}{
		{"none", nil, nil, map[string][]string{}},
		{
			name:      "the workspace's are kept and the side's added",
			workspace: map[string][]string{"@/*": {"/repo/src/*"}},
			side:      map[string][]string{"zod": {"/tmp/o/node_modules/zod/index.d.cts"}, "zod/v4": {"/tmp/o/node_modules/zod/v4/index.d.cts"}},
			want: map[string][]string{
				"@/*": {"/repo/src/*"}, "zod": {"/tmp/o/node_modules/zod/index.d.cts"}, "zod/v4": {"/tmp/o/node_modules/zod/v4/index.d.cts"},
			},
		},
		{
			name:      "a name the repository maps itself keeps its mapping",
			workspace: map[string][]string{"zod": {"/repo/shims/zod.ts"}},
			side:      map[string][]string{"zod": {"/tmp/o/node_modules/zod/index.d.cts"}},
			want:      map[string][]string{"zod": {"/repo/shims/zod.ts"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mergePaths(tt.workspace, tt.side)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if len(tt.workspace) > 0 {
				for _, v := range got {
					v[0] = "changed"
				}
				for k, v := range tt.workspace {
					if v[0] == "changed" {
						t.Errorf("merge shares the workspace's %s list", k)
					}
				}
			}
		})
	}
}

func TestNativeTSConfig(t *testing.T) {
	unit := nativeUnit{
		Config:    "/repo/tsconfig.json",
		Files:     []string{"/repo/src/b.ts"},
		Roots:     []string{"/repo/src/b.ts", "/repo/src/a.d.ts"},
		Paths:     map[string][]string{"@/*": {"/repo/src/*"}},
		TypeRoots: []string{"/repo/node_modules/@types"},
		RootDirs:  []string{"/repo/src", "/repo/generated"},
	}
	unit.Sides = map[string]struct {
		Paths map[string][]string `json:"paths"`
	}{"overlay": {Paths: map[string][]string{"react": {"/tmp/o/node_modules/@types/react/index.d.ts"}}}}
	side := &nativeSide{Name: "overlay", Root: "/tmp/o", TypeRoot: "/tmp/o/typeroots"}

	tests := []struct {
		name    string
		unit    nativeUnit
		side    *nativeSide
		options map[string]any
	}{
		{
			name: "installed side: the workspace's paths and type roots, nothing emitted",
			unit: unit,
			options: map[string]any{
				"typeRoots": []any{"/repo/node_modules/@types"},
				"paths":     map[string]any{"@/*": []any{"/repo/src/*"}},
				"rootDirs":  []any{"/repo/src", "/repo/generated"},
			},
		},
		{
			name: "overlay side: its type root first and its paths merged",
			unit: unit, side: side,
			options: map[string]any{
				"typeRoots": []any{"/tmp/o/typeroots", "/repo/node_modules/@types"},
				"rootDirs":  []any{"/repo/src", "/repo/generated"},
				"paths": map[string]any{
					"@/*": []any{"/repo/src/*"}, "react": []any{"/tmp/o/node_modules/@types/react/index.d.ts"},
				},
			},
		},
		{
			name: "JavaScript is checked where the workspace allows it; no paths at all without any",
			unit: nativeUnit{Roots: []string{"/repo/a.js"}, AllowJs: true},
			options: map[string]any{
				"typeRoots": []any{}, "allowJs": true, "checkJs": true,
			},
		},
		{
			name: "no tsconfig above: the driver's defaults for such a program skip lib checks",
			unit: nativeUnit{Roots: []string{"/repo/a.js"}, AllowJs: true, SkipLibCheck: true},
			options: map[string]any{
				"typeRoots": []any{}, "allowJs": true, "checkJs": true, "skipLibCheck": true,
			},
		},
		{
			name: "no tsconfig at all: modules resolve as Node loads them",
			unit: nativeUnit{Roots: []string{"/repo/a.js"}, AllowJs: true, SkipLibCheck: true, NoConfig: true},
			options: map[string]any{
				"typeRoots": []any{}, "allowJs": true, "checkJs": true, "skipLibCheck": true,
				"module": "nodenext", "moduleResolution": "nodenext",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := nativeTSConfig(tt.unit, tt.side)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			want := map[string]any{
				"files":   toAny(sorted(tt.unit.Roots)),
				"include": []any{},
			}
			if tt.unit.Config != "" {
				want["extends"] = tt.unit.Config
			}
			opts := map[string]any{
				"noEmit": true, "composite": false, "incremental": false, "tsBuildInfoFile": nil, "outFile": nil,
				"declaration": false, "emitDeclarationOnly": false, "declarationMap": false, "sourceMap": false, "inlineSourceMap": false,
			}
			for k, v := range tt.options {
				opts[k] = v
			}
			want["compilerOptions"] = opts
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

func toAny(xs []string) []any {
	out := []any{}
	for _, x := range xs {
		out = append(out, x)
	}
	return out
}

func TestMaterialize(t *testing.T) {
	ctx := context.Background()
	ws := fixtureRepo(t, "basic", "fakepkg@1.0.0", "helper@2.0.0")
	// A target with JavaScript, a nested declaration, a map file and a
	// README beside its declarations.
	target := copyDir(t, fixturePkg("fakepkg", "2.0.0"))
	for name, text := range map[string]string{
		"index.js": "module.exports = {};\n", "sub/package.json": `{"types": "x.d.ts"}`, "sub/x.d.ts": "export {};\n",
		"index.d.ts.map": "{}", "README.md": "#",
	} {
		p := filepath.Join(target, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ov, err := BuildOverlay(ctx, OverlayRequest{
		Workspace: ws, TempDir: t.TempDir(),
		Targets:    []LinkedPackage{{Name: "fakepkg", Dir: target}},
		Companions: []LinkedPackage{{Name: "@types/legacy-lib", Dir: fixturePkg("@types/legacy-lib", "2.0.0")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Cleanup()
	dir := filepath.Join(t.TempDir(), "overlay")
	side, err := materialize(ov, "overlay", dir)
	if err != nil {
		t.Fatal(err)
	}
	nm := filepath.Join(dir, "node_modules")
	kind := func(p string) string {
		st, err := os.Lstat(p)
		switch {
		case err != nil:
			return "missing"
		case st.Mode()&os.ModeSymlink != 0:
			return "link"
		case st.IsDir():
			return "dir"
		default:
			return "file"
		}
	}
	want := map[string]string{
		// Copies: what tsc reads as TypeScript and every package.json, so
		// resolution inside them stays inside the copy.
		"node_modules/fakepkg":                         "dir",
		"node_modules/fakepkg/package.json":            "file",
		"node_modules/fakepkg/index.d.ts":              "file",
		"node_modules/fakepkg/sub/package.json":        "file",
		"node_modules/fakepkg/sub/x.d.ts":              "file",
		"node_modules/@types/legacy-lib/index.d.ts":    "file",
		"node_modules/fakepkg/index.js":                "link",
		"node_modules/fakepkg/index.d.ts.map":          "missing",
		"node_modules/fakepkg/README.md":               "missing",
		"typeroots/legacy-lib":                         "link",
		"node_modules/helper":                          "link", // the consumer's helper@2 satisfies fakepkg's range
		"node_modules/@types/legacy-lib/package.json":  "file",
		"node_modules/@types/legacy-lib/nonexistent.x": "missing",
	}
	for p, k := range want {
		if got := kind(filepath.Join(dir, filepath.FromSlash(p))); got != k {
			t.Errorf("%s is %s, want %s", p, got, k)
		}
	}
	if got, _ := os.Readlink(filepath.Join(nm, "helper")); got != realPath(t, filepath.Join(ws, "node_modules", "helper")) {
		t.Errorf("helper links to %q, want the consumer's copy", got)
	}
	if side.TypeRoot != filepath.Join(dir, "typeroots") {
		t.Errorf("type root %q", side.TypeRoot)
	}
	if got, _ := filepath.EvalSymlinks(filepath.Join(side.TypeRoot, "legacy-lib")); got != filepath.Join(nm, "@types", "legacy-lib") {
		t.Errorf("typeroots/legacy-lib resolves to %q, want the copy", got)
	}
	wantPkgs := []string{"fakepkg", "@types/legacy-lib", "legacy-lib"}
	if !reflect.DeepEqual(side.Packages, wantPkgs) {
		t.Errorf("packages %q, want %q", side.Packages, wantPkgs)
	}
	// Messages and files naming the linked directories read as the
	// overlay's names.
	j := newNativeJudgment(ws, filepath.Dir(dir), side)
	if got := j.msg("import(\"" + filepath.Join(realPath(t, target), "index") + "\").X and " + filepath.Join(nm, "fakepkg", "index.d.ts")); got != "import(\"node_modules/fakepkg/index\").X and node_modules/fakepkg/index.d.ts" {
		t.Errorf("message %q", got)
	}
}

func realPath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNativeClassify(t *testing.T) {
	repo := t.TempDir()
	gen := t.TempDir()
	src := filepath.Join(repo, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "a.ts"), []byte("// \u00e9\U0001F600\nconst x: number = 's';\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "other.ts"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	side := &nativeSide{Name: "overlay", Root: filepath.Join(gen, "overlay"), dirs: map[string]string{}}
	j := newNativeJudgment(repo, gen, side)
	unit := nativeUnit{Config: filepath.Join(repo, "tsconfig.json"), Files: []string{filepath.Join(src, "a.ts")}}
	run := &nativeRun{diags: []nativeDiag{
		{File: "src/a.ts", Line: 2, Column: 7, Category: "error", Code: 2322, Message: "Type '\"s\"' is not assignable to 'import(\"" + side.Root + "/node_modules/zod/index\").T'."},
		{File: "src/other.ts", Line: 1, Column: 1, Category: "error", Code: 2304, Message: "not in scope"},
		{File: filepath.Join(side.Root, "node_modules", "zod", "index.d.ts"), Line: 3, Column: 1, Category: "error", Code: 1005, Message: "';' expected."},
		{File: filepath.Join(gen, "tsconfig.overlay.0.json"), Line: 4, Column: 2, Category: "error", Code: 5023, Message: "Unknown compiler option 'x'."},
		{File: "tsconfig.json", Line: 3, Column: 5, Category: "error", Code: 5101, Message: "Option 'baseUrl' is removed."},
		{Category: "error", Code: 2688, Message: "Cannot find type definition file for 'node'."},
		{File: "src/a.ts", Line: 1, Column: 1, Category: "message", Code: 6000, Message: "not an error"},
	}}
	got := j.classify(run, unit, side)
	want := judged{
		inScope:    []model.Diagnostic{{File: "src/a.ts", Line: 2, Column: 7, Start: 13, Code: 2322, Message: "Type '\"s\"' is not assignable to 'import(\"node_modules/zod/index\").T'."}},
		global:     []model.Diagnostic{{Code: 2688, Message: "Cannot find type definition file for 'node'."}},
		config:     []model.Diagnostic{{File: "tsconfig.json", Code: 5023, Message: "Unknown compiler option 'x'."}, {File: "tsconfig.json", Line: 3, Column: 5, Start: 0, Code: 5101, Message: "Option 'baseUrl' is removed."}},
		sideSyntax: []model.Diagnostic{{File: "node_modules/zod/index.d.ts", Line: 3, Column: 1, Code: 1005, Message: "';' expected."}},
		all:        6, syntax: 1,
	}
	want.gating = []model.Diagnostic{want.config[0], want.config[1], want.global[0]}
	sortGating := func(ds []model.Diagnostic) {
		sort.SliceStable(ds, func(a, b int) bool { return ds[a].Code < ds[b].Code })
	}
	sortGating(got.gating)
	sortGating(want.gating)
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(judged{})); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if got.onlySyntax() {
		t.Error("a run with semantic errors reads as syntax only")
	}
}

// A syntax-coded error inside a copy beside other errors is the checker's
// grammar error in a declaration file (TypeScript 4.1.3's TS1337 on
// @types/express-serve-static-core 5's union index signature, with
// skipLibCheck off): tsc after the real upgrade prints it, so it counts.
func TestNativeJudgedCountsGrammarErrorsInCopies(t *testing.T) {
	grammar := model.Diagnostic{File: "node_modules/@types/express-serve-static-core/index.d.ts", Line: 49, Code: 1337, Message: "An index signature parameter type cannot be a union type."}
	site := model.Diagnostic{File: "src/controllers/user.ts", Line: 215, Code: 2538, Message: "Type 'string[]' cannot be used as an index type."}
	s := judged{inScope: []model.Diagnostic{site}, sideSyntax: []model.Diagnostic{grammar}, all: 2, syntax: 1}
	if s.onlySyntax() {
		t.Fatal("a run with a semantic error reads as syntax only")
	}
	got := s.judged()
	want := []model.Diagnostic{grammar, site}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("judged (-want +got)\n%s", diff)
	}
}

func TestNativePlatformPackage(t *testing.T) {
	tests := []struct {
		pkg, goos, goarch string
		want, exe         string
	}{
		{"typescript", "linux", "amd64", "@typescript/typescript-linux-x64", "tsc"},
		{"typescript", "darwin", "arm64", "@typescript/typescript-darwin-arm64", "tsc"},
		{"typescript", "windows", "amd64", "@typescript/typescript-win32-x64", "tsc.exe"},
		{"typescript", "linux", "ppc64le", "@typescript/typescript-linux-ppc64", "tsc"},
		{"typescript", "solaris", "amd64", "@typescript/typescript-sunos-x64", "tsc"},
		{"@typescript/native-preview", "linux", "arm64", "@typescript/native-preview-linux-arm64", "tsgo"},
	}
	for _, tt := range tests {
		pkg, exe := nativePlatformPackage(tt.pkg, tt.goos, tt.goarch)
		if pkg != tt.want || exe != tt.exe {
			t.Errorf("%s on %s/%s: %s %s, want %s %s", tt.pkg, tt.goos, tt.goarch, pkg, exe, tt.want, tt.exe)
		}
	}
}

func TestNativeTSCFinds(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the layouts below use POSIX modes")
	}
	platformPkg, exe := nativePlatformPackage("typescript", runtime.GOOS, runtime.GOARCH)
	write := func(t *testing.T, p, text string, mode os.FileMode) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	manifest := `{"name": "typescript", "version": "7.0.2"}`
	tests := []struct {
		name string
		// layout writes the install under root and returns the typescript
		// package directory and the executable expected ("" for none).
		layout  func(t *testing.T, root string) (string, string)
		wantErr string
	}{
		{
			name: "npm hoists the platform package beside typescript",
			layout: func(t *testing.T, root string) (string, string) {
				ts := filepath.Join(root, "node_modules", "typescript")
				write(t, filepath.Join(ts, "package.json"), manifest, 0o644)
				bin := filepath.Join(root, "node_modules", filepath.FromSlash(platformPkg), "lib", exe)
				write(t, bin, "#!/bin/sh\n", 0o755)
				return ts, bin
			},
		},
		{
			name: "pnpm links it next to typescript in the virtual store",
			layout: func(t *testing.T, root string) (string, string) {
				store := filepath.Join(root, "node_modules", ".pnpm", "typescript@7.0.2", "node_modules")
				ts := filepath.Join(store, "typescript")
				write(t, filepath.Join(ts, "package.json"), manifest, 0o644)
				bin := filepath.Join(store, filepath.FromSlash(platformPkg), "lib", exe)
				write(t, bin, "#!/bin/sh\n", 0o755)
				return ts, bin
			},
		},
		{
			name: "nested under typescript itself",
			layout: func(t *testing.T, root string) (string, string) {
				ts := filepath.Join(root, "node_modules", "typescript")
				write(t, filepath.Join(ts, "package.json"), manifest, 0o644)
				bin := filepath.Join(ts, "node_modules", filepath.FromSlash(platformPkg), "lib", exe)
				write(t, bin, "#!/bin/sh\n", 0o755)
				return ts, bin
			},
		},
		{
			name: "installed without optional dependencies",
			layout: func(t *testing.T, root string) (string, string) {
				ts := filepath.Join(root, "node_modules", "typescript")
				write(t, filepath.Join(ts, "package.json"), manifest, 0o644)
				return ts, ""
			},
			wantErr: platformPkg + " is not installed",
		},
		{
			name: "a platform file that is not executable",
			layout: func(t *testing.T, root string) (string, string) {
				ts := filepath.Join(root, "node_modules", "typescript")
				write(t, filepath.Join(ts, "package.json"), manifest, 0o644)
				write(t, filepath.Join(root, "node_modules", filepath.FromSlash(platformPkg), "lib", exe), "", 0o644)
				return ts, ""
			},
			wantErr: "is not installed",
		},
		{
			name: "an unreadable manifest",
			layout: func(t *testing.T, root string) (string, string) {
				ts := filepath.Join(root, "node_modules", "typescript")
				write(t, filepath.Join(ts, "package.json"), "{", 0o644)
				return ts, ""
			},
			wantErr: "not a readable package.json",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, want := tt.layout(t, t.TempDir())
			got, err := NativeTSC(ts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("NativeTSC = %q, %v; want an error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != want {
				t.Fatalf("NativeTSC = %q, %v; want %q", got, err, want)
			}
		})
	}
}

// TestNativePlan asks the driver what the generated tsconfigs must say:
// exact files for each specifier of a mapped package (its exports map
// honoured), a missing file for an import the target no longer serves, a
// directory for a package without an exports map, and the workspace's
// paths and type roots made absolute.
func TestNativePlan(t *testing.T) {
	a := sharedAdapter(t)
	repo := t.TempDir()
	files := map[string]string{
		"tsconfig.json":       `{"compilerOptions": {"module": "nodenext", "strict": true, "paths": {"@/*": ["./src/*"]}, "rootDirs": ["${configDir}/src", "gen"]}, "include": ["src"]}`,
		"package.json":        `{"name": "app", "type": "module"}`,
		"src/use.ts":          "import { z } from 'kit';\nimport { m } from 'kit/mini';\nimport { gone } from 'kit/gone';\nimport { p } from 'plain/sub.js';\nexport {};\n",
		"src/other.ts":        "export const o = 1;\n",
		"src/global.d.ts":     "declare const G: number;\n",
		"src/augment.ts":      "declare global { interface Window { x: number } }\nexport {};\n",
		"node_modules/@types": "",
	}
	for p, text := range files {
		full := filepath.Join(repo, filepath.FromSlash(p))
		if text == "" {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	side := filepath.Join(t.TempDir(), "overlay")
	for p, text := range map[string]string{
		"node_modules/kit/package.json": `{"name": "kit", "version": "2.0.0", "exports": {
			".": {"import": {"types": "./esm/index.d.ts"}, "require": {"types": "./cjs/index.d.cts"}},
			"./mini": {"import": {"types": "./esm/mini.d.ts"}, "require": {"types": "./cjs/mini.d.cts"}},
			"./v4": {"types": "./v4.d.ts"}, "./locales/*": "./locales/*.d.ts", "./package.json": "./package.json"}}`,
		"node_modules/kit/esm/index.d.ts":  "export declare const z: number;\n",
		"node_modules/kit/esm/mini.d.ts":   "export declare const m: number;\n",
		"node_modules/kit/cjs/index.d.cts": "export declare const z: number;\n",
		"node_modules/kit/cjs/mini.d.cts":  "export declare const m: number;\n",
		"node_modules/kit/v4.d.ts":         "export {};\n",
		"node_modules/plain/package.json":  `{"name": "plain", "version": "1.0.0", "types": "index.d.ts"}`,
		"node_modules/plain/index.d.ts":    "export {};\n",
		"node_modules/plain/sub.d.ts":      "export declare const p: number;\n",
	} {
		full := filepath.Join(side, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	repo, side = realPath(t, repo), realPath(t, side)
	var plan nativePlanAnswer
	params := nativePlanParams{
		RepoRoot: repo, Workspace: repo, Files: []string{filepath.Join(repo, "src", "use.ts")},
		Sides: []nativeSideParam{{Name: "overlay", Root: side, Packages: []string{"kit", "plain"}}},
		// A workspace dependency's sources; the repository's own mapping
		// of a name wins.
		SourcePaths: map[string][]string{"shared": {"/repo/packages/shared/src/index.ts"}, "@/*": {"/elsewhere/*"}},
	}
	if err := a.call(context.Background(), "native", params, repo, &plan); err != nil {
		t.Fatal(err)
	}
	if plan.Kind != "own" || len(plan.Units) != 1 {
		t.Fatalf("plan %+v, want one unit of the workspace's own tsconfig", plan)
	}
	u := plan.Units[0]
	src := filepath.Join(repo, "src")
	if u.Config != filepath.Join(repo, "tsconfig.json") {
		t.Errorf("config %q", u.Config)
	}
	if want := []string{filepath.Join(src, "use.ts")}; !reflect.DeepEqual(u.Files, want) {
		t.Errorf("files %q, want %q", u.Files, want)
	}
	if want := []string{filepath.Join(src, "augment.ts"), filepath.Join(src, "global.d.ts"), filepath.Join(src, "use.ts")}; !reflect.DeepEqual(sorted(u.Roots), want) {
		t.Errorf("roots %q, want %q", sorted(u.Roots), want)
	}
	if want := map[string][]string{"@/*": {filepath.Join(src, "*")}, "shared": {"/repo/packages/shared/src/index.ts"}}; !reflect.DeepEqual(u.Paths, want) {
		t.Errorf("workspace paths %q, want %q", u.Paths, want)
	}
	if want := []string{src, filepath.Join(repo, "gen")}; !reflect.DeepEqual(u.RootDirs, want) {
		t.Errorf("rootDirs %q, want %q", u.RootDirs, want)
	}
	if len(u.TypeRoots) == 0 || u.TypeRoots[0] != filepath.Join(repo, "node_modules", "@types") {
		t.Errorf("type roots %q, want the workspace's node_modules/@types first", u.TypeRoots)
	}
	nm := filepath.Join(side, "node_modules")
	want := map[string][]string{
		// An ES module importing: the import condition's files.
		"kit":          {filepath.Join(nm, "kit", "esm", "index.d.ts")},
		"kit/mini":     {filepath.Join(nm, "kit", "esm", "mini.d.ts")},
		"kit/v4":       {filepath.Join(nm, "kit", "v4.d.ts")},
		"kit/gone":     {filepath.Join(side, "__unresolved__", "kit", "gone")},
		"plain":        {filepath.Join(nm, "plain", "index.d.ts")},
		"plain/sub.js": {filepath.Join(nm, "plain", "sub.d.ts")},
		"plain/*":      {filepath.Join(nm, "plain", "*")},
	}
	if diff := cmp.Diff(want, u.Sides["overlay"].Paths); diff != "" {
		t.Errorf("overlay paths (-want +got)\n%s", diff)
	}
}

func FuzzParseNativeOutput(f *testing.F) {
	for _, seed := range []string{
		"src/index.ts(6,45): error TS2339: Property 'errors' does not exist on type 'ZodError<unknown>'.\n",
		"src/a.ts(3,3): error TS2345: Argument.\n  The types of 'a.b' are incompatible.\n    Type 'string' is not assignable.\n",
		"error TS2688: Cannot find type definition file for 'x'.\r\n  The file is in the program because:\r\n",
		"src/(g)/p.tsx(2,10): error TS2322: x\n\nFound 1 error.\n",
		"a(1,99999999999999999999): error TS1: x\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		ds, err := parseNativeOutput(out)
		if err != nil {
			return
		}
		for _, d := range ds {
			if d.Code < 0 || d.Line < 0 || d.Column < 0 || d.File == "" && (d.Line != 0 || d.Column != 0) {
				t.Fatalf("bad diagnostic %+v", d)
			}
		}
	})
}

func FuzzLineStarts(f *testing.F) {
	for _, seed := range []string{"abc\ndef", "\ufeffx\r\ny", "\U0001F600\u2028z", "\xff\xfe\r"} {
		f.Add([]byte(seed), 2, 3)
	}
	f.Fuzz(func(t *testing.T, text []byte, line, column int) {
		starts := lineStarts(text)
		for i := 1; i < len(starts); i++ {
			if starts[i] <= starts[i-1] {
				t.Fatalf("line starts not increasing: %v", starts)
			}
		}
		if off := offsetOf(starts, line, column); off < 0 {
			t.Fatalf("offset %d for %d:%d", off, line, column)
		}
	})
}

// TestTraceNative hands the driver the pinned judgment's new diagnostics
// without their lengths and roots, as tsc prints them, and gets both back:
// what the native judgment relies on to group its findings.
func TestTraceNative(t *testing.T) {
	a := sharedAdapter(t)
	ctx := context.Background()
	installed := []string{"reactish@1.0.0", "refkit@1.0.0", "matchkit@1.0.0", "rowkit@1.0.0", "errkit@1.0.0", "globkit@1.0.0"}
	var targets []LinkedPackage
	for _, p := range installed {
		n, _ := splitSpec(p)
		targets = append(targets, LinkedPackage{Name: n, Dir: fixturePkg(n, "2.0.0")})
	}
	dir := fixtureRepo(t, "causes", installed...)
	ov, err := BuildOverlay(ctx, OverlayRequest{Workspace: dir, TempDir: t.TempDir(), Targets: targets})
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Cleanup()
	want, err := a.Compile(ctx, CompileRequest{RepoRoot: dir, Overlay: ov})
	if err != nil {
		t.Fatal(err)
	}
	roots := 0
	bare := make([]model.Diagnostic, len(want.New))
	for i, d := range want.New {
		if d.Root != nil {
			roots++
		}
		d.Root, d.Length, d.Workspace = nil, 0, ""
		bare[i] = d
	}
	if roots == 0 {
		t.Fatalf("the fixture's compile traced no root: %v", diagLines(want.New))
	}
	root, _ := filepath.EvalSymlinks(dir)
	params := compileParams{RepoRoot: root, Workspace: root}
	if _, err := a.traceNative(ctx, params, ov, bare); err != nil {
		t.Fatal(err)
	}
	for i, d := range bare {
		w := want.New[i]
		if d.Length != w.Length || rootSummary(d.Root) != rootSummary(w.Root) {
			t.Errorf("%s: %d long, root %s; the driver's judgment %d long, root %s", diagLines(bare[i:i+1]), d.Length, rootSummary(d.Root), w.Length, rootSummary(w.Root))
		}
	}
	// Diagnostics the driver does not answer for one by one keep what
	// they have.
	other := []model.Diagnostic{{File: "src/none.ts", Line: 1, Column: 1, Code: 2322, Message: "x"}}
	if _, err := a.traceNative(ctx, params, ov, other); err != nil || other[0].Root != nil {
		t.Errorf("an unknown file: root %v, err %v", other[0].Root, err)
	}
}

func TestDescribeGating(t *testing.T) {
	tests := []struct {
		d    model.Diagnostic
		want string
	}{
		{model.Diagnostic{File: "tsconfig.json", Code: 5102, Message: "Option 'baseUrl' has been removed.\n  Use paths."}, "TS5102 in tsconfig.json: Option 'baseUrl' has been removed."},
		{model.Diagnostic{File: "tsconfig.base.json", Line: 3, Code: 5023, Message: "Unknown compiler option 'x'."}, "TS5023 in tsconfig.base.json:3: Unknown compiler option 'x'."},
		{model.Diagnostic{Code: 2688, Message: "Cannot find type definition file for 'node'."}, "TS2688: Cannot find type definition file for 'node'."},
	}
	for _, tt := range tests {
		if got := describe(tt.d); got != tt.want {
			t.Errorf("describe = %q, want %q", got, tt.want)
		}
	}
}

// A tsc that prints without end is stopped at the cap with an error
// saying so; what it printed is never read whole.
func TestRunTSCOutputIsCapped(t *testing.T) {
	defer func(max int) { maxTSCOutput = max }(maxTSCOutput)
	maxTSCOutput = 1 << 20
	_, _, err := runTSC(context.Background(), []string{"sh", "-c", "yes 'src/a.ts(1,1): error TS2322: x'"}, t.TempDir(), "tsc 7.0.0", time.Minute)
	if err == nil || !strings.Contains(err.Error(), "printed more than 1 MB") {
		t.Fatalf("endless output: %v, want the cap's error", err)
	}
}
