package managers

import (
	"slices"
	"strings"

	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/peers"
)

// Manager is what uptide knows about running one package manager: its
// names, the lockfiles it writes, which releases are it, where a release
// of it comes from, the commands of the transaction (install,
// lockfile-only, frozen, restore) with lifecycle scripts off, the
// environment it runs in, its peer semantics and what an install may
// write. There is one
// implementation per manager (npm.go, pnpm.go, yarn.go, bun.go); the
// transaction asks it and never tests a manager's name.
type Manager interface {
	// Name is npm, pnpm, yarn, yarn-berry or bun, as the report names it.
	Name() string
	// Command is the program users type ("yarn" for both Yarns).
	Command() string
	// Package is its package on the registry, run by node when the PATH
	// has no binary at the version the repository names; "" when it has
	// none that runs so (bun is a native binary per platform).
	Package() string
	// Pinned is the release a repository that names none gets when its
	// PATH has no binary: the newest of the line that writes the
	// lockfile's format (data), "" for none (npm ships with Node).
	Pinned(f lockfile.Format, data []byte) string
	// Formats are the lockfile formats it writes: with the lockfile's
	// writer (model.LockfileWriter, which is Command), the format tells the two
	// Yarns apart.
	Formats() []lockfile.Format
	// Usable refuses a repository the manager cannot install for fix,
	// saying why (a lockfile of a release fix does not run, Yarn Berry
	// under Plug'n'Play); root is its root, lock its lockfile (f the
	// format).
	Usable(root, lock string, f lockfile.Format) error
	// Line names its releases in messages ("npm", "Yarn 1", "Yarn 2 or
	// later"), and IsRelease says whether a version (a binary's own
	// --version, packageManager's) is one of them: the yarn command runs
	// either Yarn.
	Line() string
	IsRelease(version string) bool
	// PackageHash: packageManager's hash ("+sha512.<hex>") is of the
	// tarball of Package, as corepack downloads it, so it is checked
	// against the registry's; Yarn Berry's is of its own single-file
	// release.
	PackageHash() bool
	// Redirects: the binary may run another release than its own package
	// whatever its version (Yarn's yarnPath), so only its answer to
	// --version says which one runs.
	Redirects() bool
	// Catalogs: it reads pnpm-workspace.yaml's catalogs, so a catalog:
	// specifier is moved by its catalog entry.
	Catalogs() bool
	// InstallArgs install what the manifests say, scripts off and off the
	// frozen default CI gives.
	InstallArgs() []string
	// LockfileOnlyArgs re-resolve the lockfile alone where the manager
	// can (the range-style pass moves nothing, so node_modules need not be
	// walked twice); else they are InstallArgs.
	LockfileOnlyArgs() []string
	// FrozenArgs install exactly what the lockfile says, failing rather
	// than changing it.
	FrozenArgs() []string
	// RestoreArgs lay node_modules out again from a restored lockfile.
	RestoreArgs() []string
	// Env is env for running it: the forced settings set and other
	// managers' own settings left out.
	Env(env []string) []string
	// Peers are its peer semantics: whether it installs a peer no
	// manifest declares (and which settings say otherwise), whether an
	// upgrade keeps the lockfile's copies. Check reads the same value
	// (peers.For), so what it judged is what this install does.
	Peers() peers.Rules
	// InstallWrites are the paths (slash, relative to the root; a
	// trailing slash names a folder) an install writes for the manager's
	// own use besides node_modules and the lockfile: Yarn Berry's install
	// state and cache. Any other file an install changes is outside its
	// scope, and the transaction refuses it (strayFiles).
	InstallWrites() []string
}

// managers are every manager fix runs, by Name.
var managers = map[string]Manager{}

func register(m Manager) Manager {
	managers[m.Name()] = m
	return m
}

// ByName is the manager Name names; false for none.
func ByName(name string) (Manager, bool) {
	m, ok := managers[name]
	return m, ok
}

// lockfileManager is the manager that writes a lockfile of the name in
// the format, nil for none.
func lockfileManager(name string, f lockfile.Format) Manager {
	for _, m := range managers {
		if model.LockfileWriter(name) == m.Command() && slices.Contains(m.Formats(), f) {
			return m
		}
	}
	return nil
}

// Label is the manager that ran as its users name it: "npm 11.6.2",
// "yarn 4.5.0".
func (r *Result) Label() string {
	if m, ok := ByName(r.Manager); ok {
		return m.Command() + " " + r.Version
	}
	return r.Manager + " " + r.Version
}

// forcedVars keep every manager non-interactive, script-free and off its
// frozen CI defaults, whatever env says.
var forcedVars = []string{
	"npm_config_ignore_scripts=true",
	"YARN_ENABLE_SCRIPTS=false",
	"YARN_IGNORE_SCRIPTS=true",
	"YARN_ENABLE_IMMUTABLE_INSTALLS=false",
	"YARN_ENABLE_PROGRESS_BARS=false",
	"HUSKY=0",
	"SKIP_SIMPLE_GIT_HOOKS=1",
	"LEFTHOOK=0",
}

// forcedEnv is env with forcedVars set and the settings drop names (any
// case) left out, forced ones included: a manager that refuses another's
// setting never sees it.
func forcedEnv(env []string, drop ...string) []string {
	dropped := map[string]bool{}
	for _, k := range drop {
		dropped[k] = true
	}
	forced := map[string]bool{}
	for _, kv := range forcedVars {
		k, _, _ := strings.Cut(kv, "=")
		forced[k] = true
	}
	out := make([]string, 0, len(env)+len(forcedVars))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !forced[k] && !dropped[k] && !dropped[strings.ToLower(k)] {
			out = append(out, kv)
		}
	}
	for _, kv := range forcedVars {
		if k, _, _ := strings.Cut(kv, "="); !dropped[k] {
			out = append(out, kv)
		}
	}
	return out
}

// yarnClassicOnly are Yarn 1's settings that Yarn 2 and later refuse as
// unrecognized (Yarn 4.5 stops every command on YARN_IGNORE_SCRIPTS;
// YARN_ENABLE_SCRIPTS is their own).
var yarnClassicOnly = []string{"YARN_IGNORE_SCRIPTS"}

// pnpmOnly are settings only pnpm reads (through npm_config_*, any case):
// npm 11 warns about each one it does not know on every run.
var pnpmOnly = []string{"npm_config_verify_deps_before_run", "npm_config_store_dir"}
