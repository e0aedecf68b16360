package assist

import (
	"context"
	"strings"
	"testing"

	"github.com/uptide/uptide/fix/unidiff"
)

func TestParseReply(t *testing.T) {
	obj := `{"diff": "--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b", "explanation": " why "}`
	for _, tc := range []struct {
		text, err string
	}{
		{obj, ""},
		{"```json\n" + obj + "\n```", ""},
		{"Here is the fix:\n\n```\n" + obj + "\n```\nHope it helps.", ""},
		{"Sure! " + obj, ""},
		{"", "empty"},
		{"I cannot do that.", "not the JSON object"},
		{`{"explanation": "x"}`, `no "diff"`},
		{`{"diff": 3}`, "not the JSON object"},
	} {
		s, err := ParseReply(tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("%q: %v, want %q", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil || !strings.HasSuffix(s.Diff, "+b\n") || s.Explanation != "why" {
			t.Fatalf("%q: %+v %v", tc.text, s, err)
		}
	}
}

func TestValidateTable(t *testing.T) {
	b := site("b", "src/b.ts", 3, errB)
	good := diffOf("src/b.ts", "make()", "make(0)")
	moved := strings.Replace(good, "@@ -2,2 +2,2 @@", "@@ -1,2 +1,2 @@", 1)
	miscounted := strings.Replace(good, "@@ -2,2 +2,2 @@", "@@ -2,3 +2,2 @@", 1)
	twice := "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -9,1 +9,1 @@\n-  return make();\n+  return make(0);\n"
	for _, tc := range []struct {
		name, diff string
		s          Site
		ok         bool
		stage, why string
		repaired   bool
	}{
		{"good", good, b, true, "compile", "", false},
		{"header moved, block unique", moved, b, true, "compile", "", true},
		{"counts wrong, block unique", miscounted, b, true, "compile", "", true},
		{"header moved, block twice", twice, site("one", "src/a.ts", 4, errOne), false, "apply", "occurs at lines 4 and 8", false},
		{"context changed", strings.Replace(good, "-export const", "-export let", 1), b, false, "apply", "not in the file exactly", false},
		{"another file", "--- a/src/c.ts\n+++ b/src/c.ts\n@@ -1 +1 @@\n-a\n+b\n", b, false, "parse", "edits src/c.ts", false},
		{"two files", good + "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-x\n+y\n", b, false, "parse", "edits src/a.ts", false},
		{"new file", "--- /dev/null\n+++ b/src/b.ts\n@@ -0,0 +1 @@\n+x\n", b, false, "parse", "creates or deletes", false},
		{"not a diff", "just change make() to make(0)", b, false, "parse", "not part of a unified diff", false},
		{"no change", "--- a/src/b.ts\n+++ b/src/b.ts\n@@ -3 +3 @@\n-export const b = make();\n+export const b = make();\n", b, false, "apply", "changes nothing", false},
		{"ts-expect-error", diffOf("src/b.ts", "export const", "// @ts-expect-error upgrade\nexport const"), b, false, "suppression", "@ts-expect-error", false},
		{"ts-nocheck", diffOf("src/b.ts", "import", "// @ts-nocheck\nimport"), b, false, "suppression", "@ts-nocheck", false},
		{"eslint-disable", diffOf("src/b.ts", "make();", "make(0); // eslint-disable-line"), b, false, "suppression", "eslint-disable", false},
		{"as any", diffOf("src/b.ts", "make()", "(make as any)()"), b, false, "suppression", `"as any"`, false},
		{"as unknown as", diffOf("src/b.ts", "make()", "(make as unknown as () => number)()"), b, false, "suppression", `"as unknown as"`, false},
		{"still failing", diffOf("src/b.ts", "export const b", "export const bee"), b, false, "compile", "still reports", false},
		{"new error", diffOf("src/b.ts", "import { make }", "import { make, nope }"), b, false, "compile", "has no exported member", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Validate(context.Background(), tc.s, tc.diff, readTest, &ruleValidator{})
			if err != nil {
				t.Fatal(err)
			}
			if v.OK != tc.ok || v.Stage != tc.stage || !strings.Contains(v.Reason, tc.why) || v.Repaired != tc.repaired {
				t.Fatalf("%+v", v)
			}
			if v.OK {
				hunks, err := unidiff.Parse(v.Diff, tc.s.File)
				if err != nil {
					t.Fatalf("the kept diff does not parse: %v\n%s", err, v.Diff)
				}
				if after, err := unidiff.Apply(testFiles[tc.s.File], hunks); err != nil || after != v.After {
					t.Fatalf("the kept diff does not apply exactly: %v", err)
				}
			}
		})
	}
}

func TestSuppressionAngleCast(t *testing.T) {
	for text, want := range map[string]string{
		"const x = <any>y;":                  `"<any>"`,
		"return <any>(y);":                   `"<any>"`,
		"f(<any>y)":                          `"<any>"`,
		"const [s] = useState<any>(null);":   "",
		"const a = new Array<any>();":        "",
		"type T = Promise<any>;":             "",
		"const z = y as unknown as Foo<Bar>": `"as unknown as"`,
	} {
		got := Suppression([]unidiff.Hunk{{Lines: []unidiff.Line{{Op: '+', Text: text}}}})
		if got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}

// A line that keeps a cast it already had adds none.
func TestSuppressionCountsNewOnes(t *testing.T) {
	hunks := []unidiff.Hunk{{Lines: []unidiff.Line{{Op: '-', Text: "f(x as any)"}, {Op: '+', Text: "g(x as any)"}}}}
	if s := Suppression(hunks); s != "" {
		t.Fatalf("a kept cast counted as new: %s", s)
	}
	hunks[0].Lines = append(hunks[0].Lines, unidiff.Line{Op: '+', Text: "h(y as  any)"})
	if s := Suppression(hunks); s != `"as any"` {
		t.Fatalf("a second cast: %q", s)
	}
}

func FuzzParseReply(f *testing.F) {
	f.Add(`{"diff": "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b", "explanation": "e"}`)
	f.Add("```json\n{\"diff\": \"x\"}\n```")
	f.Add("```")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseReply(text)
		if err == nil && strings.TrimSpace(s.Diff) == "" {
			t.Fatal("a reply without a diff was taken")
		}
	})
}

func FuzzValidate(f *testing.F) {
	f.Add(diffOf("src/b.ts", "make()", "make(0)"))
	f.Add("@@ -1,9 +1,1 @@\n-import\n")
	f.Fuzz(func(t *testing.T, diff string) {
		v, err := Validate(context.Background(), site("b", "src/b.ts", 3, errB), diff, readTest, &ruleValidator{})
		if err != nil {
			t.Fatal(err)
		}
		if v.OK && Suppression(mustParse(t, v.Diff)) != "" {
			t.Fatal("a suppressing diff validated")
		}
	})
}

func mustParse(t *testing.T, diff string) []unidiff.Hunk {
	h, err := unidiff.Parse(diff, "src/b.ts")
	if err != nil {
		t.Fatal(err)
	}
	return h
}
