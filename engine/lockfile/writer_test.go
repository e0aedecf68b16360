package lockfile

import "testing"

func TestFormatWriter(t *testing.T) {
	for f, want := range map[Format]string{NPMv1: "npm", NPMv3: "npm", PnpmV5: "pnpm", PnpmV9: "pnpm", YarnV1: "yarn", YarnBerry: "yarn", Bun: "bun", "": ""} {
		if got := f.Writer(); got != want {
			t.Errorf("%q.Writer() = %q, want %q", f, got, want)
		}
	}
	if IsName("bun.lockb") || !IsName("bun.lock") || !IsName("npm-shrinkwrap.json") || IsName("package.json") {
		t.Error("IsName must name the lockfiles Find reads, and bun's binary lockfile is none")
	}
}
