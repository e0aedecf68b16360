package modformat

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestScanModule(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		line    int
		imports []string
	}{
		{name: "plain top-level await", src: "const x = 1\nconst y = await f()\n", line: 2},
		{name: "inside an if block", src: "if (x) {\n  await f()\n}\n", line: 2},
		{name: "for await", src: "for await (const c of s) {}\n", line: 1},
		{name: "inside a switch", src: "switch (a) { case 1: await b() }", line: 1},
		{name: "in an object literal value", src: "export const o = { a: await f() }", line: 1},
		{name: "in a call argument", src: "console.log(await f())", line: 1},
		{name: "in a template expression", src: "const s = `a ${await f()} b`", line: 1},
		{name: "in a try block", src: "try { await f() } catch (e) {}", line: 1},
		{name: "async function", src: "export async function f() { await g() }\n"},
		{name: "async arrow block", src: "const f = async () => { await g() }\n"},
		{name: "async arrow expression", src: "const f = async () => await g();\n"},
		{name: "async arrow expression then TLA on the next line", src: "const f = async x => await g(x)\nawait f(1)\n", line: 2},
		{name: "async arrow in an argument", src: "p.then(async (x) => await x, 1)\n"},
		{name: "class method", src: "class A extends B { async m() { await x } static async n() { await y } }\n"},
		{name: "object method", src: "export default { async load() { for await (const x of y) {} } }\n"},
		{name: "catch block after function", src: "async function f() { try {} catch (e) { await g() } }\n"},
		{name: "comments and strings", src: "// await x\n/* await\ny */ const s = 'await x'; const t = \"await\"\n"},
		{name: "regex", src: "const r = /await \\/ [/]x/g\n"},
		{name: "division is not a regex", src: "const a = b / c / d\nawait e\n", line: 2},
		{name: "template literal text", src: "const s = `await ${1} await`\n"},
		{name: "member named await", src: "x.await(); const o = { await: 1 }\n"},
		{name: "getter", src: "const o = { get x() { return (async () => { await y })() } }\n"},
		{
			name:    "imports and re-exports",
			src:     "import a from './a.js'\nimport './side.js'\nexport * from \"../b.js\"\nexport { c } from './c.js'\nimport('./dyn.js')\nconst x = Array.from('abc')\n",
			imports: []string{"./a.js", "./side.js", "../b.js", "./c.js"},
		},
		{name: "unterminated inputs", src: "const s = 'abc\nconst t = `x ${ await", line: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, imports := scanModule([]byte(tt.src))
			if line != tt.line {
				t.Errorf("line %d; want %d", line, tt.line)
			}
			if tt.imports != nil {
				if d := cmp.Diff(tt.imports, imports); d != "" {
					t.Errorf("imports (-want +got):\n%s", d)
				}
			}
		})
	}
}

func TestFindTopLevelAwait(t *testing.T) {
	fsys := fstest.MapFS{
		"index.js":   {Data: []byte("export * from './lib/a.js'\nexport * from 'dep'\n")},
		"lib/a.js":   {Data: []byte("import '../lib/b.js'\nimport './a.js'\n")},
		"lib/b.js":   {Data: []byte("export const b = 1\n\n\nawait 0\n")},
		"clean.js":   {Data: []byte("import './lib/a2.js'\n")},
		"lib/a2.js":  {Data: []byte("export async function f() { await 1 }\n")},
		"escape.js":  {Data: []byte("import '../../outside.js'\n")},
		"missing.js": {Data: []byte("import './nope.js'\n")},
	}
	tests := []struct {
		entry string
		want  *TopLevelAwait
	}{
		{"index.js", &TopLevelAwait{File: "lib/b.js", Line: 4}},
		{"./index.js", &TopLevelAwait{File: "lib/b.js", Line: 4}},
		{"clean.js", nil},
		{"escape.js", nil},
		{"missing.js", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, FindTopLevelAwait(fsys, tt.entry)); d != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.entry, d)
		}
	}
	if FindTopLevelAwait(nil, "index.js") != nil {
		t.Error("nil FS found something")
	}
}
