package check

import (
	"fmt"
	"github.com/uptide/uptide/engine/repo"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// importersRepo is an npm workspace repository on disk, installed by hand:
//
//   - the root and packages/core declare zod 3.25.76, hoisted to the root;
//   - packages/api declares zod 3.22.4 (nested) and chalk (nested only);
//   - packages/ui depends on @acme/core and imports zod without declaring it;
//   - packages/web imports zod without declaring it or depending on core;
//   - packages/tool imports chalk, which nothing resolves from it, and
//     slugkit, whose root copy no workspace declares.
func importersRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"package.json":                                   `{"name": "mono", "private": true, "workspaces": ["packages/*"], "dependencies": {"zod": "3.25.76"}}`,
		"src/index.ts":                                   `import { z } from "zod";`,
		"node_modules/zod/package.json":                  `{"name": "zod", "version": "3.25.76"}`,
		"node_modules/slugkit/package.json":              `{"name": "slugkit", "version": "1.0.0"}`,
		"packages/core/package.json":                     `{"name": "@acme/core", "dependencies": {"zod": "3.25.76"}}`,
		"packages/core/src/user.ts":                      `import { z } from "zod";`,
		"packages/api/package.json":                      `{"name": "@acme/api", "dependencies": {"zod": "3.22.4", "chalk": "5.0.0", "slugkit": "2.0.0"}}`,
		"packages/api/src/handler.ts":                    `import { z } from "zod";`,
		"packages/api/node_modules/zod/package.json":     `{"name": "zod", "version": "3.22.4"}`,
		"packages/api/node_modules/chalk/package.json":   `{"name": "chalk", "version": "5.0.0"}`,
		"packages/api/node_modules/slugkit/package.json": `{"name": "slugkit", "version": "2.0.0"}`,
		"packages/ui/package.json":                       `{"name": "@acme/ui", "dependencies": {"@acme/core": "*"}}`,
		"packages/ui/src/form.js":                        `const { z } = require("zod");`,
		"packages/ui/src/list.ts":                        `export const l = await import("zod");`,
		"packages/web/package.json":                      `{"name": "web"}`,
		"packages/web/src/page.ts":                       `import type { ZodError } from "zod";`,
		"packages/tool/package.json":                     `{"name": "tool"}`,
		"packages/tool/src/cli.ts":                       "import chalk from \"chalk\";\nimport { slugify } from \"slugkit\";",
		"packages/tool/src/pad.ts":                       `import pad from "left-pad";`,
		"node_modules/left-pad/package.json":             `{"name": "left-pad", "version": "1.3.0"}`,
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func importersChecker(root string, asked ...string) *checker {
	row := func(name, installed string, ws ...string) model.DependencyRow {
		return model.DependencyRow{Name: name, Package: name, Installed: installed, Workspaces: ws, Status: model.RowOK}
	}
	r, err := repo.Load(root)
	if err != nil {
		// No repository there (TestImportersWithoutAScan): its one
		// workspace cannot be scanned.
		r = &model.Repository{Root: root, Workspaces: []model.Workspace{{Path: "."}}}
	}
	return &checker{root: root, repository: r, opts: Options{Packages: asked}, disc: &model.DiscoverReport{Rows: []model.DependencyRow{
		row("zod", "3.25.76", ".", "packages/core"),
		row("zod", "3.22.4", "packages/api"),
		row("chalk", "5.0.0", "packages/api"),
		row("slugkit", "2.0.0", "packages/api"),
		row("lodash", "4.17.21", "packages/api"),
	}}}
}

// report is a package report as analyze leaves it: the unit's workspaces
// include the undeclared importers that joined its row.
func reportOf(c *checker, name, installed string) model.PackageReport {
	for _, r := range c.disc.Rows {
		if r.Name == name && r.Installed == installed {
			ws := slices.Sorted(slices.Values(r.Workspaces))
			return model.PackageReport{Title: name, Package: name, Installed: installed, Workspaces: ws, Status: model.StatusAnalyzed,
				Members: []model.MemberReport{{Name: name, Installed: installed, Workspaces: slices.Clone(r.Workspaces), Status: model.StatusAnalyzed}}}
		}
	}
	panic("no row " + name + "@" + installed)
}

func TestUndeclaredImportersJoinTheRowOfTheCopyTheyResolve(t *testing.T) {
	c := importersChecker(importersRepo(t), "zod", "chalk", "slugkit")
	c.scanImporters()
	if c.importers.warning != "" {
		t.Fatal(c.importers.warning)
	}
	want := map[string][]string{
		// ui and web read the root's hoisted zod 3.25.76: they join that
		// decision, so its units find their usages and compile them.
		"zod@3.25.76":    {".", "packages/core", "packages/ui", "packages/web"},
		"zod@3.22.4":     {"packages/api"},
		"chalk@5.0.0":    {"packages/api"},
		"slugkit@2.0.0":  {"packages/api"},
		"lodash@4.17.21": {"packages/api"},
	}
	for _, r := range c.disc.Rows {
		if got := r.Workspaces; !slices.Equal(got, want[r.Name+"@"+r.Installed]) {
			t.Errorf("%s@%s workspaces %v, want %v", r.Name, r.Installed, got, want[r.Name+"@"+r.Installed])
		}
	}
	// The root's scan leaves the importers nested under it to themselves.
	if ex := c.excludes("zod", "."); !slices.Contains(ex, filepath.Join(c.root, "packages", "ui")) {
		t.Errorf("the root's usage scan of zod excludes %v, not packages/ui", ex)
	}

	reps := []model.PackageReport{reportOf(c, "zod", "3.25.76"), reportOf(c, "zod", "3.22.4"), reportOf(c, "chalk", "5.0.0"), reportOf(c, "slugkit", "2.0.0")}
	c.attachImporters(reps)

	var got []string
	for _, p := range reps {
		for _, u := range p.Undeclared {
			got = append(got, fmt.Sprintf("%s@%s undeclared %s %s via=%q(%s) resolved=%s %s", p.Title, p.Installed, u.Workspace, u.Status, u.Via, u.ViaWorkspace, u.Resolved, u.Reason))
		}
		for _, in := range p.Importers {
			got = append(got, fmt.Sprintf("%s@%s importer %s declared=%v %s %v %s", p.Title, p.Installed, in.Workspace, in.Declared, in.Status, in.Files, in.Reason))
		}
	}
	wantLines := []string{
		// ui depends on @acme/core: its copy is core's, though the root
		// declares the same one.
		`zod@3.25.76 undeclared packages/ui analyzed via="@acme/core"(packages/core) resolved=3.25.76 `,
		`zod@3.25.76 undeclared packages/web analyzed via="mono"(.) resolved=3.25.76 `,
		`zod@3.25.76 importer . declared=true analyzed [src/index.ts] `,
		`zod@3.25.76 importer packages/core declared=true analyzed [packages/core/src/user.ts] `,
		`zod@3.25.76 importer packages/ui declared=false analyzed [packages/ui/src/form.js packages/ui/src/list.ts] `,
		`zod@3.25.76 importer packages/web declared=false analyzed [packages/web/src/page.ts] `,
		`zod@3.22.4 importer packages/api declared=true analyzed [packages/api/src/handler.ts] `,
		`chalk@5.0.0 undeclared packages/tool skipped via=""() resolved= its import of chalk does not resolve: no node_modules/chalk in packages/tool or a directory above it within the repository; declare chalk in its package.json and install`,
		`chalk@5.0.0 importer packages/tool declared=false skipped [packages/tool/src/cli.ts] its import of chalk does not resolve: no node_modules/chalk in packages/tool or a directory above it within the repository; declare chalk in its package.json and install`,
		`slugkit@2.0.0 undeclared packages/tool skipped via=""() resolved=1.0.0 its import of slugkit resolves to slugkit@1.0.0, a copy no workspace declares; declare slugkit in its package.json`,
		`slugkit@2.0.0 importer packages/tool declared=false skipped [packages/tool/src/cli.ts] its import of slugkit resolves to slugkit@1.0.0, a copy no workspace declares; declare slugkit in its package.json`,
	}
	if !slices.Equal(got, wantLines) {
		t.Errorf("importers:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(wantLines, "\n  "))
	}
	// The report's workspaces stay the declaring ones.
	if ws := reps[0].Workspaces; !slices.Equal(ws, []string{".", "packages/core"}) {
		t.Errorf("zod 3.25.76 workspaces %v, want the declaring ones", ws)
	}
	if ws := reps[0].Members[0].Workspaces; !slices.Equal(ws, []string{".", "packages/core"}) {
		t.Errorf("zod 3.25.76 member workspaces %v, want the declaring ones", ws)
	}
}

// TestImportersOfAnUncheckedDecision: a workspace declaring the package at
// a version no report covers is listed as not analyzed, never dropped; an
// unanalyzed report's status reaches its importers.
func TestImportersOfAnUncheckedDecision(t *testing.T) {
	c := importersChecker(importersRepo(t), "zod")
	c.scanImporters()
	zod := reportOf(c, "zod", "3.25.76")
	zod.Status, zod.Reason = model.StatusNotAnalyzed, "the registry did not answer"
	zod.Members = nil
	reps := []model.PackageReport{zod}
	c.attachImporters(reps)
	byWS := map[string]model.Importer{}
	for _, in := range reps[0].Importers {
		byWS[in.Workspace] = in
	}
	if in := byWS["packages/api"]; in.Status != model.StatusNotAnalyzed || !strings.Contains(in.Reason, "uptide check zod") {
		t.Errorf("packages/api, declaring zod 3.22.4 no report covers: %+v", in)
	}
	if in := byWS["packages/ui"]; in.Declared || in.Status != model.StatusNotAnalyzed || in.Reason != zod.Reason {
		t.Errorf("packages/ui under an unanalyzed report: %+v", in)
	}
	if len(reps[0].Undeclared) != 2 || reps[0].Undeclared[0].Status != model.StatusNotAnalyzed {
		t.Errorf("undeclared %+v", reps[0].Undeclared)
	}
}

func TestImportersWithoutAScan(t *testing.T) {
	c := importersChecker(filepath.Join(t.TempDir(), "missing"), "zod")
	c.scanImporters()
	reps := []model.PackageReport{{Title: "zod", Package: "zod"}}
	c.attachImporters(reps)
	if reps[0].Importers == nil || reps[0].Undeclared == nil {
		t.Error("importers and undeclared must be present, empty, when the scan did not run")
	}
	if len(reps[0].Warnings) != 1 || !strings.Contains(reps[0].Warnings[0], "not scanned") {
		t.Errorf("warnings %v: the report must say the scan did not run", reps[0].Warnings)
	}
}

// TestImportersOfAPackageNoWorkspaceDeclares: check's report for a name
// that is no dependency still says who imports it, and why that is not
// analyzed.
func TestImportersOfAPackageNoWorkspaceDeclares(t *testing.T) {
	c := importersChecker(importersRepo(t), "left-pad")
	c.scanImporters()
	reps := []model.PackageReport{notAnalyzed("left-pad", "not a dependency of any workspace of this repository: uptide list shows them")}
	c.attachImporters(reps)
	u := reps[0].Undeclared
	if len(u) != 1 || u[0].Workspace != "packages/tool" || u[0].Status != model.StatusSkipped || u[0].Resolved != "1.3.0" ||
		!strings.Contains(u[0].Reason, "a copy no workspace declares") {
		t.Errorf("undeclared %+v: want packages/tool skipped, resolving to an undeclared left-pad 1.3.0", u)
	}
	if in := reps[0].Importers; len(in) != 1 || in[0].Workspace != "packages/tool" || in[0].Declared || !slices.Equal(in[0].Files, []string{"packages/tool/src/pad.ts"}) {
		t.Errorf("importers %+v", in)
	}
}
