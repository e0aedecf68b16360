package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func listJSON(t *testing.T, repo string) model.DiscoverReport {
	t.Helper()
	reg := startRegistry(t)
	r := run(t, newEnv(t, reg), copyRepo(t, repo), "list", "--json")
	var rep model.DiscoverReport
	decode(t, r, &rep)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	return rep
}

func group(rep model.DiscoverReport, title string) *model.Group {
	for i := range rep.Groups {
		if rep.Groups[i].Title == title {
			return &rep.Groups[i]
		}
	}
	return nil
}

func plan(rep model.DiscoverReport, name, from string) *model.CompanionPlan {
	for i := range rep.Companions {
		if rep.Companions[i].Name == name && rep.Companions[i].From == from {
			return &rep.Companions[i]
		}
	}
	return nil
}

func companion(p *model.CompanionPlan, name string) *model.Companion {
	for i := range p.Companions {
		if p.Companions[i].Name == name {
			return &p.Companions[i]
		}
	}
	return nil
}

// The npm workspace carries the scenarios: react 18 → 19 with its
// companions and a conflict, a scope group, a shared-pin group.
func TestListGroupsAndCompanions(t *testing.T) {
	rep := listJSON(t, "npm-v3")

	aws := group(rep, "@aws-sdk/* (2 packages)")
	if aws == nil || !slices.Equal(aws.Members, []string{"@aws-sdk/client-s3", "@aws-sdk/s3-request-presigner"}) ||
		!strings.Contains(aws.Why, "@aws-sdk/core") {
		t.Errorf("aws scope group: %+v (groups %+v)", aws, rep.Groups)
	}
	ai := group(rep, "ai (2 packages)")
	if ai == nil || ai.Members[0] != "ai" || !slices.Contains(ai.Members, "@ai-sdk/openai") ||
		!strings.Contains(ai.Why, "@ai-sdk/provider 0.0.26") {
		t.Errorf("ai shared-pin group: %+v (groups %+v)", ai, rep.Groups)
	}
	if row := findRow(rep.Rows, "ai", "packages/api"); row == nil || row.Group != "ai (2 packages)" {
		t.Errorf("ai row not marked with its group: %+v", row)
	}

	react := plan(rep, "react", "18.3.1")
	if react == nil || react.To != "19.1.0" {
		t.Fatalf("no companion plan for react 18.3.1 → 19.1.0: %+v", rep.Companions)
	}
	for name, to := range map[string]string{"react-dom": "19.1.0", "@types/react": "19.1.2", "@types/react-dom": "19.1.1"} {
		c := companion(react, name)
		if c == nil || c.To != to || c.Why == "" {
			t.Errorf("react companion %s: %+v, want → %s with a reason", name, c, to)
		}
	}
	if c := companion(react, "react-dom"); c != nil && !strings.Contains(c.Why, "lockstep") {
		t.Errorf("react-dom should be in lockstep: %q", c.Why)
	}
	if len(react.Conflicts) != 1 || react.Conflicts[0].Name != "@ai-sdk/react" || !strings.Contains(react.Conflicts[0].Why, "^18.2.0") {
		t.Errorf("react conflicts: %+v, want @ai-sdk/react (peer ^18.2.0)", react.Conflicts)
	}

	express := plan(rep, "express", "4.21.2")
	if express == nil || companion(express, "@types/express") == nil || companion(express, "@types/express").To != "5.0.0" {
		t.Errorf("express plan should move @types/express to 5.0.0: %+v", express)
	}
	// Minor and patch upgrades get no plan; only majors do.
	for _, p := range rep.Companions {
		if row := findRowByVersion(rep.Rows, p.Name, p.From); row == nil || !row.Update.IsMajor() {
			t.Errorf("companion plan for %s %s which is not a major row", p.Name, p.From)
		}
	}

	if row := findRow(rep.Rows, "left-pad", "."); row == nil || !strings.Contains(row.Deprecated, "padStart") {
		t.Errorf("left-pad should carry its deprecation: %+v", row)
	}
	if row := findRow(rep.Rows, "legacy-lodash", "packages/api"); row == nil || row.Package != "lodash" || row.Update.String() != "patch" {
		t.Errorf("npm: alias row: %+v", row)
	}
	// Majors first, then by importing files.
	seenMinor := false
	for _, r := range rep.Rows {
		major := r.Update.IsMajor()
		if seenMinor && major {
			t.Fatalf("major row %s after a non-major row", r.Name)
		}
		seenMinor = seenMinor || !major
	}
}

