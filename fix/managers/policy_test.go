package managers

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/peers"
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/internal/proc"
)

// Each manager answers for its peers with the rules check reads for the
// same repository (peers.For of the family discovery names), and those
// rules say what the real manager does.
func TestManagerPeerPolicy(t *testing.T) {
	npmrc := func(kv map[string]string) peers.Setting {
		return func(key string) (string, string, bool) { v, ok := kv[key]; return v, ".npmrc:1", ok }
	}
	lockOff := filepath.Join(t.TempDir(), "pnpm-lock.yaml")
	if err := os.WriteFile(lockOff, []byte("lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: false\n\nimporters:\n\n  .: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bunOff := t.TempDir()
	if err := os.WriteFile(filepath.Join(bunOff, "bunfig.toml"), []byte("[install]\npeer = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		m           Manager
		family      string
		keepsLocked bool
		// def is a repository with no setting; set one whose setting turns
		// the default off (nil: the manager never installs peers).
		def, set *peers.Input
		defaults bool
	}{
		{npm, "npm", false, &peers.Input{LockfileFormat: "npm-v3"},
			&peers.Input{LockfileFormat: "npm-v3", Setting: npmrc(map[string]string{"legacy-peer-deps": "true"})}, true},
		{pnpm, "pnpm", false, &peers.Input{ManagerField: "pnpm@9.15.9"},
			&peers.Input{Lockfile: lockOff, LockfileFormat: "pnpm-v9"}, true},
		{yarnClassic, "yarn", true, &peers.Input{LockfileFormat: "yarn-v1"}, nil, false},
		{yarnBerry, "yarn", true, &peers.Input{LockfileFormat: "yarn-berry"}, nil, false},
		{bun, "bun", true, &peers.Input{Root: t.TempDir()}, &peers.Input{Root: bunOff}, true},
	} {
		t.Run(tc.m.Name(), func(t *testing.T) {
			r := tc.m.Peers()
			check := peers.For(tc.family)
			if r.Manager != check.Manager || r.KeepsLocked != check.KeepsLocked || r.KeepsLocked != tc.keepsLocked {
				t.Errorf("Peers() = %s keeps locked %v; check reads %s keeps locked %v; want keeps locked %v",
					r.Manager, r.KeepsLocked, check.Manager, check.KeepsLocked, tc.keepsLocked)
			}
			if p := r.Of(*tc.def); p.Installs != tc.defaults || p.Source == "" {
				t.Errorf("default: %+v, want installs %v", p, tc.defaults)
			}
			if tc.set != nil {
				if p := r.Of(*tc.set); p.Installs || p.Source == "" {
					t.Errorf("with the setting off: %+v, want it not to install peers, saying where", p)
				}
			}
		})
	}
}

// The file scope of an install, per manager: the lockfile, the edited
// manifests and node_modules always; Yarn Berry's own state and cache for
// Yarn Berry only. A changed .npmrc is every manager's stray change.
func TestInstallFileScope(t *testing.T) {
	before := map[string]string{"notes.txt": "??"}
	after := map[string]string{
		"notes.txt": "??", "package.json": " M", "packages/a/package.json": " M", "yarn.lock": " M", "node_modules/zod/package.json": " M",
		".npmrc": " M", ".yarn/install-state.gz": "??", ".yarn/cache/zod-npm-3.25.76-abc.zip": "??", "src/gone.ts": " D",
	}
	edited := []string{"package.json", "packages/a/package.json"}
	for _, tc := range []struct {
		m    Manager
		want []string
	}{
		{npm, []string{".npmrc", ".yarn/cache/zod-npm-3.25.76-abc.zip", ".yarn/install-state.gz", "src/gone.ts"}},
		{pnpm, []string{".npmrc", ".yarn/cache/zod-npm-3.25.76-abc.zip", ".yarn/install-state.gz", "src/gone.ts"}},
		{yarnClassic, []string{".npmrc", ".yarn/cache/zod-npm-3.25.76-abc.zip", ".yarn/install-state.gz", "src/gone.ts"}},
		{yarnBerry, []string{".npmrc", "src/gone.ts"}},
		{bun, []string{".npmrc", ".yarn/cache/zod-npm-3.25.76-abc.zip", ".yarn/install-state.gz", "src/gone.ts"}},
	} {
		if got := strayFiles(tc.m, before, after, "yarn.lock", edited); !slices.Equal(got, tc.want) {
			t.Errorf("%s: stray %q, want %q", tc.m.Name(), got, tc.want)
		}
	}
	// A file already changed before the install, and left as it was, is
	// not the install's.
	if got := strayFiles(npm, map[string]string{".npmrc": " M"}, map[string]string{".npmrc": " M"}, "package-lock.json", nil); len(got) != 0 {
		t.Errorf("an unchanged change: stray %q", got)
	}
}

// A real install that changes a file outside its scope is refused, and
// the manifests and lockfile come back byte for byte. The stray write is
// made while the manager runs (on its first output line), as a setting
// or a wrapper of the user's would.
func TestInstallOutsideItsScopeIsRefused(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg, "")
	for _, tc := range []struct {
		manager, fixture, lockfile, edited string
		install                            []string
	}{
		{"npm", "npm-ws", "package-lock.json", "packages/a/package.json", []string{"npm", "install", "--ignore-scripts"}},
		{"pnpm", "pnpm-catalog", "pnpm-lock.yaml", "pnpm-workspace.yaml", []string{"pnpm", "install", "--ignore-scripts"}},
	} {
		t.Run(tc.manager, func(t *testing.T) {
			dir := copyFixture(t, tc.fixture)
			e.sh(t, dir, tc.install...)
			if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules/\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			gitCommitAll(t, dir)
			originals := map[string]string{}
			for _, f := range []string{tc.lockfile, tc.edited} {
				originals[f] = readFile(t, filepath.Join(dir, f))
			}
			stray := filepath.Join(dir, "tsconfig.json")
			_, err := upgradeWith(t, e, dir, func(string) {
				if _, err := os.Stat(stray); err != nil {
					_ = os.WriteFile(stray, []byte("{}\n"), 0o644)
				}
			}, Move{Name: "zod", To: "3.25.76"})
			var se *StrayError
			if !errors.As(err, &se) || !slices.Equal(se.Files, []string{"tsconfig.json"}) {
				t.Fatalf("error %v, want a StrayError naming tsconfig.json", err)
			}
			if !strings.Contains(err.Error(), tc.manager+" install changed 1 file") {
				t.Errorf("the error does not name the manager: %v", err)
			}
			for f, want := range originals {
				if got := readFile(t, filepath.Join(dir, f)); got != want {
					t.Errorf("%s was not restored", f)
				}
			}
		})
	}
}

// gitCommitAll makes dir a git repository of one commit.
func gitCommitAll(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=Ada Lovelace", "-c", "user.email=ada@example.invalid", "commit", "-q", "--no-verify", "-m", "the app"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// upgradeWith is upgrade with the manager's output lines going to progress.
func upgradeWith(t *testing.T, e testEnv, dir string, progress func(string), moves ...Move) (*Result, error) {
	t.Helper()
	r, err := repo.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	return Upgrade(ctx, Options{Root: dir, Repo: r, Moves: moves, Env: e.vars, Progress: progress})
}

// The lockfile's name and format say which manager writes it, and that
// manager refuses what it cannot run: npm 6's lockfile, a packageManager
// naming the other Yarn.
func TestDetectAsksTheManager(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    lockfile.Format
		want Manager
	}{
		{"package-lock.json", lockfile.NPMv3, npm}, {"npm-shrinkwrap.json", lockfile.NPMv2, npm},
		{"pnpm-lock.yaml", lockfile.PnpmV9, pnpm}, {"yarn.lock", lockfile.YarnV1, yarnClassic},
		{"yarn.lock", lockfile.YarnBerry, yarnBerry}, {"bun.lock", lockfile.Bun, bun}, {"yarn.lock", lockfile.NPMv3, nil},
	} {
		if got := lockfileManager(tc.name, tc.f); got != tc.want {
			t.Errorf("%s in %s: %v, want %v", tc.name, tc.f, got, tc.want)
		}
	}
	detect := func(fixture string, edit func(dir string)) error {
		dir := filepath.Join(t.TempDir(), fixture)
		copyTree(t, filepath.Join("..", "..", "fixtures", "repos", fixture), dir)
		if edit != nil {
			edit(dir)
		}
		r, err := repo.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Detect(context.Background(), dir, r, nil, nil)
		return err
	}
	if err := detect("npm-v1", nil); err == nil || !strings.Contains(err.Error(), "is lockfileVersion 1 (npm 6)") {
		t.Errorf("npm 6's lockfile: %v", err)
	}
	err := detect("yarn-berry", func(dir string) {
		p := filepath.Join(dir, "package.json")
		data := strings.Replace(readFile(t, p), `"yarn@4.18.1"`, `"yarn@1.22.22"`, 1)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if err == nil || !strings.Contains(err.Error(), "names yarn@1.22.22, but yarn.lock is written by Yarn 2 or later") {
		t.Errorf("Yarn 1 named for Yarn Berry's lockfile: %v", err)
	}
}

// Yarn 1's YARN_IGNORE_SCRIPTS, which every quiet environment sets, stops
// Yarn 2 up to 4.5 on every command ("Unrecognized or legacy configuration
// settings found: ignoreScripts"): Yarn Berry's environment leaves it out,
// and the upgrade runs with Yarn 4.5.3, scripts still off.
func TestYarnBerryWithoutYarn1Settings(t *testing.T) {
	for _, kv := range yarnBerry.Env([]string{"PATH=/bin", "YARN_IGNORE_SCRIPTS=true"}) {
		if strings.HasPrefix(kv, "YARN_IGNORE_SCRIPTS=") {
			t.Errorf("Yarn Berry's environment has %s", kv)
		}
	}
	if !slices.Contains(yarnBerry.Env(nil), "YARN_ENABLE_SCRIPTS=false") || !slices.Contains(yarnClassic.Env(nil), "YARN_IGNORE_SCRIPTS=true") {
		t.Error("each Yarn's own setting that turns scripts off must stay")
	}
	reg := startRegistry(t)
	e := newEnv(t, reg, "")
	const older = "4.5.3"
	script := "#!/bin/sh\nexec node " + filepath.Join(pinnedTool(t, "@yarnpkg/cli-dist", older), "bin", "yarn.js") + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(e.bin, "yarn"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := copyFixture(t, "berry-nm")
	p := filepath.Join(dir, "package.json")
	if err := os.WriteFile(p, []byte(strings.Replace(readFile(t, p), "yarn@"+berryVersion, "yarn@"+older, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	setup, err := proc.Run(ctx, proc.Cmd{Argv: []string{filepath.Join(e.bin, "yarn"), "install", "--mode=skip-build"}, Dir: dir, Env: yarnBerry.Env(e.vars)})
	if err != nil || setup.ExitCode != 0 {
		t.Fatalf("yarn %s install: %v\n%s", older, err, setup.Output)
	}
	res, err, _ := upgrade(t, e, dir, Move{Name: "slugkit", To: "2.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Manager != "yarn-berry" || res.Version != older {
		t.Errorf("ran %s %s, want yarn-berry %s", res.Manager, res.Version, older)
	}
	if v := installed(t, dir, "yarn.lock", ".", "slugkit", "^2.0.0"); v != "2.0.0" {
		t.Errorf("yarn.lock slugkit = %q", v)
	}
	e.assertNoTraps(t, dir)
}
