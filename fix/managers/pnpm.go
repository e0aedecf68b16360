package managers

import (
	"fmt"

	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/peers"
)

// pnpm writes pnpm-lock.yaml (v6 by pnpm 8, v9 by pnpm 9 and 10) and reads
// pnpm-workspace.yaml's catalogs.
var pnpm = register(pnpmManager{})

type pnpmManager struct{}

func (pnpmManager) Name() string              { return "pnpm" }
func (pnpmManager) Command() string           { return "pnpm" }
func (pnpmManager) Package() string           { return "pnpm" }
func (pnpmManager) Catalogs() bool            { return true }
func (pnpmManager) Env(env []string) []string { return forcedEnv(env) }

func (pnpmManager) Pinned(f lockfile.Format, _ []byte) string {
	switch f {
	case lockfile.PnpmV6:
		return "8.15.9"
	case lockfile.PnpmV9:
		return "9.15.9"
	}
	return ""
}

func (pnpmManager) InstallArgs() []string {
	return []string{"install", "--ignore-scripts", "--no-frozen-lockfile", "--config.confirmModulesPurge=false"}
}

func (m pnpmManager) LockfileOnlyArgs() []string { return append(m.InstallArgs(), "--lockfile-only") }

func (pnpmManager) FrozenArgs() []string {
	return []string{"install", "--ignore-scripts", "--frozen-lockfile", "--config.confirmModulesPurge=false"}
}

func (m pnpmManager) RestoreArgs() []string { return m.FrozenArgs() }

func (pnpmManager) Formats() []lockfile.Format {
	return []lockfile.Format{lockfile.PnpmV5, lockfile.PnpmV6, lockfile.PnpmV9}
}
func (pnpmManager) Line() string          { return "pnpm" }
func (pnpmManager) IsRelease(string) bool { return true }
func (pnpmManager) PackageHash() bool     { return true }
func (pnpmManager) Redirects() bool       { return false }

// Usable refuses pnpm 7's lockfile, which pnpm 8 and later rewrite.
func (pnpmManager) Usable(_, lock string, f lockfile.Format) error {
	if f == lockfile.PnpmV5 {
		return fmt.Errorf("%s is a pnpm 7 lockfile (5.x): run `pnpm install` with pnpm 8 or later and commit the lockfile first", lock)
	}
	return nil
}

func (pnpmManager) Peers() peers.Rules      { return peers.PNPM }
func (pnpmManager) InstallWrites() []string { return nil }
