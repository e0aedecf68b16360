package html_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/uptide/uptide/view/html"
)

var update = flag.Bool("update", false, "rewrite the page goldens")

// The check page of a rich report, held whole: every part the page
// draws, in order, escaped.
func TestCheckGolden(t *testing.T) {
	var b bytes.Buffer
	if err := html.Check(&b, richCheck()); err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "check-rich.html"), b.String())
}

func golden(t *testing.T, path, got string) {
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
		t.Fatalf("%v (go test ./view/html -update writes it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test ./view/html -update rewrites it after a deliberate change); got:\n%s", path, got)
	}
}
