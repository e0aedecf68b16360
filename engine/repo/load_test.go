package repo

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

func TestLoadFindsRootAndWorkspaces(t *testing.T) {
	tests := []struct {
		name     string
		fixture  string
		cwd      string // relative to the fixture
		wantRoot string // relative to the fixture
		wantPM   string
		wantWS   []string
		// wantProblems counts the problems expected.
		wantProblems int
	}{
		{"pnpm globs with ** and ! exclusions", "pnpm", "", "", "pnpm",
			[]string{".", "apps/tools/cli", "apps/web", "packages/shared", "packages/ui"}, 2},
		{"cwd deep inside a workspace finds the workspace root", "pnpm", "apps/web/src", "", "pnpm",
			[]string{".", "apps/tools/cli", "apps/web", "packages/shared", "packages/ui"}, 2},
		{"a package the root excludes by name keeps its own root", "pnpm", "packages/legacy", "packages/legacy", "npm",
			[]string{"."}, 0},
		{"a package the root excludes by ** keeps its own root", "pnpm", "apps/web/test/e2e", "apps/web/test/e2e", "npm",
			[]string{"."}, 0},
		{"npm workspaces array with an exact dir and a trailing slash", "npm-array", "", "", "npm",
			[]string{".", "packages/a", "packages/b", "tools/cli"}, 0},
		{"npm workspace member finds its root", "npm-array", "packages/a", "", "npm",
			[]string{".", "packages/a", "packages/b", "tools/cli"}, 0},
		{"a package outside npm's globs keeps its own root", "npm-array", "tools/other", "tools/other", "npm",
			[]string{"."}, 0},
		{"workspaces object form", "npm-object", "libs/x", "", "npm",
			[]string{".", "libs/x"}, 0},
		{"yarn workspaces and yarn.lock", "yarn", "packages/lib", "", "yarn",
			[]string{".", "packages/app", "packages/lib"}, 0},
		{"bun workspaces object with catalogs", "bun", "", "", "bun",
			[]string{".", "packages/app"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyFixture(t, tt.fixture)
			r, err := Load(filepath.Join(dir, filepath.FromSlash(tt.cwd)))
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if want := filepath.Join(dir, filepath.FromSlash(tt.wantRoot)); r.Root != want {
				t.Errorf("Root = %s, want %s", r.Root, want)
			}
			if r.PackageManager != tt.wantPM {
				t.Errorf("PackageManager = %q, want %q", r.PackageManager, tt.wantPM)
			}
			var got []string
			for _, ws := range r.Workspaces {
				got = append(got, ws.Path)
				if want := filepath.Join(r.Root, filepath.FromSlash(ws.Path), "package.json"); ws.Manifest != want {
					t.Errorf("workspace %s: Manifest = %s, want %s", ws.Path, ws.Manifest, want)
				}
			}
			if diff := cmp.Diff(tt.wantWS, got); diff != "" {
				t.Errorf("workspaces (-want +got):\n%s", diff)
			}
			// The pnpm fixture's two unresolvable catalog entries are
			// TestLoadPnpmCatalogs' subject; here only their count matters.
			if len(r.Problems) != tt.wantProblems {
				t.Errorf("problems = %+v, want %d", r.Problems, tt.wantProblems)
			}
		})
	}
}

