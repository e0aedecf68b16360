package unidiff

import (
	"strings"
	"testing"
)

const original = "import { slugify } from \"slugkit\";\n\nexport function titleSlug(t: string): string {\n  return slugify(t, { lower: true });\n}\n"

func apply(t *testing.T, content, diff, file string) (string, error) {
	t.Helper()
	hunks, err := Parse(diff, file)
	if err != nil {
		return "", err
	}
	return Apply(content, hunks)
}

func TestApplyExact(t *testing.T) {
	good := "--- a/src/title.ts\n+++ b/src/title.ts\n@@ -3,3 +3,3 @@\n export function titleSlug(t: string): string {\n-  return slugify(t, { lower: true });\n+  return slugify(t, { lower: true, locale: \"en\" });\n }\n"
	edited := strings.Replace(original, "{ lower: true }", "{ lower: true, locale: \"en\" }", 1)
	cases := []struct {
		name, diff, want, err string
	}{
		{"exact", good, edited, ""},
		{"no headers", good[strings.Index(good, "@@"):], edited, ""},
		{"context differs", strings.Replace(good, " export function titleSlug(t: string)", " export function titleSlug(s: string)", 1), "", "does not match line 3 exactly"},
		{"wrong line is not fuzzed", strings.Replace(good, "@@ -3,3 +3,3 @@", "@@ -2,3 +2,3 @@", 1), "", "does not match line 2 exactly"},
		{"other file", strings.Replace(good, "+++ b/src/title.ts", "+++ b/src/other.ts", 1), "", "edits its own file"},
		{"creates a file", "--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1 @@\n+x\n", "", "creates or deletes"},
		{"renames", "diff --git a/src/title.ts b/src/t.ts\nrename from src/title.ts\n", "", "renames"},
		{"short hunk", "@@ -3,3 +3,3 @@\n export function titleSlug(t: string): string {\n", "", "shorter than its header"},
		{"insert", "@@ -1,0 +2 @@\n+// added\n", strings.Replace(original, "\n\n", "\n// added\n\n", 1), ""},
		{"garbage", "hello\n", "", "not part of a unified diff"},
		{"empty", "", "", "no hunk"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := apply(t, original, c.diff, "src/title.ts")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestFinalNewline(t *testing.T) {
	hunks, err := Parse("@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n", "f")
	if err != nil {
		t.Fatal(err)
	}
	if next, err := Apply("a\nb", hunks); err != nil || next != "a\nc" {
		t.Fatalf("%q %v", next, err)
	}
	if _, err := Apply("a\nb\n", hunks); err == nil {
		t.Fatal("a patch that expects no final newline applied to a file that has one")
	}
}

func TestRepair(t *testing.T) {
	content := "a\nb\nc\nd\nb\ne\n"
	cases := []struct {
		name, diff, want, err string
	}{
		{"misplaced unique block", "@@ -1,2 +1,2 @@\n c\n-d\n+D\n", "a\nb\nc\nD\nb\ne\n", ""},
		{"in place stays", "@@ -3,2 +3,2 @@\n c\n-d\n+D\n", "a\nb\nc\nD\nb\ne\n", ""},
		{"ambiguous block", "@@ -9 +9 @@\n-b\n+B\n", "", "occurs at lines 2 and 5"},
		{"changed context", "@@ -3,2 +3,2 @@\n C\n-d\n+D\n", "", "not in the file exactly"},
		{"insert without context", "@@ -9,0 +10 @@\n+x\n", "", "only inserts"},
		{"two hunks, second moved", "@@ -1 +1 @@\n-a\n+A\n@@ -1,2 +1,2 @@\n d\n-b\n+B\n", "A\nb\nc\nd\nB\ne\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hunks, err := Parse(c.diff, "f")
			if err != nil {
				t.Fatal(err)
			}
			fixed, err := Repair(content, hunks)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := Apply(content, fixed)
			if err != nil || got != c.want {
				t.Fatalf("got %q %v, want %q", got, err, c.want)
			}
			// The repaired header is written out and read back the same.
			again, err := apply(t, content, Format("f", fixed), "f")
			if err != nil || again != c.want {
				t.Fatalf("formatted repair: %q %v", again, err)
			}
		})
	}
}

// ApplyMoved applies in place, moves a misplaced hunk to its one place
// (and says so), and fails with both reasons when neither works.
func TestApplyMoved(t *testing.T) {
	content := "a\nb\nc\nd\nb\ne\n"
	cases := []struct {
		name, diff, want, err string
		moved                 bool
	}{
		{"in place", "@@ -3,2 +3,2 @@\n c\n-d\n+D\n", "a\nb\nc\nD\nb\ne\n", "", false},
		{"moved", "@@ -1,2 +1,2 @@\n c\n-d\n+D\n", "a\nb\nc\nD\nb\ne\n", "", true},
		{"ambiguous", "@@ -9 +9 @@\n-b\n+B\n", "", "occurs at lines 2 and 5", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hunks, err := Parse(c.diff, "f")
			if err != nil {
				t.Fatal(err)
			}
			got, applied, moved, err := ApplyMoved(content, hunks)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || got != c.want || moved != c.moved {
				t.Fatalf("got %q moved %v (%v), want %q moved %v", got, moved, err, c.want, c.moved)
			}
			if again, err := Apply(content, applied); err != nil || again != c.want {
				t.Errorf("the hunks as applied give %q (%v)", again, err)
			}
		})
	}
}

func TestMakeRoundTrips(t *testing.T) {
	cases := []struct{ before, after string }{
		{original, strings.Replace(original, "{ lower: true }", "{ lower: true, locale: \"en\" }", 1)},
		{"a\nb\nc\n", "a\nc\n"},
		{"a\nb\nc\n", "x\na\nb\nc\n"},
		{"a\nb", "a\nb\n"},
		{"a\nb\n", "a\nc"},
		{"", "new\n"},
		{"gone\n", ""},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n"},
	}
	for _, c := range cases {
		d := Make("f", c.before, c.after, 3)
		got, err := apply(t, c.before, d, "f")
		if err != nil || got != c.after {
			t.Errorf("%q → %q: diff\n%s\napplies to %q (%v)", c.before, c.after, d, got, err)
		}
	}
	if d := Make("f", "same\n", "same\n", 3); d != "" {
		t.Errorf("equal contents gave a diff: %q", d)
	}
	if d := Make("f", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n", 3); strings.Count(d, "@@ -") != 2 {
		t.Errorf("distant changes in one hunk:\n%s", d)
	}
}

func TestFiles(t *testing.T) {
	got := Files("--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n--- a/y.ts\n+++ b/y.ts\n")
	if strings.Join(got, ",") != "x.ts,y.ts" {
		t.Fatalf("%v", got)
	}
}

func FuzzApply(f *testing.F) {
	f.Add("@@ -3,3 +3,3 @@\n export function titleSlug(t: string): string {\n-  return slugify(t, { lower: true });\n+  return 1;\n }\n")
	f.Add("@@ -1,0 +2 @@\n+// added\n")
	f.Add("--- a/f\n+++ b/f\n@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+c\n")
	f.Fuzz(func(t *testing.T, diff string) {
		hunks, err := Parse(diff, "f")
		if err != nil {
			return
		}
		_, _ = Apply(original, hunks)
		if fixed, err := Repair(original, hunks); err == nil {
			if _, err := Apply(original, fixed); err != nil {
				t.Fatalf("a repaired diff does not apply: %v", err)
			}
		}
	})
}

func FuzzMake(f *testing.F) {
	f.Add(original, "x\n"+original)
	f.Add("a\nb", "a\nb\n")
	f.Fuzz(func(t *testing.T, before, after string) {
		d := Make("f", before, after, 2)
		if d == "" {
			if before != after {
				t.Fatal("no diff for different contents")
			}
			return
		}
		hunks, err := Parse(d, "f")
		if err != nil {
			t.Fatalf("Make wrote a diff Parse refuses: %v\n%s", err, d)
		}
		got, err := Apply(before, hunks)
		if err != nil || got != after {
			t.Fatalf("round trip: %q %v, want %q\n%s", got, err, after, d)
		}
	})
}

// Recount takes a header's counts from its lines, keeps the section text
// after the header, and leaves a trailing blank line out of the last hunk.
func TestRecount(t *testing.T) {
	cases := []struct {
		name, diff, want string
		changed          bool
	}{
		{"miscounted", "--- a/f\n+++ b/f\n@@ -3,9 +3,1 @@ func f\n c\n-d\n+D\n", "--- a/f\n+++ b/f\n@@ -3,2 +3,2 @@ func f\n c\n-d\n+D\n", true},
		{"right already", "@@ -3,2 +3,2 @@\n c\n-d\n+D\n", "@@ -3,2 +3,2 @@\n c\n-d\n+D\n", false},
		{"trailing blank line", "@@ -1 +1 @@\n-a\n+A\n\n", "@@ -1,1 +1,1 @@\n-a\n+A\n", true},
		{"two hunks", "@@ -1,5 +1,5 @@\n-a\n+A\n@@ -4 +4,7 @@\n d\n-b\n+B\n", "@@ -1,1 +1,1 @@\n-a\n+A\n@@ -4,2 +4,2 @@\n d\n-b\n+B\n", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, changed := Recount(c.diff)
			if got != c.want || changed != c.changed {
				t.Errorf("got %q changed %v, want %q changed %v", got, changed, c.want, c.changed)
			}
		})
	}
}
