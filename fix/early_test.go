package fix

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/fix/isolate"
	"github.com/uptide/uptide/fix/managers"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

func TestSameMoves(t *testing.T) {
	a := []managers.Move{{Name: "react", To: "19.0.0"}, {Name: "react-dom", To: "19.0.0"}}
	for _, tc := range []struct {
		b    []managers.Move
		same bool
	}{
		{[]managers.Move{{Name: "react-dom", To: "19.0.0"}, {Name: "react", To: "19.0.0"}}, true},
		{[]managers.Move{{Name: "react", To: "19.0.0"}}, false},
		{[]managers.Move{{Name: "react", To: "19.0.0"}, {Name: "react-dom", To: "19.1.0"}}, false},
		{[]managers.Move{{Name: "react", To: "19.0.0"}, {Name: "react-dom", To: "19.0.0", Add: true, Workspaces: []string{"."}}}, false},
	} {
		if got := sameMoves(a, tc.b); got != tc.same {
			t.Errorf("sameMoves(%v, %v) = %v, want %v", a, tc.b, got, tc.same)
		}
	}
}

// When check's final plan is not its first, the early install is undone
// and the final one installed: nothing of the first plan stays in the
// manifest, the lockfile or node_modules.
func TestInstallAgainWhenThePlanChanged(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: npm installs for real")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("npm is needed on PATH")
	}
	reg, err := testregistry.New(os.DirFS("../fixtures/registry"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		k := strings.ToLower(strings.SplitN(kv, "=", 2)[0])
		if !strings.HasPrefix(k, "npm_config_") && k != "home" {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home, "npm_config_registry="+reg.URL(), "npm_config_cache="+filepath.Join(home, ".npm"),
		"npm_config_fetch_retries=0", "npm_config_update_notifier=false")
	dir := filepath.Join(t.TempDir(), "app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "app", "version": "1.0.0", "private": true, "dependencies": {"kleur": "^4.1.5", "slugkit": "1.0.0"}}`+"\n")
	write(".gitignore", "node_modules/\n")
	sh := func(argv ...string) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", argv, err, out)
		}
	}
	sh(npm, "install", "--ignore-scripts", "--no-audit", "--no-fund")
	sh("git", "init", "-q", "-b", "main")
	sh("git", "config", "user.name", "Ada Lovelace")
	sh("git", "config", "user.email", "ada@example.invalid")
	sh("git", "add", "-A")
	sh("git", "commit", "-q", "-m", "app")

	ctx := context.Background()
	clone, err := isolate.New(ctx, isolate.Options{Checkout: dir, Root: t.TempDir(), Branch: "uptide/slugkit-2.0.0", Env: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = clone.Remove() })
	r := &runner{o: Options{Package: "slugkit"}, clone: clone, croot: clone.Work, env: clone.Env(env)}
	first := []managers.Move{{Name: "slugkit", To: "2.0.0"}, {Name: "kleur", To: "5.0.0"}}
	cloneRepo, err := repo.Load(r.croot)
	if err != nil {
		t.Fatal(err)
	}
	res, err := managers.Upgrade(ctx, managers.Options{Root: r.croot, Repo: cloneRepo, Moves: first, Env: r.env})
	if err != nil {
		t.Fatal(err)
	}
	early := &earlyInstall{moves: first, repo: cloneRepo, res: res}
	final := &upgradePlan{moves: []Move{{Name: "slugkit", From: "1.0.0", To: "2.0.0"}}, managerMoves: []managers.Move{{Name: "slugkit", To: "2.0.0"}}}
	if _, _, err := r.install(ctx, final, early); err != nil {
		t.Fatal(err)
	}
	version := func(rel string) string {
		data, err := os.ReadFile(filepath.Join(r.croot, rel))
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Version      string            `json:"version"`
			Dependencies map[string]string `json:"dependencies"`
			Packages     map[string]struct {
				Version string `json:"version"`
			} `json:"packages"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		switch rel {
		case "package.json":
			return m.Dependencies["kleur"] + " " + m.Dependencies["slugkit"]
		case "package-lock.json":
			return m.Packages["node_modules/kleur"].Version + " " + m.Packages["node_modules/slugkit"].Version
		}
		return m.Version
	}
	for rel, want := range map[string]string{
		"package.json":                      "^4.1.5 2.0.0",
		"package-lock.json":                 "4.1.5 2.0.0",
		"node_modules/kleur/package.json":   "4.1.5",
		"node_modules/slugkit/package.json": "2.0.0",
	} {
		if got := version(rel); got != want {
			t.Errorf("%s: %q, want %q (the first plan's kleur 5 must be gone)", rel, got, want)
		}
	}
}

// Check is told of the early install only once that install is done and
// succeeded: its clone's root, where check finds the copies it links.
func TestInstalledRootIsTheFinishedEarlyInstalls(t *testing.T) {
	r := newRunner(Options{}, "fakepkg")
	r.croot = t.TempDir()
	if got := r.installedRoot(); got != "" {
		t.Errorf("no early install yet: %q", got)
	}
	r.early = &earlyInstall{err: errors.New("install failed")}
	close(r.earlyDone)
	if got := r.installedRoot(); got != "" {
		t.Errorf("a failed early install: %q", got)
	}
	r.early = &earlyInstall{}
	if got := r.installedRoot(); got != r.croot {
		t.Errorf("a finished early install: %q, want %q", got, r.croot)
	}
}
