package repo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseManifestErrors(t *testing.T) {
	tests := []struct {
		name     string
		data     string
		wantLine int
		wantMsg  string
	}{
		{"trailing comma", "{\n  \"a\": 1,\n}\n", 3, "not valid JSON"},
		{"missing comma", "{\n  \"a\": 1\n  \"b\": 2\n}", 3, "not valid JSON"},
		{"truncated", "{\n  \"a\": {\n", 2, "not valid JSON"},
		{"empty file", "", 1, "not valid JSON"},
		{"array at the top", "[1, 2]", 1, "not an object"},
		{"null at the top", "null", 1, "not an object"},
		{"newline inside a string", "{\n  \"name\": \"a\nb\"\n}", 2, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseManifest([]byte(tt.data))
			if err == nil {
				t.Fatal("parsed, want an error")
			}
			if err.Line != tt.wantLine || !strings.Contains(err.Msg, tt.wantMsg) {
				t.Errorf("error at line %d %q, want line %d containing %q", err.Line, err.Msg, tt.wantLine, tt.wantMsg)
			}
		})
	}
}

func TestParseManifestFields(t *testing.T) {
	data := "\xef\xbb\xbf{\n  \"name\": \"a\",\n  \"version\": 1,\n  \"private\": true,\n" +
		"  \"dependencies\": {\"b\": \"^1\", \"c\": null},\n  \"peerDependencies\": {\"b\": \"*\"},\n" +
		"  \"devDependencies\": null\n}"
	m, err := parseManifest([]byte(data))
	if err != nil {
		t.Fatalf("BOM-prefixed manifest: %v", err)
	}
	if m.name != "a" || !m.private || m.version != "" {
		t.Errorf("name %q private %v version %q", m.name, m.private, m.version)
	}
	if len(m.deps) != 2 || m.deps[0].typ != "dependencies" || m.deps[1].typ != "peerDependencies" {
		t.Errorf("deps = %+v, want b in dependencies then peerDependencies", m.deps)
	}
	var lines []int
	for _, p := range m.problems {
		lines = append(lines, p.line)
	}
	if len(lines) != 2 || lines[0] != 3 || lines[1] != 5 {
		t.Errorf("problems = %+v, want version (line 3) and c (line 5)", m.problems)
	}
}

func TestKeyLine(t *testing.T) {
	data := []byte("{\n \"a\": {\"x\": 1},\n \"deps\": {\n  \"react\": \"^18\",\n  \"zod\": 3\n },\n \"deps\": {\n  \"zod\": 4\n }\n}")
	tests := []struct {
		path []string
		want int
	}{
		{[]string{"a"}, 2},
		{[]string{"deps"}, 7}, // JSON.parse keeps the last duplicate
		{[]string{"deps", "react"}, 4},
		{[]string{"missing"}, 0},
		{nil, 0},
	}
	for _, tt := range tests {
		if got := keyLine(data, tt.path...); got != tt.want {
			t.Errorf("keyLine(%v) = %d, want %d", tt.path, got, tt.want)
		}
	}
}

func TestParsePnpmWorkspace(t *testing.T) {
	tests := []struct {
		name     string
		data     string
		wantLine int // 0: no error expected
		wantPkgs []string
	}{
		{"empty file", "", 0, nil},
		{"packages", "packages:\n  - 'a/*'\n  - \"!a/x\"\n", 0, []string{"a/*", "!a/x"}},
		{"anchors", "base: &b\n  react: ^18\ncatalog: *b\npackages: ['p/*']\n", 0, []string{"p/*"}},
		{"packages not a list", "packages: 'a/*'\n", 1, nil},
		{"empty package entry", "packages:\n  - a\n  - ''\n", 3, nil},
		{"catalog not a mapping", "catalog:\n  - react\n", 2, nil},
		{"catalog entry not a string", "catalog:\n  react:\n    v: 1\n", 3, nil},
		{"default catalog twice", "catalog:\n  a: ^1\ncatalogs:\n  default:\n    a: ^2\n", 4, nil},
		{"default catalog twice, other order", "catalogs:\n  default:\n    a: ^2\ncatalog:\n  a: ^1\n", 4, nil},
		{"top level a list", "- a\n", 1, nil},
		{"syntax (the line yaml reports)", "packages:\n  - a\n b: [\n", 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pw, err := parsePnpmWorkspace([]byte(tt.data))
			if tt.wantLine == 0 {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				if strings.Join(pw.packages, "|") != strings.Join(tt.wantPkgs, "|") {
					t.Errorf("packages = %q, want %q", pw.packages, tt.wantPkgs)
				}
				return
			}
			if err == nil {
				t.Fatal("parsed, want an error")
			}
			if err.Line != tt.wantLine {
				t.Errorf("error at line %d (%s), want line %d", err.Line, err.Msg, tt.wantLine)
			}
		})
	}
	pw, err := parsePnpmWorkspace([]byte("base: &b\n  react: ^18\ncatalog: *b\n"))
	if err != nil || pw.catalogs["default"]["react"] != "^18" {
		t.Errorf("aliased catalog = %+v, %v", pw, err)
	}
}

func manifestSeeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "package.json"))
	more, _ := filepath.Glob(filepath.Join("testdata", "*", "packages", "*", "package.json"))
	for _, p := range append(files, more...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
}

func FuzzParseManifest(f *testing.F) {
	manifestSeeds(f)
	f.Add([]byte(`{"workspaces":{"packages":["a"],"catalog":{"x":"1"},"catalogs":{"t":{"y":"2"}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseManifest(data)
		if err != nil {
			if err.Line < 0 || err.Msg == "" {
				t.Fatalf("error without a line or message: %+v", err)
			}
			return
		}
		for _, d := range m.deps {
			ClassifySpec(d.name, d.spec)
			keyLine(m.data, string(d.typ), d.name)
		}
	})
}

func FuzzParsePnpmWorkspace(f *testing.F) {
	for _, p := range []string{"pnpm", "broken-yaml"} {
		if data, err := os.ReadFile(filepath.Join("testdata", p, "pnpm-workspace.yaml")); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pw, err := parsePnpmWorkspace(data)
		if err == nil && pw == nil {
			t.Fatal("nil workspace without an error")
		}
		if err == nil {
			newWorkspaceGlobs(pw.packages)
		}
	})
}
