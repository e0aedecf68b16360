// Package registryserver is an in-process npm registry: what `uptide demo`
// serves its bundled packages with, and what the test kit's registry
// (internal/testkit/testregistry) adds its faults in front of. It serves
// fixtures/registry (or any fs.FS laid out as <name>/<version>/package.json,
// scoped as @scope/name/<version>/...) over the real registry protocol:
// abbreviated and full packuments, per-version manifests, tarballs packed on
// the fly, ETag revalidation, and the few side endpoints (audit, ping) that
// package managers call during an install.
//
// Tarballs are byte-for-byte deterministic (fixed mtime, sorted entries,
// fixed modes, stored deflate blocks) so the dist.integrity that managers
// record in lockfiles stays valid across runs, processes and Go releases.
//
// Nothing here misbehaves on purpose: the fault knobs are test-only code and
// stay out of the binary.
package registryserver
