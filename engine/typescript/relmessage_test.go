package typescript

import "testing"

// A message names a file by the real path of a root reached through a
// symlink (/var → /private/var): the longer root is cut first, so no
// "/private" is left behind.
func TestRelMessageCutsTheLongerRootFirst(t *testing.T) {
	roots := []string{"/var/x/repo", "/private/var/x/repo"}
	msg := "Could not find a declaration file for module 'k'. '/private/var/x/repo/node_modules/k/index.js' implicitly has an 'any' type."
	want := "Could not find a declaration file for module 'k'. 'node_modules/k/index.js' implicitly has an 'any' type."
	if got := relMessage(roots, msg); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if roots[0] != "/var/x/repo" {
		t.Fatalf("relMessage reordered its argument: %q", roots)
	}
}
