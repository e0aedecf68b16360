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
	"time"

	"github.com/uptide/uptide/engine/model"
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

// npmApp is an npm app declaring kleur ^4.1.5 and slugkit 1.0.0, installed
// from the fixture registry and committed, and its private clone on
// branch; env reaches the registry.
func npmApp(t *testing.T, branch string) (clone *isolate.Clone, dir string, env []string) {
	t.Helper()
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
	for _, kv := range os.Environ() {
		k := strings.ToLower(strings.SplitN(kv, "=", 2)[0])
		if !strings.HasPrefix(k, "npm_config_") && k != "home" {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home, "npm_config_registry="+reg.URL(), "npm_config_cache="+filepath.Join(home, ".npm"),
		"npm_config_fetch_retries=0", "npm_config_update_notifier=false")
	dir = filepath.Join(t.TempDir(), "app")
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
	clone, err = isolate.New(context.Background(), isolate.Options{Checkout: dir, Root: t.TempDir(), Branch: branch, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = clone.Remove() })
	return clone, dir, env
}

// wantInstalled: the manifest (a caret range), the lockfile and
// node_modules at root hold kleur and slugkit (exact) at those versions.
func wantInstalled(t *testing.T, root, kleur, slugkit string) {
	t.Helper()
	for rel, want := range map[string]string{
		"package.json":                      "^" + kleur + " " + slugkit,
		"package-lock.json":                 kleur + " " + slugkit,
		"node_modules/kleur/package.json":   kleur,
		"node_modules/slugkit/package.json": slugkit,
	} {
		if got := installedVersions(t, root, rel); got != want {
			t.Errorf("%s: %q, want %q", rel, got, want)
		}
	}
}

// installedVersions reads, in the clone's root, kleur's and slugkit's
// specs (package.json) or versions (package-lock.json, node_modules/*).
func installedVersions(t *testing.T, root, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, rel))
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

// When check's final plan is not its first, the early install is undone
// and the final one installed: nothing of the first plan stays in the
// manifest, the lockfile or node_modules.
func TestInstallAgainWhenThePlanChanged(t *testing.T) {
	clone, _, env := npmApp(t, "uptide/slugkit-2.0.0")
	ctx := context.Background()
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
	wantInstalled(t, r.croot, "4.1.5", "2.0.0")
}

// batchReport is check's report of name moving from → to, with
// companions.
func batchReport(name, from, to string, companions ...model.Companion) model.PackageReport {
	return model.PackageReport{Title: name, Package: name, Installed: from, Target: to, Workspaces: []string{"."},
		Members:    []model.MemberReport{{Name: name, Installed: from, Target: to}},
		Companions: model.CompanionPlan{Companions: companions}}
}

// A batch installs and commits its steps while check runs, on check's
// first plans; installBatch keeps the steps check's final plans repeat,
// commits and all, and when a step differs puts the clone back before it
// and installs the final plan from there.
func TestBatchKeepsTheEarlyStepsCheckRepeats(t *testing.T) {
	slug := batchReport("slugkit", "1.0.0", "2.0.0")
	kleur := batchReport("kleur", "4.1.5", "5.0.0")
	slugWithKleur := batchReport("slugkit", "1.0.0", "2.0.0", model.Companion{Name: "kleur", From: "4.1.5", To: "5.0.0", Why: "peer range"})
	for _, tc := range []struct {
		name  string
		first []model.PackageReport // the plans check hands the early install
		kept  int                   // the early steps installBatch keeps
	}{
		{"the same plans", []model.PackageReport{slug, kleur}, 2},
		{"step 1 differs", []model.PackageReport{slugWithKleur}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clone, dir, env := npmApp(t, "uptide/batch-2-packages")
			ctx := context.Background()
			repository, err := repo.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			r := newRunner(Options{Packages: []string{"slugkit", "kleur"}}, "slugkit kleur")
			r.clone, r.croot, r.env, r.repository = clone, clone.Work, clone.Env(env), repository
			for _, p := range tc.first {
				r.plans <- p
			}
			go func() {
				// Check ends once the early install took its plans.
				for len(r.plans) > 0 {
					time.Sleep(10 * time.Millisecond)
				}
				close(r.checked)
			}()
			r.installBatchEarly(ctx)
			eb := r.earlyBatch
			if eb == nil || len(eb.steps) != len(tc.first) {
				t.Fatalf("early install: %+v, want %d steps", eb, len(tc.first))
			}
			for _, name := range r.o.Packages {
				var final []model.PackageReport
				for _, p := range []model.PackageReport{slug, kleur} {
					if p.Package == name {
						final = append(final, p)
					}
				}
				plan, err := batchStep(name, final, repository)
				if err != nil {
					t.Fatal(err)
				}
				r.batchPlans = append(r.batchPlans, batchPlan{name: name, plan: plan})
			}
			if !r.installBatch(ctx) {
				t.Fatalf("installBatch stopped: %s", r.rep.Reason)
			}
			if len(r.rep.Steps) != 2 {
				t.Fatalf("steps %+v", r.rep.Steps)
			}
			for i, st := range r.rep.Steps {
				early := i < tc.kept
				if (st.Commit == eb.steps[min(i, len(eb.steps)-1)].commits[0].Sha) != early {
					t.Errorf("step %d (%s) at %s: kept from the early install %v, want %v", i+1, st.Package, st.Commit, !early, early)
				}
			}
			if head, err := clone.Git(ctx, "rev-parse", "HEAD"); err != nil || strings.TrimSpace(head) != r.rep.Steps[1].Commit {
				t.Errorf("HEAD %q (%v), want step 2's commit %s", head, err, r.rep.Steps[1].Commit)
			}
			step1, err := clone.Git(ctx, "show", r.rep.Steps[0].Commit+":package.json")
			if err != nil || !strings.Contains(step1, `"kleur": "^4.1.5"`) || !strings.Contains(step1, `"slugkit": "2.0.0"`) {
				t.Errorf("step 1 moves slugkit alone; its package.json (%v):\n%s", err, step1)
			}
			wantInstalled(t, r.croot, "5.0.0", "2.0.0")
		})
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
