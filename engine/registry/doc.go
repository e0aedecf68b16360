// Package registry owns everything Uptide asks of an npm registry: the
// resolved .npmrc (registries per scope, credentials per host), packument
// requests with ETag revalidation, concurrency, retry and per-host blocking,
// and tarballs (resolution, SRI integrity, the on-disk tarball cache and
// safe extraction).
//
// Credentials stay inside this package: they are only ever written into the
// Authorization header of a request to the host they were configured for,
// never into an error, a log line or the cache.
package registry
