package main

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The fix runner's install end to end, on what real repositories brought:
// a target that does not exist, a lockfile the manager normalises on its
// own, a manager binary that is missing or of another version.

// An unknown --target stops fix before anything is cloned: exit 2, the
// package, the version asked and the newest releases named, no clone, no
// run filed under another version, no branch.
func TestFixUnknownTargetStopsBeforeTheClone(t *testing.T) {
	fe := newFixEnv(t)
	dir := fixRepo(t, fe, "npm-app", "npm")
	before := checkoutDigest(t, dir)
	rep, r := runFix(t, fe, dir, "slugkit", "--target", "slugkit@99")
	if r.code != 2 || rep.Status != "not-run" {
		t.Fatalf("exit %d status %s (%s), want 2 not-run\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	for _, want := range []string{"slugkit@99", "2.0.0, 1.0.0", "nothing was cloned"} {
		if !strings.Contains(rep.Reason, want) {
			t.Errorf("reason %q does not name %q", rep.Reason, want)
		}
	}
	if rep.Clone.Dir != "" || rep.Branch != "" || rep.Checkout.RunFile != "" {
		t.Errorf("clone %q, branch %q, run file %q: want none", rep.Clone.Dir, rep.Branch, rep.Checkout.RunFile)
	}
	if strings.Contains(r.stderr, "fix: clone:") || strings.Contains(r.stderr, "fix: install:") {
		t.Errorf("the run cloned or installed:\n%s", r.stderr)
	}
	if runs, _ := filepath.Glob(filepath.Join(fe.runs, "uptide-runs", "*")); len(runs) > 0 {
		t.Errorf("run directories %q, want none", runs)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "uptide")); !os.IsNotExist(err) {
		t.Errorf("a run was stored in .git/uptide (%v)", err)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
	// The text report says the same, on one line.
	text := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@99")
	if text.code != 2 || !strings.Contains(text.stdout, "✗ not run  slugkit\n") || !strings.Contains(text.stdout, "the newest releases are 2.0.0, 1.0.0 (latest 2.0.0)") {
		t.Errorf("text report, exit %d:\n%s", text.code, text.stdout)
	}
	// A registry that does not answer says nothing of the target: the run
	// stops before the clone without telling the user to name another.
	fe.reg.Fail("hook-installer", http.StatusServiceUnavailable)
	rep, r = runFix(t, fe, dir, "hook-installer", "--target", "hook-installer@1.0.0", "--verbose")
	if r.code != 2 || rep.Status != "not-run" || !strings.Contains(rep.Reason, "hook-installer@1.0.0") || !strings.Contains(rep.Reason, "nothing was cloned") ||
		strings.Contains(rep.Reason, "name one that exists") || rep.Clone.Dir != "" {
		t.Errorf("registry down: exit %d status %s reason %q clone %q; want 2 not-run before the clone, without calling hook-installer 1.0.0 unknown", r.code, rep.Status, rep.Reason, rep.Clone.Dir)
	}
	// The baseline compile, which reads only the checkout, does not wait
	// for the registry: on a real repository the driver it runs in is
	// what check waits for, and the target took seconds to resolve.
	if !strings.Contains(r.stderr, "fix: compile: type-checking (root) before the upgrade") || strings.Contains(r.stderr, "fix: clone:") {
		t.Errorf("registry down: the baseline compile waited for the target, or the run cloned:\n%s", r.stderr)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
}

// What npm rewrites on any install of the untouched checkout is npm's, not
// the upgrade's: the run commits it on its own, before the upgrade, says
// so, and verifies. Two real shapes: npm 11 records the optional peer a
// nested dedent wants (babel-plugin-macros 3, with its cosmiconfig) as
// extraneous when it first resolves, and prunes it on the next install;
// and a manifest range edited without an install (is-number ^6 → ^7).
func TestFixCommitsTheManagersOwnRewrite(t *testing.T) {
	fe := newFixEnv(t)
	for _, c := range []struct {
		name      string
		installed func(map[string]any) // before the install
		committed func(map[string]any) // after it, before the commit
		own       []string
		absent    []string // in the lockfile the upgrade commits
	}{
		{"npm's extraneous optional peers", func(m map[string]any) {
			m["dependencies"].(map[string]any)["jest-circus"] = "29.7.0"
			m["devDependencies"].(map[string]any)["babel-plugin-macros"] = "^2.8.0"
		}, nil, []string{"babel-plugin-macros 3.1.0 removed", "cosmiconfig 7.1.0 removed"},
			[]string{"node_modules/jest-circus/node_modules/babel-plugin-macros"}},
		{"a range edited without an install", func(m map[string]any) {
			m["dependencies"].(map[string]any)["is-number"] = "^6.0.0"
		}, func(m map[string]any) {
			m["dependencies"].(map[string]any)["is-number"] = "^7.0.0"
		}, []string{"importer .: is-number dependencies ^6.0.0 → dependencies ^7.0.0", "is-number 6.0.0 → 7.0.0"},
			[]string{"is-number-6.0.0.tgz"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyDir(t, filepath.Join("../../fixtures/fix", "npm-app"))
			editManifest(t, dir, c.installed)
			npmManager().install(t, fe.env, dir)
			if c.committed != nil {
				editManifest(t, dir, c.committed)
			}
			commitAll(t, dir)
			before := checkoutDigest(t, dir)
			patches, _ := filepath.Abs("../../fixtures/fix/npm-app.patches.json")
			var rep struct {
				fixReport
				Install struct {
					Manager    string   `json:"manager"`
					Version    string   `json:"version"`
					Normalized []string `json:"normalized"`
				} `json:"install"`
			}
			r := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--patches", patches, "--json")
			decode(t, r, &rep)
			if r.code != 0 || rep.Status != "verified" {
				t.Fatalf("exit %d status %s (%s), want 0 verified\n%s", r.code, rep.Status, rep.Reason, r.stderr)
			}
			if strings.Join(rep.Install.Normalized, "; ") != strings.Join(c.own, "; ") {
				t.Errorf("normalized %q, want %q", rep.Install.Normalized, c.own)
			}
			want := []string{"npm " + rep.Install.Version + " rewrites package-lock.json on its own: " + strings.Join(c.own, "; "),
				"upgrade slugkit 1.0.0 → 2.0.0", "fix src/title.ts:4 (slugify's options gain a required locale)", "fix src/short.ts:1 (truncate removed)"}
			if got := subjects(rep.fixReport); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("commits %q, want %q", got, want)
			}
			// The manager's commit holds only the lockfile; the upgrade's
			// lockfile diff holds none of the manager's own rewrite.
			own, upgrade := rep.Commits[0].Sha, rep.Commits[1].Sha
			if files := git(t, dir, "show", "--format=", "--name-only", own); files != "package-lock.json" {
				t.Errorf("the manager's own commit changes %q, want package-lock.json alone", files)
			}
			diff := git(t, dir, "show", "--format=", upgrade, "--", "package-lock.json")
			for _, a := range c.absent {
				if strings.Contains(diff, a) {
					t.Errorf("the upgrade commit's lockfile diff names %s:\n%s", a, diff)
				}
			}
			if after := checkoutDigest(t, dir); after != before {
				t.Errorf("the checkout changed:\n%s", diffLines(before, after))
			}
			assertNoTrap(t, fe, dir)
			// The text report says it beside the install.
			text := run(t, fe.env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--patches", patches)
			if line := "npm rewrites package-lock.json on its own, without the upgrade (committed before it): " + strings.Join(c.own, "; "); !strings.Contains(text.stdout, line) {
				t.Errorf("text report lacks %q:\n%s", line, text.stdout)
			}
		})
	}
}

// npm hoisting what the upgrade brings lets the nested copies of the same
// install go (express 5 moves debug 4 to the root, so the debug 4 nested
// under @babel/core is removed): their dependents resolve the very same
// install, which is no change outside the moved packages.
func TestFixHoistedCopyIsNoChangeOutside(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyDir(t, filepath.Join("../../fixtures/fix", "npm-app"))
	editManifest(t, dir, func(m map[string]any) {
		deps := m["dependencies"].(map[string]any)
		deps["serve-kit"], deps["transpile-kit"] = "^4.0.0", "7.0.0"
	})
	npmManager().install(t, fe.env, dir)
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil || !strings.Contains(string(lock), `"node_modules/transpile-kit/node_modules/debug"`) {
		t.Fatalf("npm did not nest debug 4 under transpile-kit (%v):\n%s", err, lock)
	}
	commitAll(t, dir)
	rep, r := runFix(t, fe, dir, "serve-kit", "--target", "serve-kit@5.0.0")
	if r.code != 0 || rep.Status != "verified" {
		t.Fatalf("exit %d status %s (%s), want 0 verified\n%s", r.code, rep.Status, rep.Reason, r.stderr)
	}
	after := git(t, dir, "show", rep.Branch+":package-lock.json")
	if strings.Contains(after, `"node_modules/transpile-kit/node_modules/debug"`) || !strings.Contains(after, "debug-4.4.3.tgz") {
		t.Errorf("the branch's lockfile should hold debug 4.4.3 at the root alone:\n%s", after)
	}
}

// A packageManager hash the registry's tarball does not have (another
// release under the same version) stops the run before any install, as
// corepack would.
func TestFixRefusesAManagerWhoseHashDiffers(t *testing.T) {
	fe := newFixEnv(t)
	if err := fe.reg.AddDir(pinnedTool(t, "pnpm", "9.15.9")); err != nil {
		t.Fatal(err)
	}
	dir := copyDir(t, filepath.Join("../../fixtures/fix", "pnpm-catalog"))
	manager2(fe, "pnpm").run(t, fe.env, dir, "install", "--no-frozen-lockfile")
	other := strings.Repeat("ab", 64)
	editManifest(t, dir, func(m map[string]any) { m["packageManager"] = "pnpm@9.15.9+sha512." + other })
	commitAll(t, dir)
	rep, r := runFix(t, withPath(fe, pathWithout(t, "pnpm", "pnpx")), dir, "slugkit", "--target", "slugkit@2.0.0")
	if r.code != 2 || rep.Status != "not-run" || !strings.Contains(rep.Reason, "not packageManager's "+other) || rep.Install != nil {
		t.Fatalf("exit %d status %s (%s), install %+v: want 2 not-run on the hash, before any install", r.code, rep.Status, rep.Reason, rep.Install)
	}
}

// tarballSHA512 is the hex sha512 of name@version's tarball on fe's
// registry, read from its integrity.
func tarballSHA512(t *testing.T, fe fixEnv, name, version string) string {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(fe.reg.URL(), "/") + "/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc struct {
		Versions map[string]struct {
			Dist struct {
				Integrity string `json:"integrity"`
			} `json:"dist"`
		} `json:"versions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	sum, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(doc.Versions[version].Dist.Integrity, "sha512-"))
	if err != nil || len(sum) != 64 {
		t.Fatalf("%s@%s integrity %q: %v", name, version, doc.Versions[version].Dist.Integrity, err)
	}
	return hex.EncodeToString(sum)
}

// withPath is fe with PATH set to path (its other variables kept).
func withPath(fe fixEnv, path string) fixEnv {
	out := fe
	out.extra = nil
	for _, kv := range fe.extra {
		if strings.HasPrefix(kv, "PATH=") {
			kv = "PATH=" + path
		}
		out.extra = append(out.extra, kv)
	}
	return out
}

// pathWithout is this process's PATH with none of the programs names: a
// directory holding one of them is replaced by a private one linking all
// its other entries.
func pathWithout(t *testing.T, names ...string) string {
	t.Helper()
	var dirs []string
	for i, dir := range filepath.SplitList(os.Getenv("PATH")) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		has := false
		for _, e := range entries {
			has = has || slices.Contains(names, e.Name())
		}
		if !has {
			dirs = append(dirs, dir)
			continue
		}
		private := filepath.Join(t.TempDir(), fmt.Sprintf("path-%d", i))
		if err := os.MkdirAll(private, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !slices.Contains(names, e.Name()) {
				if err := os.Symlink(filepath.Join(dir, e.Name()), filepath.Join(private, e.Name())); err != nil {
					t.Fatal(err)
				}
			}
		}
		dirs = append(dirs, private)
	}
	return strings.Join(dirs, string(os.PathListSeparator))
}

// installReport is fix --json with the install's binary.
type installReport struct {
	fixReport
	Install *struct {
		Manager   string `json:"manager"`
		Version   string `json:"version"`
		Binary    string `json:"binary"`
		BinaryWhy string `json:"binaryWhy"`
	} `json:"install"`
}

// A manager the PATH lacks, or has at another version than packageManager
// names, runs from the registry's package of it (here the test registry's
// copy of the pinned release), at the version packageManager names, else
// at the newest of the line that writes the lockfile; the report says
// which binary ran and why. The upgrade verifies as with the manager on
// PATH.
func TestFixRunsTheManagerFromTheRegistry(t *testing.T) {
	fe := newFixEnv(t)
	for _, tool := range []string{"pnpm@9.15.9", "yarn@1.22.22"} {
		name, version, _ := strings.Cut(tool, "@")
		if err := fe.reg.AddDir(pinnedTool(t, name, version)); err != nil {
			t.Fatal(err)
		}
	}
	// A yarn 1 release other than the one yarn-app's packageManager names.
	other := t.TempDir()
	body := fmt.Sprintf("#!/bin/sh\nexec node %q \"$@\"\n", filepath.Join(pinnedTool(t, "yarn", "1.22.19"), "bin", "yarn.js"))
	if err := os.WriteFile(filepath.Join(other, "yarn"), []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	bare := pathWithout(t, "pnpm", "yarn", "yarnpkg", "pnpx")
	// corepack's hash of the pinned release is its tarball's: the test
	// registry's, here.
	pinnedHash := "sha512." + tarballSHA512(t, fe, "pnpm", "9.15.9")
	for _, c := range []struct {
		name, fixture, manager, patches, path string
		edit                                  func(map[string]any)
		version, binary, why                  string
	}{
		{"no pnpm on PATH, packageManager names 9.15.9 and its hash", "pnpm-catalog", "pnpm", "pnpm-catalog.patches.json", bare,
			func(m map[string]any) { m["packageManager"] = "pnpm@9.15.9+" + pinnedHash },
			"9.15.9", "pnpm@9.15.9/bin/pnpm.cjs", "no pnpm on PATH: pnpm 9.15.9 (as packageManager names) from the registry"},
		{"no yarn on PATH, no packageManager", "yarn-app", "yarn", "npm-app.patches.json", bare,
			func(m map[string]any) {
				delete(m, "packageManager")
				// The tests call the manager by name: the run puts the
				// registry's on their PATH too.
				scripts := m["scripts"].(map[string]any)
				scripts["test"], scripts["unit"] = "yarn run unit", "node --test"
			},
			"1.22.22", "yarn@1.22.22/bin/yarn.js", "no yarn on PATH: yarn 1.22.22 (the newest release of the line that writes yarn.lock) from the registry"},
		{"yarn 1.22.19 on PATH, packageManager names 1.22.22", "yarn-app", "yarn", "npm-app.patches.json", other + string(os.PathListSeparator) + bare, nil,
			"1.22.22", "yarn@1.22.22/bin/yarn.js", "packageManager names yarn@1.22.22, the yarn on PATH (" + filepath.Join(other, "yarn") + ") is 1.22.19"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyDir(t, filepath.Join("../../fixtures/fix", c.fixture))
			if c.edit != nil {
				editManifest(t, dir, c.edit)
			}
			switch c.manager {
			case "yarn":
				yarnClassic(t).install(t, fe.env, dir)
			case "pnpm":
				manager2(fe, "pnpm").run(t, fe.env, dir, "install", "--no-frozen-lockfile")
			}
			commitAll(t, dir)
			before := checkoutDigest(t, dir)
			patches, _ := filepath.Abs(filepath.Join("../../fixtures/fix", c.patches))
			var rep installReport
			r := run(t, withPath(fe, c.path).env, dir, "fix", "slugkit", "--target", "slugkit@2.0.0", "--patches", patches, "--json")
			decode(t, r, &rep)
			if r.code != 0 || rep.Status != "verified" {
				t.Fatalf("exit %d status %s (%s), want 0 verified\n%s", r.code, rep.Status, rep.Reason, r.stderr)
			}
			in := rep.Install
			if in == nil || in.Manager != c.manager || in.Version != c.version || !strings.HasSuffix(filepath.ToSlash(in.Binary), "/managers/"+c.binary) ||
				!strings.HasPrefix(in.BinaryWhy, c.why) {
				t.Errorf("install %+v, want %s %s run from the tool cache's %s because %q", in, c.manager, c.version, c.binary, c.why)
			}
			if c.manager == "yarn" && (len(rep.Tests.Results) == 0 || rep.Tests.Results[0].Status != "passed") {
				t.Errorf("tests %+v, want the test script passed", rep.Tests.Results)
			}
			if after := checkoutDigest(t, dir); after != before {
				t.Errorf("the checkout changed:\n%s", diffLines(before, after))
			}
			assertNoTrap(t, fe, dir)
		})
	}
}
