package modformat

import (
	"bytes"
	"testing"
	"testing/fstest"
)

// validVersion: every version a parser returns must be one HasRequireESM
// can judge.
func validVersion(t *testing.T, v, input string) {
	t.Helper()
	if v == "" {
		return
	}
	if _, known := HasRequireESM(v); !known {
		t.Fatalf("parser returned %q, which HasRequireESM cannot judge (input %q)", v, input)
	}
}

func FuzzDockerfile(f *testing.F) {
	for _, s := range []string{
		"FROM node:22-alpine\n",
		"FROM node:18 AS build\nRUN x\nFROM node:22-slim\n",
		"FROM node:20.18-alpine AS base\nFROM base AS deps\nFROM deps\n",
		"ARG NODE_VERSION=20.11.1\nFROM node:${NODE_VERSION}-alpine\n",
		"ARG NODE\nFROM node:${NODE:-21}",
		"# escape=`\nFROM `\n node:20\n",
		"FROM --platform=$BUILDPLATFORM node:lts-alpine3.20 as b\n",
		"FROM gcr.io/distroless/nodejs22-debian12\n",
		"FROM node@sha256:abc\n",
		"FROM a AS a\nFROM a\n",
		"FROM \\\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := parseDockerfile("Dockerfile", data)
		if err != nil {
			return
		}
		validVersion(t, got.version, string(data))
		if got.version == "" && got.why == "" {
			t.Fatalf("no version and no reason for %q", data)
		}
		if n := bytes.Count(data, []byte("\n")) + 1; got.line < 1 || got.line > n {
			t.Fatalf("line %d outside 1..%d", got.line, n)
		}
	})
}

func FuzzVersionFiles(f *testing.F) {
	for _, s := range []string{
		"22\n", "\ufeffv20.18.1\n", "# c\nlts/iron\n", "node # newest", "system",
		"python 3.12.1\nnodejs 22.12.0 20.19.0\n", "node 20", "nodejs\n", "nodejs ref:main",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if v, err := parseNvmrc(".nvmrc", data); err == nil {
			validVersion(t, v.version, string(data))
		}
		if v, found, err := parseToolVersions(".tool-versions", data); err == nil && found {
			validVersion(t, v.version, string(data))
		}
	})
}

func FuzzEngines(f *testing.F) {
	for _, s := range []string{">=20", "^18 || ^20 || >=22", "18 - 22", ">20.18", ">=18 <23", "*", "v20", "~20.11.0", ">= 20.x || 1.2.3.4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, r string) {
		if v, ok := enginesLowest(r); ok {
			validVersion(t, v, r)
		}
		if v, ok := normalizeVersion(r); ok {
			validVersion(t, v, r)
		}
	})
}

func FuzzWorkflow(f *testing.F) {
	for _, s := range []string{
		ciMatrix,
		"env:\n  V: 20\njobs:\n  a:\n    container: node:20\n    steps:\n      - uses: actions/setup-node@v4\n        with: {node-version: '${{ env.V }}'}\n",
		"jobs:\n  t:\n    strategy:\n      matrix:\n        config:\n          - {node: 20}\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: ${{matrix.config.node}}\n",
		"x: &a\n  b: *a\n",
		"jobs: [\n",
		"a: &x [*x]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		wf, err := parseWorkflow("ci.yml", data)
		if err != nil {
			return
		}
		for _, v := range wf.versions {
			validVersion(t, v.version, string(data))
		}
	})
}

func FuzzManifest(f *testing.F) {
	for _, s := range []string{
		`{"type":"module","exports":{".":{"import":{"types":"./d.ts","default":"./esm/index.js"},"require":"./cjs/index.cjs"}}}`,
		`{"exports":{"./*":"./lib/*.js","./v4/*":{"require":"./v4/*.cjs"},"./internal/*":null}}`,
		`{"exports":{".":[{"worker":"./w.js"},"bare","./ok.cjs"]},"main":"x"}`,
		`{"main":"./dist/index.mjs","engines":{"node":">=20"}}`,
		`{"exports":"./../x.js"}`,
	} {
		f.Add([]byte(s), "./v4/core")
	}
	f.Fuzz(func(t *testing.T, data []byte, subpath string) {
		m, err := ParseManifest("package.json", data)
		if err != nil {
			return
		}
		p := Package{Manifest: m, FS: fstest.MapFS{"package.json": {Data: data}}}
		for _, sp := range []string{".", normalizeSubpath(subpath)} {
			for _, conds := range [][]string{condRequire, condRequireESM, condImport} {
				e := resolveEntry(p, sp, conds)
				if (e.File == "") != (e.Kind == "") {
					t.Fatalf("file %q with kind %q", e.File, e.Kind)
				}
				if e.Via == "" {
					t.Fatalf("no via for %q", sp)
				}
			}
		}
		Format(p, p, []string{subpath})
	})
}

func FuzzScanModule(f *testing.F) {
	for _, s := range []string{
		"const y = await f()\n", "if (x) {\n  await f()\n}\n", "for await (const c of s) {}\n",
		"const s = `a ${await f()} b`", "export async function f() { await g() }\n",
		"const f = async x => await g(x)\nawait f(1)\n", "const r = /await \\/ [/]x/g\n",
		"class A extends B { async m() { await x } }", "import a from './a.js'\nexport * from \"../b.js\"\n",
		"`${`${`", "}}}))]]", "/*", "'", "`",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		line, _ := scanModule(src)
		if n := bytes.Count(src, []byte("\n")) + 1; line < 0 || line > n {
			t.Fatalf("line %d outside 0..%d", line, n)
		}
	})
}
