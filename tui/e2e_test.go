package tui_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// cursorRow is the screen row the list cursor (❯) is on, or -1.
func cursorRow(screen []string) int {
	for i, line := range screen {
		if strings.HasPrefix(line, "❯") {
			return i
		}
	}
	return -1
}

// rowOf is the first screen line holding s, or "".
func rowOf(screen []string, s string) string {
	for _, line := range screen {
		if strings.Contains(line, s) {
			return line
		}
	}
	return ""
}

// TestEndToEndDemo runs `uptide demo` as a user would, in a 100×30
// terminal: the real binary on a pseudo-terminal, its screen read through a
// terminal emulator, keys typed one at a time.
func TestEndToEndDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the demo's check installs and compiles for real")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "uptide")
	build := exec.Command("go", "build", "-o", bin, "github.com/uptide/uptide/cmd/uptide")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	// Only what a terminal session needs: no NO_COLOR or CI from the test's
	// own environment, and no cache or config of the user's.
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"TERM=xterm-256color",
		"HOME=" + home,
		"UPTIDE_CACHE_DIR=" + filepath.Join(dir, "cache"),
		"TMPDIR=" + dir,
	}
	term := startPTY(t, 100, 30, env, bin, "demo")

	// Rows come as the registry answers; the groups with discovery's
	// report.
	screen := strings.Join(term.waitFor("▾ react (2 packages)"), "\n")
	for _, want := range []string{" behind, ", "INSTALLED → TARGET"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the home screen lacks %q:\n%s", want, screen)
		}
	}

	// Down to the ai group, whose lead is ai.
	for i := 0; i < 8 && !strings.Contains(term.screen()[max(0, cursorRow(term.screen()))], "ai (2 packages)"); i++ {
		from := cursorRow(term.screen())
		term.press("j", "the cursor one row down", func(s []string) bool { return cursorRow(s) == from+1 })
	}
	screen = strings.Join(term.press("Enter", "the details", func(s []string) bool {
		return strings.Contains(strings.Join(s, "\n"), "Companions")
	}), "\n")
	for _, want := range []string{"ai 3.4.0 → 4.0.0", "Release group ai (2 packages)"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the details of ai lack %q:\n%s", want, screen)
		}
	}

	term.press("Escape", "the home screen", func(s []string) bool {
		return cursorRow(s) >= 0 && strings.Contains(strings.Join(s, "\n"), "INSTALLED → TARGET")
	})
	// The top row is the one an advisory covers (a patch, shown anyway),
	// with the release that fixes it.
	term.press("g", "the cursor on the advisory's row", func(s []string) bool {
		r := cursorRow(s)
		return r >= 0 && strings.Contains(s[r], "legacy-lodash ! 2 advisories")
	})
	term.press("j", "the cursor on the react group", func(s []string) bool {
		r := cursorRow(s)
		return r >= 0 && strings.Contains(s[r], "react (2 packages)")
	})
	// Selecting a group selects its members and moves the cursor on.
	term.press("Space", "react selected", func(s []string) bool {
		return strings.Contains(strings.Join(s, "\n"), "· 1 selected")
	})
	// The demo installs a copy of its repository with the real npm from its
	// own registry, then the real engine judges react 19 against it.
	screen = strings.Join(term.press("c", "the check's outcome", func(s []string) bool {
		r := rowOf(s, "react (2 packages)")
		return strings.Contains(r, "breaking") || strings.Contains(r, "not analyzed") || strings.Contains(r, "safe")
	}), "\n")
	if _, err := exec.LookPath("npm"); err != nil {
		if !strings.Contains(screen, "npm, which is not on PATH") {
			t.Fatalf("without npm the check should say so:\n%s", screen)
		}
	} else if r := rowOf(term.screen(), "react (2 packages)"); !strings.Contains(r, "✗ 3 breaking") {
		// The install got through, the pinned compiler came from the user's
		// own registry (the demo registry serves only its packages), and
		// react 19's declarations break three sites of the demo.
		t.Fatalf("the demo's check of react should find 3 breaking sites:\n%s", screen)
	}

	// The plan of react (selected again: the check took the selection),
	// its step with what its check counted.
	term.press("k", "the cursor back on the react group", func(s []string) bool {
		r := cursorRow(s)
		return r >= 0 && strings.Contains(s[r], "react (2 packages)")
	})
	term.press("Space", "react selected", func(s []string) bool {
		return strings.Contains(strings.Join(s, "\n"), "· 1 selected")
	})
	screen = strings.Join(term.press("p", "the plan", func(s []string) bool {
		return strings.Contains(strings.Join(s, "\n"), "Totals")
	}), "\n")
	for _, want := range []string{"Plan · react", "Priorities", "! unsupported react 18.3.1: no 18.x release for over 12 months"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the plan lacks %q:\n%s", want, screen)
		}
	}
	if _, err := exec.LookPath("npm"); err == nil {
		if r := rowOf(term.screen(), "react 18.3.1 → 19.1.0 (+"); !strings.Contains(r, "✗ breaking · 3 sites") {
			t.Fatalf("the plan's react step should carry its check's 3 sites:\n%s", screen)
		}
	}
	term.press("Escape", "the home screen", func(s []string) bool {
		return strings.Contains(strings.Join(s, "\n"), "INSTALLED → TARGET")
	})

	if _, err := term.ptmx.WriteString("q"); err != nil {
		t.Fatalf("typing q: %v", err)
	}
	if code := term.exitCode(); code != 0 {
		t.Fatalf("uptide demo exited %d after q, want 0; the screen is:\n%s", code, strings.Join(term.screen(), "\n"))
	}
}
