package tui_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/fixtures"
)

// TestEndToEndDemoReview runs the whole review flow of `uptide demo` as a
// user would, with no key: react to 19.0.0 in the target picker (19.1.0
// has a companion conflict, 19.0.0 takes @ai-sdk/react 1.0.0 along), a
// check, f on its details; fix applies the react pack's rule edit
// (useRef) and the demo's scripted provider proposes patches for the two
// react 19 sites left, each validated by the real compiler in fix's
// private clone; the weak one is rejected, a retry with a hint brings a
// good one, two are accepted; leaving the queue from the hand-off summary
// and coming back takes the saved set up again, and the hand-off runs fix
// with it to a verified branch in the demo's own git copy, whose checkout
// stays as it was.
func TestEndToEndDemoReview(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the demo's check and fix install and compile for real")
	}
	for _, tool := range []string{"npm", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the demo's review flow needs %s on PATH (its check installs with npm, fix branches with git): %v", tool, err)
		}
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "uptide")
	build := exec.Command("go", "build", "-o", bin, "github.com/uptide/uptide/cmd/uptide")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := filepath.Join(dir, "home")
	tmp := filepath.Join(dir, "tmp")
	for _, d := range []string{home, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"TERM=xterm-256color",
		"HOME=" + home,
		"UPTIDE_CACHE_DIR=" + filepath.Join(dir, "cache"),
		"TMPDIR=" + tmp,
	}
	term := startPTY(t, 120, 36, env, bin, "demo")
	// The check installs and compiles; fix clones, installs, compiles
	// each proposal and verifies: generous, never a timing assertion.
	term.limit = 6 * time.Minute
	term.waitFor(" behind, ")
	joined := func(s []string) string { return strings.Join(s, "\n") }

	// The cursor starts on the row an advisory covers; the react group is
	// next, and its picker offers 19.0.0.
	if r := cursorRow(term.screen()); r < 0 || !strings.Contains(term.screen()[r], "legacy-lodash") {
		t.Fatalf("the cursor should start on legacy-lodash, which an advisory covers:\n%s", joined(term.screen()))
	}
	term.press("j", "the cursor on the react group", func(s []string) bool {
		r := cursorRow(s)
		return r >= 0 && strings.Contains(s[r], "react (2 packages)")
	})
	term.press("t", "the target picker", func(s []string) bool { return strings.Contains(joined(s), "VERSION") })
	for i := 0; i < 5 && !strings.Contains(term.screen()[max(0, cursorRow(term.screen()))], "19.0.0"); i++ {
		from := cursorRow(term.screen())
		term.press("j", "the picker's cursor one row down", func(s []string) bool { return cursorRow(s) == from+1 })
	}
	term.press("Enter", "react planned at 19.0.0", func(s []string) bool {
		return strings.Contains(rowOf(s, "react (2 packages)"), "18.3.1 → 19.0.0")
	})
	screen := term.press("c", "the check's outcome", func(s []string) bool {
		r := rowOf(s, "react (2 packages)")
		return strings.Contains(r, "breaking") || strings.Contains(r, "not analyzed") || strings.Contains(r, "safe") || strings.Contains(r, "✗ ")
	})
	if r := rowOf(screen, "react (2 packages)"); !strings.Contains(r, "✗ 3 breaking") {
		t.Fatalf("react 19.0.0 should break three sites of the demo:\n%s", joined(screen))
	}
	screen = term.press("Enter", "the details", func(s []string) bool { return strings.Contains(joined(s), "Companions") })
	if !strings.Contains(joined(screen), "@ai-sdk/react     0.0.70 → 1.0.0") {
		t.Fatalf("at react 19.0.0 @ai-sdk/react should move to 1.0.0, not conflict:\n%s", joined(screen))
	}

	// f: fix installs the upgrade in its clone and applies the react
	// pack's rule edit (useRef), then the queue opens on the two sites left
	// to the fixer; the scripted provider's proposals validate one after
	// the other.
	validated := func(site string) func([]string) bool {
		return func(s []string) bool { return strings.Contains(rowOf(s, site), "validated") }
	}
	screen = term.press("f", "the JSX site's proposal validated", validated("App.tsx:9 "))
	if !strings.Contains(joined(screen), "scripted demo provider") || !strings.Contains(joined(screen), "2 sites") {
		t.Fatalf("the review should list two sites and name the scripted provider:\n%s", joined(screen))
	}
	if !strings.Contains(joined(screen), "return type becomes any") {
		t.Fatalf("the cursor should be on the JSX site with its weak proposal:\n%s", joined(screen))
	}
	// The weak proposal is rejected; back on it, a retry with a hint
	// brings the good one, which is accepted, and so is the render patch.
	term.press("x", "the weak proposal rejected", func(s []string) bool {
		return strings.Contains(rowOf(s, "App.tsx:9 "), "rejected")
	})
	term.press("k", "the cursor back on the JSX site", func(s []string) bool {
		return strings.Contains(joined(s), "return type becomes any")
	})
	term.press("r", "the hint input", func(s []string) bool { return strings.Contains(joined(s), "hint: ") })
	term.press("keep the return type", "the hint typed", func(s []string) bool { return strings.Contains(joined(s), "keep the return type") })
	term.press("Enter", "the retry's proposal validated", func(s []string) bool {
		return strings.Contains(rowOf(s, "App.tsx:9 "), "validated") && strings.Contains(joined(s), "With your hint (keep the return type)")
	})
	term.press("a", "the JSX patch accepted", func(s []string) bool {
		return strings.Contains(rowOf(s, "App.tsx:9 "), "accepted")
	})
	term.waitUntil("the render proposal validated", validated("main.tsx:1 "))
	term.press("a", "the render patch accepted", func(s []string) bool {
		return strings.Contains(rowOf(s, "main.tsx:1 "), "accepted")
	})
	screen = term.press("Enter", "the hand-off summary", func(s []string) bool { return strings.Contains(joined(s), "Hand off to fix") })
	for _, want := range []string{"react 18.3.1 → 19.0.0", "@ai-sdk/react@1.0.0", "Accepted patches (2)", "Left for you (0)", "Estimated cost spent  $0.00"} {
		if !strings.Contains(joined(screen), want) {
			t.Fatalf("the hand-off summary lacks %q:\n%s", want, joined(screen))
		}
	}
	// Back to the queue, and out of it: the run stops, the accepted set
	// stays on disk, and the next f takes it up (each patch validated
	// again, no call).
	term.press("Escape", "the queue again", func(s []string) bool { return strings.Contains(rowOf(s, "main.tsx:1 "), "accepted") })
	term.press("Escape", "the details, the run stopped", func(s []string) bool {
		return strings.Contains(joined(s), "Companions") && strings.Contains(joined(s), "kept for the next review")
	})
	term.press("f", "the saved patches taken up", func(s []string) bool {
		return strings.Contains(joined(s), "resumed: 2 patches accepted earlier") &&
			strings.Contains(rowOf(s, "App.tsx:9 "), "accepted") && strings.Contains(rowOf(s, "main.tsx:1 "), "accepted")
	})
	screen = term.press("Enter", "the hand-off summary", func(s []string) bool { return strings.Contains(joined(s), "Hand off to fix") })
	if !strings.Contains(joined(screen), "Accepted patches (2)") {
		t.Fatalf("the hand-off summary after the take-up:\n%s", joined(screen))
	}

	// The accepted set the demo kept on disk: the two accepted patches.
	saved, err := filepath.Glob(filepath.Join(tmp, "uptide-demo-*", "reviews", "react@19.0.0.json"))
	if err != nil || len(saved) != 1 {
		t.Fatalf("the saved accepted set: %v %v", saved, err)
	}
	data, err := os.ReadFile(saved[0])
	if err != nil {
		t.Fatal(err)
	}
	var kept struct {
		Package, Target string
		Patches         []struct{ Diff string }
	}
	if err := json.Unmarshal(data, &kept); err != nil {
		t.Fatal(err)
	}
	var diffs []string
	for _, p := range kept.Patches {
		diffs = append(diffs, p.Diff)
	}
	if kept.Package != "react" || kept.Target != "19.0.0" || len(kept.Patches) != 2 ||
		!strings.Contains(strings.Join(diffs, ""), "React.JSX.Element") || !strings.Contains(strings.Join(diffs, ""), "createRoot") {
		t.Fatalf("the saved accepted set is %s, want react 19.0.0 with the JSX and render patches", data)
	}
	// The summary names it: the file fix --patches takes.
	if !strings.Contains(joined(screen), "Patches file  "+saved[0]) {
		t.Errorf("the hand-off summary does not name %s:\n%s", saved[0], joined(screen))
	}
	// The report: a verdict line ends the streamed phases.
	screen = term.press("Enter", "the fix report", func(s []string) bool {
		j := joined(s)
		return strings.Contains(j, "verified  ") || strings.Contains(j, "not run  ") || strings.Contains(j, "fix could not run") ||
			strings.Contains(j, "fix ended without a report")
	})
	report := joined(screen)
	// The report has the words uptide fix prints (view.Fix decides both).
	// Its end is a page down.
	report += "\n" + joined(term.press("PageDown", "the end of the report", func(s []string) bool { return strings.Contains(joined(s), "✓ no new errors") }))
	for _, want := range []string{"✓ verified  react 18.3.1 → 19.0.0", "Branch  uptide/react-19.0.0 created at",
		// The run after the take-up validated the kept set again: no call.
		"scripted demo provider (no model, no key) · 2 sites · 2 accepted · 0 calls"} {
		if !strings.Contains(report, want) {
			t.Fatalf("the fix report lacks %q:\n%s", want, report)
		}
	}

	// The demo's copy (its checkout, a git repository the demo made) has
	// the branch: the upgrade and one commit per accepted patch, none for
	// the rejected site; the checkout itself is as the demo made it.
	copies, err := filepath.Glob(filepath.Join(tmp, "uptide-demo-*", "installed", "acme"))
	if err != nil || len(copies) != 1 {
		t.Fatalf("the demo's copy: %v %v", copies, err)
	}
	checkout := copies[0]
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", checkout}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	subjects := git("log", "--reverse", "--format=%s", "main..uptide/react-19.0.0")
	wantSubjects := []string{
		"upgrade react 18.3.1 → 19.0.0",
		"apply @types/react rules: 1 site (react-useref-argument)",
		"fix packages/web/src/App.tsx:9 (global JSX namespace removed)",
		"fix packages/web/src/main.tsx:1 (render removed)",
	}
	lines := strings.Split(subjects, "\n")
	if len(lines) != len(wantSubjects) {
		t.Fatalf("the branch's commits:\n%s\nwant the upgrade, the rule edit and the two accepted patches", subjects)
	}
	for i, want := range wantSubjects {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("commit %d is %q, want %q…", i+1, lines[i], want)
		}
	}
	branchApp := git("show", "uptide/react-19.0.0:packages/web/src/App.tsx")
	if !strings.Contains(branchApp, "): React.JSX.Element {") || strings.Contains(branchApp, "): any") {
		t.Errorf("the branch's App.tsx should have the accepted JSX patch, not the rejected one:\n%s", branchApp)
	}
	if head := git("rev-parse", "--abbrev-ref", "HEAD"); head != "main" {
		t.Errorf("the checkout is on %s, want main", head)
	}
	if st := git("status", "--porcelain"); st != "" {
		t.Errorf("the checkout changed:\n%s", st)
	}
	if n := git("rev-list", "--count", "main"); n != "1" {
		t.Errorf("main has %s commits, want the demo's one", n)
	}
	err = fs.WalkDir(fixtures.DemoRepo(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		want, _ := fs.ReadFile(fixtures.DemoRepo(), path)
		got, rerr := os.ReadFile(filepath.Join(checkout, filepath.FromSlash(path)))
		if rerr != nil || string(got) != string(want) {
			t.Errorf("the checkout's %s is not the demo's (%v)", path, rerr)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	term.press("Escape", "the details again", func(s []string) bool { return strings.Contains(joined(s), "Companions") })
	if _, err := term.ptmx.WriteString("q"); err != nil {
		t.Fatalf("typing q: %v", err)
	}
	if code := term.exitCode(); code != 0 {
		t.Fatalf("uptide demo exited %d after q, want 0; the screen is:\n%s", code, joined(term.screen()))
	}
	// Everything the demo wrote was in its temporary directory, and it is
	// gone.
	if left, _ := filepath.Glob(filepath.Join(tmp, "uptide-demo-*")); len(left) != 0 {
		t.Errorf("the demo left %v behind", left)
	}
}
