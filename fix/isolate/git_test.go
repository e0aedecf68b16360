package isolate

import (
	"context"
	"os"
	"strings"
	"testing"
)

// A git that prints past the cap is stopped and the run fails with what
// happened, rather than parse a truncated answer.
func TestGitOutputIsCapped(t *testing.T) {
	saved := maxGitStdout
	maxGitStdout = 1 << 10
	defer func() { maxGitStdout = saved }()
	_, err := git(context.Background(), os.Environ(), t.TempDir(), "help", "-a")
	if err == nil || !strings.Contains(err.Error(), "git help -a in ") || !strings.Contains(err.Error(), "the limit of one git command") {
		t.Fatalf("want the cap's error, got %v", err)
	}
	if _, err := git(context.Background(), os.Environ(), t.TempDir(), "--version"); err != nil {
		t.Fatalf("a short answer under the cap: %v", err)
	}
}
