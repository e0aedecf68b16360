package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// expectation is one row of a fixture's expected.md: what the real package
// manager installed for one workspace's dependency.
type expectation struct {
	workspace, dep, installed, latest string
}

var (
	wsHeading = regexp.MustCompile("^### `([^`]+)`")
	tableRow  = regexp.MustCompile(`^\| ([^|]+?) \| ([^|]+?) \| ([^|]+?) \| ([^|]+?) \| ([^|]+?) \|$`)
	fileRow   = regexp.MustCompile("^\\| `([^`]+)` \\| ([^|]+?) \\|$")
)

// readExpected parses expected.md: the installed-versions tables (written
// from what Node resolved after the real install) and the importing files.
func readExpected(t *testing.T, repo string) ([]expectation, map[string][]string) {
	t.Helper()
	f, err := os.Open(filepath.Join("../../fixtures/repos", repo, "expected.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []expectation
	imports := map[string][]string{} // package → files
	ws := ""
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			section = line
		}
		if m := wsHeading.FindStringSubmatch(line); m != nil {
			ws = m[1]
			continue
		}
		if strings.HasPrefix(section, "## Installed") && ws != "" {
			if m := tableRow.FindStringSubmatch(line); m != nil && m[1] != "dependency" && !strings.HasPrefix(m[1], "---") {
				out = append(out, expectation{workspace: ws, dep: m[1], installed: m[4], latest: m[5]})
			}
		}
		if strings.HasPrefix(section, "## Importing") {
			if m := fileRow.FindStringSubmatch(line); m != nil {
				for _, p := range strings.Split(m[2], ",") {
					p = strings.TrimSpace(p)
					p = strings.TrimSpace(strings.SplitN(p, "(", 2)[0])
					imports[p] = append(imports[p], m[1])
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s/expected.md has no installed-versions table", repo)
	}
	return out, imports
}

func findRow(rows []model.DependencyRow, name, ws string) *model.DependencyRow {
	for i := range rows {
		if rows[i].Name == name && slices.Contains(rows[i].Workspaces, ws) {
			return &rows[i]
		}
	}
	return nil
}

// TestListMatchesRealInstalls runs `uptide list --json` on every fixture
// repository and checks each workspace's installed and latest versions
// against what the real package manager installed.
func TestListMatchesRealInstalls(t *testing.T) {
	reg := startRegistry(t)
	for _, repo := range []string{"npm-v3", "npm-v1", "npm-v1-file", "pnpm-v9", "yarn-classic", "yarn-berry", "bun"} {
		t.Run(repo, func(t *testing.T) {
			want, imports := readExpected(t, repo)
			dir := copyRepo(t, repo)
			r := run(t, newEnv(t, reg), dir, "list", "--json")
			var rep model.DiscoverReport
			env := decode(t, r, &rep)
			if r.code != 0 {
				t.Fatalf("exit %d, warnings %v\nstderr: %s", r.code, env.Warnings, r.stderr)
			}
			if env.Command != "list" || env.SchemaVersion != 1 {
				t.Errorf("envelope command %q schema %d", env.Command, env.SchemaVersion)
			}
			for _, w := range want {
				if w.latest == "(workspace)" {
					if !slices.ContainsFunc(rep.Skipped, func(s model.Skipped) bool {
						return s.Name == w.dep && s.Workspace == w.workspace && strings.HasPrefix(s.Reason, "workspace package")
					}) {
						t.Errorf("%s in %s: want it skipped as a workspace package, skipped = %+v", w.dep, w.workspace, rep.Skipped)
					}
					continue
				}
				if w.latest == "(local)" {
					if !slices.ContainsFunc(rep.Skipped, func(s model.Skipped) bool {
						return s.Name == w.dep && s.Workspace == w.workspace && s.Kind == model.SpecFile
					}) {
						t.Errorf("%s in %s: want it skipped as a file: dependency, skipped = %+v", w.dep, w.workspace, rep.Skipped)
					}
					continue
				}
				row := findRow(rep.Rows, w.dep, w.workspace)
				if row == nil {
					t.Errorf("%s in %s: no row", w.dep, w.workspace)
					continue
				}
				if w.installed == "(missing)" {
					// The manager did not install it: the row must say it
					// is unknown, never borrow another package's version.
					if row.Installed != "" || row.InstalledSource != model.Unknown || row.Reason == "" {
						t.Errorf("%s in %s: installed %q (%s, reason %q), want unknown with a reason", w.dep, w.workspace, row.Installed, row.InstalledSource, row.Reason)
					}
					continue
				}
				if row.Installed != w.installed || row.InstalledSource != model.FromLockfile {
					t.Errorf("%s in %s: installed %q (%s), want %q from the lockfile", w.dep, w.workspace, row.Installed, row.InstalledSource, w.installed)
				}
				if row.Latest != w.latest {
					t.Errorf("%s in %s: latest %q, want %q", w.dep, w.workspace, row.Latest, w.latest)
				}
			}
			for pkg, files := range imports {
				for _, row := range rep.Rows {
					if row.Name != pkg {
						continue
					}
					for _, f := range files {
						// The file belongs to the innermost package holding
						// it, whose row this must be.
						ws := workspaceOf(f, rep.Repository.Workspaces)
						if slices.Contains(row.Workspaces, ws) && !slices.Contains(row.ImportingFiles, f) {
							t.Errorf("%s (%v): importing files %v lack %s", pkg, row.Workspaces, row.ImportingFiles, f)
						}
					}
				}
			}
		})
	}
}

// workspaceOf returns the workspace of workspaces that holds file (the
// longest prefix), or "" when none does.
func workspaceOf(file string, workspaces []string) string {
	best := ""
	for _, ws := range workspaces {
		if ws == "." || strings.HasPrefix(file, ws+"/") {
			if len(ws) > len(best) || best == "" {
				best = ws
			}
		}
	}
	return best
}
