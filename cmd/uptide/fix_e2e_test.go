package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// The fix runner end to end: a fixture repository installed by its real
// manager from the test registry, committed to git, then `uptide fix` run
// on it. Every fixture depends on trap-scripts (each lifecycle script drops
// a marker) and runs hook-installer from its own prepare script (a
// husky-style installer); neither may ever run.

// fixReport is the part of fix --json the tests read.
type fixReport struct {
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	From    string `json:"from"`
	To      string `json:"to"`
	Branch  string `json:"branch"`
	Commits []struct {
		Sha     string `json:"sha"`
		Subject string `json:"subject"`
	} `json:"commits"`
	Install *struct {
		Manager  string   `json:"manager"`
		Lockfile string   `json:"lockfile"`
		Commands []string `json:"commands"`
	} `json:"install"`
	Types struct {
		Status   string `json:"status"`
		Baseline int    `json:"baseline"`
		New      []struct {
			File string `json:"file"`
			Code int    `json:"code"`
		} `json:"new"`
	} `json:"types"`
	Tests struct {
		Results []struct {
			Status string `json:"status"`
			Passed int    `json:"passed"`
		} `json:"results"`
	} `json:"tests"`
	Sites []struct {
		File string `json:"file"`
		Line int    `json:"line"`
		Rule string `json:"rule"`
	} `json:"sitesLeft"`
	Clone struct {
		Dir     string `json:"dir"`
		Repo    string `json:"repo"`
		Kept    bool   `json:"kept"`
		Why     string `json:"why"`
		Removed bool   `json:"removed"`
	} `json:"clone"`
	Checkout struct {
		Changed []string `json:"changed"`
		Branch  string   `json:"branch"`
		RunFile string   `json:"runFile"`
	} `json:"checkout"`
}

// fixEnv is the test registry with the real typescript 5.8.3 the fixtures
// install, a private runs root, a trap directory for the markers, and a
// PATH whose pnpm and yarn are the pinned releases.
type fixEnv struct {
	env
	reg        *testregistry.Registry
	trap, runs string
}

func newFixEnv(t testing.TB) fixEnv {
	t.Helper()
	reg := startRegistry(t)
	// 5.8.3 is what the fixtures install; 6.0.3, the pinned compiler, is
	// the tsc of a repository that installs none.
	for _, v := range []string{"5.8.3", "6.0.3"} {
		if err := reg.AddDir(pinnedTool(t, "typescript", v)); err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t, reg)
	if err := os.Symlink(sharedCompilers(t), filepath.Join(e.cache, "compilers")); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	wrappers := map[string]string{
		"pnpm": "node " + strconv.Quote(filepath.Join(pinnedTool(t, "pnpm", "9.15.9"), "bin", "pnpm.cjs")),
		"yarn": "node " + strconv.Quote(filepath.Join(pinnedTool(t, "yarn", "1.22.22"), "bin", "yarn.js")),
		// bun is one native binary, published for each platform.
		"bun": strconv.Quote(filepath.Join(pinnedTool(t, "@oven/bun-"+runtime.GOOS+"-"+bunArch(t), bunVersion), "bin", "bun")),
	}
	for name, command := range wrappers {
		body := fmt.Sprintf("#!/bin/sh\nexec %s \"$@\"\n", command)
		if err := os.WriteFile(filepath.Join(bin, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fe := fixEnv{env: e, reg: reg, trap: t.TempDir(), runs: t.TempDir()}
	fe.extra = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "UPTIDE_TRAP_DIR=" + fe.trap,
		"TMPDIR=" + fe.runs, "npm_config_cache=" + filepath.Join(e.home, ".npm"),
		"YARN_CACHE_FOLDER=" + filepath.Join(e.home, ".yarn-cache"), "BUN_INSTALL_CACHE_DIR=" + filepath.Join(e.home, ".bun-cache"), "npm_config_store_dir=" + filepath.Join(e.home, ".pnpm-store")}
	return fe
}

// bunVersion is the bun the bun fixture names in packageManager.
const bunVersion = "1.3.5"

// bunArch is the architecture in the name of bun's platform package.
func bunArch(t testing.TB) string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "arm64":
		return "aarch64"
	}
	t.Fatalf("bun publishes no binary for %s", runtime.GOARCH)
	return ""
}

