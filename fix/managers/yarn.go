package managers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/peers"
	"gopkg.in/yaml.v3"
)

// Yarn 1 and Yarn 2+ (Berry) both write yarn.lock and are both typed as
// yarn, but they are two managers: their lockfile formats, commands and
// registry packages differ.
var (
	yarnClassic = register(yarnClassicManager{})
	yarnBerry   = register(yarnBerryManager{})
)

type yarnClassicManager struct{}

func (yarnClassicManager) Name() string                                { return "yarn" }
func (yarnClassicManager) Command() string                             { return "yarn" }
func (yarnClassicManager) Package() string                             { return "yarn" }
func (yarnClassicManager) Pinned(lockfile.Format, []byte) string       { return "1.22.22" }
func (yarnClassicManager) Usable(_, _ string, _ lockfile.Format) error { return nil }
func (yarnClassicManager) Formats() []lockfile.Format                  { return []lockfile.Format{lockfile.YarnV1} }
func (yarnClassicManager) Line() string                                { return "Yarn 1" }
func (yarnClassicManager) IsRelease(version string) bool               { return !berry(version) }
func (yarnClassicManager) PackageHash() bool                           { return true }
func (yarnClassicManager) Redirects() bool                             { return true }
func (yarnClassicManager) Catalogs() bool                              { return false }
func (yarnClassicManager) Env(env []string) []string                   { return forcedEnv(env, pnpmOnly...) }

func (yarnClassicManager) InstallArgs() []string {
	return []string{"install", "--ignore-scripts", "--non-interactive", "--no-progress"}
}

func (m yarnClassicManager) LockfileOnlyArgs() []string { return m.InstallArgs() }

func (yarnClassicManager) FrozenArgs() []string {
	return []string{"install", "--ignore-scripts", "--frozen-lockfile", "--non-interactive", "--no-progress"}
}

func (m yarnClassicManager) RestoreArgs() []string { return m.FrozenArgs() }

// Peers: Yarn 1 warns of an unmet peer and installs without it.
func (yarnClassicManager) Peers() peers.Rules      { return peers.Yarn }
func (yarnClassicManager) InstallWrites() []string { return nil }

type yarnBerryManager struct{}

func (yarnBerryManager) Name() string    { return "yarn-berry" }
func (yarnBerryManager) Command() string { return "yarn" }
func (yarnBerryManager) Package() string { return "@yarnpkg/cli-dist" }
func (yarnBerryManager) Catalogs() bool  { return false }
func (yarnBerryManager) Formats() []lockfile.Format {
	return []lockfile.Format{lockfile.YarnBerry}
}
func (yarnBerryManager) Line() string                  { return "Yarn 2 or later" }
func (yarnBerryManager) IsRelease(version string) bool { return berry(version) }

// PackageHash: corepack's hash of Yarn 2 and later is of Yarn's own
// single-file release, not of the registry's package.
func (yarnBerryManager) PackageHash() bool { return false }
func (yarnBerryManager) Redirects() bool   { return true }
func (yarnBerryManager) Env(env []string) []string {
	return forcedEnv(env, append(append([]string{}, pnpmOnly...), yarnClassicOnly...)...)
}

// Pinned reads the lockfile's __metadata.version: 4 is Yarn 2's, 5 and 6
// Yarn 3's, 7 on Yarn 4's.
func (yarnBerryManager) Pinned(_ lockfile.Format, data []byte) string {
	m := berryMetadata.FindSubmatch(data)
	if m == nil {
		return ""
	}
	switch v, _ := strconv.Atoi(string(m[1])); {
	case v <= 4:
		return "2.4.2"
	case v <= 6:
		return "3.8.7"
	}
	return "4.18.1"
}

var berryMetadata = regexp.MustCompile(`(?m)^__metadata:\s*\n\s+version:\s*(\d+)`)

// Usable insists on the node-modules linker: with Plug'n'Play there is no
// node_modules for the compiler and the tests to run on.
func (yarnBerryManager) Usable(root, _ string, _ lockfile.Format) error {
	file := filepath.Join(root, ".yarnrc.yml")
	data, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cannot read %s: %w", file, err)
	}
	var rc struct {
		NodeLinker string `yaml:"nodeLinker"`
	}
	if len(data) > 0 {
		if err := yaml.Unmarshal(data, &rc); err != nil {
			return fmt.Errorf("%s is not valid YAML (%v): fix it, then run again", file, err)
		}
	}
	if rc.NodeLinker == "node-modules" {
		return nil
	}
	linker := rc.NodeLinker
	if linker == "" {
		linker = "pnp (unset: Yarn's default)"
	}
	return &LinkerError{File: file, Linker: linker}
}

func (yarnBerryManager) InstallArgs() []string        { return []string{"install", "--mode=skip-build"} }
func (m yarnBerryManager) LockfileOnlyArgs() []string { return m.InstallArgs() }
func (yarnBerryManager) FrozenArgs() []string {
	return []string{"install", "--immutable", "--mode=skip-build"}
}
func (m yarnBerryManager) RestoreArgs() []string { return m.FrozenArgs() }

// Peers: Yarn 2 and later report an unmet peer (YN0002) and install
// without it.
func (yarnBerryManager) Peers() peers.Rules { return peers.Yarn }

// InstallWrites: the install state it keeps to skip the next link step,
// the project cache (enableGlobalCache off, Yarn 2 and 3's default) and
// the packages it unplugs.
func (yarnBerryManager) InstallWrites() []string {
	return []string{".yarn/install-state.gz", ".yarn/cache/", ".yarn/unplugged/", ".yarn/build-state.yml"}
}

// berry: a Yarn version of 2 or later.
func berry(version string) bool {
	return !strings.HasPrefix(version, "0.") && !strings.HasPrefix(version, "1.")
}
