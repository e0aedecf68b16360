package repo

import (
	"os"
	"path/filepath"
	"testing"
)

// Without a packageManager field the lockfiles present decide, from the
// one lockfile table: another manager's lockfile wins over a stray
// package-lock.json, although the lockfile reader prefers npm's file to
// yarn's.
func TestDetectPackageManagerFromLockfiles(t *testing.T) {
	tests := []struct {
		files []string
		want  string
	}{
		{nil, "npm"},
		{[]string{"package-lock.json"}, "npm"},
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
		if got, problem := detectPackageManager(dir, ""); got != tt.want || problem != "" {
			t.Errorf("lockfiles %v: %q (%q), want %q", tt.files, got, problem, tt.want)
		}
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "yarn.lock"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := detectPackageManager(dir, ""); got != "npm" {
		t.Errorf("a directory named yarn.lock: %q, want npm", got)
	}
}
