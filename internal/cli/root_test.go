package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func rowFor(installed, target string) model.DependencyRow {
	return model.DependencyRow{Installed: installed, Target: target}
}

// testEnv is a command's environment in a test, never the process's: the
// PATH git, node and npm are found on, a HOME and a cache of the test's
// own, and vars.
func testEnv(t *testing.T, vars ...string) Env {
	t.Helper()
	tmp := t.TempDir()
	return append(Env{"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "UPTIDE_CACHE_DIR=" + filepath.Join(tmp, ".cache")}, vars...)
}

func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runCLIEnv(t, testEnv(t), args...)
}

// runCLIEnv runs the command line over buffers, in env.
func runCLIEnv(t *testing.T, env Env, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Factory{IO: IO{Out: &out, Err: &errb}, Env: env}.Run(context.Background(), args)
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

// An error that carries a secret of the environment (here in a path the
// user typed; in life what a child printed) is printed masked.
func TestErrorsAreMasked(t *testing.T) {
	// The token is in the command's environment only: the factory's, not
	// the process's, is the one masked.
	_, stderr, code := runCLIEnv(t, testEnv(t, "MY_SERVICE_TOKEN=tok-cli-0123456789"), "list", "--cwd", "/nonexistent/tok-cli-0123456789")
	if code == ExitOK || !strings.Contains(stderr, "uptide:") {
		t.Fatalf("exit %d, stderr %q: want an error", code, stderr)
	}
	if strings.Contains(stderr, "tok-cli-0123456789") || !strings.Contains(stderr, "[redacted]") {
		t.Errorf("the secret was printed: %s", stderr)
	}
}

// uptide without a command prints list's envelope under --json, so its
// failure is list's too.
func TestDefaultCommandErrorEnvelope(t *testing.T) {
	out, _, code := runCLI(t, "--json", "--cwd", t.TempDir())
	if code != ExitIncomplete || !strings.Contains(out, `"command": "list"`) || !strings.Contains(out, `"error": "no package.json`) {
		t.Errorf("exit %d, stdout:\n%s\nwant exit 2 and list's envelope with the error", code, out)
	}
}
