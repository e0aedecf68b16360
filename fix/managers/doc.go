// Package managers owns the package-manager migration transaction of
// `uptide fix`: it picks the manager (npm lockfile v2/v3, pnpm, Yarn
// classic, Yarn Berry on the node-modules linker, bun) from the lockfile
// and configuration, finds its binary at the version packageManager names
// before any edit (the registry's package of it when the PATH has none or
// another, as corepack would), bumps every declaring workspace (and pnpm
// catalog entries) keeping the range style, installs with the real manager
// with lifecycle scripts and hook installers off — the exact version
// first, then the styled range — and guards the lockfile: only the moved
// packages' subtrees may change beyond what the manager rewrites on its
// own, and no file outside the install's scope may change. Any failure
// puts the original manifests and lockfile back byte for byte. What it
// knows of each manager (the lockfiles it writes, its releases, commands,
// environment, registry package, pinned releases, peer semantics, what an
// install may write) is one Manager per manager, one file each; the
// transaction only asks it.
package managers
