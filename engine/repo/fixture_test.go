package repo

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureRenames lets testdata hold files git would otherwise ignore or
// interpret in this repository: they are renamed when a fixture is copied.
var fixtureRenames = map[string]string{
	"_gitignore":    ".gitignore",
	"_node_modules": "node_modules",
	"_git":          ".git",
}

// copyFixture copies testdata/<name> into a fresh temporary directory, so
// that Load's walk upward sees nothing of this repository, and returns it.
func copyFixture(t testing.TB, name string) string {
	t.Helper()
	src := filepath.Join("testdata", name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		parts := strings.Split(rel, string(filepath.Separator))
		for i, p := range parts {
			if r, ok := fixtureRenames[p]; ok {
				parts[i] = r
			}
		}
		target := filepath.Join(append([]string{dst}, parts...)...)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy fixture %s: %v", name, err)
	}
	return dst
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
