package fix

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/packs"
	"github.com/uptide/uptide/engine/plan"
)

// The rule step works on what check's plan counted by rule: the same dry
// run picks the same sites, writeEdits makes exactly those edits, and the
// sites a rule took are neither handed to the assisted fixer nor left for
// a person.
func TestRuleEdits(t *testing.T) {
	root := t.TempDir()
	src := "import { z } from 'zod';\n" +
		"export const r = z.record(z.number());\n" +
		"export const t = z.string().trim().ip();\n" +
		"export function f(e: z.ZodError) { return e.errors.length; }\n"
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src/a.ts"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	ev := func(line, col, code int, msg string) []model.Diagnostic {
		return []model.Diagnostic{{File: "src/a.ts", Line: line, Column: col, Code: code, Message: msg}}
	}
	findings := []model.Finding{
		{ID: "rec", Change: "removed", Path: "ZodRecord.create", File: "src/a.ts", Line: 2, Column: 20, Severity: model.Breaking,
			Evidence: ev(2, 20, 2554, "Expected 2-3 arguments, but got 1.")},
		{ID: "ip", Change: "removed", Path: "ZodString#ip", File: "src/a.ts", Line: 3, Column: 35, Severity: model.Breaking,
			Evidence: ev(3, 35, 2339, "Property 'ip' does not exist")},
		{ID: "err", Change: "removed", Path: "ZodError#errors", File: "src/a.ts", Line: 4, Column: 43, Severity: model.Breaking},
	}
	pl := packs.For("zod", "3.23.8", "4.0.17").Planner(root)
	rep := model.PackageReport{Package: "zod", Findings: findings, Plan: plan.Build(findings, plan.Options{Package: "zod", Pack: pl})}
	name, ruled, _ := byRule([]model.PackageReport{rep})
	if name != "zod" || len(ruled) != 2 {
		t.Fatalf("byRule = %s, %d findings; want zod, 2", name, len(ruled))
	}
	edits, err := packs.Named(name).Planner(root).Edits(ruled)
	if err != nil {
		t.Fatal(err)
	}
	for _, fe := range edits {
		if err := writeEdits(root, fe); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(root, "src/a.ts"))
	want := "import { z } from 'zod';\n" +
		"export const r = z.record(z.string(), z.number());\n" +
		"export const t = z.string().trim().ip();\n" +
		"export function f(e: z.ZodError) { return e.issues.length; }\n"
	if string(got) != want {
		t.Fatalf("after the rule edits:\n%s", got)
	}
	if info, _ := os.Stat(filepath.Join(root, "src/a.ts")); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", info.Mode().Perm())
	}
	taken := map[string]bool{"rec": true, "err": true}
	// The rule sites' errors, had any survived, are not the assisted
	// fixer's; the ip site is.
	up := append(ev(2, 20, 2554, "Expected 2-3 arguments, but got 1."), ev(3, 35, 2339, "Property 'ip' does not exist")...)
	var ids []string
	for _, s := range assistSites([]model.PackageReport{rep}, up, taken) {
		ids = append(ids, s.ID)
	}
	if strings.Join(ids, ",") != "ip" {
		t.Errorf("assisted sites %q, want ip alone", ids)
	}
	// A site a rule took is not left for a person, even one the compiler
	// gave no error for (ZodError#errors here).
	for _, s := range sitesLeft([]model.PackageReport{rep}, nil, nil, nil, taken) {
		t.Errorf("left for you: %+v", s)
	}
	if left := sitesLeft([]model.PackageReport{rep}, nil, nil, nil, nil); len(left) != 1 || left[0].Finding != "err" {
		t.Errorf("without the rule step, sites left %+v, want the errors site", left)
	}
}

// A file whose edits cannot be written is an error naming it, and nothing
// of it is written.
func TestWriteEditsRefuses(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.ts"), []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := writeEdits(root, packs.FileEdit{File: "a.ts", Edits: []packs.Edit{{File: "a.ts", Start: 0, End: 2}, {File: "a.ts", Start: 1, End: 3}}})
	if err == nil || !strings.Contains(err.Error(), "a.ts") {
		t.Fatalf("overlapping edits: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.ts")); string(b) != "abc" {
		t.Errorf("a.ts became %q", b)
	}
	if err := writeEdits(root, packs.FileEdit{File: "../outside.ts"}); err == nil {
		t.Error("a path outside the repository was written")
	}
}
