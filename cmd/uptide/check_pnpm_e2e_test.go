package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
)

// pnpm does not come with Node, and fetching it would need the real
// registry, so the pnpm check fixture is installed by pnpmLayout: the
// layout pnpm 9 makes (isolated linker, the .pnpm virtual store of
// symlinks, shamefully-hoist from the fixture's .npmrc) built from the
// lockfile pnpm wrote, with every package fetched from the test registry by
// Uptide's own registry client and checked against the lockfile's
// integrity.

var updateExpected = flag.Bool("update", false, "rewrite the expected findings of the check end-to-end tests")

// pnpmLock is the part of a pnpm v9 lockfile the layout needs.
type pnpmLock struct {
	LockfileVersion string `yaml:"lockfileVersion"`
	Importers       map[string]struct {
		Dependencies         map[string]pnpmDep `yaml:"dependencies"`
		DevDependencies      map[string]pnpmDep `yaml:"devDependencies"`
		OptionalDependencies map[string]pnpmDep `yaml:"optionalDependencies"`
	} `yaml:"importers"`
	Packages map[string]struct {
		Resolution struct {
			Integrity string `yaml:"integrity"`
		} `yaml:"resolution"`
	} `yaml:"packages"`
	Snapshots map[string]struct {
		Dependencies         map[string]string `yaml:"dependencies"`
		OptionalDependencies map[string]string `yaml:"optionalDependencies"`
	} `yaml:"snapshots"`
}

type pnpmDep struct {
	Specifier string `yaml:"specifier"`
	Version   string `yaml:"version"`
}

// splitKey splits "@s/p@1.0.0(peer@2)" into its name and its version
// with the peer suffix.
func splitKey(key string) (name, version string) {
	at := strings.LastIndex(strings.SplitN(key, "(", 2)[0], "@")
	if at <= 0 {
		return key, ""
	}
	return key[:at], key[at+1:]
}

// storeDir is the .pnpm directory of a snapshot key, as pnpm names it.
func storeDir(key string) string {
	r := strings.NewReplacer("/", "+", "(", "_", ")", "", ":", "+")
	return strings.TrimSuffix(r.Replace(key), "_")
}

// pnpmLayout installs dir the way `pnpm install --frozen-lockfile
// --ignore-scripts` would, from its pnpm-lock.yaml and the test registry.
func pnpmLayout(t testing.TB, e env, dir string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "pnpm-lock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var lock pnpmLock
	if err := yaml.Unmarshal(data, &lock); err != nil {
		t.Fatalf("%s: %v", filepath.Join(dir, "pnpm-lock.yaml"), err)
	}
	if !strings.HasPrefix(lock.LockfileVersion, "9.") {
		t.Fatalf("pnpm-lock.yaml is version %s; pnpmLayout reads version 9 (pnpm 9)", lock.LockfileVersion)
	}
	cfg, err := registry.LoadConfig(dir, e.vars())
	if err != nil {
		t.Fatal(err)
	}
	client := registry.New(registry.Options{Config: cfg, CacheDir: e.cache})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	store := filepath.Join(dir, "node_modules", ".pnpm")
	keys := make([]string, 0, len(lock.Snapshots))
	for k := range lock.Snapshots {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		name, version := splitKey(key)
		plain := name + "@" + strings.SplitN(version, "(", 2)[0]
		p, err := client.Fetch(ctx, name, strings.SplitN(version, "(", 2)[0])
		if err != nil {
			t.Fatalf("fetching %s from the test registry: %v", plain, err)
		}
		if want := lock.Packages[plain].Resolution.Integrity; want != p.Manifest.Dist.Integrity {
			t.Fatalf("%s: the test registry serves integrity %s, pnpm-lock.yaml recorded %s: regenerate the lockfile (fixtures/check/README.md)", plain, p.Manifest.Dist.Integrity, want)
		}
		copyTree(t, p.Dir, filepath.Join(store, storeDir(key), "node_modules", filepath.FromSlash(name)))
		_ = p.Remove()
	}
	// A package's own dependencies sit next to it in its store directory.
	for _, key := range keys {
		s := lock.Snapshots[key]
		from := filepath.Join(store, storeDir(key), "node_modules")
		for _, deps := range []map[string]string{s.Dependencies, s.OptionalDependencies} {
			for dep, v := range deps {
				link(t, filepath.Join(from, filepath.FromSlash(dep)), filepath.Join(store, storeDir(dep+"@"+v), "node_modules", filepath.FromSlash(dep)))
			}
		}
	}
	hoisted := map[string]string{}
	importers := make([]string, 0, len(lock.Importers))
	for importer := range lock.Importers {
		importers = append(importers, importer)
	}
	sort.Strings(importers) // the root's versions first, then each workspace's, as pnpm hoists
	for _, importer := range importers {
		im := lock.Importers[importer]
		wsDir := filepath.Join(dir, filepath.FromSlash(importer))
		for _, deps := range []map[string]pnpmDep{im.Dependencies, im.DevDependencies, im.OptionalDependencies} {
			for name, d := range deps {
				at := filepath.Join(wsDir, "node_modules", filepath.FromSlash(name))
				if target, ok := strings.CutPrefix(d.Version, "link:"); ok {
					link(t, at, filepath.Join(wsDir, filepath.FromSlash(target)))
					continue
				}
				target := filepath.Join(store, storeDir(name+"@"+d.Version), "node_modules", filepath.FromSlash(name))
				link(t, at, target)
				if _, ok := hoisted[name]; !ok {
					hoisted[name] = target
				}
			}
		}
	}
	if shamefullyHoist(dir) {
		// Every package of the store, and every workspace package, is
		// linked from the root's node_modules too.
		for _, key := range keys {
			name, version := splitKey(key)
			if _, ok := hoisted[name]; !ok {
				hoisted[name] = filepath.Join(store, storeDir(name+"@"+version), "node_modules", filepath.FromSlash(name))
			}
		}
		for importer := range lock.Importers {
			if importer == "." {
				continue
			}
			var m struct {
				Name string `json:"name"`
			}
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(importer), "package.json"))
			if err == nil && json.Unmarshal(b, &m) == nil && m.Name != "" {
				hoisted[m.Name] = filepath.Join(dir, filepath.FromSlash(importer))
			}
		}
		for name, target := range hoisted {
			at := filepath.Join(dir, "node_modules", filepath.FromSlash(name))
			if _, err := os.Lstat(at); err == nil {
				continue // the root declares it
			}
			link(t, at, target)
		}
	}
}

