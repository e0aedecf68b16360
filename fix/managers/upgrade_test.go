package managers

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/lockfile"
	"github.com/uptide/uptide/engine/repo"
)

// specOf reads one dependency's specifier from a package.json.
func specOf(t *testing.T, file, field, name string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]string
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	m = map[string]map[string]string{}
	for k, v := range raw {
		var deps map[string]string
		if json.Unmarshal(v, &deps) == nil {
			m[k] = deps
		}
	}
	return m[field][name]
}

func upgrade(t *testing.T, e testEnv, dir string, moves ...Move) (*Result, error, []string) {
	t.Helper()
	r, err := repo.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := Upgrade(ctx, Options{Root: dir, Repo: r, Moves: moves, Env: e.vars, Progress: func(l string) { lines = append(lines, l) }})
	return res, err, lines
}

func installed(t *testing.T, dir, lock, ws, name, spec string) string {
	t.Helper()
	lf, err := lockfile.Load(filepath.Join(dir, lock))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := lf.Installed(ws, name, spec)
	return v
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// npm workspaces: every declaring workspace moves, each keeping its
// range style (tilde, exact, caret), one install transaction.
func TestUpgradeNPMWorkspaces(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg, "")
	dir := copyFixture(t, "npm-ws")
	e.sh(t, dir, "npm", "install", "--ignore-scripts")
	bOriginal := readFile(t, filepath.Join(dir, "packages/b/package.json"))

	res, err, lines := upgrade(t, e, dir, Move{Name: "zod", To: "3.25.76"}, Move{Name: "slugkit", To: "2.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) == 0 {
		t.Error("no progress lines from the manager")
	}
	for _, c := range []struct{ file, name, want string }{
		{"packages/a/package.json", "zod", "~3.25.76"},
		{"packages/b/package.json", "zod", "3.25.76"},
		{"package.json", "slugkit", "^2.0.0"},
		{"packages/a/package.json", "kleur", "^4.1.5"},
		{"packages/b/package.json", "aliased", "npm:lodash@~4.17.20"},
	} {
		if got := specOf(t, filepath.Join(dir, c.file), "dependencies", c.name); got != c.want {
			t.Errorf("%s %s = %q, want %q", c.file, c.name, got, c.want)
		}
	}
	// Only the version string changed: the 4-space file keeps its layout.
	if got := strings.Replace(bOriginal, `"zod": "3.22.4"`, `"zod": "3.25.76"`, 1); got != readFile(t, filepath.Join(dir, "packages/b/package.json")) {
		t.Errorf("packages/b/package.json changed beyond the version:\n%s", readFile(t, filepath.Join(dir, "packages/b/package.json")))
	}
	for _, ws := range []string{"packages/a", "packages/b"} {
		if v := installed(t, dir, "package-lock.json", ws, "zod", ""); v != "3.25.76" {
			t.Errorf("%s zod locked at %q, want 3.25.76", ws, v)
		}
	}
	want := &Result{Manager: "npm", Version: res.Version, Binary: filepath.Join(e.bin, "npm"), Lockfile: "package-lock.json",
		Manifests: []string{"package.json", "packages/a/package.json", "packages/b/package.json"},
		Moved:     []Moved{{Name: "slugkit", From: "1.0.0", To: "2.0.0"}, {Name: "zod", From: "3.22.4", To: "3.25.76"}},
		// Each styled range settles on its target: one install, then the
		// frozen one.
		Commands: []string{"npm install --ignore-scripts --no-audit --no-fund", "npm install --ignore-scripts --no-audit --no-fund"}}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	if res.Version == "" {
		t.Error("no manager version")
	}
	e.assertNoTraps(t, dir)
}

// A target older than the newest release its range admits: the styled
// install overshoots, so the manifests and lockfile go back and the exact
// specifier goes first; the range style comes back in a lockfile-only
// pass that keeps the target.
func TestUpgradeToATargetItsRangeOvershoots(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg, "")
	dir := copyFixture(t, "npm-ws")
	e.sh(t, dir, "npm", "install", "--ignore-scripts")
	for _, v := range []string{"4.2.0", "4.3.0"} {
		if err := reg.Add(map[string]any{"name": "kleur", "version": v}, map[string]string{"index.js": "module.exports = {};\n"}); err != nil {
			t.Fatal(err)
		}
	}
	res, err, _ := upgrade(t, e, dir, Move{Name: "kleur", To: "4.2.0"})
	if err != nil {
		t.Fatal(err)
	}
	if got := specOf(t, filepath.Join(dir, "packages/a/package.json"), "dependencies", "kleur"); got != "^4.2.0" {
		t.Errorf("packages/a kleur = %q, want ^4.2.0", got)
	}
	if v := installed(t, dir, "package-lock.json", "packages/a", "kleur", ""); v != "4.2.0" {
		t.Errorf("kleur locked at %q, want the target 4.2.0, not the newest 4.3.0", v)
	}
	want := []string{"npm install --ignore-scripts --no-audit --no-fund", "npm install --ignore-scripts --no-audit --no-fund",
		"npm install --ignore-scripts --no-audit --no-fund --package-lock-only", "npm install --ignore-scripts --no-audit --no-fund"}
	if diff := cmp.Diff(want, res.Commands); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Moved{{Name: "kleur", From: "4.1.5", To: "4.2.0"}}, res.Moved); diff != "" {
		t.Errorf("moved (-want +got):\n%s", diff)
	}
}