func TestLoadPnpmCatalogs(t *testing.T) {
	dir := copyFixture(t, "pnpm")
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.PackageManagerField == "" || !strings.HasPrefix(r.PackageManagerField, "pnpm@9.12.0+sha512.") {
		t.Errorf("PackageManagerField = %q", r.PackageManagerField)
	}
	wantCatalogs := map[string]map[string]string{
		"default": {"react": "^18.3.1", "typescript": "5.6.3"},
		"zod3":    {"zod": "^3.23.8"},
		"react19": {"react": "^19.0.0", "react-dom": "npm:@types/react-dom@^19.0.0"},
	}
	if diff := cmp.Diff(wantCatalogs, r.Catalogs); diff != "" {
		t.Errorf("catalogs (-want +got):\n%s", diff)
	}
	got := map[string][]model.Declaration{}
	for _, ws := range r.Workspaces {
		got[ws.Path] = ws.Declarations
	}
	want := map[string][]model.Declaration{
		".": {
			{Name: "prettier", Package: "prettier", Type: model.Dev, Spec: "^3.3.3", Kind: model.SpecRange, Range: "^3.3.3"},
			{Name: "typescript", Package: "typescript", Type: model.Dev, Spec: "catalog:", Kind: model.SpecExact, Range: "5.6.3", Catalog: "default"},
		},
		"apps/tools/cli": {
			{Name: "commander", Package: "commander", Type: model.Prod, Spec: "^12.1.0", Kind: model.SpecRange, Range: "^12.1.0"},
		},
		"apps/web": {
			{Name: "@acme/ui", Package: "@acme/ui", Type: model.Prod, Spec: "workspace:^", Kind: model.SpecWorkspace, Range: "^"},
			{Name: "next", Package: "next", Type: model.Prod, Spec: "15.0.3", Kind: model.SpecExact, Range: "15.0.3"},
			{Name: "react", Package: "react", Type: model.Prod, Spec: "catalog:default", Kind: model.SpecRange, Range: "^18.3.1", Catalog: "default"},
		},
		"packages/shared": {
			{Name: "dayjs", Package: "dayjs", Type: model.Prod, Spec: "catalog:missing", Kind: model.SpecCatalog, Catalog: "missing"},
			{Name: "lodash", Package: "lodash", Type: model.Prod, Spec: "catalog:", Kind: model.SpecCatalog, Catalog: "default"},
			{Name: "zod", Package: "zod", Type: model.Prod, Spec: "catalog:zod3", Kind: model.SpecRange, Range: "^3.23.8", Catalog: "zod3"},
		},
		"packages/ui": {
			{Name: "@acme/shared", Package: "@acme/shared", Type: model.Prod, Spec: "workspace:*", Kind: model.SpecWorkspace, Range: "*"},
			{Name: "react", Package: "react", Type: model.Prod, Spec: "catalog:", Kind: model.SpecRange, Range: "^18.3.1", Catalog: "default"},
			{Name: "react", Package: "react", Type: model.Peer, Spec: "catalog:react19", Kind: model.SpecRange, Range: "^19.0.0", Catalog: "react19"},
			{Name: "react-dom", Package: "@types/react-dom", Type: model.Peer, Spec: "catalog:react19", Kind: model.SpecAlias, Range: "^19.0.0", Catalog: "react19"},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("declarations (-want +got):\n%s", diff)
	}
	wantProblems := []model.Problem{
		{File: "packages/shared/package.json", Line: 6, Message: `lodash "catalog:": catalog "default" in pnpm-workspace.yaml has no entry for lodash: add one or write a version range`},
		{File: "packages/shared/package.json", Line: 7, Message: `dayjs "catalog:missing": catalog "missing" is not defined in pnpm-workspace.yaml: define it there or write a version range`},
	}
	if diff := cmp.Diff(wantProblems, r.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestLoadBunCatalogs(t *testing.T) {
	r, err := Load(copyFixture(t, "bun"))
	if err != nil {
		t.Fatal(err)
	}
	want := []model.Declaration{
		{Name: "react", Package: "react", Type: model.Prod, Spec: "catalog:", Kind: model.SpecRange, Range: "^19.0.0", Catalog: "default"},
		{Name: "vitest", Package: "vitest", Type: model.Dev, Spec: "catalog:testing", Kind: model.SpecRange, Range: "^2.1.0", Catalog: "testing"},
	}
	if diff := cmp.Diff(want, r.Workspaces[1].Declarations); diff != "" {
		t.Errorf("declarations (-want +got):\n%s", diff)
	}
}

func TestLoadBrokenWorkspaceIsAProblem(t *testing.T) {
	r, err := Load(copyFixture(t, "broken"))
	if err != nil {
		t.Fatalf("a broken workspace must not fail the load: %v", err)
	}
	var paths []string
	for _, ws := range r.Workspaces {
		paths = append(paths, ws.Path)
	}
	if diff := cmp.Diff([]string{".", "packages/good", "packages/shapes"}, paths); diff != "" {
		t.Errorf("workspaces (-want +got):\n%s", diff)
	}
	type where struct {
		File string
		Line int
	}
	var got []where
	for _, p := range r.Problems {
		got = append(got, where{p.File, p.Line})
		if !strings.Contains(p.Message, ":") {
			t.Errorf("problem %q says nothing about what to do", p.Message)
		}
	}
	want := []where{
		{"packages/bad/package.json", 5},
		{"packages/shapes/package.json", 3},
		{"packages/shapes/package.json", 5},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s\n%+v", diff, r.Problems)
	}
	if !strings.Contains(r.Problems[0].Message, "not valid JSON") {
		t.Errorf("syntax problem message = %q", r.Problems[0].Message)
	}
	// The usable part of a manifest with a bad field is still read.
	shapes := r.Workspaces[2]
	if len(shapes.Declarations) != 1 || shapes.Declarations[0].Name != "typescript" {
		t.Errorf("shapes declarations = %+v, want typescript only", shapes.Declarations)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name     string
		setup    func(t *testing.T) string
		wantFile string // suffix of InputError.File; empty when no InputError
		wantLine int
		wantMsg  string
	}{
		{"broken root package.json", func(t *testing.T) string { return copyFixture(t, "broken-root") },
			"broken-root/package.json", 4, "not valid JSON"},
		{"broken pnpm-workspace.yaml", func(t *testing.T) string { return copyFixture(t, "broken-yaml") },
			"broken-yaml/pnpm-workspace.yaml", 5, "not valid YAML"},
		{"root workspaces of the wrong shape", func(t *testing.T) string {
			d := t.TempDir()
			writeFile(t, filepath.Join(d, "package.json"), "{\n  \"name\": \"x\",\n  \"workspaces\": 3\n}\n")
			return d
		}, "package.json", 3, "neither an array"},
		{"no package.json anywhere", func(t *testing.T) string { return t.TempDir() },
			"", 0, "or any parent: run uptide inside a JavaScript project (or pass --cwd)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.setup(t)
			_, err := Load(dir)
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not contain %q", err, tt.wantMsg)
			}
			var ie *InputError
			if tt.wantFile == "" {
				if want := "no package.json in " + dir; !strings.HasPrefix(err.Error(), want) {
					t.Errorf("error %q, want prefix %q", err, want)
				}
				return
			}
			if !errors.As(err, &ie) {
				t.Fatalf("error %T is not an *InputError", err)
			}
			if !strings.HasSuffix(filepath.ToSlash(ie.File), tt.wantFile) || ie.Line != tt.wantLine {
				t.Errorf("error at %s:%d, want …%s:%d", ie.File, ie.Line, tt.wantFile, tt.wantLine)
			}
		})
	}
}

func TestLoadEverySpecifierKind(t *testing.T) {
	r, err := Load(copyFixture(t, "specs"))
	if err != nil {
		t.Fatal(err)
	}
	d := func(name string, typ model.DepType, spec string, kind model.SpecKind, pkg, rng string) model.Declaration {
		if pkg == "" {
			pkg = name
		}
		return model.Declaration{Name: name, Package: pkg, Type: typ, Spec: spec, Kind: kind, Range: rng}
	}
	P := model.Prod
	want := []model.Declaration{
		d("alias", P, "npm:real-name@^2.0.0", model.SpecAlias, "real-name", "^2.0.0"),
		d("alias-latest", P, "npm:@scope/real", model.SpecAlias, "@scope/real", "latest"),
		d("any", P, "*", model.SpecRange, "", "*"),
		d("bb", P, "bitbucket:user/repo", model.SpecGit, "", ""),
		d("empty", P, "", model.SpecRange, "", "*"),
		d("exact", P, "1.2.3", model.SpecExact, "", "1.2.3"),
		d("file-dep", P, "file:../file-dep", model.SpecFile, "", ""),
		d("gh", P, "github:user/repo#semver:^1.0.0", model.SpecGit, "", ""),
		d("git-https", P, "git+https://github.com/user/repo.git", model.SpecGit, "", ""),
		d("git-proto", P, "git://github.com/user/repo.git#main", model.SpecGit, "", ""),
		d("git-ssh", P, "git+ssh://git@github.com/user/repo.git#v1.0.0", model.SpecGit, "", ""),
		d("gl", P, "gitlab:user/repo", model.SpecGit, "", ""),
		d("linked", P, "link:../linked", model.SpecLink, "", ""),
		d("peer", model.Peer, ">=16 <20", model.SpecRange, "", ">=16 <20"),
		d("range", P, "^1.2.3", model.SpecRange, "", "^1.2.3"),
		d("range", model.Dev, "~1.2.0", model.SpecRange, "", "~1.2.0"),
		d("rel-dot", P, "./vendor/x", model.SpecFile, "", ""),
		d("rel-up", P, "../x", model.SpecFile, "", ""),
		d("short", P, "user/repo#feature", model.SpecGit, "", ""),
		d("tag", P, "next", model.SpecTag, "", "next"),
		d("tarball", P, "./vendor/pkg-1.0.0.tgz", model.SpecFile, "", ""),
		d("url", P, "https://example.com/pkg-1.0.0.tgz", model.SpecURL, "", ""),
		d("ws-caret", P, "workspace:^", model.SpecWorkspace, "", "^"),
		d("ws-path", P, "workspace:../lib", model.SpecWorkspace, "", ""),
		d("ws-star", P, "workspace:*", model.SpecWorkspace, "", "*"),
		d("ws-tilde", P, "workspace:~", model.SpecWorkspace, "", "~"),
	}
	if diff := cmp.Diff(want, r.Workspaces[0].Declarations); diff != "" {
		t.Errorf("declarations (-want +got):\n%s", diff)
	}
	if len(r.Problems) != 0 {
		t.Errorf("problems: %+v", r.Problems)
	}
}

func TestPackageManagerDetection(t *testing.T) {
	tests := []struct {
		name        string
		field       string
		lockfiles   []string
		want        string
		wantProblem bool
	}{
		{"field wins over lockfile", "pnpm@9.12.0+sha512.abcdef", []string{"yarn.lock"}, "pnpm", false},
		{"yarn berry field", "yarn@4.5.1", nil, "yarn", false},
		{"bun field", "bun@1.1.30", nil, "bun", false},
		{"pnpm lockfile", "", []string{"pnpm-lock.yaml"}, "pnpm", false},
		{"yarn lockfile", "", []string{"yarn.lock"}, "yarn", false},
		{"bun text lockfile", "", []string{"bun.lock"}, "bun", false},
		{"bun binary lockfile", "", []string{"bun.lockb"}, "bun", false},
		{"npm lockfile", "", []string{"package-lock.json"}, "npm", false},
		{"npm shrinkwrap", "", []string{"npm-shrinkwrap.json"}, "npm", false},
		{"pnpm lockfile beats a stray package-lock", "", []string{"package-lock.json", "pnpm-lock.yaml"}, "pnpm", false},
		{"nothing: npm", "", nil, "npm", false},
		{"unknown manager falls back to the lockfile", "cnpm@9.0.0", []string{"yarn.lock"}, "yarn", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := t.TempDir()
			pj := `{"name":"x"}`
			if tt.field != "" {
				pj = `{"name":"x","packageManager":"` + tt.field + `"}`
			}
			writeFile(t, filepath.Join(d, "package.json"), pj)
			for _, l := range tt.lockfiles {
				writeFile(t, filepath.Join(d, l), "")
			}
			r, err := Load(d)
			if err != nil {
				t.Fatal(err)
			}
			if r.PackageManager != tt.want {
				t.Errorf("PackageManager = %q, want %q", r.PackageManager, tt.want)
			}
			if r.PackageManagerField != tt.field {
				t.Errorf("PackageManagerField = %q, want %q", r.PackageManagerField, tt.field)
			}
			if got := len(r.Problems) > 0; got != tt.wantProblem {
				t.Errorf("problems = %+v, want problem: %v", r.Problems, tt.wantProblem)
			}
		})
	}
}

