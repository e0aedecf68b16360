// Package lockfile reads the installed version of each (workspace,
// dependency) from a repository's lockfile: package-lock.json and
// npm-shrinkwrap.json v1–v3, pnpm-lock.yaml v5.x, v6 and v9 (multi-document
// files included), yarn.lock v1 and Yarn Berry, and bun's text bun.lock.
//
// The lockfile, never node_modules, is the record of what is installed: it
// is what the package manager reproduces on the next install, and it is the
// only place that says which copy each workspace of a monorepo gets when two
// workspaces lock different versions of one dependency.
//
// Parsing reads only what answers that question (pnpm importers, npm
// packages entries, yarn descriptors, bun package keys), so a multi-megabyte
// lockfile loads in tens of milliseconds. LoadGraph reads a whole graph
// (every record, its dependencies' records, every importer) for the fix
// runner's lockfile scope guard. Malformed input gives an *Error
// naming the file, the line where known, and what to do; it never panics.
package lockfile