// A lockfile pinning a package its manifest range no longer accepts: npm
// re-resolves it on any install, the upgrade's or not. The guard, tripped,
// runs npm on the untouched checkout: that re-resolution is npm's own
// (Normalized, with the lockfile it writes), the upgrade passes, and the
// command is in the report.
func TestStaleEntryIsTheManagersOwnRewrite(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg, "")
	dir := copyFixture(t, "npm-stale")
	e.sh(t, dir, "npm", "install", "--ignore-scripts")
	manifest := filepath.Join(dir, "package.json")
	stale := strings.Replace(readFile(t, manifest), `"lodash": "4.17.20"`, `"lodash": "^4.17.21"`, 1)
	if err := os.WriteFile(manifest, []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}

	res, err, _ := upgrade(t, e, dir, Move{Name: "slugkit", To: "2.0.0"})
	if err != nil {
		t.Fatalf("upgrade: %v", err)
	}
	want := []string{"importer .: lodash dependencies 4.17.20 → dependencies ^4.17.21", "lodash 4.17.20 → 4.17.21"}
	if !cmp.Equal(res.Normalized, want) {
		t.Errorf("normalized %q, want %q", res.Normalized, want)
	}
	own := string(res.NormalizedLockfile)
	if !strings.Contains(own, "lodash-4.17.21.tgz") || !strings.Contains(own, "slugkit-1.0.0.tgz") || strings.Contains(own, "slugkit-2.0.0.tgz") {
		t.Errorf("npm's own lockfile should move lodash and keep slugkit 1.0.0:\n%s", own)
	}
	if lock := readFile(t, filepath.Join(dir, "package-lock.json")); !strings.Contains(lock, "slugkit-2.0.0.tgz") || !strings.Contains(lock, "lodash-4.17.21.tgz") {
		t.Errorf("the upgraded lockfile lacks slugkit 2.0.0 or lodash 4.17.21")
	}
	if !slices.Contains(res.Commands, "npm install --ignore-scripts --no-audit --no-fund --package-lock-only") {
		t.Errorf("commands %q lack npm's own run on the untouched lockfile", res.Commands)
	}
	if !strings.Contains(readFile(t, manifest), `"slugkit": "^2.0.0"`) {
		t.Error("package.json does not hold the upgrade")
	}
}