func TestLoadPnpmWorkspaceWithoutPackagesIsRootOnly(t *testing.T) {
	d := t.TempDir()
	writeFile(t, filepath.Join(d, "package.json"), `{"name":"solo","dependencies":{"react":"catalog:"}}`)
	writeFile(t, filepath.Join(d, "pnpm-workspace.yaml"), "onlyBuiltDependencies:\n  - esbuild\ncatalogs:\n  default:\n    react: ^18.3.1\n")
	writeFile(t, filepath.Join(d, "fixtures", "pkg", "package.json"), `{"name":"fixture"}`)
	r, err := Load(filepath.Join(d, "fixtures"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Root != d || len(r.Workspaces) != 1 {
		t.Fatalf("root %s with %d workspaces, want %s with the root only", r.Root, len(r.Workspaces), d)
	}
	if got := r.Workspaces[0].Declarations[0]; got.Range != "^18.3.1" || got.Catalog != "default" {
		t.Errorf("catalogs.default entry not resolved: %+v", got)
	}
}

func TestLoadAcceptsAFilePath(t *testing.T) {
	dir := copyFixture(t, "yarn")
	r, err := Load(filepath.Join(dir, "packages", "app", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Root != dir {
		t.Errorf("Root = %s, want %s", r.Root, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "does-not-exist")); err == nil {
		t.Fatal("setup")
	}
	if _, err := Load(filepath.Join(dir, "does-not-exist")); err == nil || !strings.Contains(err.Error(), "--cwd") {
		t.Errorf("missing cwd: err = %v, want one naming --cwd", err)
	}
}
