package model

import "testing"

// The lockfile table is the one place that says which manager writes
// which file: the loader's attribution, the reader's Find and fix's
// detection all read it.
func TestLockfileWriter(t *testing.T) {
	for name, want := range map[string]string{
		"pnpm-lock.yaml": "pnpm", "package-lock.json": "npm", "npm-shrinkwrap.json": "npm",
		"yarn.lock": "yarn", "bun.lock": "bun", "bun.lockb": "bun", "package.json": "", "": "",
	} {
		if got := LockfileWriter(name); got != want {
			t.Errorf("LockfileWriter(%q) = %q, want %q", name, got, want)
		}
	}
}
