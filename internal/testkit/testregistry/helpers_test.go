package testregistry

// What the fault tests read answers with: the registry as a client reads
// it (regread, shared with the registry server's own tests).

import (
	"testing"

	"github.com/uptide/uptide/internal/testkit/regread"
)

const fixtureDir = "../../../fixtures/registry"

// startFixtures serves the real fixture tree on a loopback port.
func startFixtures(t testing.TB) (*Registry, string) {
	t.Helper()
	return regread.StartFixtures(t, New, fixtureDir)
}