// fixRepo installs the fixture with its manager (scripts off) and commits
// it, with a hook of the user's own in .git/hooks that must never run.
func fixRepo(t testing.TB, fe fixEnv, fixture, manager string) string {
	t.Helper()
	dir := copyDir(t, filepath.Join("../../fixtures/fix", fixture))
	switch manager {
	case "npm":
		npmManager().install(t, fe.env, dir)
	case "yarn":
		yarnClassic(t).install(t, fe.env, dir)
	case "pnpm":
		pnpm := manager2(fe, "pnpm")
		pnpm.run(t, fe.env, dir, "install", "--no-frozen-lockfile")
	case "bun":
		manager2(fe, "bun").install(t, fe.env, dir)
	}
	commitAll(t, dir)
	hook := fmt.Sprintf("#!/bin/sh\necho ran > %q\n", filepath.Join(fe.trap, "TRAP-user-hook"))
	if err := os.WriteFile(filepath.Join(dir, ".git", "hooks", "pre-commit"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// commitAll makes dir a git repository of one commit by Ada Lovelace.
func commitAll(t testing.TB, dir string) {
	t.Helper()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "config", "user.name", "Ada Lovelace")
	git(t, dir, "config", "user.email", "ada@example.invalid")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "the app")
}

// manager2 is a manager run through the PATH wrappers of fe.
func manager2(fe fixEnv, name string) manager {
	for _, kv := range fe.extra {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			return manager{name: name, argv0: []string{filepath.Join(strings.Split(p, string(os.PathListSeparator))[0], name)}}
		}
	}
	return manager{name: name, argv0: []string{name}}
}

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// checkoutDigest hashes what the user owns: every file outside .git, and
// .git's config, HEAD, index and hooks. Objects and refs may grow (the
// branch), and .git/uptide holds the stored run.
func checkoutDigest(t testing.TB, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".git/objects" || rel == ".git/refs" || rel == ".git/logs" || rel == ".git/uptide" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(rel, ".git/") && !(rel == ".git/config" || rel == ".git/HEAD" || rel == ".git/index" ||
			strings.HasPrefix(rel, ".git/hooks/")) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			lines = append(lines, rel+" -> "+target)
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprintf("%s %o %x", rel, info.Mode().Perm(), sha256.Sum256(b)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func runFix(t *testing.T, fe fixEnv, dir string, args ...string) (fixReport, result) {
	t.Helper()
	r := run(t, fe.env, dir, append([]string{"fix"}, append(args, "--json")...)...)
	var rep fixReport
	decode(t, r, &rep)
	return rep, r
}

// assertNoTrap fails when a lifecycle script or a hook ran anywhere.
func assertNoTrap(t *testing.T, fe fixEnv, dirs ...string) {
	t.Helper()
	for _, d := range append([]string{fe.trap}, dirs...) {
		matches, _ := filepath.Glob(filepath.Join(d, "TRAP-*"))
		if len(matches) > 0 {
			t.Errorf("a lifecycle script or hook ran: %q", matches)
		}
	}
}

func subjects(rep fixReport) []string {
	var out []string
	for _, c := range rep.Commits {
		out = append(out, c.Subject)
	}
	return out
}

// fixCases are the three managers' fixtures, each upgraded with the
// accepted patches: verified, the branch in the checkout, nothing else
// changed, no script run.
func TestFixVerifiedWithPatches(t *testing.T) {
	fe := newFixEnv(t)
	cases := []struct {
		fixture, manager, lockfile, manifest, want string
		patches                                    string
		subjects                                   []string
	}{
		{"npm-app", "npm", "package-lock.json", "package.json", `"slugkit": "^2.0.0"`, "npm-app.patches.json",
			[]string{"upgrade slugkit 1.0.0 → 2.0.0", "fix src/title.ts:4 (slugify's options gain a required locale)", "fix src/short.ts:1 (truncate removed)"}},
		{"yarn-app", "yarn", "yarn.lock", "package.json", `"slugkit": "^2.0.0"`, "npm-app.patches.json",
			[]string{"upgrade slugkit 1.0.0 → 2.0.0", "fix src/title.ts:4 (slugify's options gain a required locale)", "fix src/short.ts:1 (truncate removed)"}},
		{"bun-app", "bun", "bun.lock", "package.json", `"slugkit": "^2.0.0"`, "npm-app.patches.json",
			[]string{"upgrade slugkit 1.0.0 → 2.0.0", "fix src/title.ts:4 (slugify's options gain a required locale)", "fix src/short.ts:1 (truncate removed)"}},
		{"pnpm-catalog", "pnpm", "pnpm-lock.yaml", "pnpm-workspace.yaml", "slugkit: ^2.0.0", "pnpm-catalog.patches.json",
			[]string{"upgrade slugkit 1.0.0 → 2.0.0", "fix packages/app/src/title.ts:4 (slugify's options gain a required locale)"}},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			dir := fixRepo(t, fe, c.fixture, c.manager)
			before := checkoutDigest(t, dir)
			patches, _ := filepath.Abs(filepath.Join("../../fixtures/fix", c.patches))
			rep, r := runFix(t, fe, dir, "slugkit", "--target", "slugkit@2.0.0", "--patches", patches)
			if r.code != 0 || rep.Status != "verified" {
				t.Fatalf("exit %d status %s (%s), want 0 verified\n%s\n%s", r.code, rep.Status, rep.Reason, r.stdout, r.stderr)
			}
			if after := checkoutDigest(t, dir); after != before {
				t.Errorf("the checkout changed:\n%s", diffLines(before, after))
			}
			assertNoTrap(t, fe, dir)
			if got := subjects(rep); strings.Join(got, "\n") != strings.Join(c.subjects, "\n") {
				t.Errorf("commits %q, want %q", got, c.subjects)
			}
			if rep.Install == nil || rep.Install.Manager != c.manager || rep.Install.Lockfile != c.lockfile {
				t.Errorf("install %+v, want %s writing %s", rep.Install, c.manager, c.lockfile)
			}
			if rep.Types.Status != "analyzed" || len(rep.Types.New) != 0 {
				t.Errorf("types %+v, want analyzed with no new error", rep.Types)
			}
			if len(rep.Tests.Results) == 0 || rep.Tests.Results[0].Status != "passed" {
				t.Errorf("tests %+v, want the workspace's test script passed", rep.Tests.Results)
			}
			// The checkout has the branch, at the last commit, with the bump.
			branch := "uptide/slugkit-2.0.0"
			if rep.Checkout.Branch != branch {
				t.Fatalf("checkout branch %q (%+v)", rep.Checkout.Branch, rep.Checkout)
			}
			if head := git(t, dir, "rev-parse", branch); head != rep.Commits[len(rep.Commits)-1].Sha {
				t.Errorf("%s at %s, want the run's last commit %s", branch, head, rep.Commits[len(rep.Commits)-1].Sha)
			}
			if cur := git(t, dir, "rev-parse", "--abbrev-ref", "HEAD"); cur != "main" {
				t.Errorf("the checkout is on %s, want main", cur)
			}
			if got := git(t, dir, "show", branch+":"+c.manifest); !strings.Contains(got, c.want) {
				t.Errorf("%s on the branch:\n%s\nwant %s", c.manifest, got, c.want)
			}
			if got := git(t, dir, "show", branch+":"+c.lockfile); !strings.Contains(got, "2.0.0") || strings.Contains(got, "slugkit/-/slugkit-1.0.0") {
				t.Errorf("%s on the branch does not record slugkit 2.0.0 alone", c.lockfile)
			}
			if author := git(t, dir, "log", "-1", "--format=%an <%ae>", branch); author != "Ada Lovelace <ada@example.invalid>" {
				t.Errorf("commits by %q, want the checkout's author", author)
			}
			if _, err := os.Stat(rep.Checkout.RunFile); err != nil || !strings.HasSuffix(filepath.ToSlash(rep.Checkout.RunFile), ".git/uptide/uptide/slugkit-2.0.0/run.json") {
				t.Errorf("stored run %q: %v", rep.Checkout.RunFile, err)
			}
			if !rep.Clone.Removed || rep.Clone.Kept {
				t.Errorf("clone %+v, want removed after a verified, published run", rep.Clone)
			}
			if _, err := os.Stat(rep.Clone.Dir); !os.IsNotExist(err) {
				t.Errorf("the clone %s is still there", rep.Clone.Dir)
			}
			if status := git(t, dir, "status", "--porcelain"); status != "" {
				t.Errorf("git status in the checkout:\n%s", status)
			}
		})
	}
}

