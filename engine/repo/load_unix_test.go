//go:build unix

package repo

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A workspace whose package.json cannot be read (a directory, a FIFO, which
// a read would block on forever) is a problem naming it, never dropped in
// silence: its name would then look like a registry package's.
func TestLoadUnreadableWorkspaceIsAProblem(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(string) error
		want string
	}{
		{"a directory", func(p string) error { return os.Mkdir(p, 0o755) }, "package.json is a directory, not a file"},
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "package.json is not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := copyFixture(t, "npm-array")
			manifest := filepath.Join(root, "packages", "b", "package.json")
			if err := os.Remove(manifest); err != nil {
				t.Fatal(err)
			}
			if err := tc.make(manifest); err != nil {
				t.Fatal(err)
			}
			r, err := Load(root)
			if err != nil {
				t.Fatalf("an unreadable workspace must not fail the load: %v", err)
			}
			var paths []string
			for _, ws := range r.Workspaces {
				paths = append(paths, ws.Path)
			}
			if diff := cmp.Diff([]string{".", "packages/a", "tools/cli"}, paths); diff != "" {
				t.Errorf("workspaces (-want +got):\n%s", diff)
			}
			if len(r.Problems) != 1 || r.Problems[0].File != "packages/b/package.json" ||
				!strings.HasPrefix(r.Problems[0].Message, "unreadable workspace: "+tc.want) {
				t.Errorf("problems %+v, want one unreadable workspace at packages/b/package.json", r.Problems)
			}
		})
	}
}
