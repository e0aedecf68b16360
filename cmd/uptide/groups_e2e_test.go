package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// companionPlanOf is list's companion plan of name at installed.
func companionPlanOf(t *testing.T, rep model.DiscoverReport, name, installed string) model.CompanionPlan {
	t.Helper()
	for _, p := range rep.Companions {
		if p.Name == name && p.From == installed {
			return p
		}
	}
	t.Fatalf("list plans no companions for %s %s (plans: %d)", name, installed, len(rep.Companions))
	return model.CompanionPlan{}
}

// Issue 23 item 1 on fixtures/check/npm-next, installed by the real npm:
// next depends on postcss 8.4.31 exactly, the app on postcss 8.4.38. npm
// nests next's copy, so react 18 → 19 moving next 14 → 15 has no conflict,
// and fix goes on to install it.
func TestNextPinningItsOwnPostcssIsNoConflict(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyFixture(t, "npm-next")
	npmInstall(t, fe.env, dir)
	commitAll(t, dir)

	r := run(t, fe.env, dir, "list", "--json")
	var rep model.DiscoverReport
	decode(t, r, &rep)
	react := companionPlanOf(t, rep, "react", "18.3.1")
	if got, want := companionLines(react), []string{
		"@types/react 18.3.12 → 19.1.2", "@types/react-dom 18.3.1 → 19.1.1", "next 14.2.3 → 15.5.29", "react-dom 18.3.1 → 19.1.0",
	}; !slices.Equal(got, want) {
		t.Errorf("react 18 → 19 companions %q, want %q (postcss is next's own nested copy)", got, want)
	}
	if next := companionPlanOf(t, rep, "next", "14.2.3"); len(next.Companions)+len(next.Conflicts) > 0 {
		t.Errorf("next 14 → 15 drags %q; its pinned postcss is its own copy", companionLines(next))
	}

	r = run(t, fe.env, dir, "check", "react", "--group", "--json")
	var chk model.CheckReport
	decode(t, r, &chk)
	pr := packageReport(t, chk, "react (2 packages)")
	if len(pr.Companions.Conflicts) > 0 || strings.Contains(r.stdout, "postcss 8.4.38 conflict") {
		t.Errorf("check react --group reports conflicts %+v", pr.Companions.Conflicts)
	}

	fix, r := runFix(t, fe, dir, "react", "--group")
	if strings.Contains(fix.Reason, "conflict") || fix.Install == nil {
		t.Fatalf("fix react --group stopped before installing: exit %d, %s (%s)\n%s", r.code, fix.Status, fix.Reason, r.stderr)
	}
	if fix.Status != "verified" {
		t.Errorf("fix react --group: %s (%s), want verified", fix.Status, fix.Reason)
	}
}

// Issue 23's acceptance on fixtures/check/npm-radix, shaped after a Next 14
// app's radix primitives: @radix-kit/react-dialog pins the react-slot of
// its own release exactly (1.1.0 pins 1.2.0), and react 18 → 19 moves
// react-slot itself to its newest, 1.2.1. No dialog release pins that one,
// but npm nests the dialog's own copy: both move along, no conflict, and
// fix installs and verifies the plan.
func TestFamilyPinNoReleaseSharesIsTheMembersNestedCopy(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyFixture(t, "npm-radix")
	npmInstall(t, fe.env, dir)
	commitAll(t, dir)

	r := run(t, fe.env, dir, "list", "--json")
	var rep model.DiscoverReport
	decode(t, r, &rep)
	react := companionPlanOf(t, rep, "react", "18.3.1")
	if got, want := companionLines(react), []string{
		"@radix-kit/react-dialog 1.0.5 → 1.1.0", "@radix-kit/react-slot 1.0.2 → 1.2.1",
		"@types/react 18.3.12 → 19.1.2", "@types/react-dom 18.3.1 → 19.1.1", "react-dom 18.3.1 → 19.1.0",
	}; !slices.Equal(got, want) || len(react.Conflicts) > 0 {
		t.Errorf("react 18 → 19 companions %q, conflicts %+v; want %q and none", got, react.Conflicts, want)
	}

	fix, r := runFix(t, fe, dir, "react", "--group")
	if fix.Install == nil {
		t.Fatalf("fix react --group stopped before installing: exit %d, %s (%s)\n%s", r.code, fix.Status, fix.Reason, r.stderr)
	}
	if fix.Status != "verified" {
		t.Errorf("fix react --group: %s (%s), want verified\n%s", fix.Status, fix.Reason, r.stdout)
	}
	lock := git(t, dir, "show", fix.Branch+":package-lock.json")
	for _, entry := range []string{`"node_modules/@radix-kit/react-slot": {
      "version": "1.2.1"`, `"node_modules/@radix-kit/react-dialog/node_modules/@radix-kit/react-slot": {
      "version": "1.2.0"`} {
		if !strings.Contains(lock, entry) {
			t.Errorf("the branch's lockfile lacks %s", entry)
		}
	}
}

