package managers

import (
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
func (pnpmManager) Usable(string) error       { return nil }
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

func (pnpmManager) Peers() peers.Rules      { return peers.PNPM }
func (pnpmManager) InstallWrites() []string { return nil }
