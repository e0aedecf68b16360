// Package testregistry is an in-process npm registry for tests and for
// `uptide demo`. It serves fixtures/registry (or any fs.FS laid out as
// <name>/<version>/package.json, scoped as @scope/name/<version>/...) over the
// real registry protocol: abbreviated and full packuments, per-version
// manifests, tarballs packed on the fly, ETag revalidation, and the few
// side endpoints (audit, ping) that package managers call during an install.
//
// It exists because the engine's registry client and every lockfile fixture
// must be exercised against the protocol itself, not a mock of it: real npm,
// pnpm, yarn and bun install from it to produce fixtures/repos. Tarballs are
// byte-for-byte deterministic (fixed mtime, sorted entries, fixed modes,
// stored deflate blocks) so the dist.integrity those managers record in
// lockfiles stays valid across runs, processes and Go releases.
//
// Fault knobs (latency, failing statuses, hanging requests, corrupt tarballs,
// required tokens) and Misbehave (a dripping or truncated body, a hang after
// the headers, HTML error pages, redirect loops, huge documents, tarballs
// longer than declared or endless) let the client's retries, timeouts, size
// limits, host blocking and integrity checks be tested against real HTTP.
package testregistry
