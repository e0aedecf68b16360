package repo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeTree writes files (slash paths relative to dir) with their content.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadFollowsFileDependenciesIntoTheRepository(t *testing.T) {
	type ws struct{ Path, Name, LinkedFrom string }
	tests := []struct {
		name  string
		files map[string]string
		want  []ws
		// problems is how many problems Load must report.
		problems int
	}{
		{
			name: "npm 6 monorepo: file: packages and a package linking another",
			files: map[string]string{
				"package.json":            `{"name":"root","dependencies":{"b":"file:packages/b","a":"file:./packages/a"}}`,
				"package-lock.json":       `{"lockfileVersion":1}`,
				"packages/a/package.json": `{"name":"a","dependencies":{"b":"file:../b","c":"file:../../libs/c","x":"^1.0.0"}}`,
				"packages/b/package.json": `{"name":"b","dependencies":{"a":"file:../a"}}`,
				"libs/c/package.json":     `{"name":"c"}`,
			},
			want: []ws{{".", "root", ""}, {"libs/c", "c", "packages/a"}, {"packages/a", "a", "."}, {"packages/b", "b", "."}},
		},
		{
			name: "what is not a package inside the repository is not followed",
			files: map[string]string{
				"package.json": `{"name":"root","dependencies":{
					"out":"file:../outside","tgz":"file:vendor/t-1.0.0.tgz","nm":"file:node_modules/x",
					"nodir":"file:missing","plain":"./plain","self":"file:.","abs":"file:///tmp/x","home":"file:~/x"}}`,
				"plain/package.json":          `{"name":"plain"}`,
				"node_modules/x/package.json": `{"name":"x"}`,
				"vendor/t-1.0.0.tgz":          "not read",
			},
			want: []ws{{".", "root", ""}, {"plain", "plain", "."}},
		},
		{
			name: "a declared workspace stays a workspace",
			files: map[string]string{
				"package.json":            `{"name":"root","workspaces":["packages/*"],"dependencies":{"a":"file:packages/a"}}`,
				"packages/a/package.json": `{"name":"a"}`,
			},
			want: []ws{{".", "root", ""}, {"packages/a", "a", ""}},
		},
		{
			name: "a broken linked manifest is a problem, the rest is read",
			files: map[string]string{
				"package.json":            `{"name":"root","dependencies":{"a":"file:packages/a","b":"file:packages/b"}}`,
				"packages/a/package.json": `{"name":`,
				"packages/b/package.json": `{"name":"b"}`,
			},
			want:     []ws{{".", "root", ""}, {"packages/b", "b", "."}},
			problems: 1,
		},
		{
			name: "pnpm records no file: directory per importer: not followed",
			files: map[string]string{
				"package.json":            `{"name":"root","packageManager":"pnpm@9.15.9","dependencies":{"a":"file:packages/a"}}`,
				"packages/a/package.json": `{"name":"a"}`,
			},
			want: []ws{{".", "root", ""}},
		},
		{
			name: "yarn neither",
			files: map[string]string{
				"package.json":            `{"name":"root","dependencies":{"a":"file:packages/a"}}`,
				"yarn.lock":               "# yarn lockfile v1\n",
				"packages/a/package.json": `{"name":"a"}`,
			},
			want: []ws{{".", "root", ""}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tt.files)
			r, err := Load(dir)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			var got []ws
			for _, w := range r.Workspaces {
				got = append(got, ws{w.Path, w.Name, w.LinkedFrom})
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("workspaces (-want +got):\n%s", d)
			}
			if len(r.Problems) != tt.problems {
				t.Errorf("problems = %+v, want %d", r.Problems, tt.problems)
			}
		})
	}
}
