package lockfile

import (
	"os"
	"path/filepath"
	"testing"
)

// The lockfile table is the one place that says which manager writes
// which file: the loader's attribution and fix's detection both read it.
func TestWriterIn(t *testing.T) {
	tests := []struct {
		files []string
		want  string
	}{
		{nil, ""},
		{[]string{"package-lock.json"}, "npm"},
		{[]string{"npm-shrinkwrap.json"}, "npm"},
		// Another manager's lockfile wins over a stray package-lock.json,
		// although Find prefers npm's file to yarn's.
		{[]string{"package-lock.json", "yarn.lock"}, "yarn"},
		{[]string{"package-lock.json", "bun.lockb"}, "bun"},
		{[]string{"yarn.lock", "pnpm-lock.yaml"}, "pnpm"},
		{[]string{"bun.lock", "yarn.lock"}, "yarn"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		for _, n := range tt.files {
			if err := os.WriteFile(filepath.Join(dir, n), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got := WriterIn(dir); got != tt.want {
			t.Errorf("WriterIn(%v) = %q, want %q", tt.files, got, tt.want)
		}
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "yarn.lock"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := WriterIn(dir); got != "" {
		t.Errorf("WriterIn(a directory named yarn.lock) = %q, want none", got)
	}
}

func TestWriter(t *testing.T) {
	for name, want := range map[string]string{
		"pnpm-lock.yaml": "pnpm", "package-lock.json": "npm", "npm-shrinkwrap.json": "npm",
		"yarn.lock": "yarn", "bun.lock": "bun", "bun.lockb": "bun", "package.json": "", "": "",
	} {
		if got := Writer(name); got != want {
			t.Errorf("Writer(%q) = %q, want %q", name, got, want)
		}
	}
	if IsName("bun.lockb") || !IsName("bun.lock") || !IsName("npm-shrinkwrap.json") {
		t.Error("IsName must name the lockfiles Find reads, and bun's binary lockfile is none")
	}
}

func TestFormatWriter(t *testing.T) {
	for f, want := range map[Format]string{NPMv1: "npm", NPMv3: "npm", PnpmV5: "pnpm", PnpmV9: "pnpm", YarnV1: "yarn", YarnBerry: "yarn", Bun: "bun", "": ""} {
		if got := f.Writer(); got != want {
			t.Errorf("%q.Writer() = %q, want %q", f, got, want)
		}
	}
}
