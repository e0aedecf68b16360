package managers

import (
	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/peers"
)

// bun writes bun.lock; it is a native binary per platform, so it runs only
// from the PATH.
var bun = register(bunManager{})

type bunManager struct{}

func (bunManager) Name() string                                { return "bun" }
func (bunManager) Command() string                             { return "bun" }
func (bunManager) Package() string                             { return "" }
func (bunManager) Pinned(lockfile.Format, []byte) string       { return "" }
func (bunManager) Usable(_, _ string, _ lockfile.Format) error { return nil }
func (bunManager) Formats() []lockfile.Format                  { return []lockfile.Format{lockfile.Bun} }
func (bunManager) Line() string                                { return "bun" }
func (bunManager) IsRelease(string) bool                       { return true }
func (bunManager) PackageHash() bool                           { return true }
func (bunManager) Redirects() bool                             { return false }
func (bunManager) Catalogs() bool                              { return false }
func (bunManager) Env(env []string) []string                   { return forcedEnv(env, pnpmOnly...) }
func (bunManager) InstallArgs() []string                       { return []string{"install", "--ignore-scripts"} }
func (m bunManager) LockfileOnlyArgs() []string                { return m.InstallArgs() }
func (bunManager) FrozenArgs() []string {
	return []string{"install", "--ignore-scripts", "--frozen-lockfile"}
}
func (m bunManager) RestoreArgs() []string { return m.FrozenArgs() }

func (bunManager) Peers() peers.Rules      { return peers.Bun }
func (bunManager) InstallWrites() []string { return nil }
