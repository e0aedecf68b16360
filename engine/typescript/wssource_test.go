package typescript

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// wsRepo writes files (path -> content) under a new repository root and
// links node_modules entries (link path -> repository-relative target).
func wsRepo(t *testing.T, files map[string]string, links map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for at, target := range links {
		p := filepath.Join(root, filepath.FromSlash(at))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		to := target
		if !filepath.IsAbs(to) {
			to = filepath.Join(root, filepath.FromSlash(target))
		}
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// age sets a file's modification time d before now.
func age(t *testing.T, root, rel string, d time.Duration) {
	t.Helper()
	at := time.Now().Add(-d)
	if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(rel)), at, at); err != nil {
		t.Fatal(err)
	}
}

func TestFindWorkspaceSources(t *testing.T) {
	app := `{"name":"app","dependencies":{"shared":"1.0.0","zod":"^3"}}`
	npmLink := map[string]string{"node_modules/shared": "packages/shared"}
	tests := []struct {
		name  string
		files map[string]string
		links map[string]string
		// older ages files (repository-relative) by an hour.
		older    []string
		want     map[string][]string // repository-relative
		warnings []string            // substrings, one per warning
	}{
		{
			name: "no tsconfig: dist/ is built from src/",
			files: map[string]string{
				"packages/app/package.json":       app,
				"packages/shared/package.json":    `{"name":"shared","main":"dist/index.js","types":"dist/index.d.ts"}`,
				"packages/shared/dist/index.d.ts": "export {};",
				"packages/shared/src/index.ts":    "export {};",
			},
			links: npmLink,
			want:  map[string][]string{"shared": {"packages/shared/src/index.ts"}},
		},
		{
			name: "main alone, a .tsx source",
			files: map[string]string{
				"packages/app/package.json":     app,
				"packages/shared/package.json":  `{"name":"shared","main":"./dist/index.js"}`,
				"packages/shared/src/index.tsx": "export {};",
			},
			links: npmLink,
			want:  map[string][]string{"shared": {"packages/shared/src/index.tsx"}},
		},
		{
			name: "the tsconfig's outDir and rootDir, exports subpaths and a pattern",
			files: map[string]string{
				"packages/app/package.json": app,
				"packages/shared/package.json": `{"name":"shared","exports":{
					".":{"import":"./lib/index.mjs","types":"./lib/index.d.ts"},
					"./utils":{"types":"./lib/utils/index.d.ts","default":"./lib/utils/index.js"},
					"./icons/*":"./lib/icons/*.js",
					"./package.json":"./package.json"}}`,
				"packages/shared/tsconfig.json": `{
					// JSONC, as tsc reads it
					"compilerOptions": {"outDir": "lib", "rootDir": "./source",},
				}`,
				"packages/shared/source/index.ts":       "export {};",
				"packages/shared/source/utils/index.ts": "export {};",
				"packages/shared/source/icons/a.tsx":    "export {};",
			},
			links: npmLink,
			want: map[string][]string{
				"shared":         {"packages/shared/source/index.ts"},
				"shared/utils":   {"packages/shared/source/utils/index.ts"},
				"shared/icons/*": {"packages/shared/source/icons/*.ts", "packages/shared/source/icons/*.tsx"},
			},
		},
		{
			name: "an outDir from a config it extends, rootDir defaulting to src",
			files: map[string]string{
				"packages/app/package.json":          app,
				"packages/shared/package.json":       `{"name":"shared","types":"build/index.d.ts"}`,
				"packages/shared/tsconfig.json":      `{"extends":"./tsconfig.base.json"}`,
				"packages/shared/tsconfig.base.json": `{"compilerOptions":{"outDir":"./build"}}`,
				"packages/shared/src/index.ts":       "export {};",
			},
			links: npmLink,
			want:  map[string][]string{"shared": {"packages/shared/src/index.ts"}},
		},
		{
			name: "link:, portal: and workspace: paths, a scoped name, exports as a string",
			files: map[string]string{
				"packages/app/package.json":       `{"name":"app","dependencies":{"@acme/a":"link:../a","b":"workspace:../b","c":"portal:../c"}}`,
				"packages/c/package.json":         `{"name":"c","exports":"./dist/index.js"}`,
				"packages/c/src/index.ts":         "export {};",
				"packages/a/package.json":         `{"name":"@acme/a","types":"dist/index.d.ts"}`,
				"packages/a/src/index.ts":         "export {};",
				"packages/b/package.json":         `{"name":"b","types":"dist/main.d.ts"}`,
				"packages/b/src/main.ts":          "export {};",
				"packages/app/node_modules/.keep": "",
			},
			want: map[string][]string{
				"@acme/a": {"packages/a/src/index.ts"},
				"b":       {"packages/b/src/main.ts"},
				"c":       {"packages/c/src/index.ts"},
			},
		},
		{
			name: "unmappable and older than its sources: the dist stays, with a warning",
			files: map[string]string{
				"packages/app/package.json":    app,
				"packages/shared/package.json": `{"name":"shared","types":"index.d.ts"}`,
				"packages/shared/index.d.ts":   "export {};",
				"packages/shared/src/main.ts":  "export {};",
			},
			links:    npmLink,
			older:    []string{"packages/shared/index.d.ts"},
			want:     map[string][]string{},
			warnings: []string{"shared is read from its build packages/shared/index.d.ts, which is older than its source packages/shared/src/main.ts"},
		},
		{
			name: "unmappable but newer than its sources: no warning",
			files: map[string]string{
				"packages/app/package.json":       app,
				"packages/shared/package.json":    `{"name":"shared","types":"dist/index.d.ts"}`,
				"packages/shared/dist/index.d.ts": "export {};",
				"packages/shared/src/other.ts":    "export {};",
			},
			links: npmLink,
			older: []string{"packages/shared/src/other.ts"},
			want:  map[string][]string{},
		},
		{
			name: "installed from the registry, or linked outside the repository: not a workspace",
			files: map[string]string{
				"packages/app/package.json":        `{"name":"app","dependencies":{"zod":"^3","ext":"1.0.0"}}`,
				"node_modules/zod/package.json":    `{"name":"zod","types":"dist/index.d.ts"}`,
				"node_modules/zod/src/index.ts":    "export {};",
				"node_modules/zod/dist/index.d.ts": "export {};",
			},
			links: map[string]string{"node_modules/ext": os.TempDir()},
			want:  map[string][]string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := wsRepo(t, tt.files, tt.links)
			for _, f := range tt.older {
				age(t, root, f, time.Hour)
			}
			got := FindWorkspaceSources(root, filepath.Join(root, "packages", "app"))
			rel := map[string][]string{}
			for k, vs := range got.Paths {
				for _, v := range vs {
					if !filepath.IsAbs(v) {
						t.Errorf("%s: %s is not absolute", k, v)
					}
					rel[k] = append(rel[k], relTo(root, v))
				}
			}
			if !reflect.DeepEqual(rel, tt.want) {
				t.Errorf("paths %v, want %v", rel, tt.want)
			}
			if len(got.Warnings) != len(tt.warnings) {
				t.Fatalf("warnings %q, want %d", got.Warnings, len(tt.warnings))
			}
			for i, w := range tt.warnings {
				if !strings.Contains(got.Warnings[i], w) {
					t.Errorf("warning %q does not say %q", got.Warnings[i], w)
				}
			}
		})
	}
}

