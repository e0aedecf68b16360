// Package testregistry is the in-process npm registry of the tests: the
// registry server of internal/registryserver (the one `uptide demo` serves
// with) behind a handler that logs every request and injects faults.
//
// It exists because the engine's registry client and every lockfile fixture
// must be exercised against the protocol itself, not a mock of it: real npm,
// pnpm, yarn and bun install from it to produce fixtures/repos.
//
// Fault knobs (latency, failing statuses, hanging requests, corrupt tarballs,
// required tokens) and Misbehave (a dripping or truncated body, a hang after
// the headers, HTML error pages, redirect loops, huge documents, tarballs
// longer than declared or endless) let the client's retries, timeouts, size
// limits, host blocking and integrity checks be tested against real HTTP.
// They are test-only: the binary links only the registry server.
package testregistry
