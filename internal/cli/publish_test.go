package cli

import (
	"reflect"
	"strings"
	"testing"

	"github.com/uptide/uptide/fix/publish"
)

// An uptide built from a dirty tree refuses --pr before any work: the
// same command without --pr goes on (and fails later, on the directory
// that is no repository).
func TestFixPRRefusesADirtyBuild(t *testing.T) {
	defer func(b func() publish.Build) { thisBuild = b }(thisBuild)
	thisBuild = func() publish.Build { return publish.Build{Dirty: true} }
	dir := t.TempDir()
	_, stderr, code := runCLI(t, "--cwd", dir, "fix", "zod", "--pr", "--yes")
	if code != ExitIncomplete || !strings.Contains(stderr, "uncommitted changes (vcs.modified)") {
		t.Errorf("fix --pr from a dirty build: exit %d, stderr %q", code, stderr)
	}
	_, stderr, _ = runCLI(t, "--cwd", dir, "fix", "zod")
	if strings.Contains(stderr, "vcs.modified") {
		t.Errorf("fix without --pr refused for the build: %q", stderr)
	}
}

// The run's installs and tests never see the token's variables.
func TestWithoutTokens(t *testing.T) {
	got := withoutTokens([]string{"PATH=/bin", "GH_TOKEN=a", "GITHUB_TOKEN=b", "GITHUB_API_URL=c", "NOT_GH_TOKEN=d"})
	if want := []string{"PATH=/bin", "GITHUB_API_URL=c", "NOT_GH_TOKEN=d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("withoutTokens = %v, want %v", got, want)
	}
}