// pnpm: the catalog entry moves (its quoting and comment kept) and the
// manifests still say catalog:; a plain range moves in its package.json.
func TestUpgradePnpmCatalog(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg, "")
	dir := copyFixture(t, "pnpm-catalog")
	e.sh(t, dir, "pnpm", "install", "--ignore-scripts")
	pw := filepath.Join(dir, "pnpm-workspace.yaml")
	pwBefore := readFile(t, pw)

	res, err, _ := upgrade(t, e, dir, Move{Name: "zod", To: "3.25.76"}, Move{Name: "slugkit", To: "2.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(pwBefore, "zod: '~3.22.4'", "zod: '~3.25.76'", 1); readFile(t, pw) != want {
		t.Errorf("pnpm-workspace.yaml:\n%s\nwant\n%s", readFile(t, pw), want)
	}
	if got := specOf(t, filepath.Join(dir, "apps/web/package.json"), "dependencies", "zod"); got != "catalog:" {
		t.Errorf("apps/web zod = %q, want catalog:", got)
	}
	if got := specOf(t, filepath.Join(dir, "packages/lib/package.json"), "dependencies", "zod"); got != "catalog:default" {
		t.Errorf("packages/lib zod = %q, want catalog:default", got)
	}
	if got := specOf(t, filepath.Join(dir, "apps/web/package.json"), "dependencies", "slugkit"); got != "^2.0.0" {
		t.Errorf("apps/web slugkit = %q", got)
	}
	for _, ws := range []string{"apps/web", "packages/lib"} {
		if v := installed(t, dir, "pnpm-lock.yaml", ws, "zod", ""); v != "3.25.76" {
			t.Errorf("%s zod locked at %q", ws, v)
		}
	}
	g, err := lockfile.LoadGraph(filepath.Join(dir, "pnpm-lock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Importers["catalog:default"]["zod"]; !strings.Contains(got, `"specifier":"~3.25.76"`) {
		t.Errorf("lockfile catalog entry %s, want specifier ~3.25.76", got)
	}
	if res.Manager != "pnpm" || res.Version != pnpmVersion || !strings.Contains(res.Commands[0], "--no-frozen-lockfile") {
		t.Errorf("result %+v", res)
	}
	if diff := cmp.Diff([]string{"apps/web/package.json", "pnpm-workspace.yaml"}, res.Manifests); diff != "" {
		t.Errorf("manifests (-want +got):\n%s", diff)
	}
	e.assertNoTraps(t, dir)
}

// packageManager names another version: nothing is edited, nothing runs.
func TestVersionMismatchBeforeAnyEdit(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg, "")
	dir := copyFixture(t, "pnpm-catalog")
	e.sh(t, dir, "pnpm", "install", "--ignore-scripts")
	manifest := filepath.Join(dir, "package.json")
	data := strings.Replace(readFile(t, manifest), "pnpm@9.15.9", "pnpm@9.0.0", 1)
	if err := os.WriteFile(manifest, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	pwBefore := readFile(t, filepath.Join(dir, "pnpm-workspace.yaml"))
	_, err, lines := upgrade(t, e, dir, Move{Name: "zod", To: "3.25.76"})
	var ve *VersionError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want *VersionError", err)
	}
	if ve.Want != "pnpm@9.0.0" || !strings.HasPrefix(ve.Have, "pnpm@9.15.9") || ve.Field != "package.json packageManager" {
		t.Errorf("%+v", ve)
	}
	if readFile(t, filepath.Join(dir, "pnpm-workspace.yaml")) != pwBefore || len(lines) != 0 {
		t.Error("the catalog was edited or a manager ran before the version check")
	}
}

// A range Uptide cannot move keeping its style fails before any edit,
// naming the file.
func TestRangeErrorBeforeAnyEdit(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg, "")
	dir := copyFixture(t, "npm-stale")
	e.sh(t, dir, "npm", "install", "--ignore-scripts")
	manifest := filepath.Join(dir, "package.json")
	data := strings.Replace(readFile(t, manifest), `"slugkit": "^1.0.0"`, `"slugkit": ">=1 <2"`, 1)
	if err := os.WriteFile(manifest, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	lock := readFile(t, filepath.Join(dir, "package-lock.json"))
	_, err, _ := upgrade(t, e, dir, Move{Name: "slugkit", To: "2.0.0"})
	var re *RangeError
	if !errors.As(err, &re) || re.File != manifest || re.Spec != ">=1 <2" {
		t.Fatalf("err = %v, want a *RangeError on %s", err, manifest)
	}
	if readFile(t, manifest) != data || readFile(t, filepath.Join(dir, "package-lock.json")) != lock {
		t.Error("files changed")
	}
}

