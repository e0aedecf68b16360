package modformat

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseWorkflow(t *testing.T) {
	tests := []struct {
		name       string
		src        string
		versions   []string
		files      []string
		unresolved []string
	}{
		{
			name: "plain setup-node",
			src: `on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 22
`,
			versions: []string{"22"},
		},
		{
			name: "a float-looking version keeps its digits",
			src: `jobs:
  t:
    steps:
      - uses: actions/setup-node@v4
        with: {node-version: 20.10}
`,
			versions: []string{"20.10"},
		},
		{
			name: "matrix list and include",
			src: `jobs:
  t:
    strategy:
      matrix:
        node: [18.x, 20.x, 22.x]
        include:
          - node: 16
            os: windows-latest
    steps:
      - uses: actions/setup-node@v3
        with:
          node-version: ${{ matrix.node }}
`,
			versions: []string{"18", "20", "22", "16"},
		},
		{
			name: "matrix of objects",
			src: `jobs:
  t:
    strategy:
      matrix:
        config:
          - {node: 20, os: ubuntu}
          - {node: "22.11", os: mac}
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: ${{matrix.config.node}}
`,
			versions: []string{"20", "22.11"},
		},
		{
			name: "env at job and workflow level",
			src: `env:
  NODE_VERSION: "20.18"
jobs:
  a:
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ env.NODE_VERSION }}
  b:
    env:
      NODE_VERSION: 22
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ env.NODE_VERSION }}.x
`,
			versions: []string{"20.18", "22"},
		},
		{
			name: "node-version-file and vars",
			src: `jobs:
  a:
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version-file: .nvmrc
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ vars.NODE }}
`,
			files:      []string{".nvmrc"},
			unresolved: []string{"${{ vars.NODE }}"},
		},
		{
			name: "container images",
			src: `jobs:
  a:
    container: node:20-bullseye
    steps: [{run: npm test}]
  b:
    container:
      image: postgres:16
  c:
    container:
      image: node:18.20
`,
			versions: []string{"20", "18.20"},
		},
		{
			name: "other actions and anchors",
			src: `x: &v 21
jobs:
  a:
    steps:
      - uses: pnpm/action-setup@v4
        with: {version: 9}
      - uses: actions/setup-node@v4
        with:
          node-version: *v
`,
			versions: []string{"21"},
		},
		{
			name:     "multi-line node-version",
			src:      "jobs:\n  a:\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: |\n            18\n            20\n",
			versions: []string{"18", "20"},
		},
		{name: "empty", src: "", versions: nil},
		{name: "no jobs", src: "on: push\n", versions: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wf, err := parseWorkflow("ci.yml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			var versions, files []string
			for _, v := range wf.versions {
				versions = append(versions, v.version)
			}
			for _, f := range wf.files {
				files = append(files, f.path)
			}
			if d := cmp.Diff(tt.versions, versions); d != "" {
				t.Errorf("versions (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.files, files); d != "" {
				t.Errorf("files (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.unresolved, wf.unresolved); d != "" {
				t.Errorf("unresolved (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseWorkflowErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"jobs: [\n", "ci.yml: not valid YAML"},
		{"- a\n- b\n", "ci.yml:1: a workflow is a mapping"},
	}
	for _, tt := range tests {
		_, err := parseWorkflow("ci.yml", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseWorkflow(%q) err %v; want %q", tt.src, err, tt.want)
		}
	}
}
