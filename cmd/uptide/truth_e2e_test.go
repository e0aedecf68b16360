package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/testkit"
	"github.com/uptide/uptide/internal/testkit/tsctruth"
)

// The truth tests hold check's answer against the repository's own
// compiler after a real upgrade: a copy of the installed fixture is
// upgraded with the real package manager (from the test registry), its tsc
// runs before and after, and every new error must be a breaking finding's
// evidence, every breaking finding's evidence a new error.

// pinnedTool returns the directory of name@version (a package manager the
// machine does not have, such as yarn, an older compiler), fetched once
// into the shared cache; later runs are offline.
func pinnedTool(t testing.TB, name, version string) string {
	t.Helper()
	skipShort(t, "fetching "+name+" installs")
	return testkit.Pinned(t, name, version)
}

// manager runs a package manager in a fixture copy against the test
// registry, lifecycle scripts off, HOME and caches private.
type manager struct {
	name string
	// argv0 is the command: npm, or node with yarn's script.
	argv0 []string
}

func npmManager() manager { return manager{name: "npm", argv0: []string{"npm"}} }

func yarnClassic(t testing.TB) manager {
	return manager{name: "yarn", argv0: []string{"node", filepath.Join(pinnedTool(t, "yarn", "1.22.22"), "bin", "yarn.js")}}
}

func (m manager) run(t testing.TB, e env, dir string, args ...string) {
	t.Helper()
	skipShort(t, m.name+" installs")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var argv []string
	switch m.name {
	case "npm":
		argv = append(append(argv, m.argv0...), args...)
		argv = append(argv, "--ignore-scripts", "--no-audit", "--no-fund", "--registry", e.registry)
	case "yarn":
		argv = append(append(argv, m.argv0...), args...)
		argv = append(argv, "--ignore-scripts", "--non-interactive", "--no-progress", "--registry", e.registry,
			"--cache-folder", filepath.Join(e.home, ".yarn-cache"))
	case "pnpm":
		argv = append(append(argv, m.argv0...), args...)
		argv = append(argv, "--ignore-scripts", "--registry", e.registry, "--store-dir", filepath.Join(e.home, ".pnpm-store"),
			"--config.confirmModulesPurge=false")
	case "bun":
		argv = append(append(argv, m.argv0...), args...)
		argv = append(argv, "--ignore-scripts", "--registry", e.registry, "--cache-dir", filepath.Join(e.home, ".bun-cache"))
	default:
		t.Fatalf("no manager %q", m.name)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(e.vars(), "npm_config_cache="+filepath.Join(e.home, ".npm"), "npm_config_update_notifier=false",
		"YARN_IGNORE_PATH=1", "YARN_ENABLE_TELEMETRY=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s in %s: %v\n%s", strings.Join(argv, " "), dir, err, out.String())
	}
}

func (m manager) install(t testing.TB, e env, dir string) { m.run(t, e, dir, "install") }

// upgrade moves the packages (name@version) as the user would.
func (m manager) upgrade(t testing.TB, e env, dir string, dev bool, pkgs ...string) {
	switch m.name {
	case "npm":
		args := append([]string{"install"}, pkgs...)
		if dev {
			args = append(args, "--save-dev")
		}
		m.run(t, e, dir, args...)
	case "yarn":
		args := append([]string{"add"}, pkgs...)
		if dev {
			args = append(args, "--dev")
		}
		m.run(t, e, dir, args...)
	}
}

// pinnedTypeScriptJS is the compiler the fixtures' check judges with (they
// install no TypeScript): its tsc is the repository's own.
func pinnedTypeScriptJS(t testing.TB) string {
	return filepath.Join(sharedCompilers(t), "typescript@6.0.3", "lib", "typescript.js")
}

// assertTruth compares the package's breaking findings with the new errors
// tsc reports in the upgraded copy (after) against the installed one
// (before), on the tsconfig of each workspace.
func assertTruth(t *testing.T, p model.PackageReport, before, after string, workspaces ...string) {
	t.Helper()
	assertTruthWith(t, pinnedTypeScriptJS(t), p, before, after, workspaces...)
}

