package typescript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// reachLib is a package without globals: its usage scan reads only the
// files that can reach it.
var reachLib = map[string]string{
	"node_modules/reachlib/package.json": `{"name":"reachlib","version":"1.0.0","types":"index.d.ts"}`,
	"node_modules/reachlib/index.d.ts": `export declare class Client {
  get(key: string): string;
  readonly label: string;
}
export declare function createClient(): Client;
`,
	// A library whose declarations return the package's types.
	"node_modules/helperlib/package.json": `{"name":"helperlib","version":"1.0.0","types":"index.d.ts","dependencies":{"reachlib":"1.0.0"}}`,
	"node_modules/helperlib/index.d.ts": `import { Client } from "reachlib";
export declare function helper(): Client;
`,
	"package.json":  `{"name":"reach","version":"1.0.0","dependencies":{"reachlib":"1.0.0","helperlib":"1.0.0"}}`,
	"tsconfig.json": `{"compilerOptions":{"strict":true,"target":"es2022","module":"esnext","moduleResolution":"bundler","noEmit":true},"include":["src"]}`,
}

func TestFindUsagesReadsFilesThatReachThePackage(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
		// unanalyzed lists computed loads that could load the package.
		unanalyzed []string
		importers  []string
		// scanned is UsageResult.Files: the files read, not the workspace
		// (which a scan reads whole when most of it can reach the package).
		scanned int
	}{
		{
			name: "two imports away, through a library's declarations, a computed load; a chain that never reaches it is not read",
			files: map[string]string{
				"src/client.ts":    "import { createClient } from 'reachlib';\nexport const client = createClient();\n",
				"src/wrap.ts":      "import { client } from './client';\nexport function getClient() { return client; }\n",
				"src/far.ts":       "import { getClient } from './wrap';\ngetClient().get('x');\n",
				"src/lib.ts":       "import { helper } from 'helperlib';\nhelper().get('y');\n",
				"src/dyn.ts":       "export async function load(n: string) {\n  return import(n);\n}\n",
				"src/ambient.d.ts": "declare module '*.css';\n",
				"src/plain0.ts":    "import { p1 } from './plain1';\nexport const p0 = p1 + 1;\n",
				"src/plain1.ts":    "import { p2 } from './plain2';\nexport const p1 = p2 + 1;\n",
				"src/plain2.ts":    "export const p2 = { get: (k: string) => k, label: 'x' };\n",
				"src/plain3.ts":    "export const p3 = 3;\n",
				"src/plain4.ts":    "export const p4 = 4;\n",
				"src/plain5.ts":    "export const p5 = 5;\n",
				"src/plain6.ts":    "export const p6 = 6;\n",
			},
			want: []string{
				"src/client.ts:1:10 [createClient] createClient createClient import direct import @.",
				"src/client.ts:2:23 [createClient] createClient createClient call direct import @.",
				"src/far.ts:2:13 [get] Client#get Client#get call direct import",
				"src/lib.ts:2:10 [get] Client#get Client#get call direct import",
			},
			importers: []string{"src/client.ts"},
			scanned:   6,
		},
		{
			name: "a declaration every file sees names the package: every file is read",
			files: map[string]string{
				"src/env.d.ts":  "declare const shared: import('reachlib').Client;\n",
				"src/use.ts":    "export const l = shared.label;\n",
				"src/plain.ts":  "export const x = 1;\n",
				"src/plain2.ts": "import { x } from './plain';\nexport const y = x;\n",
			},
			want: []string{
				"src/env.d.ts:1:42 [Client] Client Client typeRef direct import",
				"src/use.ts:1:25 [label] Client#label Client#label read direct import",
			},
			importers: []string{},
			scanned:   4,
		},
		{
			name: "most files reach the package: the workspace is read whole, as the next package may",
			files: map[string]string{
				"src/a.ts":     "import { createClient } from 'reachlib';\nexport const a = createClient();\n",
				"src/b.ts":     "import { a } from './a';\na.get('b');\n",
				"src/plain.ts": "export const x = 1;\n",
			},
			want: []string{
				"src/a.ts:1:10 [createClient] createClient createClient import direct import @.",
				"src/a.ts:2:18 [createClient] createClient createClient call direct import @.",
				"src/b.ts:2:3 [get] Client#get Client#get call direct import",
			},
			importers: []string{"src/a.ts"},
			scanned:   3,
		},
	}
	a := sharedAdapter(t)
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := t.TempDir()
			for _, files := range []map[string]string{reachLib, tt.files} {
				for rel, body := range files {
					p := filepath.Join(repo, filepath.FromSlash(rel))
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			res, err := a.FindUsages(ctx, UsageRequest{RepoRoot: repo, Package: "reachlib"})
			if err != nil {
				t.Fatal(err)
			}
			diffLines(t, "usages", usageLines(t, repo, res.Usages), tt.want)
			diffLines(t, "unanalyzed", unanalyzedLines(res.Unanalyzed), nonNil(tt.unanalyzed))
			if !reflect.DeepEqual(res.Importers, tt.importers) {
				t.Errorf("importers %q, want %q", res.Importers, tt.importers)
			}
			if res.Files != tt.scanned {
				t.Errorf("%d files read, want %d", res.Files, tt.scanned)
			}
		})
	}
}