// Issue 23 item 2 on fixtures/check/npm-storybook: @storybook/react 8.6
// pins the manager-api of its release; @storybook/addon-essentials 8.6
// no longer depends on it at all, so it agrees and moves along with
// react 19. And the storybook family, whose addon-essentials stops at
// 8.6.14 while storybook goes on to 10, is checked at 8.6.14.
func TestStorybookAddonThatDroppedASharedPinAgrees(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-storybook")
	npmInstall(t, e, dir)

	r := run(t, e, dir, "list", "--json")
	var rep model.DiscoverReport
	decode(t, r, &rep)
	react := companionPlanOf(t, rep, "react", "18.3.1")
	want := []string{
		"@storybook/addon-essentials 8.0.0 → 8.6.14", "@storybook/react 8.0.0 → 8.6.14",
		"@types/react 18.3.12 → 19.1.2", "@types/react-dom 18.3.1 → 19.1.1",
		"react-dom 18.3.1 → 19.1.0", "storybook 8.0.0 → 8.6.14",
	}
	if got := companionLines(react); !slices.Equal(got, want) {
		t.Errorf("react 18 → 19 companions\n got %q\nwant %q", got, want)
	}
	sb := group(rep, "storybook (3 packages)")
	if sb == nil || sb.Kind != model.GroupFamily || !slices.Equal(sb.Members, []string{"storybook", "@storybook/addon-essentials", "@storybook/react"}) {
		t.Fatalf("storybook family: %+v (groups %+v)", sb, rep.Groups)
	}

	// list moves the family where check does, so the planner (which hands
	// the row's target to check) and the commands agree.
	for _, row := range rep.Rows {
		if !slices.Contains(sb.Members, row.Package) {
			continue
		}
		if row.Target != "8.6.14" || row.Latest != "8.6.14" && !strings.Contains(row.TargetWhy, "@storybook/addon-essentials stops at 8.6.14") {
			t.Errorf("list: %s → %q (%q), want 8.6.14 with why the family stays there", row.Package, row.Target, row.TargetWhy)
		}
	}
	if react.To != "19.1.0" {
		t.Errorf("react's own target moved: %+v", react)
	}

	r = run(t, e, dir, "check", "storybook", "--json")
	var chk model.CheckReport
	decode(t, r, &chk)
	pr := packageReport(t, chk, "storybook (3 packages)")
	targets := map[string]string{}
	for _, m := range pr.Members {
		targets[m.Name] = m.Target
	}
	for _, name := range sb.Members {
		if targets[name] != "8.6.14" {
			t.Errorf("check storybook: %s → %q, want 8.6.14, the newest release every member has (members %+v)", name, targets[name], pr.Members)
		}
	}
	if !slices.ContainsFunc(pr.Notes, func(n string) bool { return strings.Contains(n, "@storybook/addon-essentials stops at 8.6.14") }) {
		t.Errorf("check storybook notes %q lack why the family stays at 8.6.14", pr.Notes)
	}
}