// assertTruthWith is assertTruth with the tsc of the compiler whose
// JavaScript API is typescriptJS (the repository's own).
func assertTruthWith(t *testing.T, typescriptJS string, p model.PackageReport, before, after string, workspaces ...string) {
	t.Helper()
	ctx := context.Background()
	if len(workspaces) == 0 {
		workspaces = []string{"."}
	}
	var truth []string
	for _, ws := range workspaces {
		b, err := tsctruth.Errors(ctx, typescriptJS, filepath.Join(before, ws, "tsconfig.json"), before)
		if err != nil {
			t.Fatal(err)
		}
		a, err := tsctruth.Errors(ctx, typescriptJS, filepath.Join(after, ws, "tsconfig.json"), after)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range tsctruth.New(b, a) {
			truth = append(truth, e.String())
		}
		// Every pre-existing error check subtracted is one tsc reports.
		have := map[string]int{}
		for _, e := range b {
			have[e.String()]++
		}
		for _, d := range p.Compile.PreExistingErrors {
			k := tsctruth.Error{File: d.File, Line: d.Line, Code: d.Code}.String()
			if have[k] == 0 {
				t.Errorf("pre-existing %s is not an error tsc reports before the upgrade", k)
			}
			have[k]--
		}
	}
	var said []string
	for _, f := range p.Findings {
		if f.Severity != model.Breaking {
			continue
		}
		for _, d := range append(append([]model.Diagnostic{}, f.Evidence...), f.Downstream...) {
			said = append(said, tsctruth.Error{File: d.File, Line: d.Line, Code: d.Code}.String())
		}
	}
	sort.Strings(truth)
	sort.Strings(said)
	if fmt.Sprint(truth) != fmt.Sprint(said) {
		t.Errorf("check's breaking evidence is not what tsc reports after the real upgrade\ncheck: %q\n  tsc: %q", said, truth)
	}
}

// installedCopy copies an installed fixture (node_modules included, links
// kept as links) for the real upgrade.
func installedCopy(t *testing.T, dir string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(dir))
	out, err := exec.Command("cp", "-a", dir, dst).CombinedOutput()
	if err != nil {
		t.Fatalf("copying %s: %v\n%s", dir, err, out)
	}
	return dst
}

// A new peer the manager does not install (@testing-library/react 15 → 16
// moved @testing-library/dom to its peers): under yarn 1 the re-exported
// queries vanish and adding the peer is the fix; npm installs the peer and
// nothing breaks. Both answers are the managers' own, after a real upgrade.
func TestCheckPeersTheManagerLeavesOut(t *testing.T) {
	for _, tt := range []struct {
		manager  string
		breaking int
		code     int
	}{
		// The queries' importer, and (skipLibCheck off) the library's own
		// declarations, which cannot find the peer.
		{manager: "yarn", breaking: 2, code: 1},
		{manager: "npm", breaking: 0, code: 0},
	} {
		t.Run(tt.manager, func(t *testing.T) {
			e := checkEnv(t)
			m := npmManager()
			if tt.manager == "yarn" {
				m = yarnClassic(t)
			}
			dir := copyFixture(t, "peers-app")
			m.install(t, e, dir)
			r := run(t, e, dir, "check", "@testing-library/react", "--target", "@testing-library/react@16.3.0", "--json")
			var rep model.CheckReport
			decode(t, r, &rep)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tt.code, r.stdout)
			}
			p := packageReport(t, rep, "@testing-library/react")
			if p.Counts.Breaking != tt.breaking {
				t.Errorf("%d breaking, want %d: %+v", p.Counts.Breaking, tt.breaking, listed(p))
			}
			var add *model.Companion
			for i, c := range p.Companions.Companions {
				if c.Name == "@testing-library/dom" {
					add = &p.Companions.Companions[i]
				}
			}
			switch tt.manager {
			case "yarn":
				if add == nil || add.From != "" || add.To != "10.4.0" || !strings.Contains(add.Why, "add @testing-library/dom@^10.0.0 (new peer of @testing-library/react 16.3.0; yarn does not install peers)") {
					t.Errorf("companion %+v, want add @testing-library/dom 10.4.0 as a new peer yarn leaves out", add)
				}
				if len(p.Plan.Rules) != 1 || p.Plan.Rules[0].ID != "missing-peer:@testing-library/dom" || p.Plan.Rules[0].ByRule != 2 ||
					!strings.HasPrefix(p.Plan.Rules[0].Title, "add @testing-library/dom@^10.0.0 (") {
					t.Errorf("plan %+v, want one rule adding the peer", p.Plan.Rules)
				}
				for _, w := range p.Warnings {
					if strings.Contains(w, "unresolved") {
						t.Errorf("the missing peer is counted as unresolved: %s", w)
					}
				}
			case "npm":
				if add != nil {
					t.Errorf("npm installs the peer, yet check adds it: %+v", add)
				}
			}
			after := installedCopy(t, dir)
			m.upgrade(t, e, after, true, "@testing-library/react@16.3.0")
			assertTruth(t, p, dir, after)
		})
	}
}

