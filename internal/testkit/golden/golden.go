// Package golden compares a test's output with a file kept beside the
// test, and rewrites the file when the test runs with -update: one helper
// for every package whose output is held by goldens.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the goldens (after a deliberate change)")

// Compare fails t when got differs from the file at path; under -update
// it writes got there instead. pkg names the package for the command the
// message gives ("./view/html").
func Compare(t testing.TB, pkg, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test %s -update writes it)", err, pkg)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test %s -update rewrites it after a deliberate change):\n--- want\n%s\n--- got\n%s", path, pkg, want, got)
	}
}
