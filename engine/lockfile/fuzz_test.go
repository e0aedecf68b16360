package lockfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// fuzzParse checks what must hold for any input: no panic, an *Error naming
// the file at a line that exists, or a lockfile that answers any question.
func fuzzParse(t *testing.T, name string, data []byte) {
	file := "/repo/" + name
	lf, err := Parse(file, data)
	if err != nil {
		var le *Error
		if !errors.As(err, &le) {
			t.Fatalf("%T %v, want *Error", err, err)
		}
		if le.File != file || le.Msg == "" || le.Hint == "" {
			t.Fatalf("%+v: want the file, a message and a hint", le)
		}
		if le.Line < 0 || le.Line > lineCount(data)+1 {
			t.Fatalf("line %d outside the input's %d lines", le.Line, lineCount(data))
		}
		return
	}
	if lf.Path() != file {
		t.Fatalf("Path() = %q", lf.Path())
	}
	questions := append(append(workspaceCases[:len(workspaceCases):len(workspaceCases)], npm6FileCases...),
		lookup{ws: "packages/b", name: "a", spec: "workspace:*"}, lookup{ws: "packages/b", name: "c", spec: "link:../c"})
	for _, c := range questions {
		v, ok := lf.Installed(c.ws, c.name, c.spec)
		if ok && !isVersion(v) {
			t.Fatalf("Installed(%q, %q) = %q, not a version", c.ws, c.name, v)
		}
		e, _ := lf.Lookup(c.ws, c.name, c.spec)
		if e.Version != "" && !isVersion(e.Version) {
			t.Fatalf("Lookup(%q, %q).Version = %q, not a version", c.ws, c.name, e.Version)
		}
	}
}

// seed adds the fixtures of one kind of lockfile and a few hand-picked
// corner cases.
func seed(f *testing.F, glob string, extra ...string) {
	paths, err := filepath.Glob(filepath.Join("testdata", glob))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no fixtures match %s", glob)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, e := range extra {
		f.Add([]byte(e))
	}
}

func FuzzNPM(f *testing.F) {
	seed(f, "npm-v*/*/package-lock.json",
		`{"lockfileVersion":1,"dependencies":{"a":{"version":"file:packages/a","dependencies":{"x":{"version":"npm:y@1.0.0"}}}}}`,
		`{"lockfileVersion":1,"dependencies":{"b":{"version":"file:./packages/b/","dependencies":{"x":{"version":"1.0.0","dependencies":{"y":{"version":"2.0.0"}}}}},"x":{"version":"file:packages/b"}}}`,
		`{"lockfileVersion":1,"dependencies":{"b":{"version":"file:packages/b","dependencies":null},"c":null}}`,
		`{"lockfileVersion":3,"packages":{"packages/a":{},"packages/a/node_modules/x":{"link":true,"resolved":"file:../x"}}}`)
	// The repositories' lockfiles, npm 6's file: packages among them.
	for _, p := range []string{"npm-v1", "npm-v1-file", "npm-v3"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "repos", p, "package-lock.json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "package-lock.json", data) })
}

func FuzzPnpm(f *testing.F) {
	seed(f, "pnpm-v*/*/pnpm-lock.yaml",
		"lockfileVersion: 5.3\nspecifiers:\n  x: ^1\ndependencies:\n  x: /y/1.0.0_z@2.0.0\npackages:\n  /y/1.0.0_z@2.0.0: {}\n",
		"---\nlockfileVersion: '9.0'\n...\n---\nlockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      x: {specifier: '1', version: 'https://h/x.tgz'}\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "pnpm-lock.yaml", data) })
}

func FuzzYarnV1(f *testing.F) {
	seed(f, "yarn-v1/*/yarn.lock",
		"# yarn lockfile v1\n\n\"a@^1\", a@~1.2:\n  version \"1.2.3\"\n  dependencies:\n    \"@s/b\" \"^2\"\n",
		"x@\"\\u0041\":\n  version: 1.0.0\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "yarn.lock", data) })
}

func FuzzBerry(f *testing.F) {
	seed(f, "yarn-berry/*/yarn.lock",
		"__metadata:\n  version: 8\n\"a@npm:^1, a@npm:~1.2\":\n  version: 1.2.3\n  resolution: \"a@npm:1.2.3\"\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "yarn.lock", data) })
}

func FuzzBun(f *testing.F) {
	seed(f, "bun/*/bun.lock",
		"{\"lockfileVersion\": 1, // c\n\"workspaces\": {\"\": {\"name\": \"r\",},},\n\"packages\": {\"x\": [\"x@1.0.0\", \"\", {}, \"h\",], /* c */},}\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "bun.lock", data) })
}
