package html_test

import (
	"bytes"
	"path/filepath"
	"testing"

	kept "github.com/uptide/uptide/internal/testkit/golden"
	"github.com/uptide/uptide/view/html"
)

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
	kept.Compare(t, "./view/html", path, got)
}