// Yarn classic: exact and tilde keep their style; the lockfile records
// the target under the styled descriptors.
func TestUpgradeYarnClassic(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg, "classic")
	dir := copyFixture(t, "yarn-ws")
	e.sh(t, dir, "yarn", "install", "--ignore-scripts", "--non-interactive", "--registry", reg.URL())
	res, err, _ := upgrade(t, e, dir, Move{Name: "zod", To: "3.25.76"}, Move{Name: "slugkit", To: "2.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if got := specOf(t, filepath.Join(dir, "packages/a/package.json"), "dependencies", "slugkit"); got != "~2.0.0" {
		t.Errorf("packages/a slugkit = %q", got)
	}
	if got := specOf(t, filepath.Join(dir, "packages/a/package.json"), "dependencies", "zod"); got != "3.25.76" {
		t.Errorf("packages/a zod = %q", got)
	}
	if v := installed(t, dir, "yarn.lock", "packages/a", "slugkit", "~2.0.0"); v != "2.0.0" {
		t.Errorf("yarn.lock slugkit@~2.0.0 = %q", v)
	}
	if res.Manager != "yarn" || res.Version != yarnVersion || len(res.Moved) != 2 || res.Moved[0] != (Moved{"slugkit", "1.0.0", "2.0.0"}) {
		t.Errorf("result %+v", res)
	}
	e.assertNoTraps(t, dir)
}

// Yarn Berry on the node-modules linker moves; on Plug'n'Play it fails
// before anything runs.
func TestUpgradeYarnBerry(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg, "berry")
	dir := copyFixture(t, "berry-nm")
	e.sh(t, dir, "yarn", "install", "--mode=skip-build")
	res, err, _ := upgrade(t, e, dir, Move{Name: "zod", To: "3.25.76"}, Move{Name: "slugkit", To: "2.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if got := specOf(t, filepath.Join(dir, "packages/a/package.json"), "dependencies", "zod"); got != "~3.25.76" {
		t.Errorf("packages/a zod = %q", got)
	}
	if v := installed(t, dir, "yarn.lock", "packages/a", "zod", "~3.25.76"); v != "3.25.76" {
		t.Errorf("yarn.lock zod = %q", v)
	}
	if res.Manager != "yarn-berry" || res.Version != berryVersion || res.Commands[0] != "yarn install --mode=skip-build" {
		t.Errorf("result %+v", res)
	}
	e.assertNoTraps(t, dir)
}

