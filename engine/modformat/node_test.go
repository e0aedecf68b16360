package modformat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const ciMatrix = `jobs:
  test:
    strategy:
      matrix:
        node: [20, 22, 18]
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ matrix.node }}
`

func TestNodeVersion(t *testing.T) {
	tests := []struct {
		name      string
		files     map[string]string
		workspace string
		want      NodeInfo
		note      []string // substrings of the note
	}{
		{
			name: "Dockerfile beats every other source",
			files: map[string]string{
				"Dockerfile":               "FROM node:22-alpine\n",
				".nvmrc":                   "20.18\n",
				"package.json":             `{"engines":{"node":">=18"}}`,
				".github/workflows/ci.yml": ciMatrix,
			},
			want: NodeInfo{Version: "22", Source: "Dockerfile FROM node:22-alpine"},
		},
		{
			name: "custom base image hands over to .nvmrc and says so",
			files: map[string]string{
				"Dockerfile": "FROM node:22 AS build\nFROM acme/runtime:7\n",
				".nvmrc":     "v20.18.0\n",
			},
			want: NodeInfo{Version: "20.18.0", Source: ".nvmrc"},
			note: []string{"Dockerfile: the final stage builds on acme/runtime:7, a custom base image, not Node's, so production Node is unknown"},
		},
		{
			name: "workspace files beat the root's",
			files: map[string]string{
				".nvmrc":                 "18\n",
				"apps/api/.node-version": "22.12.0\n",
				"apps/api/package.json":  `{"name":"api"}`,
			},
			workspace: "apps/api",
			want:      NodeInfo{Version: "22.12.0", Source: "apps/api/.node-version"},
		},
		{
			name: "workspace Dockerfile",
			files: map[string]string{
				"apps/api/Dockerfile": "FROM node:20.18-slim\n",
				".nvmrc":              "22\n",
			},
			workspace: "apps/api",
			want:      NodeInfo{Version: "20.18", Source: "apps/api/Dockerfile FROM node:20.18-slim"},
		},
		{
			name:  ".tool-versions",
			files: map[string]string{".tool-versions": "pnpm 9.1.0\nnodejs 20.11.1\n"},
			want:  NodeInfo{Version: "20.11.1", Source: ".tool-versions"},
		},
		{
			name:  ".tool-versions without node falls through",
			files: map[string]string{".tool-versions": "python 3.12\n", "package.json": `{"engines":{"node":">=20"}}`},
			want:  NodeInfo{Version: "20", Source: "package.json engines.node"},
		},
		{
			name:  "volta pin",
			files: map[string]string{"package.json": `{"volta":{"node":"22.11.0"},"engines":{"node":">=18"}}`},
			want:  NodeInfo{Version: "22.11.0", Source: "package.json volta.node"},
		},
		{
			name: "CI matrix: the lowest binds",
			files: map[string]string{
				".github/workflows/ci.yml": ciMatrix,
				"package.json":             `{"engines":{"node":">=22"}}`,
			},
			want: NodeInfo{Version: "18", Source: ".github/workflows/ci.yml node-version"},
			note: []string{"CI runs Node 18, 20, 22; the lowest binds"},
		},
		{
			name: "CI across workflows, node-version-file followed",
			files: map[string]string{
				".github/workflows/a.yaml": "jobs:\n  a:\n    steps:\n      - uses: actions/setup-node@v4\n        with: {node-version: 22}\n",
				".github/workflows/b.yml":  "jobs:\n  b:\n    steps:\n      - uses: actions/setup-node@v4\n        with: {node-version-file: config/node-version}\n",
				"config/node-version":      "20.17.0\n",
			},
			want: NodeInfo{Version: "20.17.0", Source: ".github/workflows/b.yml node-version"},
			note: []string{"CI runs Node 20.17.0, 22"},
		},
		{
			name:  "CI container",
			files: map[string]string{".github/workflows/ci.yml": "jobs:\n  a:\n    container: node:20.10-alpine\n"},
			want:  NodeInfo{Version: "20.10", Source: ".github/workflows/ci.yml container node:20.10-alpine"},
		},
		{
			name: "broken workflow is a note, engines answer",
			files: map[string]string{
				".github/workflows/ci.yml": "jobs: [\n",
				"package.json":             `{"engines":{"node":"^20.19.0 || >=22.12.0"}}`,
			},
			want: NodeInfo{Version: "20.19.0", Source: "package.json engines.node"},
			note: []string{".github/workflows/ci.yml: not valid YAML"},
		},
		{
			name: "workspace engines before the root's",
			files: map[string]string{
				"package.json":            `{"engines":{"node":">=18"}}`,
				"packages/a/package.json": `{"engines":{"node":">=20.5"}}`,
			},
			workspace: "packages/a",
			want:      NodeInfo{Version: "20.5", Source: "packages/a/package.json engines.node"},
		},
		{
			name:  "unreadable .nvmrc is skipped with a note",
			files: map[string]string{".nvmrc": "system\n", ".node-version": "22\n"},
			want:  NodeInfo{Version: "22", Source: ".node-version"},
			note:  []string{`.nvmrc:1: "system" is not a Node version`},
		},
		{
			name:  "nothing names a version",
			files: map[string]string{"package.json": `{"name":"x","engines":{"node":"*"}}`},
			want:  NodeInfo{},
			note:  []string{`engines.node "*" names no lowest Node version`, "no Dockerfile"},
		},
		{
			name:  "Dockerfile with an unset ARG",
			files: map[string]string{"Dockerfile": "ARG NODE\nFROM node:${NODE}\n", ".nvmrc": "22"},
			want:  NodeInfo{Version: "22", Source: ".nvmrc"},
			note:  []string{"build argument with no default"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, tt.files)
			ws := root
			if tt.workspace != "" {
				ws = filepath.Join(root, tt.workspace)
			}
			got, err := NodeVersion(root, ws)
			if err != nil {
				t.Fatal(err)
			}
			if got.Version != tt.want.Version || got.Source != tt.want.Source {
				t.Fatalf("got %+v; want version %q source %q", got, tt.want.Version, tt.want.Source)
			}
			for _, n := range tt.note {
				if !strings.Contains(got.Note, n) {
					t.Errorf("note %q; want it to contain %q", got.Note, n)
				}
			}
			if len(tt.note) == 0 && got.Note != "" {
				t.Errorf("unexpected note %q", got.Note)
			}
		})
	}
}

func TestNodeVersionErrors(t *testing.T) {
	root := writeTree(t, map[string]string{"package.json": "{}"})
	other := t.TempDir()
	if _, err := NodeVersion(root, other); err == nil || !strings.Contains(err.Error(), "not inside the repository") {
		t.Errorf("workspace outside root: err %v", err)
	}
	if _, err := NodeVersion(root, filepath.Join(root, "missing")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing workspace: err %v", err)
	}
	// A relative workspace is taken from the root.
	if _, err := NodeVersion(root, "."); err != nil {
		t.Errorf("relative workspace: %v", err)
	}
	if os.Getuid() != 0 {
		p := filepath.Join(root, ".nvmrc")
		if err := os.WriteFile(p, []byte("22"), 0o000); err != nil {
			t.Fatal(err)
		}
		if _, err := NodeVersion(root, root); err == nil || !strings.Contains(err.Error(), "reading .nvmrc") {
			t.Errorf("unreadable .nvmrc: err %v", err)
		}
	}
}
