package modformat

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func pkg(t *testing.T, manifest string, files map[string]string) Package {
	t.Helper()
	m, err := ParseManifest("x/package.json", []byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	p := Package{Manifest: m}
	if files != nil {
		fsys := fstest.MapFS{"package.json": {Data: []byte(manifest)}}
		for k, v := range files {
			fsys[k] = &fstest.MapFile{Data: []byte(v)}
		}
		p.FS = fsys
	}
	return p
}

func TestResolveEntry(t *testing.T) {
	tests := []struct {
		name     string
		manifest string
		files    map[string]string
		subpath  string
		want     EntryLoads
	}{
		{
			name:     "plain CommonJS main",
			manifest: `{"main":"lib/index.js"}`,
			want: EntryLoads{
				Require:    EntryLoad{File: "lib/index.js", Kind: CommonJS, Via: "main", KindWhy: `no "type" field`},
				RequireESM: EntryLoad{File: "lib/index.js", Kind: CommonJS, Via: "main", KindWhy: `no "type" field`},
				Import:     EntryLoad{File: "lib/index.js", Kind: CommonJS, Via: "main", KindWhy: `no "type" field`},
			},
		},
		{
			name:     "type module, no main",
			manifest: `{"type":"module"}`,
			want: EntryLoads{
				Require:    EntryLoad{File: "index.js", Kind: ESM, Via: "index.js (no main, no exports)", KindWhy: `"type": "module"`},
				RequireESM: EntryLoad{File: "index.js", Kind: ESM, Via: "index.js (no main, no exports)", KindWhy: `"type": "module"`},
				Import:     EntryLoad{File: "index.js", Kind: ESM, Via: "index.js (no main, no exports)", KindWhy: `"type": "module"`},
			},
		},
		{
			name:     "main at .mjs, module field ignored",
			manifest: `{"main":"./dist/index.mjs","module":"./dist/index.mjs"}`,
			want: EntryLoads{
				Require:    EntryLoad{File: "dist/index.mjs", Kind: ESM, Via: "main", KindWhy: ".mjs"},
				RequireESM: EntryLoad{File: "dist/index.mjs", Kind: ESM, Via: "main", KindWhy: ".mjs"},
				Import:     EntryLoad{File: "dist/index.mjs", Kind: ESM, Via: "main", KindWhy: ".mjs"},
			},
		},
		{
			name:     "dual package with nested conditions in key order",
			manifest: `{"type":"module","exports":{".":{"import":{"types":"./d.ts","default":"./esm/index.js"},"require":{"types":"./d.cts","default":"./cjs/index.cjs"}}}}`,
			want: EntryLoads{
				Require:    EntryLoad{File: "cjs/index.cjs", Kind: CommonJS, Via: `exports["."].require.default`, KindWhy: ".cjs"},
				RequireESM: EntryLoad{File: "cjs/index.cjs", Kind: CommonJS, Via: `exports["."].require.default`, KindWhy: ".cjs"},
				Import:     EntryLoad{File: "esm/index.js", Kind: ESM, Via: `exports["."].import.default`, KindWhy: `"type": "module"`},
			},
		},
		{
			name:     "import-only exports",
			manifest: `{"type":"module","exports":{"import":"./index.js","types":"./index.d.ts"}}`,
			want: EntryLoads{
				Require:    EntryLoad{Via: `exports["."] has no condition among require, node, default`},
				RequireESM: EntryLoad{Via: `exports["."] has no condition among require, module-sync, node, default`},
				Import:     EntryLoad{File: "index.js", Kind: ESM, Via: `exports["."].import`, KindWhy: `"type": "module"`},
			},
		},
		{
			name:     "module-sync hands require(esm) the ESM build",
			manifest: `{"exports":{"module-sync":"./index.mjs","require":"./index.cjs","default":"./index.mjs"}}`,
			want: EntryLoads{
				Require:    EntryLoad{File: "index.cjs", Kind: CommonJS, Via: `exports["."].require`, KindWhy: ".cjs"},
				RequireESM: EntryLoad{File: "index.mjs", Kind: ESM, Via: `exports["."].module-sync`, KindWhy: ".mjs"},
				Import:     EntryLoad{File: "index.mjs", Kind: ESM, Via: `exports["."].module-sync`, KindWhy: ".mjs"},
			},
		},
		{
			name:     "string exports and a nested type:module folder",
			manifest: `{"exports":"./dist/esm/index.js"}`,
			files:    map[string]string{"dist/esm/index.js": "export {}", "dist/esm/package.json": `{"type":"module"}`},
			want: EntryLoads{
				Require:    EntryLoad{File: "dist/esm/index.js", Kind: ESM, Via: `exports["."]`, KindWhy: `dist/esm/package.json "type": "module"`},
				RequireESM: EntryLoad{File: "dist/esm/index.js", Kind: ESM, Via: `exports["."]`, KindWhy: `dist/esm/package.json "type": "module"`},
				Import:     EntryLoad{File: "dist/esm/index.js", Kind: ESM, Via: `exports["."]`, KindWhy: `dist/esm/package.json "type": "module"`},
			},
		},
		{
			name:     "subpath pattern, longest prefix, null exclusion elsewhere",
			manifest: `{"exports":{"./*":"./lib/*.js","./v4/*":{"require":"./v4/*.cjs"},"./internal/*":null}}`,
			subpath:  "./v4/core",
			want: EntryLoads{
				Require:    EntryLoad{File: "v4/core.cjs", Kind: CommonJS, Via: `exports["./v4/*"].require`, KindWhy: ".cjs"},
				RequireESM: EntryLoad{File: "v4/core.cjs", Kind: CommonJS, Via: `exports["./v4/*"].require`, KindWhy: ".cjs"},
				Import:     EntryLoad{Via: `exports["./v4/*"] has no condition among import, module-sync, node, default`},
			},
		},
		{
			name:     "null excludes",
			manifest: `{"exports":{"./*":"./lib/*.js","./internal/*":null}}`,
			subpath:  "./internal/x",
			want: EntryLoads{
				Require:    EntryLoad{Via: `exports["./internal/*"] is null (excluded)`},
				RequireESM: EntryLoad{Via: `exports["./internal/*"] is null (excluded)`},
				Import:     EntryLoad{Via: `exports["./internal/*"] is null (excluded)`},
			},
		},
		{
			name:     "fallback array skips invalid targets",
			manifest: `{"exports":{".":[{"worker":"./w.js"},"bare-spec","./ok.cjs"]}}`,
			want: EntryLoads{
				Require:    EntryLoad{File: "ok.cjs", Kind: CommonJS, Via: `exports["."][2]`, KindWhy: ".cjs"},
				RequireESM: EntryLoad{File: "ok.cjs", Kind: CommonJS, Via: `exports["."][2]`, KindWhy: ".cjs"},
				Import:     EntryLoad{File: "ok.cjs", Kind: CommonJS, Via: `exports["."][2]`, KindWhy: ".cjs"},
			},
		},
		{
			name:     "unexported subpath",
			manifest: `{"exports":{".":"./index.js"}}`,
			subpath:  "./lib/x",
			want: EntryLoads{
				Require:    EntryLoad{Via: `exports has no "./lib/x" entry`},
				RequireESM: EntryLoad{Via: `exports has no "./lib/x" entry`},
				Import:     EntryLoad{Via: `exports has no "./lib/x" entry`},
			},
		},
		{
			name:     "main without extension is searched when files are at hand",
			manifest: `{"main":"lib"}`,
			files:    map[string]string{"lib/index.js": ""},
			want: EntryLoads{
				Require:    EntryLoad{File: "lib/index.js", Kind: CommonJS, Via: "main", KindWhy: `no "type" field`},
				RequireESM: EntryLoad{File: "lib/index.js", Kind: CommonJS, Via: "main", KindWhy: `no "type" field`},
				Import:     EntryLoad{File: "lib/index.js", Kind: CommonJS, Via: "main", KindWhy: `no "type" field`},
			},
		},
		{
			name:     "traversal target is invalid",
			manifest: `{"exports":{".":"./../../etc/passwd.js"}}`,
			want: EntryLoads{
				Require:    EntryLoad{Via: `exports["."] has no condition among require, node, default`},
				RequireESM: EntryLoad{Via: `exports["."] has no condition among require, module-sync, node, default`},
				Import:     EntryLoad{Via: `exports["."] has no condition among import, module-sync, node, default`},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pkg(t, tt.manifest, tt.files)
			sp := tt.subpath
			if sp == "" {
				sp = "."
			}
			if d := cmp.Diff(tt.want, loads(p, sp)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	cjs := `{"name":"lib","version":"1.0.0","main":"index.js","engines":{"node":">=14"}}`
	tests := []struct {
		name          string
		installed     string
		target        string
		files         map[string]string
		subpaths      []string
		stops         bool
		notRequirable bool
		tla           *TopLevelAwait
		reason        []string
	}{
		{
			name:      "type module without require condition",
			installed: cjs,
			target:    `{"name":"lib","version":"2.0.0","type":"module","exports":{".":{"types":"./index.d.ts","default":"./index.js"}},"engines":{"node":">=20"}}`,
			stops:     true,
			reason:    []string{`lib@2.0.0 ships "." as ESM only`, `exports["."].default to index.js`, `"type": "module"`},
		},
		{
			name:          "exports with only import conditions",
			installed:     cjs,
			target:        `{"name":"lib","version":"2.0.0","exports":{".":{"import":"./index.mjs"}}}`,
			stops:         true,
			notRequirable: true,
			reason:        []string{`gives require() nothing for "."`, "only import() reaches index.mjs", "no Node can require() it"},
		},
		{
			name:      "main pointing at .mjs",
			installed: cjs,
			target:    `{"name":"lib","version":"2.0.0","main":"dist/index.mjs"}`,
			stops:     true,
			reason:    []string{"resolves main to dist/index.mjs", "(.mjs)"},
		},
		{
			name:      "dual package keeps require",
			installed: cjs,
			target:    `{"name":"lib","version":"2.0.0","type":"module","exports":{".":{"import":"./index.js","require":"./index.cjs"}}}`,
			stops:     false,
		},
		{
			name:      "module field alone changes nothing",
			installed: cjs,
			target:    `{"name":"lib","version":"2.0.0","main":"index.js","module":"index.mjs"}`,
			stops:     false,
		},
		{
			name:      "already ESM-only installed is no new finding",
			installed: `{"name":"lib","version":"1.0.0","type":"module"}`,
			target:    `{"name":"lib","version":"2.0.0","type":"module"}`,
			stops:     false,
		},
		{
			name:      "top-level await in the ESM graph",
			installed: cjs,
			target:    `{"name":"lib","version":"2.0.0","type":"module","exports":"./index.js"}`,
			files: map[string]string{
				"index.js": "export * from './lib/a.js'\nimport './side.js'\n",
				"lib/a.js": "import { x } from '../conf.js'\nexport const a = x\n",
				"conf.js":  "const c = await load()\nexport const x = c\n",
				"side.js":  "",
			},
			stops:  true,
			tla:    &TopLevelAwait{File: "conf.js", Line: 1},
			reason: []string{"awaits at top level (conf.js:1)"},
		},
		{
			name:          "subpath stops while root keeps require",
			installed:     `{"name":"lib","version":"1.0.0","exports":{".":"./index.js","./v4":"./v4.js"}}`,
			target:        `{"name":"lib","version":"2.0.0","exports":{".":"./index.js","./v4":{"import":"./v4.mjs"}}}`,
			subpaths:      []string{".", "v4", "./v4"},
			stops:         true,
			notRequirable: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Format(pkg(t, tt.installed, nil), pkg(t, tt.target, tt.files), tt.subpaths)
			if r.StopsRequire != tt.stops {
				t.Fatalf("StopsRequire %v; want %v (%+v)", r.StopsRequire, tt.stops, r.Entries)
			}
			last := r.Entries[len(r.Entries)-1]
			if last.NotRequirable != tt.notRequirable {
				t.Errorf("NotRequirable %v; want %v", last.NotRequirable, tt.notRequirable)
			}
			if d := cmp.Diff(tt.tla, last.TopLevelAwait); d != "" {
				t.Errorf("top-level await (-want +got):\n%s", d)
			}
			for _, want := range tt.reason {
				if !strings.Contains(last.Reason, want) {
					t.Errorf("reason %q; want it to contain %q", last.Reason, want)
				}
			}
			if !tt.stops && last.Reason != "" {
				t.Errorf("reason without a stop: %q", last.Reason)
			}
		})
	}
	r := Format(pkg(t, cjs, nil), pkg(t, `{"name":"lib","version":"2.0.0","type":"module","engines":{"node":">=20"}}`, nil), nil)
	if r.Package != "lib" || r.From != "1.0.0" || r.To != "2.0.0" || r.EnginesFrom != ">=14" || r.EnginesTo != ">=20" {
		t.Errorf("report header %+v", r)
	}
	if e, ok := r.Entry("."); !ok || !e.StopsRequire {
		t.Errorf("Entry(.) = %+v, %v", e, ok)
	}
	sp := Format(pkg(t, cjs, nil), pkg(t, cjs, nil), []string{".", "v4", "./v4"})
	if len(sp.Entries) != 2 || sp.Entries[1].Subpath != "./v4" {
		t.Errorf("subpaths not normalized and deduplicated: %+v", sp.Entries)
	}
}

func TestParseManifestErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`[]`, "zod@4/package.json: not a JSON object"},
		{`{"exports": {"a": [}`, "zod@4/package.json: not a JSON object"},
		{`{"exports": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, "exports: nested more than 64 levels"},
	}
	for _, tt := range tests {
		_, err := ParseManifest("zod@4/package.json", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseManifest(%.30q) err %v; want %q", tt.src, err, tt.want)
		}
	}
	// Wrong field types are ignored, as Node ignores them.
	m, err := ParseManifest("p", []byte(`{"type":7,"main":["x"],"engines":"node 20","exports":null}`))
	if err != nil || m.Type != "" || m.Main != "" || m.EnginesNode != "" || m.Exports != nil {
		t.Errorf("lenient fields: %+v, %v", m, err)
	}
}

func TestLoadPackage(t *testing.T) {
	fsys := fstest.MapFS{"package.json": {Data: []byte(`{"name":"a","version":"1.0.0","type":"module"}`)}}
	p, err := LoadPackage(fsys, "a@1.0.0")
	if err != nil || p.Manifest.Name != "a" || p.FS == nil {
		t.Fatalf("LoadPackage: %+v, %v", p, err)
	}
	if _, err := LoadPackage(fstest.MapFS{}, "a@1.0.0"); err == nil || !strings.Contains(err.Error(), "a@1.0.0/package.json") {
		t.Errorf("missing manifest: err %v", err)
	}
}
