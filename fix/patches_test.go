package fix

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const original = "import { slugify } from \"slugkit\";\n\nexport function titleSlug(t: string): string {\n  return slugify(t, { lower: true });\n}\n"

func TestApplyExact(t *testing.T) {
	good := "--- a/src/title.ts\n+++ b/src/title.ts\n@@ -3,3 +3,3 @@\n export function titleSlug(t: string): string {\n-  return slugify(t, { lower: true });\n+  return slugify(t, { lower: true, locale: \"en\" });\n }\n"
	cases := []struct {
		name, diff, want, err string
	}{
		{"exact", good, strings.Replace(original, "{ lower: true }", "{ lower: true, locale: \"en\" }", 1), ""},
		{"no headers", good[strings.Index(good, "@@"):], strings.Replace(original, "{ lower: true }", "{ lower: true, locale: \"en\" }", 1), ""},
		{"context differs", strings.Replace(good, " export function titleSlug(t: string)", " export function titleSlug(s: string)", 1), "", "does not match line 3 exactly"},
		// An earlier patch of the same file moved the lines: the hunk goes
		// to the one place its old block is, exactly.
		{"moved lines, unique block", strings.Replace(good, "@@ -3,3 +3,3 @@", "@@ -2,3 +2,3 @@", 1), strings.Replace(original, "{ lower: true }", "{ lower: true, locale: \"en\" }", 1), ""},
		{"moved lines, context differs", strings.Replace(strings.Replace(good, "@@ -3,3 +3,3 @@", "@@ -2,3 +2,3 @@", 1), " }\n", " };\n", 1), "", "does not match line 2 exactly"},
		{"other file", strings.Replace(good, "+++ b/src/title.ts", "+++ b/src/other.ts", 1), "", "edits its own file"},
		{"creates a file", "--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1 @@\n+x\n", "", "creates or deletes"},
		{"short hunk", "@@ -3,3 +3,3 @@\n export function titleSlug(t: string): string {\n", "", "shorter than its header"},
		{"insert", "@@ -1,0 +2 @@\n+// added\n", strings.Replace(original, "\n\n", "\n// added\n\n", 1), ""},
		{"garbage", "hello\n", "", "not part of a unified diff"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "src", "title.ts")
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(original), 0o644); err != nil {
				t.Fatal(err)
			}
			err := ApplyPatch(dir, Patch{File: "src/title.ts", Rule: "r", Diff: c.diff})
			got, _ := os.ReadFile(file)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				if string(got) != original {
					t.Fatalf("a rejected patch changed the file:\n%s", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// A block that occurs twice is never placed by guessing.
func TestApplyAmbiguousBlock(t *testing.T) {
	dir := t.TempDir()
	twice := "a();\nb();\na();\nb();\n"
	if err := os.WriteFile(filepath.Join(dir, "x.ts"), []byte(twice), 0o644); err != nil {
		t.Fatal(err)
	}
	err := ApplyPatch(dir, Patch{File: "x.ts", Rule: "r", Diff: "@@ -2,2 +2,2 @@\n a();\n-b();\n+c();\n"})
	if err == nil || !strings.Contains(err.Error(), "does not match line 2 exactly") {
		t.Fatalf("err %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "x.ts")); string(got) != twice {
		t.Fatalf("changed: %q", got)
	}
}

func TestReadPatches(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		f := filepath.Join(dir, "p.json")
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	if _, err := ReadPatches(write(`{"schemaVersion":1,"package":"slugkit","patches":[{"rule":"r","file":"../x","line":1,"diff":"@@"}]}`)); err == nil || !strings.Contains(err.Error(), "inside the repository") {
		t.Errorf("escape: %v", err)
	}
	if _, err := ReadPatches(write(`{"schemaVersion":2,"patches":[]}`)); err == nil || !strings.Contains(err.Error(), "schemaVersion 2") {
		t.Errorf("version: %v", err)
	}
	if _, err := ReadPatches(write(`[]`)); err == nil || !strings.Contains(err.Error(), "p.json: not a patch file") {
		t.Errorf("shape: %v", err)
	}
	pf, err := ReadPatches(write(`{"schemaVersion":1,"package":"slugkit","patches":[{"rule":"r","file":"src/a.ts","line":1,"diff":"@@ -1 +1 @@\n-a\n+b\n"}]}`))
	if err != nil || len(pf.Patches) != 1 {
		t.Fatalf("%v %+v", err, pf)
	}
}
