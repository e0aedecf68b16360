// Package typescript is Uptide's TypeScript adapter. It owns the embedded
// Node driver (driver/, plain CommonJS run by one long-lived node process per
// run, speaking JSON lines), the choice of compiler (the repository's own
// TypeScript 4.x-6.x, else a pinned typescript@6.0.3 fetched once into the
// cache), and what the driver answers: the public API surface of a package
// directory as model.Surface, cached per name and version, and
// assignability between two versions of the same paths (Compare), asked in
// worker threads under a time and memory budget per question, since one
// relation check between two large generic hierarchies can run for minutes.
//
// Signal A is FindUsages: every reference in a workspace to one installed
// package, resolved by the workspace's own program and mapped to the
// canonical paths of that copy's surface.
//
// Signal B lives here too: an Overlay (a temporary node_modules linking the
// target versions and what their declarations import) and Compile, which
// type-checks the files in scope against the installed copies and against
// the overlay with the repository's own compiler and keeps only the new
// errors. The driver traces each new error to its root cause
// (driver/cause.js): the jsx line of a tsconfig, a repository parameter or
// prop, a repository augmentation, a repository declaration whose type
// changed, or the reference into the package an unknown/any value flows
// from; the result carries it as model.Diagnostic.Root. A repository that
// installs a native TypeScript (7, no JavaScript API) is judged by its own
// tsc (native*.go): the pinned driver scopes and links, and tsc checks
// both sides on generated tsconfigs over materialized overlays.
//
// The programs of Signal A and Signal B read a workspace's dependencies on
// other workspaces from their sources, not from the build they ship
// (FindWorkspaceSources, given to the driver as compilerOptions.paths), and
// share one cache of parsed files per driver process (driver/sources.js).
//
// Declarations are read by the TypeScript checker itself, never parsed here:
// re-exports, export =, merged namespaces and inherited members are only
// understood correctly by the compiler.
package typescript