// Without patches the upgrade still lands on a branch, the compile says
// what is left, and the run never claims it verified.
func TestFixWithoutPatchesListsSitesLeft(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	before := checkoutDigest(t, dir)
	rep, r := runFix(t, fe, dir, "slugkit", "--target", "slugkit@2.0.0")
	if r.code != 1 || rep.Status != "failed" {
		t.Fatalf("exit %d status %s, want 1 failed\n%s\n%s", r.code, rep.Status, r.stdout, r.stderr)
	}
	var sites []string
	for _, s := range rep.Sites {
		sites = append(sites, fmt.Sprintf("%s:%d", s.File, s.Line))
	}
	if strings.Join(sites, " ") != "src/short.ts:1 src/short.ts:4 src/title.ts:4" && strings.Join(sites, " ") != "src/short.ts:1 src/title.ts:4" {
		t.Errorf("sites left %q, want the removed truncate and the required locale", sites)
	}
	if rep.Types.Baseline != 1 {
		t.Errorf("baseline %d errors, want src/count.ts's own one", rep.Types.Baseline)
	}
	for _, d := range rep.Types.New {
		if d.File == "src/count.ts" {
			t.Errorf("the pre-existing error in src/count.ts is counted as new")
		}
	}
	if got := subjects(rep); strings.Join(got, "|") != "upgrade slugkit 1.0.0 → 2.0.0" {
		t.Errorf("commits %q", got)
	}
	if !rep.Clone.Kept || rep.Clone.Dir == "" {
		t.Errorf("clone %+v, want kept after a failed run", rep.Clone)
	}
	if _, err := os.Stat(filepath.Join(rep.Clone.Dir, ".uptide-run")); err != nil || !strings.HasPrefix(rep.Clone.Repo, rep.Clone.Dir) {
		t.Errorf("the kept clone %s has no marker in %s: %v", rep.Clone.Repo, rep.Clone.Dir, err)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
	assertNoTrap(t, fe, dir)
	// The text report names the sites and the kept clone.
	text := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0")
	t.Logf("second run:\n%s\n%s", text.stdout, text.stderr)
	for _, want := range []string{"✗ not verified", "Left for you", "src/title.ts:4", "Clone   kept at"} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("text report lacks %q:\n%s", want, text.stdout)
		}
	}
	// The branch exists already at the first run's commit: the second run's
	// commit is not a fast-forward of it, so it stays in the clone.
	if !strings.Contains(text.stdout, "already exists") {
		t.Errorf("second run over an existing branch:\n%s", text.stdout)
	}
	// clean removes kept clones only with --all (they are young).
	c := run(t, fe.env, dir, "clean", "--json")
	if c.code != 0 {
		t.Fatalf("clean: %d %s", c.code, c.stderr)
	}
	if _, err := os.Stat(rep.Clone.Dir); err != nil {
		t.Errorf("clean removed a young clone: %v", err)
	}
	c = run(t, fe.env, dir, "clean", "--all")
	if c.code != 0 || !strings.Contains(c.stdout, "removed "+rep.Clone.Dir) {
		t.Errorf("clean --all: %d\n%s\n%s", c.code, c.stdout, c.stderr)
	}
}