func shamefullyHoist(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, ".npmrc"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(k) == "shamefully-hoist" && strings.TrimSpace(v) == "true" {
			return true
		}
	}
	return false
}

// link makes at a relative symlink to target, as pnpm does.
func link(t testing.TB, at, target string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(filepath.Dir(at), target)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(rel, at); err != nil {
		t.Fatal(err)
	}
}

// expectedFinding is what the expected file pins down of a listed finding.
type expectedFinding struct {
	ID        string `json:"id"`
	Severity  string `json:"severity"`
	Change    string `json:"change"`
	Workspace string `json:"workspace"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	// Evidence are the compiler errors behind it, "file:line TScode".
	Evidence []string `json:"evidence,omitempty"`
	// Downstream are the errors it causes, counted with it.
	Downstream []string `json:"downstream,omitempty"`
}

type expectedReport struct {
	Title      string             `json:"title"`
	Workspaces []string           `json:"workspaces"`
	Verdict    string             `json:"verdict"`
	Findings   []expectedFinding  `json:"findings"`
	Importers  []model.Importer   `json:"importers"`
	Undeclared []model.Undeclared `json:"undeclared"`
	// Compile is the coverage, without the judge's version (the pinned
	// compiler moves on its own schedule).
	Compile struct {
		Status      string `json:"status"`
		Asked       int    `json:"asked"`
		Compiled    int    `json:"compiled"`
		PreExisting int    `json:"preExisting"`
		NewErrors   int    `json:"newErrors"`
	} `json:"compile"`
}

func expectedOf(rep model.CheckReport) []expectedReport {
	out := []expectedReport{}
	for _, p := range rep.Packages {
		r := expectedReport{Title: p.Title, Workspaces: p.Workspaces, Verdict: string(p.Verdict), Findings: []expectedFinding{},
			Importers: p.Importers, Undeclared: p.Undeclared}
		r.Compile.Status, r.Compile.Asked, r.Compile.Compiled = string(p.Compile.Status), p.Compile.Asked, p.Compile.Compiled
		r.Compile.PreExisting, r.Compile.NewErrors = p.Compile.PreExisting, p.Compile.NewErrors
		for _, f := range p.Findings {
			if f.Hidden {
				continue
			}
			ef := expectedFinding{ID: f.ID, Severity: string(f.Severity), Change: f.Change, Workspace: f.Workspace, File: f.File, Line: f.Line}
			for _, d := range f.Evidence {
				ef.Evidence = append(ef.Evidence, fmt.Sprintf("%s:%d TS%d", d.File, d.Line, d.Code))
			}
			for _, d := range f.Downstream {
				ef.Downstream = append(ef.Downstream, fmt.Sprintf("%s:%d TS%d", d.File, d.Line, d.Code))
			}
			r.Findings = append(r.Findings, ef)
		}
		out = append(out, r)
	}
	return out
}

// TestCheckPnpmWorkspace runs the binary on a pnpm workspace: zod comes
// from the catalog into @acme/core (TypeScript), and @acme/ui (JavaScript
// under // @ts-check) imports it without declaring it, reading the copy
// shamefully-hoist put at the root. ui is analyzed against that copy, its
// findings under its own workspace, and the report says how it got zod.
func TestCheckPnpmWorkspace(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "pnpm-ws")
	pnpmLayout(t, e, dir)

	args := []string{"check", "zod", "slugkit", "--json"}
	first := run(t, e, dir, args...)
	second := run(t, e, dir, args...)
	if first.stdout != second.stdout {
		t.Errorf("two runs differ:\n%s\n----\n%s", first.stdout, second.stdout)
	}
	if first.code != 1 {
		t.Fatalf("exit %d, want 1 (breaking)\nstderr: %s\n%s", first.code, first.stderr, first.stdout)
	}
	var rep model.CheckReport
	decode(t, first, &rep)
	if rep.Repository.PackageManager != "pnpm" {
		t.Errorf("package manager %q, want pnpm", rep.Repository.PackageManager)
	}
	got, err := json.MarshalIndent(expectedOf(rep), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := "../../fixtures/check/pnpm-ws.expected.json"
	if *updateExpected {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v: run go test ./cmd/uptide -run TestCheckPnpmWorkspace -update to write it", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("findings differ from %s (go test -run TestCheckPnpmWorkspace -update rewrites it after a deliberate change):\n got %s", golden, got)
	}

	// What the expected file holds, said once more in plain terms so a
	// careless -update cannot bless a regression.
	zod := packageReport(t, rep, "zod")
	if !slices.Equal(zod.Workspaces, []string{"packages/core"}) {
		t.Errorf("zod workspaces %v: ui does not declare zod, core does", zod.Workspaces)
	}
	if len(zod.Undeclared) != 1 || zod.Undeclared[0] != (model.Undeclared{
		Workspace: "packages/ui", Package: "zod", Via: "@acme/core", ViaWorkspace: "packages/core",
		Resolved: "3.25.76", Status: model.StatusAnalyzed,
	}) {
		t.Errorf("zod undeclared %+v: want packages/ui resolved via @acme/core", zod.Undeclared)
	}
	var importers []string
	for _, in := range zod.Importers {
		importers = append(importers, fmt.Sprintf("%s declared=%v %s", in.Workspace, in.Declared, in.Status))
	}
	if !slices.Equal(importers, []string{"packages/core declared=true analyzed", "packages/ui declared=false analyzed"}) {
		t.Errorf("zod importers %v", importers)
	}
	for _, want := range []struct{ ws, file string }{
		{"packages/core", "packages/core/src/user.ts"},
		{"packages/ui", "packages/ui/src/form.js"},
		{"packages/ui", "packages/ui/src/list.js"},
	} {
		if !slices.ContainsFunc(zod.Findings, func(f model.Finding) bool {
			return f.Workspace == want.ws && f.File == want.file && f.Change == "removed" && f.Severity == model.Breaking && len(f.Evidence) > 0
		}) {
			t.Errorf("zod lacks a confirmed removal in %s (%s): %v", want.file, want.ws, listed(zod))
		}
	}
	// The implicit any after ZodError#errors is gone, in two files of two
	// workspaces: each error stays in its own file and workspace, as a
	// finding of its own or downstream of the removal there, and findings
	// of their own share one plan rule.
	rules := map[string]bool{}
	for _, file := range []string{"packages/core/src/user.ts", "packages/ui/src/list.js"} {
		i := slices.IndexFunc(zod.Findings, func(f model.Finding) bool {
			if f.File != file || f.Severity != model.Breaking {
				return false
			}
			for _, d := range append(slices.Clone(f.Evidence), f.Downstream...) {
				if d.Code == 7006 && d.File == file {
					return true
				}
			}
			return false
		})
		if i < 0 {
			t.Errorf("zod: no breaking finding in %s accounts for its TS7006: %v", file, listed(zod))
			continue
		}
		if f := zod.Findings[i]; f.Change == "TS7006" {
			rules[f.Rule] = true
		}
	}
	if len(rules) > 1 {
		t.Errorf("TS7006 findings under %d plan rules, want one", len(rules))
	}

	// Two wrappers of slugkit's options type, each called once from a file
	// that never names the package: one error shape in two files is two
	// findings, each at its file and line, under one plan rule.
	slug := packageReport(t, rep, "slugkit")
	var ts2345 []string
	for _, f := range slug.Findings {
		if f.Change == "TS2345" && f.Severity == model.Breaking {
			ts2345 = append(ts2345, fmt.Sprintf("%s %s:%d", f.Workspace, f.File, f.Line))
			if f.Similar != 0 || len(f.Evidence) != 1 || f.Evidence[0].File != f.File {
				t.Errorf("TS2345 finding %s at %s holds %d errors (%d similar): one file, one error", f.ID, f.File, len(f.Evidence), f.Similar)
			}
		}
	}
	if !slices.Equal(ts2345, []string{"packages/core packages/core/src/heading.ts:3", "packages/core packages/core/src/nav.ts:3"}) {
		t.Errorf("slugkit TS2345 findings %v: want one in heading.ts and one in nav.ts", ts2345)
	}
	if !slices.ContainsFunc(slug.Plan.Rules, func(r model.PlanRule) bool { return strings.Contains(r.Title, "TS2345") && r.Sites == 2 }) {
		t.Errorf("slugkit plan %+v: want one TS2345 rule over both files", slug.Plan.Rules)
	}

	t.Run("human report", func(t *testing.T) {
		r := run(t, e, dir, "check", "zod")
		for _, want := range []string{
			"uptide check · check-pnpm-ws (pnpm, 3 workspaces) · ",
			"packages/ui · imports zod without declaring it (resolved via @acme/core)",
		} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, r.stdout)
			}
		}
	})
}
