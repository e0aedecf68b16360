// Package repo reads a JavaScript repository the way its package manager
// does: which directory is the root, which directories are workspaces
// (pnpm-workspace.yaml or package.json "workspaces" globs), what every
// workspace declares and what kind of specifier each declaration is (pnpm
// and bun catalogs resolved), which package manager owns it, and which source
// files import which packages (a fast text scan that honours .gitignore).
//
// It only reads: nothing in the repository is executed or written. Input it
// cannot use is reported with the file, the line when known, and what to do.
package repo
