package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/assist"
)

// A saved review round-trips through its file, which is the file fix
// --patches takes (the rule by its title, as the hand-off writes it); no file is no saved set, and a file of another upgrade
// or a broken one is named.
func TestDemoReviewFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "react@19.0.0.json")
	if saved, err := readReview(file, "react", "19.0.0"); err != nil || saved != nil {
		t.Fatalf("no file: %v %v", saved, err)
	}
	saveReview(file, "react", "19.0.0", []assist.Item{{Site: assist.Site{ID: "f1", Rule: "react-global-jsx", RuleTitle: "global JSX namespace removed", File: "web/src/App.tsx", Line: 3},
		Diff: "d", Explanation: "e"}})
	pf, err := fix.ReadPatches(file)
	if err != nil || pf.Package != "react" || pf.Target != "19.0.0" || len(pf.Patches) != 1 ||
		pf.Patches[0] != (fix.Patch{Finding: "f1", Rule: "global JSX namespace removed", File: "web/src/App.tsx", Line: 3, Diff: "d", Explanation: "e"}) {
		t.Fatalf("fix --patches reads %+v, %v", pf, err)
	}
	saved, err := readReview(file, "react", "19.0.0")
	if err != nil || len(saved) != 1 || saved[0] != (assist.Saved{ID: "f1", Diff: "d", Explanation: "e"}) {
		t.Fatalf("%+v %v", saved, err)
	}
	if _, err := readReview(file, "react", "19.1.0"); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("another target's file: %v", err)
	}
	if err := os.WriteFile(file, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readReview(file, "react", "19.0.0"); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("a broken file: %v", err)
	}
}