// Each release group says how to check it as one decision: a one-scope
// group with any member, the others with --group (check alone would take
// only the named package).
func TestListGroupCheckCommands(t *testing.T) {
	reg := startRegistry(t)
	r := run(t, newEnv(t, reg), copyRepo(t, "npm-v3"), "list", "--ci")
	for _, want := range []string{
		"check: uptide check @aws-sdk/client-s3\n",
		"check: uptide check ai --group\n",
		"check: uptide check react --group\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("list lacks %q:\n%s", want, r.stdout)
		}
	}
}

func findRowByVersion(rows []model.DependencyRow, name, installed string) *model.DependencyRow {
	for i := range rows {
		if rows[i].Package == name && rows[i].Installed == installed {
			return &rows[i]
		}
	}
	return nil
}

// A catalog: dependency is one decision however many workspaces use it; the
// same package on another catalog or version is another row.
func TestListCatalogRows(t *testing.T) {
	rep := listJSON(t, "pnpm-v9")
	var zod []model.DependencyRow
	for _, r := range rep.Rows {
		if r.Name == "zod" {
			zod = append(zod, r)
		}
	}
	if len(zod) != 2 {
		t.Fatalf("zod rows: %+v, want the catalog one and packages/legacy's exact pin", zod)
	}
	for _, r := range zod {
		switch r.Installed {
		case "3.25.76":
			if r.Catalog != "default" || !slices.Contains(r.Specs, "catalog:") {
				t.Errorf("catalog zod row: %+v", r)
			}
		case "3.22.4":
			if r.Catalog != "" || !slices.Equal(r.Workspaces, []string{"packages/legacy"}) {
				t.Errorf("legacy zod row: %+v", r)
			}
		default:
			t.Errorf("unexpected zod row %+v", r)
		}
	}
	web := findRow(rep.Rows, "react", "apps/web")
	admin := findRow(rep.Rows, "react", "apps/admin")
	if web == nil || admin == nil || web == admin {
		t.Fatalf("react in apps/web (catalog react18) and apps/admin (default catalog) must be two rows: %+v %+v", web, admin)
	}
	if web.Catalog != "react18" || web.Installed != "18.3.1" || admin.Catalog != "default" || admin.Installed != "19.1.0" {
		t.Errorf("react rows: web %+v admin %+v", web, admin)
	}
	if !admin.Update.IsZero() {
		t.Errorf("admin's react 19.1.0 is up to date, update %q", admin.Update)
	}
}

// Two workspaces on the same version and target are one shared row.
func TestListSharedRow(t *testing.T) {
	rep := listJSON(t, "npm-v3")
	var rows []model.DependencyRow
	for _, r := range rep.Rows {
		if r.Name == "is-number" {
			rows = append(rows, r)
		}
	}
	if len(rows) != 1 || !rows[0].Shared || !slices.Equal(rows[0].Workspaces, []string{"packages/api", "packages/web"}) {
		t.Fatalf("is-number 6.0.0 in api and web must be one shared row: %+v", rows)
	}
	for _, r := range rep.Rows {
		if len(r.Workspaces) > 1 && !r.Shared {
			t.Errorf("%s in %v is not marked shared", r.Name, r.Workspaces)
		}
	}
}
