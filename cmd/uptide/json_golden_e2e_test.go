package main

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The --json envelopes are a contract users' CI parses: a refactor keeps
// them byte-identical. TestJSONGolden runs every command that prints one on
// the fixtures and compares stdout, byte for byte, with
// testdata/json-golden/<case>.json once the values that belong to the run
// (temporary paths, the registry's port, timings) are replaced by
// placeholders. `go test ./cmd/uptide -run TestJSONGolden -update` rewrites
// the goldens: only for a deliberate, versioned change of the contract.

// goldenCase is one command on one prepared directory.
type goldenCase struct {
	name string
	args []string
	// dir prepares the directory the command runs in.
	dir func(t *testing.T) string
}

func TestJSONGolden(t *testing.T) {
	skipShort(t, "the goldens install, compile and fix")
	fe := newFixEnv(t)
	checkApp := func(name string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := copyFixture(t, name)
			npmInstall(t, fe.env, dir)
			return dir
		}
	}
	repo := func(name string) func(t *testing.T) string {
		return func(t *testing.T) string { return copyRepo(t, name) }
	}
	cases := []goldenCase{
		{"list-npm-v3", []string{"list", "--json"}, repo("npm-v3")},
		{"list-pnpm-v9", []string{"list", "--json"}, repo("pnpm-v9")},
		{"list-yarn-classic", []string{"list", "--json"}, repo("yarn-classic")},
		{"list-companions", []string{"list", "--json"}, checkApp("npm-companions")},
		{"diff-slugkit", []string{"diff", "slugkit", "1.0.0", "2.0.0", "--json"}, func(t *testing.T) string { return t.TempDir() }},
		{"diff-error", []string{"diff", "no-such-package-uptide", "1.0.0", "2.0.0", "--json"}, func(t *testing.T) string { return t.TempDir() }},
		{"check-npm-app", []string{"check", "zod", "slugkit", "express", "--json"}, checkApp("npm-app")},
		{"check-no-compile", []string{"check", "zod", "--no-compile", "--json"}, checkApp("npm-app")},
		{"check-companions", []string{"check", "react", "--json"}, checkApp("npm-companions")},
		{"check-error", []string{"check", "no-such-package-uptide", "--json"}, checkApp("npm-app")},
		{"plan-plan-app", []string{"plan", "--json"}, checkApp("plan-app")},
		{"plan-check", []string{"plan", "--check", "--json"}, checkApp("plan-app")},
		{"pr-body-no-run", []string{"pr-body", "--json"}, func(t *testing.T) string {
			dir := copyRepo(t, "npm-v3")
			commitAll(t, dir)
			return dir
		}},
		{"fix-npm-app", []string{"fix", "slugkit", "--target", "slugkit@2.0.0", "--patches", "$PATCHES", "--json"}, func(t *testing.T) string {
			return fixRepo(t, fe, "npm-app", "npm")
		}},
		{"verify-broken", []string{"verify", "broken", "--json"}, func(t *testing.T) string {
			dir := fixRepo(t, fe, "npm-app", "npm")
			brokenBranch(t, dir, "broken")
			return dir
		}},
	}
	patches, _ := filepath.Abs("../../fixtures/fix/npm-app.patches.json")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir(t)
			args := append([]string(nil), c.args...)
			for i, a := range args {
				if a == "$PATCHES" {
					args[i] = patches
				}
			}
			r := run(t, fe.env, dir, args...)
			decode(t, r, nil)
			got := normalizeRun(t, r.stdout, fe, dir)
			path := filepath.Join("testdata", "json-golden", c.name+".json")
			if *updateExpected {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v: go test ./cmd/uptide -run TestJSONGolden -update writes it", err)
			}
			if got != string(want) {
				t.Errorf("uptide %s: the --json envelope changed (a contract change must be deliberate and versioned; -update rewrites the golden):\n%s",
					strings.Join(c.args, " "), diffLines(string(want), got))
			}
		})
	}
}

// volatile are the values of a run that no refactor decides: commit
// hashes (their dates), the stored run's directory, the test runner's
// timings, and which npm binary this machine has.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"sha": "[0-9a-f]{40}"`), `"sha": "$SHA"`},
	{regexp.MustCompile(`"base": "[0-9a-f]{40}"`), `"base": "$SHA"`},
	{regexp.MustCompile(`run-\d{8}-\d{6}-[0-9a-f]+`), `run-$ID`},
	{regexp.MustCompile(`duration_ms:? [0-9.]+`), `duration_ms $MS`},
	{regexp.MustCompile(`"binary": "[^"]*"`), `"binary": "$BINARY"`},
	{regexp.MustCompile(`"version": "v\d+\.\d+\.\d+"`), `"version": "$NODE_VERSION"`},
}

// normalizeRun replaces what belongs to this run by placeholders.
func normalizeRun(t *testing.T, out string, fe fixEnv, dir string) string {
	u, err := url.Parse(fe.registry)
	if err != nil {
		t.Fatal(err)
	}
	pairs := []struct{ from, to string }{
		{dir, "$REPO"},
		{fe.registry, "$REGISTRY"},
		{u.Host, "$REGISTRY_HOST"},
		{fe.runs, "$TMP"},
		{fe.home, "$HOME"},
		{fe.cache, "$CACHE"},
		{os.TempDir(), "$TMP"},
	}
	if v, err := exec.Command("npm", "--version").Output(); err == nil {
		pairs = append(pairs, struct{ from, to string }{`"version": "` + strings.TrimSpace(string(v)) + `"`, `"version": "$NPM_VERSION"`})
	}
	for _, p := range pairs {
		if p.from != "" {
			out = strings.ReplaceAll(out, p.from, p.to)
		}
	}
	for _, v := range volatile {
		out = v.re.ReplaceAllLiteralString(out, v.with)
	}
	return out
}
