package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/fixtures"
	"github.com/uptide/uptide/internal/testkit/testregistry"
	"github.com/uptide/uptide/tui"
)

func TestInteractiveNeedsTerminalsAndNoPlainFlags(t *testing.T) {
	tests := []struct {
		name string
		g    Globals
		why  string
	}{
		{"--json", Globals{JSON: true, Stdout: os.Stdout}, "--json asks for JSON"},
		{"--ci", Globals{CI: true, Stdout: os.Stdout}, "--ci asks for plain output"},
		{"a pipe", Globals{Stdout: &bytes.Buffer{}}, "stdout is not a terminal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, why := interactive(&tt.g)
			if ok || why != tt.why {
				t.Fatalf("interactive = %v, %q; want false, %q", ok, why, tt.why)
			}
		})
	}
}

func TestTUIWithoutTerminalExits2(t *testing.T) {
	_, stderr, code := runCLI(t, "tui")
	if code != ExitIncomplete || !strings.Contains(stderr, "the planner needs a terminal: stdout is not a terminal; run uptide list instead") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// `uptide` without a terminal prints the list and says why.
func TestNoCommandWithoutTerminalPrintsList(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "acme")
	if err := os.CopyFS(dir, fixtures.DemoRepo()); err != nil {
		t.Fatal(err)
	}
	reg, err := testregistry.New(fixtures.Registry())
	if err != nil {
		t.Fatal(err)
	}
	url, err := reg.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	userrc := filepath.Join(tmp, "npmrc")
	if err := os.WriteFile(userrc, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := Env{"npm_config_registry=" + url, "NPM_CONFIG_USERCONFIG=" + userrc, "UPTIDE_CACHE_DIR=" + filepath.Join(tmp, "cache")}
	stdout, stderr, code := runCLIEnv(t, env, "--cwd", dir)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stderr, "uptide: stdout is not a terminal, so printing the list") {
		t.Errorf("stderr %q does not say why", stderr)
	}
	if !strings.Contains(stdout, "acme-npm (npm, 3 workspaces") || !strings.Contains(stdout, "react") {
		t.Errorf("stdout is not the list:\n%s", stdout)
	}
}

// The planner runs on the factory's engine when it brings one, else on the
// live engine over the command's environment.
func TestPlannerEngineComesFromTheFactory(t *testing.T) {
	g := &Globals{Cwd: t.TempDir(), Env: testEnv(t)}
	eng, err := g.engineFor(&LLMFlags{})
	live, ok := eng.(*tui.Live)
	if err != nil || !ok || live.Cwd != g.Cwd || len(live.Env) != len(g.Env) {
		t.Fatalf("without a factory engine: %T %v", eng, err)
	}
	g.planner = func(*Globals, *LLMFlags) (tui.Engine, error) { return live, errors.New("the factory's") }
	if _, err := g.engineFor(&LLMFlags{}); err == nil || err.Error() != "the factory's" {
		t.Fatalf("the factory's engine was not asked: %v", err)
	}
}