func TestFindWorkspaceSourcesBadInput(t *testing.T) {
	root := wsRepo(t, map[string]string{
		"packages/app/package.json":    `{"name":"app","dependencies":{"shared":"1.0.0"}`,
		"packages/shared/package.json": `{"name":"shared","types":"dist/index.d.ts"}`,
	}, map[string]string{"node_modules/shared": "packages/shared"})
	got := FindWorkspaceSources(root, filepath.Join(root, "packages", "app"))
	if len(got.Paths) != 0 || len(got.Warnings) != 0 {
		t.Errorf("a broken manifest maps nothing, got %+v", got)
	}
	got = FindWorkspaceSources(filepath.Join(root, "missing"), filepath.Join(root, "packages", "app"))
	if len(got.Paths) != 0 {
		t.Errorf("a missing root maps nothing, got %+v", got)
	}
}

// FuzzWorkspaceManifest feeds a dependency's manifest and tsconfig to the
// mapping: whatever they hold, it maps or keeps the build, and every path
// it gives stays absolute.
func FuzzWorkspaceManifest(f *testing.F) {
	f.Add(`{"name":"shared","types":"dist/index.d.ts"}`, `{}`)
	f.Add(`{"name":"shared","exports":{".":{"types":"./lib/index.d.ts"},"./u/*":["./lib/u/*.js"]}}`, `{"compilerOptions":{"outDir":"lib",/*x*/"rootDir":"source",},}`)
	f.Add(`{"name":"shared","exports":"./dist/index.js","main":7}`, `{"extends":"./base","compilerOptions":{"outDir":"../.."}}`)
	f.Add(`{"exports":[null,{"types":{"import":"./dist/a.d.mts"}}]}`, `// only a comment`)
	f.Fuzz(func(t *testing.T, manifest, tsconfig string) {
		root := wsRepo(t, map[string]string{
			"packages/app/package.json":     `{"name":"app","dependencies":{"shared":"1.0.0"}}`,
			"packages/shared/package.json":  manifest,
			"packages/shared/tsconfig.json": tsconfig,
			"packages/shared/src/index.ts":  "export {};",
		}, map[string]string{"node_modules/shared": "packages/shared"})
		got := FindWorkspaceSources(root, filepath.Join(root, "packages", "app"))
		for k, vs := range got.Paths {
			for _, v := range vs {
				if !filepath.IsAbs(v) {
					t.Errorf("%s: %s is not absolute", k, v)
				}
			}
		}
	})
}

// TestProgramsReadWorkspaceSources checks that the driver's programs take
// the mapping: the build of dep says v is a number, its source that it is a
// string, so only a program reading the source sees src/a.ts's error; and
// the usage scan finds the use through the source.
func TestProgramsReadWorkspaceSources(t *testing.T) {
	a := sharedAdapter(t)
	ctx := context.Background()
	root := wsRepo(t, map[string]string{
		"package.json":                 `{"name":"app","dependencies":{"dep":"1.0.0"}}`,
		"tsconfig.json":                `{"compilerOptions":{"strict":true,"module":"commonjs","target":"es2020","noEmit":true},"include":["src"]}`,
		"src/a.ts":                     "import { v } from \"dep\";\nexport const n: number = v;\n",
		"packages/dep/package.json":    `{"name":"dep","version":"1.0.0","types":"dist/index.d.ts"}`,
		"packages/dep/dist/index.d.ts": "export declare const v: number;\n",
		"packages/dep/src/index.ts":    "export const v: string = \"x\";\n",
	}, map[string]string{"node_modules/dep": "packages/dep"})
	r, err := a.Compile(ctx, CompileRequest{RepoRoot: root, Files: []string{"src/a.ts"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.PreExisting != 1 {
		t.Errorf("%d errors in src/a.ts, want 1: the source's string is not a number", r.PreExisting)
	}
	u, err := a.FindUsages(ctx, UsageRequest{RepoRoot: root, Package: "dep", PackageDir: filepath.Join(root, "packages", "dep")})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(u.Importers, []string{"src/a.ts"}) {
		t.Errorf("importers %v, want src/a.ts", u.Importers)
	}
}