// A types package that declares globals reaches files that never import
// it: @types/react 19 drops the global JSX namespace, and src/view.ts,
// which imports nothing, loses it. Its use of the global is a usage of the
// package, so the file is compiled, and check says what tsc says after the
// real upgrade.
func TestCheckGlobalTypesReachEveryFile(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-globals")
	npmInstall(t, e, dir)
	r := run(t, e, dir, "check", "react", "--target", "react@19.1.0", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	p := packageReport(t, rep, "react")
	found := false
	for _, f := range p.Findings {
		if f.Severity == model.Breaking && f.File == "src/view.ts" {
			found = true
		}
	}
	if !found {
		t.Errorf("no breaking finding in src/view.ts (global JSX): %+v", listed(p))
	}
	if p.Compile.Asked != 2 || p.Compile.Compiled != 2 {
		t.Errorf("compiled %d of %d, want both files (2 of 2)", p.Compile.Compiled, p.Compile.Asked)
	}
	after := installedCopy(t, dir)
	npmManager().upgrade(t, e, after, false, "react@19.1.0")
	npmManager().upgrade(t, e, after, true, "@types/react@19.1.2")
	assertTruth(t, p, dir, after)
}

// One copy of a package in the overlay: a library whose declarations
// import react's types (peer @types/react "*") reaches the target's copy,
// as npm's dedupe gives it, so its types and the repository's are one and
// nothing is "two different types with this name"; legacy-kit, whose own
// range excludes 19, keeps its nested 18 as the real install does. Check
// says what tsc says after the real upgrade.
func TestCheckOneCopyOfTheTarget(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-one-copy")
	npmInstall(t, e, dir)
	r := run(t, e, dir, "check", "react", "--target", "react@19.1.0", "--json")
	var rep model.CheckReport
	decode(t, r, &rep)
	p := packageReport(t, rep, "react")
	for _, f := range p.Findings {
		for _, d := range f.Evidence {
			if strings.Contains(d.Message, "Two different types with this name exist") {
				t.Errorf("two copies of @types/react in one program: %s:%d %s", d.File, d.Line, d.Message)
			}
		}
	}
	after := installedCopy(t, dir)
	npmManager().upgrade(t, e, after, false, "react@19.1.0")
	npmManager().upgrade(t, e, after, true, "@types/react@19.1.2")
	if _, err := os.Stat(filepath.Join(after, "node_modules", "legacy-kit", "node_modules", "@types", "react")); err != nil {
		t.Fatalf("npm did not nest @types/react 18 under legacy-kit, the fixture no longer says what it is for: %v", err)
	}
	assertTruth(t, p, dir, after)
}
