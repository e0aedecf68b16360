package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

// The list drawn from view.List is the list drawn before it, byte for
// byte, colours and widths included, over rich synthetic reports and the
// fixture reports the JSON goldens hold.
func TestListRenderUnchanged(t *testing.T) {
	reports := map[string]*model.DiscoverReport{}
	for name, r := range syntheticListReports() {
		reports[name] = r
	}
	paths, _ := filepath.Glob("../../cmd/uptide/testdata/json-golden/list-*.json")
	if len(paths) == 0 {
		t.Fatal("no list goldens")
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var env struct{ Data model.DiscoverReport }
		if err := json.Unmarshal(b, &env); err != nil {
			t.Fatal(p, err)
		}
		reports[filepath.Base(p)] = &env.Data
	}
	for name, rep := range reports {
		for _, all := range []bool{false, true} {
			for _, color := range []bool{false, true} {
				for _, width := range []int{50, 80, 200} {
					var old, got bytes.Buffer
					oldRenderList(&old, rep, all, palette{on: color}, width)
					renderList(&got, view.NewList(rep, all), palette{on: color}, width)
					if old.String() != got.String() {
						t.Errorf("%s all=%v color=%v width=%d:\n--- old\n%s\n--- new\n%s", name, all, color, width, old.String(), got.String())
					}
				}
			}
		}
	}
}

func syntheticListReports() map[string]*model.DiscoverReport {
	files := []string{"src/a.ts", "src/b.ts"}
	rich := &model.DiscoverReport{
		Repository: model.RepoSummary{Name: "mono", PackageManager: "pnpm", Lockfile: "pnpm-lock.yaml", Workspaces: []string{".", "packages/web", "packages/api"}},
		Rows: []model.DependencyRow{
			{Name: "zod", Package: "zod", Workspaces: []string{"."}, Installed: "3.23.8", Target: "4.0.17", Update: model.Major(1), Status: model.RowOK, ImportingFiles: files, Deprecated: "use v4", Group: "zod"},
			{Name: "react", Package: "react", Workspaces: []string{".", "packages/web"}, Shared: true, Installed: "17.0.2", Target: "19.1.0", Update: model.Major(2), Status: model.RowOK, ImportingFiles: []string{}, Group: "react"},
			{Name: "old-lodash", Package: "lodash", Workspaces: []string{"packages/api"}, Installed: "3.10.1", Target: "4.17.21", Update: model.Major(1), Status: model.RowOK, ImportingFiles: files},
			{Name: "typescript", Package: "typescript", Workspaces: []string{"."}, Catalog: "default", Installed: "5.4.5", Target: "5.8.3", Update: model.UpdateKind{Level: model.LevelMinor}, Status: model.RowOK, ImportingFiles: []string{}},
			{Name: "vite", Package: "vite", Workspaces: []string{"packages/web"}, Catalog: "build", Installed: "5.0.0", Target: "5.0.3", Update: model.UpdateKind{Level: model.LevelPatch}, Status: model.RowOK, ImportingFiles: []string{}},
			{Name: "left-pad", Package: "left-pad", Workspaces: []string{"."}, Installed: "1.3.0", Target: "1.3.0", Status: model.RowOK, ImportingFiles: []string{}, Deprecated: "use String.prototype.padStart"},
			{Name: "ghost", Package: "ghost", Workspaces: []string{"packages/api"}, Target: "2.0.0", Status: model.RowOK, Reason: "not in pnpm-lock.yaml", ImportingFiles: []string{}},
			{Name: "pre", Package: "pre", Workspaces: []string{"."}, Installed: "1.0.0", Target: "1.0.1-rc.1", Update: model.UpdateKind{Level: model.LevelPrerelease}, Status: model.RowOK, ImportingFiles: []string{}},
			{Name: "private-a", Package: "private-a", Workspaces: []string{"."}, Installed: "1.0.0", Status: model.RowNotChecked, Reason: "401 Unauthorized"},
		},
		Groups: []model.Group{
			{Title: "react", Kind: model.GroupFamily, Members: []string{"react", "react-dom"}, Why: "released together"},
			{Title: "zod and friends", Kind: "peer", Members: []string{"zod", "@hookform/resolvers"}, Why: "peers"},
		},
		Companions: []model.CompanionPlan{
			{Name: "zod", From: "3.23.8", To: "4.0.17",
				Companions: []model.Companion{{Name: "@hookform/resolvers", From: "3.9.0", To: "5.1.1", Why: "peer zod ^4"}, {Name: "@types/zod", From: "1.0.0", Remove: true, Why: "zod ships its types"}, {Name: "zod-new", To: "1.0.0", Why: "new peer"}, {Name: "zod-q", Why: "no release"}},
				Conflicts:  []model.Conflict{{Name: "zod-form", From: "1.0.0", Why: "no release accepts zod 4"}}},
			{Name: "react", From: "17.0.2", To: "19.1.0"},
		},
		Skipped:    []model.Skipped{{Name: "local", Workspace: "packages/web", Spec: "link:../local", Reason: "a local link"}, {Name: "gh", Workspace: ".", Spec: "github:a/b", Reason: "a git dependency"}},
		NotChecked: []model.NotChecked{{Name: "private-a", Host: "npm.corp.example", Reason: "401 Unauthorized"}, {Name: "private-b", Host: "npm.corp.example", Reason: "401 Unauthorized"}, {Name: "c", Reason: "timeout"}},
		Problems:   []model.Problem{{File: "packages/web/package.json", Line: 3, Message: "bad spec"}, {File: ".npmrc", Message: "unreadable"}},
		Notes:      []string{"a note", "another"},
	}
	empty := &model.DiscoverReport{Repository: model.RepoSummary{Name: "e", PackageManager: "npm", Workspaces: []string{"."}},
		Problems: []model.Problem{{File: "yarn.lock", Message: "cannot parse"}}}
	minorOnly := &model.DiscoverReport{Repository: model.RepoSummary{Name: "m", PackageManager: "yarn", Lockfile: "yarn.lock", Workspaces: []string{"."}},
		Rows: []model.DependencyRow{{Name: "a", Package: "a", Workspaces: []string{"."}, Installed: "1.0.0", Target: "1.1.0", Update: model.UpdateKind{Level: model.LevelMinor}, Status: model.RowOK, ImportingFiles: []string{"x.ts"}}}}
	return map[string]*model.DiscoverReport{"rich": rich, "empty": empty, "minor-only": minorOnly}
}
