package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// Hostile or broken input in the user's repository (issue 24): what the
// binary says, and that it never passes an analysis it could not run for a
// clean one.

// A tsconfig the compiler cannot load leaves the compile unable to stand
// for the repository's build: exit 2, the file named with what is wrong
// and what to do. tsc goes on past an extends cycle (TS18000) without the
// options of the files in it, so that one is no program of the
// repository's either.
func TestCheckBrokenTsconfig(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-app")
	npmInstall(t, e, dir)
	original, err := os.ReadFile(filepath.Join(dir, "tsconfig.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"invalid JSON", map[string]string{"tsconfig.json": "{ \"compilerOptions\": { \"strict\": true,\n"},
			"invalid tsconfig tsconfig.json:2: '}' expected: fix it and run again"},
		{"a missing extends target", map[string]string{"tsconfig.json": strings.Replace(string(original), "{", `{"extends": "./base.json",`, 1)},
			"invalid tsconfig tsconfig.json: Cannot read file 'base.json': fix it and run again"},
		{"an extends cycle", map[string]string{
			"tsconfig.json": strings.Replace(string(original), "{", `{"extends": "./base.json",`, 1),
			"base.json":     `{"extends": "./tsconfig.json"}`,
		}, "invalid tsconfig tsconfig.json: Circularity detected while resolving configuration: tsconfig.json -> base.json -> tsconfig.json: fix it and run again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(filepath.Join(dir, "base.json"))
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := run(t, e, dir, "check", "zod", "--json")
			if r.code != 2 {
				t.Errorf("exit %d, want 2 (the compile could not run)\nstderr: %s\n%s", r.code, r.stderr, r.stdout)
			}
			var rep model.CheckReport
			decode(t, r, &rep)
			p := packageReport(t, rep, "zod")
			if p.Status != model.StatusPartial || p.Compile.Status != model.StatusNotAnalyzed || !strings.Contains(p.Compile.Reason, tc.want) {
				t.Errorf("status %q, compile %q %q; want partial, not analyzed, saying %q", p.Status, p.Compile.Status, p.Compile.Reason, tc.want)
			}
			text := run(t, e, dir, "check", "zod")
			if text.code != 2 || !strings.Contains(text.stdout, tc.want) {
				t.Errorf("text: exit %d, want 2 and %q in\n%s", text.code, tc.want, text.stdout)
			}
		})
	}
}

// A workspace whose package.json is a directory is reported, and its name,
// which another workspace depends on, is never asked of the registry (the
// test registry would answer 404, a package not checked).
func TestListUnreadableWorkspace(t *testing.T) {
	e := newEnv(t, startRegistry(t))
	dir := copyRepo(t, "npm-v3")
	manifest := filepath.Join(dir, "packages", "api", "package.json")
	if err := os.Remove(manifest); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(manifest, 0o755); err != nil {
		t.Fatal(err)
	}
	r := run(t, e, dir, "list", "--json")
	if r.code != 2 {
		t.Errorf("exit %d, want 2 (a workspace was left out)\nstderr: %s", r.code, r.stderr)
	}
	var rep model.DiscoverReport
	decode(t, r, &rep)
	if len(rep.Problems) != 1 || rep.Problems[0].File != "packages/api/package.json" ||
		!strings.HasPrefix(rep.Problems[0].Message, "unreadable workspace: package.json is a directory") {
		t.Errorf("problems %+v, want one unreadable workspace naming packages/api/package.json", rep.Problems)
	}
	for _, nc := range rep.NotChecked {
		if nc.Name == "@acme/api" {
			t.Errorf("the unreadable workspace's name was asked of the registry: %+v", nc)
		}
	}
	for _, row := range rep.Rows {
		if row.Name == "@acme/api" {
			t.Errorf("the unreadable workspace's name is a dependency row: %+v", row)
		}
	}
	skipped := false
	for _, s := range rep.Skipped {
		skipped = skipped || s.Name == "@acme/api" && s.Workspace == "packages/web" && s.Reason == "local package: linked to packages/api"
	}
	if !skipped {
		t.Errorf("@acme/api is not skipped as the local package npm links: %+v", rep.Skipped)
	}
	text := run(t, e, dir, "list")
	if !strings.Contains(text.stdout, "packages/api/package.json") || !strings.Contains(text.stdout, "unreadable workspace") {
		t.Errorf("the text output does not name the unreadable workspace:\n%s", text.stdout)
	}
}

// Random bytes in place of a lockfile are no lockfile, named with the line
// of the first byte no package manager writes, never "truncated".
func TestListRandomBytesLockfile(t *testing.T) {
	e := newEnv(t, startRegistry(t))
	for _, tc := range []struct{ repo, lockfile, want string }{
		{"pnpm-v9", "pnpm-lock.yaml", "not a pnpm lockfile"},
		{"yarn-classic", "yarn.lock", "not a yarn lockfile"},
	} {
		t.Run(tc.repo, func(t *testing.T) {
			dir := copyRepo(t, tc.repo)
			// Two lines of text, then bytes no lockfile holds, ending mid-line.
			junk := []byte("lockfileVersion: '9.0'\n\n\x8f\x02\xd1\x00\x9a\x7fq")
			if err := os.WriteFile(filepath.Join(dir, tc.lockfile), junk, 0o644); err != nil {
				t.Fatal(err)
			}
			r := run(t, e, dir, "list", "--json")
			if r.code != 2 {
				t.Errorf("exit %d, want 2 (the lockfile could not be read)\nstderr: %s", r.code, r.stderr)
			}
			var rep model.DiscoverReport
			decode(t, r, &rep)
			found := false
			for _, p := range rep.Problems {
				if filepath.Base(p.File) == tc.lockfile && p.Line == 3 && strings.Contains(p.Message, tc.want) {
					found = true
				}
				if strings.Contains(p.Message, "truncated") {
					t.Errorf("random bytes reported as a truncated lockfile: %+v", p)
				}
			}
			if !found {
				t.Errorf("no problem %q at %s:3 in %+v", tc.want, tc.lockfile, rep.Problems)
			}
			// The header says the lockfile is there and unreadable, not absent.
			text := run(t, e, dir, "list")
			if first, _, _ := strings.Cut(text.stdout, "\n"); !strings.Contains(first, tc.lockfile+" unreadable") {
				t.Errorf("header %q, want it to say %s is unreadable", first, tc.lockfile)
			}
		})
	}
}