// Issue 23 item 11 on fixtures/check/npm-nx: @nx/eslint 21 peer-requires
// eslint ^10, eslint-plugin-tailwindcss 4 peer-requires eslint ^10 and
// tailwindcss ^4. The one release group is nx with its @nx/* plugins;
// eslint, tailwindcss and the plugin are companions, never members.
func TestNxGroupsAreReleaseTrains(t *testing.T) {
	e := checkEnv(t)
	dir := copyFixture(t, "npm-nx")
	npmInstall(t, e, dir)

	r := run(t, e, dir, "list", "--json")
	var rep model.DiscoverReport
	decode(t, r, &rep)
	var titles []string
	for _, g := range rep.Groups {
		titles = append(titles, g.Title+": "+strings.Join(g.Members, ", "))
	}
	if want := []string{"nx (4 packages): nx, @nx/eslint, @nx/js, @nx/workspace"}; !slices.Equal(titles, want) {
		t.Errorf("groups %q, want %q", titles, want)
	}
	eslint := companionPlanOf(t, rep, "eslint", "9.0.0")
	want := []string{"@nx/eslint 19.8.4 → 21.0.0", "@nx/js 19.8.4 → 21.0.0", "@nx/workspace 19.8.4 → 21.0.0", "nx 19.8.4 → 21.0.0"}
	if got := companionLines(eslint); !slices.Equal(got, want) {
		t.Errorf("eslint 9 → 10 companions\n got %q\nwant %q", got, want)
	}
}

// Issue 23 item 10 (its first half) on fixtures/check/npm-own-types:
// bcryptjs 3 and config 5 ship their own declarations. bcryptjs's @types
// package publishes the deprecated stub list reads; config's publishes
// none here, and check reads the target's tarball. Either way the plan
// removes the @types package, check compiles against the target's own
// types instead of saying "not compiled", and fix deletes the @types entry
// from package.json in the same install.
func TestOwnTypesRemoveTheirTypesPackage(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyFixture(t, "npm-own-types")
	npmInstall(t, fe.env, dir)
	commitAll(t, dir)

	r := run(t, fe.env, dir, "list", "--json")
	var rep model.DiscoverReport
	decode(t, r, &rep)
	bc := companionPlanOf(t, rep, "bcryptjs", "2.4.3")
	want := []model.Companion{{Name: "@types/bcryptjs", From: "2.4.6", Why: "bcryptjs 3.0.3 ships its own types", Remove: true}}
	if !slices.Equal(bc.Companions, want) || len(bc.Conflicts) > 0 {
		t.Errorf("bcryptjs 2 → 3 companions %+v, want %+v", bc.Companions, want)
	}
	r = run(t, fe.env, dir, "list", "--ci")
	if !strings.Contains(r.stdout, "remove @types/bcryptjs  2.4.6  bcryptjs 3.0.3 ships its own types") {
		t.Errorf("list does not say the removal:\n%s", r.stdout)
	}

	for _, tc := range []struct{ pkg, types, installed, target string }{
		{"bcryptjs", "@types/bcryptjs", "2.4.6", "3.0.3"},
		{"config", "@types/config", "3.3.5", "5.0.1"},
	} {
		r = run(t, fe.env, dir, "check", tc.pkg, "--json")
		var chk model.CheckReport
		decode(t, r, &chk)
		pr := packageReport(t, chk, tc.pkg)
		if r.code != 0 || pr.Compile.Compiled == 0 || strings.Contains(pr.Compile.Line, "not compiled") {
			t.Errorf("check %s: exit %d, compile %+v; want it compiled against %s %s's own types", tc.pkg, r.code, pr.Compile, tc.pkg, tc.target)
		}
		rm := model.Companion{Name: tc.types, From: tc.installed, Why: tc.pkg + " " + tc.target + " ships its own types", Remove: true}
		if !slices.Contains(pr.Companions.Companions, rm) {
			t.Errorf("check %s companions %+v lack %+v", tc.pkg, pr.Companions.Companions, rm)
		}
	}

	fix, r := runFix(t, fe, dir, "bcryptjs")
	if r.code != 0 || fix.Status != "verified" {
		t.Fatalf("fix bcryptjs: exit %d, %s (%s)\n%s\n%s", r.code, fix.Status, fix.Reason, r.stdout, r.stderr)
	}
	manifest := git(t, dir, "show", fix.Branch+":package.json")
	if strings.Contains(manifest, "@types/bcryptjs") || !strings.Contains(manifest, `"bcryptjs": "^3.0.3"`) {
		t.Errorf("the branch's package.json keeps @types/bcryptjs or lacks bcryptjs 3:\n%s", manifest)
	}
	if lock := git(t, dir, "show", fix.Branch+":package-lock.json"); strings.Contains(lock, "node_modules/@types/bcryptjs") {
		t.Error("the branch's lockfile still installs @types/bcryptjs")
	}
}
