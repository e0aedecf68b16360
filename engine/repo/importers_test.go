package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

func TestImportingFiles(t *testing.T) {
	dir := copyFixture(t, "importers")
	// Too big to commit: a file over 1 MB is generated or bundled, not read.
	big := "import 'huge-file'\n" + strings.Repeat("// padding\n", maxSourceSize/11+1)
	writeFile(t, filepath.Join(dir, "src", "bundle.js"), big)
	if err := os.Symlink(filepath.Join(dir, "src", "index.ts"), filepath.Join(dir, "src", "link.ts")); err != nil {
		t.Fatal(err)
	}
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	root, ui := r.Workspaces[0], r.Workspaces[1]
	if root.Path != "." || ui.Path != "packages/ui" {
		t.Fatalf("workspaces = %s, %s", root.Path, ui.Path)
	}
	tests := []struct {
		name   string
		ws     model.Workspace
		nested []string
		names  []string
		want   map[string][]string
	}{
		{
			name:   "root workspace, nested workspace excluded, every package",
			ws:     root,
			nested: NestedWorkspaces(r, root),
			want: map[string][]string{
				"react":         {"src/index.ts"},
				"zod":           {"src/index.ts"},
				"@acme/ui":      {"src/index.ts"},
				"core-js":       {"src/index.ts"},
				"chart.js":      {"src/lazy.tsx"},
				"express":       {"src/lazy.tsx"},
				"lodash":        {"src/lazy.tsx"},
				"axios":         {"src/App.vue"},
				"svelte":        {"src/Widget.svelte"},
				"@scope/pkg":    {"src/mod.mts"},
				"stripe":        {"src/keep.gen.ts"},
				"left-pad":      {"src/only-root.ts"},
				"secret-public": {"src/secret/public.ts"},
			},
		},
		{
			name:  "root workspace, only the packages asked about",
			ws:    root,
			names: []string{"react", "clsx", "stripe"},
			// Without the nested list, packages/ui's files are the root's too.
			want: map[string][]string{
				"react":  {"packages/ui/src/button.tsx", "src/index.ts"},
				"clsx":   {"packages/ui/src/button.tsx"},
				"stripe": {"src/keep.gen.ts"},
			},
		},
		{
			name: "nested workspace with its own .gitignore and the root's",
			ws:   ui,
			want: map[string][]string{
				"react": {"packages/ui/src/button.tsx"},
				"clsx":  {"packages/ui/src/button.tsx"},
			},
		},
		{
			name:  "a package nobody imports",
			ws:    root,
			names: []string{"nothing-imports-this"},
			want:  map[string][]string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ImportingFiles(r.Root, tt.ws, tt.nested, tt.names)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ImportingFiles (-want +got):\n%s", diff)
			}
		})
	}
}

