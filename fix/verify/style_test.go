package verify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func read(t *testing.T, root, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestDetectStyle(t *testing.T) {
	bin := "#!/bin/sh\n"
	tests := []struct {
		name           string
		tree           map[string]string
		format, linter string
	}{
		{"nothing configured", map[string]string{"package.json": `{}`, "node_modules/.bin/prettier": bin}, "", ""},
		{"configured but not installed", map[string]string{"package.json": `{}`, ".prettierrc": "{}", "eslint.config.js": ""}, "", ""},
		{"prettier in package.json, eslint flat config", map[string]string{
			"package.json": `{"prettier":{"semi":false}}`, "eslint.config.mjs": "",
			"node_modules/.bin/prettier": bin, "node_modules/.bin/eslint": bin}, "prettier", "eslint"},
		{"biome is both", map[string]string{"package.json": `{}`, "biome.jsonc": "{}", "node_modules/.bin/biome": bin}, "biome", "biome"},
		{"biome beside prettier lints, prettier formats", map[string]string{"package.json": `{}`, "biome.json": "{}",
			"prettier.config.js": "", "node_modules/.bin/biome": bin, "node_modules/.bin/prettier": bin}, "prettier", "biome"},
		{"a config below the root does not count", map[string]string{"package.json": `{}`, "packages/a/.eslintrc.json": "{}",
			"node_modules/.bin/eslint": bin}, "", ""},
	}
	name := func(t *Tool) string {
		if t == nil {
			return ""
		}
		return t.Name
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := DetectStyle(writeTree(t, tc.tree))
			if name(s.Formatter) != tc.format || name(s.Linter) != tc.linter {
				t.Fatalf("formatter %q linter %q, want %q %q", name(s.Formatter), name(s.Linter), tc.format, tc.linter)
			}
		})
	}
}

