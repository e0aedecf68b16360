package typescript

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A solution-style tsconfig (no files of its own, references) compiles
// nothing itself: its referenced projects are what tsc -b would check.
func TestProjects(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("tsconfig.json", `{
  // a solution
  "files": [],
  "references": [{ "path": "./tsconfig.app.json" }, { "path": "packages/lib" }],
}`)
	write("tsconfig.app.json", `{"include": ["src"]}`)
	write("packages/lib/tsconfig.json", `{"compilerOptions": {"composite": true}, "references": [{"path": "../other"}]}`)
	got := Projects(filepath.Join(dir, "tsconfig.json"))
	want := []string{filepath.Join(dir, "tsconfig.app.json"), filepath.Join(dir, "packages/lib/tsconfig.json")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := Projects(filepath.Join(dir, "tsconfig.app.json")); len(got) != 1 {
		t.Errorf("a plain project is itself: %q", got)
	}
}