// Whatever a source holds, reading only the files that reach the package
// finds what reading every file finds: the same repository with a global
// declaration naming the package (which makes the scan read every file) is
// the reference.
func FuzzFindUsagesReach(f *testing.F) {
	f.Add("import { getClient } from './wrap';\ngetClient().get('x');\n")
	f.Add("import { client } from './client';\nconst [c] = [client];\nc.label;\n")
	f.Add("export const p = { get: (k: string) => k, label: 'x' };\n")
	f.Add("const m = require('./client');\nm.client.get('y');\n")
	f.Add("declare const c: import('reachlib').Client;\nc.label;\n")
	f.Add("export async function load(n: string) { return (await import(n)).client.label; }\n")
	a := sharedAdapter(f)
	ctx := context.Background()
	base := map[string]string{
		"src/client.ts": "import { createClient } from 'reachlib';\nexport const client = createClient();\n",
		"src/wrap.ts":   "import { client } from './client';\nexport function getClient() { return client; }\n",
	}
	// Enough files that cannot reach the package that the scan reads only
	// those that can.
	for i := 0; i < 6; i++ {
		base[fmt.Sprintf("src/plain%d.ts", i)] = fmt.Sprintf("export const p%d = { get: (k: string) => k, label: 'x' };\n", i)
	}
	repos := [2]string{f.TempDir(), f.TempDir()}
	for i, repo := range repos {
		for _, files := range []map[string]string{reachLib, base} {
			for rel, body := range files {
				p := filepath.Join(repo, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					f.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					f.Fatal(err)
				}
			}
		}
		if i == 1 {
			if err := os.WriteFile(filepath.Join(repo, "src", "zzall.d.ts"), []byte("declare const zzAll: import('reachlib').Client;\n"), 0o644); err != nil {
				f.Fatal(err)
			}
		}
	}
	n := 0
	f.Fuzz(func(t *testing.T, src string) {
		n++
		var got [2][]string
		for i, repo := range repos {
			// A new name each time: a rewrite within one mtime tick must
			// not be mistaken for the file the driver already parsed.
			file := filepath.Join(repo, "src", fmt.Sprintf("f%d.ts", n))
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(file)
			res, err := a.FindUsages(ctx, UsageRequest{RepoRoot: repo, Package: "reachlib"})
			if err != nil {
				t.Fatalf("%v\nsource:\n%s", err, src)
			}
			for _, u := range res.Usages {
				if u.File != "src/zzall.d.ts" {
					got[i] = append(got[i], fmt.Sprintf("%s:%d:%d %s %s %s", u.File, u.Line, u.Column, u.SymbolPath, u.Access, u.Via))
				}
			}
			for _, u := range res.Unanalyzed {
				got[i] = append(got[i], fmt.Sprintf("%s:%d %s %s", u.File, u.Line, u.Kind, u.Reason))
			}
		}
		if !reflect.DeepEqual(got[0], got[1]) {
			t.Fatalf("reading the files that reach the package:\n%s\nreading every file:\n%s\nsource:\n%s", strings.Join(got[0], "\n"), strings.Join(got[1], "\n"), src)
		}
	})
}

// TestFindUsagesComputedLoads pins the rule that decides whether a
// computed require() or import() counts against the package scanned.
func TestFindUsagesComputedLoads(t *testing.T) {
	files := map[string]string{
		"src/client.ts":       "import { createClient } from 'reachlib';\nexport const client = createClient();\n",
		"src/barrel/index.ts": "export * from 'reachlib';\n",
		// Relative prefixes: one reaches the barrel, one reaches nothing.
		"src/i18n.ts": "export const msgs = (l: string) => import(`./locales/${l}.json`);\n",
		"src/pick.ts": "export const pick = (d: string) => import('./barrel/' + d);\n",
		// Bare prefixes: a subpath of the package, a builtin, a longer name.
		"src/sub.ts":   "export const sub = (p: string) => import(`reachlib/${p}`);\n",
		"src/node.ts":  "export const nb = (m: string) => import(`node:${m}`);\n",
		"src/other.ts": "export const ot = (m: string) => import(`reachlib-extra/${m}`);\n",
		// Fully computed: in a file naming the package, in one loading it,
		// in one doing neither.
		"src/named.ts":  "const which = process.env.X || 'reachlib';\nexport const nm = () => import(which);\n",
		"src/loads.ts":  "import { createClient } from 'reachlib';\nexport const c = createClient();\nexport const ld = (m: string) => import(m);\n",
		"src/plugin.ts": "export const pl = (m: string) => import(m);\n",
	}
	repo := t.TempDir()
	for _, fs := range []map[string]string{reachLib, files} {
		for rel, body := range fs {
			p := filepath.Join(repo, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	res, err := sharedAdapter(t).FindUsages(context.Background(), UsageRequest{RepoRoot: repo, Package: "reachlib"})
	if err != nil {
		t.Fatal(err)
	}
	diffLines(t, "unanalyzed", unanalyzedLines(res.Unanalyzed), []string{
		"src/loads.ts:3 import: the module specifier is computed, in a file that loads reachlib",
		"src/named.ts:2 import: the module specifier is computed, in a file that names reachlib in a string",
		`src/pick.ts:1 import: the module specifier is computed: its prefix "./barrel/" can reach src/barrel/index.ts, which re-exports reachlib`,
		`src/sub.ts:1 import: the module specifier is computed: its prefix "reachlib/" can name reachlib`,
	})
	var computed []string
	for _, c := range res.Computed {
		computed = append(computed, fmt.Sprintf("%s:%d %s(%s): %s", c.File, c.Line, c.Kind, c.Specifier, c.Reason))
	}
	diffLines(t, "computed", computed, []string{
		"src/i18n.ts:1 import(`./locales/${l}.json`): its static prefix \"./locales/\" is a path that reaches no file re-exporting a checked package",
		"src/node.ts:1 import(`node:${m}`): its static prefix \"node:\" names another module",
		"src/other.ts:1 import(`reachlib-extra/${m}`): its static prefix \"reachlib-extra/\" names another module",
		"src/plugin.ts:1 import(m): the module specifier is computed, in a file that neither loads nor names a checked package",
	})
}
