package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func rowFor(installed, target string) model.DependencyRow {
	return model.DependencyRow{Installed: installed, Target: target}
}

func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestBadInvocationsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"list", "--no-such-flag"},
		{"list", "extra-argument"},
		{"no-such-command"},
	} {
		_, stderr, code := runCLI(t, args...)
		if code != ExitIncomplete || !strings.Contains(stderr, "uptide:") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with a message", args, code, stderr)
		}
	}
}

func TestHelpListsCommands(t *testing.T) {
	out, _, code := runCLI(t, "--help")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"list", "demo", "--cwd", "--json", "--ci", "--no-color", "--verbose"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q:\n%s", want, out)
		}
	}
}

// The demo runs offline on the bundled repository and registry and prints
// the same envelope as list.
func TestDemoJSON(t *testing.T) {
	t.Setenv("UPTIDE_CACHE_DIR", t.TempDir())
	out, stderr, code := runCLI(t, "demo", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{`"command": "demo"`, `"name": "react"`, `"title": "@aws-sdk/* (2 packages)"`, `"name": "@ai-sdk/react"`} {
		if !strings.Contains(out, want) {
			t.Errorf("demo --json lacks %s", want)
		}
	}
}
