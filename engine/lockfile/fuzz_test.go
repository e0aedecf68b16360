package lockfile

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
	// The fixtures cut down to a few entries each: whole, they are 2 to 12
	// KB, and the fuzzer spends its minute minimising the first input
	// that finds new coverage instead of exploring.
	paths, err := filepath.Glob(filepath.Join("testdata", "npm-v*", "*", "package-lock.json"))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no npm fixtures: %v", err)
	}
	// The repositories' lockfiles, npm 6's file: packages among them.
	for _, p := range []string{"npm-v1", "npm-v1-file", "npm-v3"} {
		paths = append(paths, filepath.Join("..", "..", "fixtures", "repos", p, "package-lock.json"))
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(smallNPM(f, data))
	}
	for _, s := range []string{
		`{"lockfileVersion":1,"dependencies":{"a":{"version":"file:packages/a","dependencies":{"x":{"version":"npm:y@1.0.0"}}}}}`,
		`{"lockfileVersion":1,"dependencies":{"b":{"version":"file:./packages/b/","dependencies":{"x":{"version":"1.0.0","dependencies":{"y":{"version":"2.0.0"}}}}},"x":{"version":"file:packages/b"}}}`,
		`{"lockfileVersion":1,"dependencies":{"b":{"version":"file:packages/b","dependencies":null},"c":null}}`,
		`{"lockfileVersion":3,"packages":{"packages/a":{},"packages/a/node_modules/x":{"link":true,"resolved":"file:../x"}}}`,
		`{"lockfileVersion":3,"packages":{"":{"workspaces":["packages/a"]},"node_modules/@s/a":{"link":true,"resolved":"packages/a"},"packages/a":{"name":"@s/a","version":"1.0.0"},"node_modules/x":{"name":"y","version":"2.0.0"},"packages/a/node_modules/x":{"version":"3.0.0-rc.1"}}}`,
		`{"lockfileVersion":2,"packages":{"node_modules/a":{"version":"1.0.0"}},"dependencies":{"a":{"version":"1.0.0"}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "package-lock.json", data) })
}

// smallNPM is a package-lock.json with the fields the parser reads and a
// few entries of each table: the root, links, workspace folders, nested
// copies and aliases first, so every shape the fixture has stays.
func smallNPM(t testing.TB, data []byte) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	small := map[string]any{"lockfileVersion": doc["lockfileVersion"]}
	for _, table := range []string{"packages", "dependencies"} {
		if m, ok := doc[table].(map[string]any); ok {
			small[table] = fewEntries(m)
		}
	}
	out, err := json.Marshal(small)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fewEntries keeps one entry of each shape (root, link, workspace folder,
// nested copy, alias, file: version, plain) with only the fields the
// parser reads, recursing into npm 6's nested dependencies.
func fewEntries(m map[string]any) map[string]any {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	shapeOf := func(k string, e map[string]any) string {
		v, _ := e["version"].(string)
		switch {
		case k == "":
			return "root"
		case e["link"] == true:
			return "link"
		case strings.HasPrefix(v, "file:"):
			return "file"
		case e["name"] != nil && !strings.Contains(k, "node_modules/"):
			return "folder"
		case e["name"] != nil || strings.HasPrefix(v, "npm:"):
			return "alias"
		case strings.Count(k, "node_modules/") > 1 || strings.Contains(k, "/node_modules/") || e["dependencies"] != nil && !strings.Contains(k, "/"):
			return "nested"
		}
		return "plain"
	}
	seen := map[string]bool{}
	out := map[string]any{}
	for _, k := range keys {
		e, ok := m[k].(map[string]any)
		if !ok {
			continue
		}
		shape := shapeOf(k, e)
		if seen[shape] {
			continue
		}
		seen[shape] = true
		kept := map[string]any{}
		for _, field := range []string{"name", "version", "resolved", "link", "workspaces"} {
			if v, ok := e[field]; ok && (field != "resolved" || e["link"] == true) {
				kept[field] = v
			}
		}
		// npm 6 nests entries; a v2/v3 entry's ranges keep none.
		if deps, ok := e["dependencies"].(map[string]any); ok {
			if nested := fewEntries(deps); len(nested) > 0 {
				kept["dependencies"] = nested
			}
		}
		out[k] = kept
	}
	return out
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
