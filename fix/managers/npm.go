package managers

import (
	"fmt"

	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/peers"
)

// npm writes package-lock.json (or npm-shrinkwrap.json), v2/v3 for fix.
var npm = register(npmManager{})

type npmManager struct{}

func (npmManager) Name() string                          { return "npm" }
func (npmManager) Command() string                       { return "npm" }
func (npmManager) Package() string                       { return "npm" }
func (npmManager) Pinned(lockfile.Format, []byte) string { return "" }
func (npmManager) Catalogs() bool                        { return false }
func (npmManager) Env(env []string) []string             { return forcedEnv(env, pnpmOnly...) }

func (npmManager) InstallArgs() []string {
	return []string{"install", "--ignore-scripts", "--no-audit", "--no-fund"}
}

func (m npmManager) LockfileOnlyArgs() []string {
	return append(m.InstallArgs(), "--package-lock-only")
}

// FrozenArgs are a plain install whose lockfile must come back
// byte-identical (the transaction checks): npm ci would delete and rebuild
// node_modules whole, and prunes nothing a plain install does not.
func (m npmManager) FrozenArgs() []string { return m.InstallArgs() }

// RestoreArgs are npm ci: node_modules as the lockfile says, whatever the
// manifests say.
func (npmManager) RestoreArgs() []string {
	return []string{"ci", "--ignore-scripts", "--no-audit", "--no-fund"}
}

func (npmManager) Formats() []lockfile.Format {
	return []lockfile.Format{lockfile.NPMv1, lockfile.NPMv2, lockfile.NPMv3}
}
func (npmManager) Line() string          { return "npm" }
func (npmManager) IsRelease(string) bool { return true }
func (npmManager) PackageHash() bool     { return true }
func (npmManager) Redirects() bool       { return false }

// Usable refuses npm 6's lockfile: npm 7 and later would rewrite all of it.
func (npmManager) Usable(_, lock string, f lockfile.Format) error {
	if f == lockfile.NPMv1 {
		return fmt.Errorf("%s is lockfileVersion 1 (npm 6): uptide fix installs with npm 7 or later, which would rewrite all of it: run `npm install` with npm 7+ and commit the v3 lockfile first", lock)
	}
	return nil
}

func (npmManager) Peers() peers.Rules      { return peers.NPM }
func (npmManager) InstallWrites() []string { return nil }
