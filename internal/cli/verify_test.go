package cli

import (
	"strings"
	"testing"

	"github.com/uptide/uptide/fix/publish"
)

// verify --push is refused before any work without --yes, and from an
// uptide built from a dirty tree; the same directory (no repository)
// without --push goes on and fails there.
func TestVerifyPushRefusesBeforeAnyWork(t *testing.T) {
	defer func(b func() publish.Build) { thisBuild = b }(thisBuild)
	dir := t.TempDir()
	_, stderr, code := runCLI(t, "--cwd", dir, "verify", "--push")
	if code != ExitIncomplete || !strings.Contains(stderr, "confirm with --yes") {
		t.Errorf("verify --push without --yes: exit %d, stderr %q", code, stderr)
	}
	thisBuild = func() publish.Build { return publish.Build{Dirty: true} }
	_, stderr, code = runCLI(t, "--cwd", dir, "verify", "--push", "--yes")
	if code != ExitIncomplete || !strings.Contains(stderr, "uncommitted changes (vcs.modified)") {
		t.Errorf("verify --push --yes from a dirty build: exit %d, stderr %q", code, stderr)
	}
	_, stderr, _ = runCLI(t, "--cwd", dir, "verify")
	if strings.Contains(stderr, "vcs.modified") || strings.Contains(stderr, "--yes") {
		t.Errorf("verify without --push refused for --push's reasons: %q", stderr)
	}
}