func TestBerryPnPFailsExplicitly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "berry")
	copyTree(t, filepath.Join("..", "..", "fixtures", "repos", "yarn-berry"), dir)
	rc := filepath.Join(dir, ".yarnrc.yml")
	if err := os.WriteFile(rc, []byte("nodeLinker: pnp\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := repo.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Upgrade(context.Background(), Options{Root: dir, Repo: r, Moves: []Move{{Name: "zod", To: "3.25.76"}}, Env: []string{"PATH=" + t.TempDir()}})
	var le *LinkerError
	if !errors.As(err, &le) || le.File != rc || le.Linker != "pnp" || !strings.Contains(err.Error(), "nodeLinker: node-modules") {
		t.Fatalf("err = %v, want a *LinkerError naming %s", err, rc)
	}
	if err := os.Remove(rc); err != nil {
		t.Fatal(err)
	}
	_, err = Upgrade(context.Background(), Options{Root: dir, Repo: r, Moves: []Move{{Name: "zod", To: "3.25.76"}}, Env: []string{"PATH=" + t.TempDir()}})
	if !errors.As(err, &le) || !strings.HasPrefix(le.Linker, "pnp") {
		t.Fatalf("no .yarnrc.yml: err = %v, want a *LinkerError (pnp is Yarn's default)", err)
	}
}

// A companion the repository does not declare is added with a caret
// range to the workspaces named, in the same transaction.
func TestUpgradeAddsACompanion(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg, "")
	dir := copyFixture(t, "npm-ws")
	e.sh(t, dir, "npm", "install", "--ignore-scripts")
	res, err, _ := upgrade(t, e, dir, Move{Name: "slugkit", To: "2.0.0"}, Move{Name: "eslint", To: "10.0.0", Add: true, Workspaces: []string{"packages/b"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := specOf(t, filepath.Join(dir, "packages/b/package.json"), "dependencies", "eslint"); got != "^10.0.0" {
		t.Errorf("packages/b eslint = %q, want ^10.0.0", got)
	}
	if v := installed(t, dir, "package-lock.json", "packages/b", "eslint", ""); v != "10.0.0" {
		t.Errorf("eslint locked at %q", v)
	}
	if diff := cmp.Diff([]Moved{{Name: "eslint", From: "", To: "10.0.0"}, {Name: "slugkit", From: "1.0.0", To: "2.0.0"}}, res.Moved); diff != "" {
		t.Errorf("moved (-want +got):\n%s", diff)
	}
	e.assertNoTraps(t, dir)
}

// An install that fails (the target is not published) keeps the original
// manifests and lockfile, and says which command failed.
func TestFailedInstallKeepsTheLockfile(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg, "")
	dir := copyFixture(t, "npm-stale")
	e.sh(t, dir, "npm", "install", "--ignore-scripts")
	manifest, lock := readFile(t, filepath.Join(dir, "package.json")), readFile(t, filepath.Join(dir, "package-lock.json"))
	_, err, _ := upgrade(t, e, dir, Move{Name: "slugkit", To: "9.9.9"})
	var ie *InstallError
	if !errors.As(err, &ie) || !strings.HasPrefix(ie.Command, "npm install --ignore-scripts") || !strings.Contains(ie.Output, "slugkit") {
		t.Fatalf("err = %v, want an *InstallError whose output names slugkit", err)
	}
	if readFile(t, filepath.Join(dir, "package.json")) != manifest || readFile(t, filepath.Join(dir, "package-lock.json")) != lock {
		t.Error("the manifest or lockfile was not restored byte-identical")
	}
}

// An install that runs but does not reach the target (a pnpm override
// pins it) fails the run; manifests, catalog and lockfile are restored and
// node_modules is reinstalled from the original lockfile.
func TestFailureAfterAnInstallRestoresNodeModules(t *testing.T) {
	reg := startRegistry(t)
	e := newEnv(t, reg, "")
	dir := copyFixture(t, "pnpm-catalog")
	manifest := filepath.Join(dir, "package.json")
	pinned := strings.Replace(readFile(t, manifest), `"private": true,`, `"private": true,
  "pnpm": {"overrides": {"zod": "3.22.4"}},`, 1)
	if err := os.WriteFile(manifest, []byte(pinned), 0o644); err != nil {
		t.Fatal(err)
	}
	e.sh(t, dir, "pnpm", "install", "--ignore-scripts")
	slugkit := filepath.Join(dir, "apps", "web", "node_modules", "slugkit", "package.json")
	version := func() string {
		var p struct{ Version string }
		if err := json.Unmarshal([]byte(readFile(t, slugkit)), &p); err != nil {
			t.Fatal(err)
		}
		return p.Version
	}
	if version() != "1.0.0" {
		t.Fatalf("fixture: slugkit %s installed", version())
	}
	files := map[string]string{}
	for _, f := range []string{"pnpm-lock.yaml", "pnpm-workspace.yaml", "apps/web/package.json"} {
		files[f] = readFile(t, filepath.Join(dir, f))
	}
	_, err, _ := upgrade(t, e, dir, Move{Name: "zod", To: "3.25.76"}, Move{Name: "slugkit", To: "2.0.0"})
	if err == nil || !strings.Contains(err.Error(), "has zod 3.22.4, not 3.25.76") {
		t.Fatalf("err = %v, want the override's zod named", err)
	}
	for f, want := range files {
		if readFile(t, filepath.Join(dir, f)) != want {
			t.Errorf("%s was not restored byte-identical", f)
		}
	}
	if v := version(); v != "1.0.0" {
		t.Errorf("node_modules holds slugkit %s after the failed upgrade, want the original 1.0.0", v)
	}
	e.assertNoTraps(t, dir)
}

// npm is not handed pnpm's settings: npm 11 warns about each unknown one
// on every run, and the warnings reach the user's progress lines.
func TestManagerEnvKeepsPnpmSettingsForPnpm(t *testing.T) {
	env := []string{"PATH=/bin", "npm_config_verify_deps_before_run=false", "NPM_CONFIG_STORE_DIR=/s"}
	for name, want := range map[string]bool{"npm": false, "yarn": false, "bun": false, "pnpm": true} {
		got := 0
		for _, kv := range testManager(t, name).Env(env) {
			if strings.HasPrefix(kv, "npm_config_verify_deps_before_run=") || strings.HasPrefix(kv, "NPM_CONFIG_STORE_DIR=") {
				got++
			}
		}
		if (got == 2) != want || (got == 0) == want {
			t.Errorf("%s: %d of pnpm's 2 settings passed, want all: %v", name, got, want)
		}
	}
}

// A manager detected in the checkout whose lockfile the clone lacks (an
// ignored lockfile) is detected again where the install runs, whose error
// says what to commit, instead of a bare missing file.
func TestDetectedManagerWithoutTheLockfileHere(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"app","dependencies":{"slugkit":"^1.0.0"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo, err := repo.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := &Detected{Manager: npm, Version: "11.0.0", Argv: []string{"npm"}, Lockfile: "package-lock.json"}
	_, err = Upgrade(context.Background(), Options{Root: dir, Repo: repo, Moves: []Move{{Name: "slugkit", To: "2.0.0"}}, Manager: m})
	if err == nil || !strings.Contains(err.Error(), "commit the lockfile") {
		t.Fatalf("err = %v, want Detect's: no lockfile, commit it", err)
	}
}

// A manager the registry gives is the release of its package's manifest:
// Detect starts nothing to ask it its version (the install is the first
// thing it runs), and a package whose manifest is another release is
// refused.
func TestDetectReadsTheFetchedManagersVersion(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"app","packageManager":"pnpm@9.15.9","dependencies":{"slugkit":"^1.0.0"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lock := "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      slugkit:\n        specifier: ^1.0.0\n        version: 1.0.0\n\npackages:\n\n  slugkit@1.0.0:\n    resolution: {integrity: sha512-x}\n\nsnapshots:\n\n  slugkit@1.0.0: {}\n"
	if err := os.WriteFile(filepath.Join(dir, "pnpm-lock.yaml"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := repo.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	tool := func(version string) string {
		tdir := t.TempDir()
		os.MkdirAll(filepath.Join(tdir, "bin"), 0o755)
		manifest := `{"name":"pnpm","version":"` + version + `","bin":{"pnpm":"bin/pnpm.cjs"}}`
		script := "require('fs').appendFileSync(__dirname + '/../ran', process.argv.slice(2).join(' ') + '\\n');\nconsole.log('" + version + "');\n"
		if err := os.WriteFile(filepath.Join(tdir, "package.json"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tdir, "bin", "pnpm.cjs"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return tdir
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not on PATH: the manager runs with it")
	}
	// node alone on PATH: no manager of the machine's.
	bin := t.TempDir()
	if err := os.Symlink(node, filepath.Join(bin, "node")); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + bin}
	good := tool("9.15.9")
	fetch := func(_ context.Context, name, version string) (*Tool, error) {
		if name != "pnpm" || version != "9.15.9" {
			t.Errorf("fetched %s@%s, want pnpm@9.15.9", name, version)
		}
		return &Tool{Dir: good}, nil
	}
	m, err := Detect(context.Background(), dir, r, env, fetch)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != "9.15.9" || m.Binary != filepath.Join(good, "bin", "pnpm.cjs") || !strings.Contains(m.Why, "no pnpm on PATH") {
		t.Errorf("manager %+v, want the fetched pnpm 9.15.9", m)
	}
	if ran, err := os.ReadFile(filepath.Join(good, "ran")); err == nil {
		t.Errorf("Detect ran the fetched manager: %q", ran)
	}
	other := tool("9.15.8")
	_, err = Detect(context.Background(), dir, r, env, func(context.Context, string, string) (*Tool, error) { return &Tool{Dir: other}, nil })
	if err == nil || !strings.Contains(err.Error(), "is 9.15.8, not 9.15.9") {
		t.Errorf("another release in the package: %v", err)
	}
}