func TestImportersByWorkspace(t *testing.T) {
	r, err := Load(copyFixture(t, "importers"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ImportersByWorkspace(r, []string{"react", "clsx", "moment"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string][]string{
		".":           {"react": {"src/index.ts"}},
		"packages/ui": {"react": {"packages/ui/src/button.tsx"}, "clsx": {"packages/ui/src/button.tsx"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ImportersByWorkspace (-want +got):\n%s", diff)
	}
}

// A .gitignore above the package root (the root is a folder of a larger git
// work tree) applies too, and one in an unrelated sibling does not.
func TestImportingFilesGitignoreAboveRoot(t *testing.T) {
	top := t.TempDir()
	writeFile(t, filepath.Join(top, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(top, ".gitignore"), "*.local.ts\nweb/src/gen/\n")
	writeFile(t, filepath.Join(top, "other", ".gitignore"), "*.ts\n")
	root := filepath.Join(top, "web")
	writeFile(t, filepath.Join(root, "package.json"), `{"name":"web"}`)
	writeFile(t, filepath.Join(root, "src", "a.ts"), "import 'kept'\n")
	writeFile(t, filepath.Join(root, "src", "b.local.ts"), "import 'ignored-by-basename'\n")
	writeFile(t, filepath.Join(root, "src", "gen", "c.ts"), "import 'ignored-by-anchored-dir'\n")
	got, err := ImportingFiles(root, model.Workspace{Path: "."}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]string{"kept": {"src/a.ts"}}, got); diff != "" {
		t.Errorf("ImportingFiles (-want +got):\n%s", diff)
	}
}

func TestImportingFilesMissingWorkspace(t *testing.T) {
	_, err := ImportingFiles(t.TempDir(), model.Workspace{Path: "gone"}, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "gone") {
		t.Errorf("err = %v, want one naming the workspace", err)
	}
}

func TestNestedWorkspaces(t *testing.T) {
	r := &model.Repository{Workspaces: []model.Workspace{
		{Path: "."}, {Path: "apps/web"}, {Path: "apps/web/e2e"}, {Path: "apps/website"}, {Path: "packages/a"},
	}}
	tests := []struct {
		ws   string
		want []string
	}{
		{".", []string{"apps/web", "apps/web/e2e", "apps/website", "packages/a"}},
		{"apps/web", []string{"apps/web/e2e"}},
		{"packages/a", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, NestedWorkspaces(r, model.Workspace{Path: tt.ws})); diff != "" {
			t.Errorf("NestedWorkspaces(%s) (-want +got):\n%s", tt.ws, diff)
		}
	}
}

func TestScanImports(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`import a from 'a'`, []string{"a"}},
		{`import {b} from "b/sub"`, []string{"b/sub"}},
		{"import {\n  c,\n  d,\n} from\n  'c'", []string{"c"}},
		{`import 'side-effect'`, []string{"side-effect"}},
		{`import type { T } from '@s/t'`, []string{"@s/t"}},
		{`export * from 'e'`, []string{"e"}},
		{`export { f } from 'f'`, []string{"f"}},
		{`const g = require('g')`, []string{"g"}},
		{`const h = require ( "h" )`, []string{"h"}},
		{`const i = await import('i')`, []string{"i"}},
		{`import j = require('j')`, []string{"j"}},
		{`Array.from('abc'); x.require('k'); myrequire('l'); reimport('m')`, nil},
		{`const s = "from 'n'"; const t = 'import "o"'`, nil},
		{`const p = 'unterminated` + "\n" + `import q from 'q'`, []string{"q"}},
		{`const r = 'it\'s'; import s from 's'`, []string{"s"}},
		{`require(name); import(tpl)`, nil},
	}
	for _, tt := range tests {
		var got []string
		scanImports([]byte(tt.src), func(s string) { got = append(got, s) })
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("scanImports(%q) (-want +got):\n%s", tt.src, diff)
		}
	}
}

func TestPackageOf(t *testing.T) {
	tests := map[string]string{
		"react": "react", "react/jsx-runtime": "react", "@s/p": "@s/p", "@s/p/x/y": "@s/p",
		"./x": "", "../x": "", "/abs": "", "node:fs": "", "#internal": "", "~/alias": "", "@s": "",
		"virtual:pwa": "", "": "", "has space": "",
	}
	for spec, want := range tests {
		if got := packageOf(spec); got != want {
			t.Errorf("packageOf(%q) = %q, want %q", spec, got, want)
		}
	}
}

func FuzzScanImports(f *testing.F) {
	f.Add([]byte("import a from 'a'\nconst b = require(\"b\")\n"))
	f.Add([]byte(`import('x'); export * from "y"; 'unterminated`))
	f.Fuzz(func(t *testing.T, data []byte) {
		scanImports(data, func(spec string) {
			if strings.ContainsAny(spec, "\n") {
				t.Fatalf("specifier %q spans lines", spec)
			}
			packageOf(spec)
		})
	})
}

// BenchmarkImportingFiles scans a generated 3,000-file workspace.
func BenchmarkImportingFiles(b *testing.B) {
	dir := b.TempDir()
	const files = 3000
	pkgs := []string{"react", "zod", "@acme/ui", "lodash", "stripe", "express", "@aws-sdk/client-s3", "date-fns"}
	writeFile(b, filepath.Join(dir, "package.json"), `{"name":"bench"}`)
	writeFile(b, filepath.Join(dir, ".gitignore"), "*.gen.ts\n/out/\n")
	body := strings.Repeat("export function helper(a: number, b: string): string {\n  return `${a}:${b}` + 'x'\n}\n", 40)
	for i := range files {
		p := pkgs[i%len(pkgs)]
		q := pkgs[(i*7+3)%len(pkgs)]
		src := fmt.Sprintf("import { a } from '%s'\nimport type { B } from \"%s/sub\"\nimport { c } from './local-%d'\n%s", p, q, i, body)
		writeFile(b, filepath.Join(dir, "src", fmt.Sprintf("m%02d", i%60), fmt.Sprintf("f%04d.ts", i)), src)
	}
	ws := model.Workspace{Path: "."}
	b.ResetTimer()
	for b.Loop() {
		got, err := ImportingFiles(dir, ws, nil, pkgs)
		if err != nil {
			b.Fatal(err)
		}
		if len(got["react"]) == 0 {
			b.Fatal("react importers not found")
		}
	}
	b.ReportMetric(float64(files*b.N)/b.Elapsed().Seconds(), "files/s")
}