// A dirty checkout stops fix before anything is written.
func TestFixRefusesADirtyCheckout(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	if err := os.WriteFile(filepath.Join(dir, "src", "title.ts"), []byte("export {};\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := checkoutDigest(t, dir)
	rep, r := runFix(t, fe, dir, "slugkit", "--target", "slugkit@2.0.0")
	if r.code != 2 || rep.Status != "not-run" || !strings.Contains(rep.Reason, "src/title.ts") {
		t.Fatalf("exit %d %s %q, want 2 not-run naming src/title.ts", r.code, rep.Status, rep.Reason)
	}
	if rep.Clone.Dir != "" {
		t.Errorf("a clone was made: %s", rep.Clone.Dir)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
	if refs := git(t, dir, "for-each-ref", "refs/heads/uptide"); refs != "" {
		t.Errorf("a branch was created: %s", refs)
	}
}

// --with-services lists the tests that need services and where they
// connect, credentials masked, and changes nothing until --yes.
func TestFixWithServicesNeedsYes(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyDir(t, filepath.Join("../../fixtures/fix", "npm-app"))
	for name, body := range map[string]string{
		"test/db.integration.test.js": "import pg from 'pg';\n",
		".env.test":                   "DATABASE_URL=postgres://app:s3cret@db.internal:5432/app_test\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	npmManager().install(t, fe.env, dir)
	commitAll(t, dir)
	before := checkoutDigest(t, dir)
	text := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--with-services", "--ci")
	if text.code != 2 || !strings.Contains(text.stdout, "--yes") ||
		!strings.Contains(text.stdout, "test/db.integration.test.js") ||
		!strings.Contains(text.stdout, "DATABASE_URL=postgres://app:***@db.internal:5432/app_test (.env.test)") {
		t.Fatalf("exit %d, want 2 listing the integration test and the masked target:\n%s\n%s", text.code, text.stdout, text.stderr)
	}
	if strings.Contains(text.stdout+text.stderr, "s3cret") {
		t.Errorf("the database password was printed:\n%s\n%s", text.stdout, text.stderr)
	}
	rep, r := runFix(t, fe, dir, "slugkit", "--target", "slugkit@2.0.0", "--with-services")
	if r.code != 2 || rep.Status != "not-run" || rep.Clone.Dir != "" {
		t.Errorf("exit %d %s clone %q, want 2 not-run before any clone", r.code, rep.Status, rep.Clone.Dir)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
	if refs := git(t, dir, "for-each-ref", "refs/heads/uptide"); refs != "" {
		t.Errorf("a branch was created: %s", refs)
	}
}

// SIGINT in the middle of the install: the checkout is untouched and the
// clone kept and named.
func TestFixInterruptedKeepsTheClone(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	before := checkoutDigest(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, uptideBinary(t), "--cwd", dir, "fix", "slugkit", "--target", "slugkit@2.0.0")
	cmd.Env = fe.vars()
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		signalled := false
		for sc.Scan() {
			line := sc.Text()
			log.WriteString(line + "\n")
			if strings.HasPrefix(line, "fix: install:") && !signalled {
				// The manager is not started: its requests for
				// slugkit will wait on the registry.
				fe.reg.Hang("slugkit")
				signalled = true
				time.Sleep(1500 * time.Millisecond)
				_ = cmd.Process.Signal(syscall.SIGINT)
			}
		}
	}()
	<-done
	err = cmd.Wait()
	code := -1
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 2 {
		t.Fatalf("exit %d, want 2 (could not run)\n%s\n%s", code, stdout.String(), log.String())
	}
	out := stdout.String()
	// The install starts on check's first plan, so check may still run.
	if !strings.Contains(out, "interrupted during install") && !strings.Contains(out, "interrupted during check and the install") || !strings.Contains(out, "Clone   kept at ") || !strings.Contains(out, "(the run was interrupted)") {
		t.Errorf("report:\n%s", out)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
	if refs := git(t, dir, "for-each-ref", "refs/heads/uptide"); refs != "" {
		t.Errorf("an interrupted run created a branch: %s", refs)
	}
	i := strings.Index(out, "Clone   kept at ")
	kept := strings.Fields(out[i+len("Clone   kept at "):])[0]
	if !hasMarkerAbove(kept, fe.runs) {
		t.Errorf("the kept clone %s is in no marked run directory", kept)
	}
}

// hasMarkerAbove: dir or one of its parents below root is a marked run
// directory.
func hasMarkerAbove(dir, root string) bool {
	for d := dir; strings.HasPrefix(d, root) && d != root; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".uptide-run")); err == nil {
			return true
		}
	}
	return false
}

// react moves with its lockstep react-dom and both @types in one install
// and one commit, each declaration keeping its (exact) style.
func TestFixMovesTheGroupAndCompanions(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyFixture(t, "npm-group")
	npmInstall(t, fe.env, dir)
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAll(t, dir)
	before := checkoutDigest(t, dir)
	rep, r := runFix(t, fe, dir, "react", "--target", "react@19.1.0")
	if r.code != 1 || rep.Status != "failed" {
		t.Fatalf("exit %d %s (%s), want 1 failed: react 19 breaks sites no patch fixed\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	// One upgrade commit; the @types/react pack's rule edits (useRef(),
	// the global JSX namespace) follow as one commit of their own.
	want := []string{"upgrade react 18.3.1 → 19.1.0 (+ @types/react, @types/react-dom, react-dom)",
		"apply @types/react rules: 2 sites (react-global-jsx, react-useref-argument)"}
	if got := subjects(rep); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commits %q, want %q", got, want)
	}
	manifest := git(t, dir, "show", "uptide/react-19.1.0:package.json")
	for _, w := range []string{`"react": "19.1.0"`, `"react-dom": "19.1.0"`, `"@types/react": "19.1.2"`, `"@types/react-dom": "19.1.1"`, `"@aws-sdk/client-s3": "3.500.0"`} {
		if !strings.Contains(manifest, w) {
			t.Errorf("package.json on the branch lacks %s:\n%s", w, manifest)
		}
	}
	if len(rep.Sites) == 0 {
		t.Errorf("no site left, but nothing fixed react 19 (%s)", rep.Reason)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
}

// The install starts on check's first plan, while check goes on; a peer
// only check's compile finds (yarn 1 leaves @testing-library/react 16's new
// peer out) changes the plan, and the upgrade that lands is the final one:
// the peer added in the same install and commit, the types clean.
func TestFixInstallsCheckFinalPlan(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyFixture(t, "peers-app")
	// Its own TypeScript compiles the baseline sooner than the pinned one,
	// so the install usually starts before check ends.
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	manifest := strings.Replace(string(data), `"devDependencies": {`, `"devDependencies": {
    "typescript": "5.8.3",`, 1)
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	yarnClassic(t).install(t, fe.env, dir)
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAll(t, dir)
	before := checkoutDigest(t, dir)
	rep, r := runFix(t, fe, dir, "@testing-library/react", "--target", "@testing-library/react@16.3.0", "--verbose")
	t.Logf("installed again after check's first plan: %v\n%s", strings.Contains(r.stderr, "installing again"), r.stderr)
	want := "upgrade @testing-library/react 15.0.7 → 16.3.0 (+ @testing-library/dom)"
	if got := subjects(rep); len(got) != 1 || got[0] != want {
		t.Errorf("commits %q, want %q\n%s", got, want, r.stderr)
	}
	manifest = git(t, dir, "show", rep.Branch+":package.json")
	for _, w := range []string{`"@testing-library/react": "^16.3.0"`, `"@testing-library/dom": "^10`} {
		if !strings.Contains(manifest, w) {
			t.Errorf("package.json on %s lacks %s:\n%s", rep.Branch, w, manifest)
		}
	}
	if rep.Types.Status != "analyzed" || len(rep.Types.New) != 0 {
		t.Errorf("types %+v, want analyzed with no new error: the added peer is what fixes them\n%s", rep.Types, r.stderr)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
}

// The baseline compile reads the checkout only when the clone holds the
// same files. Here the checkout has an ignored declaration file a source
// needs, which a clone does not get: read from the checkout, the baseline
// would lack the clone's error and the run would call it new.
func TestFixBaselineSeesWhatTheCloneSees(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyDir(t, filepath.Join("../../fixtures/fix", "npm-app"))
	for name, content := range map[string]string{
		".gitignore":         "node_modules/\nsrc/generated.d.ts\n",
		"src/build.ts":       "export const buildId: string = BUILD_ID;\n",
		"src/generated.d.ts": "declare const BUILD_ID: string;\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	npmManager().install(t, fe.env, dir)
	commitAll(t, dir)
	if git(t, dir, "ls-files", "src/generated.d.ts") != "" {
		t.Fatal("the generated declarations were committed")
	}
	patches, _ := filepath.Abs("../../fixtures/fix/npm-app.patches.json")
	r := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--patches", patches, "--json", "--verbose")
	var rep fixReport
	decode(t, r, &rep)
	if r.code != 0 || rep.Status != "verified" || len(rep.Types.New) != 0 {
		t.Fatalf("exit %d status %s, new errors %+v; want 0 verified with none\n%s", r.code, rep.Status, rep.Types.New, r.stderr)
	}
	if rep.Types.Baseline != 2 {
		t.Errorf("baseline %d errors, want src/count.ts's own and the clone's missing BUILD_ID", rep.Types.Baseline)
	}
	if !strings.Contains(r.stderr, "the baseline compile waits for the clone: the ignored src/generated.d.ts is not in a clone") {
		t.Errorf("progress does not say why the baseline reads the clone:\n%s", r.stderr)
	}
	// --verbose stamps where the steps running side by side end, and
	// check's own phases, for the phase timings.
	for _, want := range []string{"fix: clone: cloned", "fix: check: usages", "fix: check: compile", "fix: check: checked",
		"fix: compile: compiled before the upgrade", "fix: install: installed", "fix: compile: compiled after the upgrade", "fix: publish: published"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("--verbose does not say %q:\n%s", want, r.stderr)
		}
	}
}

// The manager is checked beside check and the clone; a packageManager the
// binary on PATH is not, and that the registry cannot give either (the
// test registry has no npm 6), stops the run before any install, with the
// reason, and leaves no clone and no branch.
func TestFixStopsOnTheWrongManager(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyDir(t, filepath.Join("../../fixtures/fix", "npm-app"))
	npmManager().install(t, fe.env, dir)
	editManifest(t, dir, func(m map[string]any) { m["packageManager"] = "npm@6.14.18" })
	commitAll(t, dir)
	before := checkoutDigest(t, dir)
	rep, r := runFix(t, fe, dir, "slugkit", "--target", "slugkit@2.0.0")
	if r.code != 2 || rep.Status != "not-run" || !strings.Contains(rep.Reason, "npm@6.14.18") || !strings.Contains(rep.Reason, "from the registry, and that failed") {
		t.Fatalf("exit %d status %s reason %q, want 2 not-run naming packageManager's npm@6.14.18\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	if rep.Install != nil || len(rep.Commits) != 0 {
		t.Errorf("install %+v commits %+v, want none", rep.Install, rep.Commits)
	}
	if rep.Clone.Dir != "" {
		if _, err := os.Stat(rep.Clone.Dir); !os.IsNotExist(err) {
			t.Errorf("the clone %s is still there", rep.Clone.Dir)
		}
	}
	if branches := git(t, dir, "branch", "--list", "uptide/*"); branches != "" {
		t.Errorf("branches %q, want none", branches)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
}

// An error whose message names a path inside the repository (TS7016 names
// the untyped module's file) reads the same before the upgrade, compiled in
// the checkout, and after it, in the clone: it is not counted new.
func TestFixPathInAMessageIsNotNew(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyDir(t, filepath.Join("../../fixtures/fix", "npm-app"))
	editManifest(t, dir, func(m map[string]any) { m["dependencies"].(map[string]any)["kleur"] = "4.1.5" })
	if err := os.WriteFile(filepath.Join(dir, "src/color.ts"), []byte("import kleur from \"kleur\";\nexport const red = kleur;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	npmManager().install(t, fe.env, dir)
	commitAll(t, dir)
	patches, _ := filepath.Abs("../../fixtures/fix/npm-app.patches.json")
	rep, r := runFix(t, fe, dir, "slugkit", "--target", "slugkit@2.0.0", "--patches", patches)
	if r.code != 0 || rep.Status != "verified" || len(rep.Types.New) != 0 {
		t.Fatalf("exit %d status %s, new errors %+v; want 0 verified with none\n%s", r.code, rep.Status, rep.Types.New, r.stderr)
	}
	if rep.Types.Baseline != 2 {
		t.Errorf("baseline %d errors, want src/count.ts's and src/color.ts's untyped kleur", rep.Types.Baseline)
	}
}

// editManifest rewrites dir's package.json through edit.
func editManifest(t *testing.T, dir string, edit func(map[string]any)) {
	t.Helper()
	var manifest map[string]any
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	edit(manifest)
	data, _ = json.MarshalIndent(manifest, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "package.json"), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A checkout reached through a symlink (--cwd names the link) is the same
// checkout: the clone, the compile and the commits find its files.
func TestFixThroughASymlinkedPath(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	link := filepath.Join(t.TempDir(), "app-link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	before := checkoutDigest(t, dir)
	patches, _ := filepath.Abs("../../fixtures/fix/npm-app.patches.json")
	rep, r := runFix(t, fe, link, "slugkit", "--target", "slugkit@2.0.0", "--patches", patches)
	if r.code != 0 || rep.Status != "verified" {
		t.Fatalf("exit %d status %s (%s), want 0 verified\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	if got := subjects(rep); len(got) != 3 {
		t.Errorf("commits %q, want the upgrade and two patches", got)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
}

// One fix run starts the repository's compiler once: check's driver also
// runs the compiles before and after the upgrade, so no tsc process starts
// and no second driver loads the same compiler (the pinned one extracts
// the surfaces, a cache miss in this fresh environment).
func TestFixLoadsTheCompilerOnce(t *testing.T) {
	fe := newFixEnv(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal(err)
	}
	// npm installs typescript in place, pnpm links it into .pnpm.
	for _, c := range []struct{ fixture, manager, patches string }{
		{"npm-app", "npm", "npm-app.patches.json"},
		{"pnpm-catalog", "pnpm", "pnpm-catalog.patches.json"},
	} {
		t.Run(c.manager, func(t *testing.T) {
			dir := fixRepo(t, fe, c.fixture, c.manager)
			bin, log := t.TempDir(), filepath.Join(t.TempDir(), "node.log")
			wrapper := fmt.Sprintf("#!/bin/sh\necho \"$*\" >> %s\nexec %s \"$@\"\n", strconv.Quote(log), strconv.Quote(node))
			if err := os.WriteFile(filepath.Join(bin, "node"), []byte(wrapper), 0o755); err != nil {
				t.Fatal(err)
			}
			logged := fe
			logged.extra = nil
			for _, kv := range fe.extra {
				if p, ok := strings.CutPrefix(kv, "PATH="); ok {
					kv = "PATH=" + bin + string(os.PathListSeparator) + p
				}
				logged.extra = append(logged.extra, kv)
			}
			patches, _ := filepath.Abs(filepath.Join("../../fixtures/fix", c.patches))
			rep, r := runFix(t, logged, dir, "slugkit", "--target", "slugkit@2.0.0", "--patches", patches)
			if r.code != 0 || rep.Status != "verified" || rep.Types.Status != "analyzed" {
				t.Fatalf("exit %d status %s, types %+v; want 0 verified\n%s", r.code, rep.Status, rep.Types, r.stderr)
			}
			data, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			var drivers, tscs []string
			for _, line := range strings.Split(string(data), "\n") {
				switch {
				// The driver loads its copy of the repository's 5.8.3, kept in
				// the cache under the compiler's digest.
				case strings.Contains(line, "main.js") && strings.Contains(line, "local-typescript@5.8.3-"):
					drivers = append(drivers, line)
				case strings.Contains(line, "tsc.js"):
					tscs = append(tscs, line)
				}
			}
			if len(drivers) != 1 || len(tscs) != 0 {
				t.Errorf("want one driver of the repository's compiler and no tsc process, got drivers %q and tsc %q", drivers, tscs)
			}
		})
	}
}

// The repository's linter (biome, configured and installed) reads the
// edited files before and after the edits: a patch that brings a lint
// failure the file did not have fails verification, one that does not
// verifies, whatever failures the file already had (title.ts's debugger).
func TestFixLintsTheEdits(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("the biome test pins the linux-x64 binary; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	fe := newFixEnv(t)
	biome := filepath.Join(pinnedTool(t, "@biomejs/cli-linux-x64", "1.9.4"), "biome")
	if err := os.Chmod(biome, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../../fixtures/fix/npm-app.patches.json")
	if err != nil {
		t.Fatal(err)
	}
	clean := filepath.Join(t.TempDir(), "clean.json")
	debugged := filepath.Join(t.TempDir(), "debugger.json")
	withDebugger := strings.Replace(string(data), `@@ -1,5 +1,3 @@`, `@@ -1,5 +1,4 @@`, 1)
	withDebugger = strings.Replace(withDebugger, `+  return title.slice(0, 20);\n`, `+  debugger;\n+  return title.slice(0, 20);\n`, 1)
	if withDebugger == string(data) {
		t.Fatal("the fixture's short.ts patch changed: the debugger line was not added")
	}
	for file, body := range map[string]string{clean: string(data), debugged: withDebugger} {
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, patches, status string
		failing               bool
	}{
		{"a clean patch verifies", clean, "verified", false},
		{"a new lint failure fails", debugged, "failed", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyDir(t, filepath.Join("../../fixtures/fix", "npm-app"))
			config := `{"formatter": {"indentStyle": "space"}, "linter": {"rules": {"recommended": true}}}` + "\n"
			if err := os.WriteFile(filepath.Join(dir, "biome.json"), []byte(config), 0o644); err != nil {
				t.Fatal(err)
			}
			title, err := os.OpenFile(filepath.Join(dir, "src", "title.ts"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := title.WriteString("\nexport function legacy(): void {\n  debugger;\n}\n"); err != nil {
				t.Fatal(err)
			}
			title.Close()
			npmManager().install(t, fe.env, dir)
			if err := os.Symlink(biome, filepath.Join(dir, "node_modules", ".bin", "biome")); err != nil {
				t.Fatal(err)
			}
			commitAll(t, dir)
			var rep struct {
				fixReport
				Style struct {
					Linter      string              `json:"linter"`
					NewFailures map[string][]string `json:"newFailures"`
				} `json:"style"`
			}
			r := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--patches", c.patches, "--json")
			decode(t, r, &rep)
			if rep.Status != c.status || rep.Style.Linter != "biome" {
				t.Fatalf("status %s (%s), linter %q; want %s by biome\n%s", rep.Status, rep.Reason, rep.Style.Linter, c.status, r.stderr)
			}
			msgs, failing := rep.Style.NewFailures["src/short.ts"]
			if failing != c.failing || len(rep.Style.NewFailures) > 1 {
				t.Errorf("new lint failures %v, want src/short.ts failing: %v", rep.Style.NewFailures, c.failing)
			}
			if c.failing && !strings.Contains(strings.Join(msgs, "\n"), "debugger") {
				t.Errorf("src/short.ts's new failure %q should name the debugger statement", msgs)
			}
		})
	}
}