// The formatter touches the named files and nothing else, even files it
// would change.
func TestFormatWithPrettier(t *testing.T) {
	needNode(t)
	ugly := "const a = {b:1,c:[1,2,3]}\nexport default a\n"
	root := writeTree(t, map[string]string{
		"package.json":  `{"name":"r"}`,
		".prettierrc":   `{"semi": false, "singleQuote": true}`,
		"src/edited.ts": ugly,
		"src/tidy.ts":   "export const x = 'y'\n",
		"src/other.ts":  ugly,
		"notes.txt":     "not  formatted   text\n",
	})
	installPrettier(t, root)
	s := DetectStyle(root)
	if s.Formatter == nil || s.Formatter.Name != "prettier" {
		t.Fatalf("prettier not detected: %+v", s)
	}
	changed, err := s.Format(context.Background(), root, quietEnv(t), []string{"src/edited.ts", "src/tidy.ts", "notes.txt", "src/gone.ts"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"src/edited.ts"}, changed); diff != "" {
		t.Errorf("changed (-want +got):\n%s", diff)
	}
	if got := read(t, root, "src/edited.ts"); got != "const a = { b: 1, c: [1, 2, 3] }\nexport default a\n" {
		t.Errorf("edited.ts formatted as %q", got)
	}
	if read(t, root, "src/other.ts") != ugly {
		t.Error("a file that was not edited was formatted")
	}
	if read(t, root, "notes.txt") != "not  formatted   text\n" {
		t.Error("a file prettier does not handle was touched")
	}

	// A file prettier cannot parse is an error naming the tool, not a silent pass.
	if err := os.WriteFile(filepath.Join(root, "src/broken.ts"), []byte("const = ;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Format(context.Background(), root, quietEnv(t), []string{"src/broken.ts"}); err == nil || !strings.Contains(err.Error(), "prettier") {
		t.Fatalf("want a prettier error, got %v", err)
	}
	if _, err := s.Format(context.Background(), root, quietEnv(t), []string{"../etc/passwd"}); err == nil {
		t.Fatal("a path outside the root was accepted")
	}
}

// Lint before and after with the real biome: only a failure the edited
// file did not have before counts, whatever line it moved to.
func TestLintWithBiome(t *testing.T) {
	root := writeTree(t, map[string]string{
		"package.json": `{"name":"r"}`,
		"biome.json":   `{"linter":{"enabled":true,"rules":{"recommended":true}},"formatter":{"indentStyle":"space"}}`,
		"src/a.js":     "export function f(x) {\n  debugger;\n  return x;\n}\n",
		"src/b.js":     "export const b = 1;\n",
	})
	installBiome(t, root)
	s := DetectStyle(root)
	if s.Linter == nil || s.Linter.Name != "biome" || s.Formatter == nil || s.Formatter.Name != "biome" {
		t.Fatalf("biome not detected as both: %+v", s)
	}
	ctx := context.Background()
	env := quietEnv(t)
	files := []string{"src/a.js", "src/b.js"}
	before, err := s.Lint(ctx, root, env, files)
	if err != nil {
		t.Fatal(err)
	}
	if len(before.Failures["src/a.js"]) != 1 || !strings.Contains(before.Failures["src/a.js"][0], "noDebugger") {
		t.Fatalf("before: %v", before.Failures)
	}
	// The migration moves the debugger down a line and adds a == comparison.
	edited := "// migrated\nexport function f(x) {\n  debugger;\n  if (x == 2) return 0;\n  return x;\n}\n"
	if err := os.WriteFile(filepath.Join(root, "src/a.js"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := s.Lint(ctx, root, env, files)
	if err != nil {
		t.Fatal(err)
	}
	got := NewLintFailures(before, after)
	if len(got) != 1 || len(got["src/a.js"]) != 1 || !strings.Contains(got["src/a.js"][0], "suspicious/noDoubleEquals") {
		t.Fatalf("new lint failures %v (before %v, after %v)", got, before.Failures, after.Failures)
	}
	if !strings.HasPrefix(got["src/a.js"][0], "4:") {
		t.Errorf("message %q does not start with its line:column", got["src/a.js"][0])
	}

	// Format with biome rewrites only the named file.
	ugly := "export const c = {a:1}\n"
	for _, f := range []string{"src/c.js", "src/d.js"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte(ugly), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	changed, err := s.Format(ctx, root, env, []string{"src/c.js", "src/b.js"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"src/c.js"}, changed); diff != "" {
		t.Errorf("changed (-want +got):\n%s", diff)
	}
	if read(t, root, "src/d.js") != ugly || read(t, root, "src/c.js") == ugly {
		t.Error("biome formatted the wrong files")
	}
}

func TestNewLintFailures(t *testing.T) {
	before := LintRun{Failures: map[string][]string{
		"a.ts": {"3:1 no-unused-vars 'x' is defined but never used.", "9:2 no-console Unexpected console statement."},
	}}
	after := LintRun{Failures: map[string][]string{
		"a.ts": {"4:1 no-unused-vars 'x' is defined but never used.", "10:2 no-console Unexpected console statement.", "12:2 no-console Unexpected console statement."},
		"b.ts": {"1:1 eqeqeq Expected '==='."},
	}}
	want := map[string][]string{
		"a.ts": {"12:2 no-console Unexpected console statement."},
		"b.ts": {"1:1 eqeqeq Expected '==='."},
	}
	if diff := cmp.Diff(want, NewLintFailures(before, after)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if got := NewLintFailures(after, before); len(got) != 0 {
		t.Fatalf("fixed failures reported as new: %v", got)
	}
}

// The same before/after with the real eslint (flat config, JSON report):
// warnings are not failures, and a config error is an error, not a pass.
func TestLintWithESLint(t *testing.T) {
	needNode(t)
	root := writeTree(t, map[string]string{
		"package.json":     `{"name":"r","type":"module"}`,
		"eslint.config.js": "export default [{ rules: { 'no-debugger': 'error', eqeqeq: 'error', 'no-console': 'warn' } }];\n",
		"src/a.js":         "export function f(x) {\n  debugger;\n  console.log(x);\n  return x;\n}\n",
		"src/b.js":         "export const b = 1;\n",
	})
	installESLint(t, root)
	s := DetectStyle(root)
	if s.Linter == nil || s.Linter.Name != "eslint" || s.Formatter != nil {
		t.Fatalf("want eslint as the linter only: %+v", s)
	}
	ctx, env := context.Background(), quietEnv(t)
	files := []string{"src/a.js", "src/b.js", "README.md"}
	before, err := s.Lint(ctx, root, env, files)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]string{"src/a.js": {"2:3 no-debugger Unexpected 'debugger' statement."}}, before.Failures); diff != "" {
		t.Fatalf("before (-want +got):\n%s", diff)
	}
	edited := "// migrated\nexport function f(x) {\n  debugger;\n  if (x == 2) return 0;\n  return x;\n}\n"
	if err := os.WriteFile(filepath.Join(root, "src/a.js"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := s.Lint(ctx, root, env, files)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"src/a.js": {"4:9 eqeqeq Expected '===' and instead saw '=='."}}
	if diff := cmp.Diff(want, NewLintFailures(before, after)); diff != "" {
		t.Fatalf("new lint failures (-want +got):\n%s", diff)
	}

	if err := os.WriteFile(filepath.Join(root, "eslint.config.js"), []byte("export default [{ rules: { 'no-such-rule': 'error' } }];\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lint(ctx, root, env, files); err == nil || !strings.Contains(err.Error(), "eslint exited 2") {
		t.Fatalf("want an eslint configuration error, got %v", err)
	}
}
