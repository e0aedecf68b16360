package demoprovider

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix/assist"
	"github.com/uptide/uptide/fix/unidiff"
	"github.com/uptide/uptide/fixtures"
)

func site(file string, line, code int) assist.Site {
	return assist.Site{ID: file, File: file, Line: line, Errors: []model.Diagnostic{{File: file, Line: line, Code: code}}}
}

// Every scripted reply, first and retry, is the structured JSON the fixer
// parses, its diff names the site's file and applies exactly to the demo
// repository's file, and changes it.
func TestScriptedRepliesParseAndApply(t *testing.T) {
	p := New(nil)
	if p.Name() == "" || !strings.Contains(p.Name(), "scripted") {
		t.Errorf("name %q should say the provider is scripted", p.Name())
	}
	for _, s := range Scripts {
		for _, req := range []assist.Request{
			{Site: site(s.File, 1, s.Code), Attempt: 1},
			{Site: site(s.File, 1, s.Code), Attempt: 2},
			{Site: site(s.File, 1, s.Code), Attempt: 1, Hint: "use React.JSX"},
		} {
			if r := p.Reserve(req); r != 0 {
				t.Errorf("%s TS%d: reserve %v, want 0", s.File, s.Code, r)
			}
			reply, err := p.Complete(context.Background(), req)
			if err != nil {
				t.Fatalf("%s TS%d attempt %d: %v", s.File, s.Code, req.Attempt, err)
			}
			if reply.Cost != 0 {
				t.Errorf("%s TS%d: cost %v, want 0", s.File, s.Code, reply.Cost)
			}
			st, err := assist.ParseReply(reply.Text)
			if err != nil {
				t.Fatalf("%s TS%d: the reply does not parse: %v\n%s", s.File, s.Code, err, reply.Text)
			}
			if st.Explanation == "" {
				t.Errorf("%s TS%d: no explanation", s.File, s.Code)
			}
			if files := unidiff.Files(st.Diff); len(files) != 1 || files[0] != s.File {
				t.Errorf("%s TS%d: the diff names %v, want only %s", s.File, s.Code, files, s.File)
			}
			data, err := fs.ReadFile(fixtures.DemoRepo(), s.File)
			if err != nil {
				t.Fatal(err)
			}
			hunks, err := unidiff.Parse(st.Diff, s.File)
			if err != nil {
				t.Fatalf("%s TS%d: %v\n%s", s.File, s.Code, err, st.Diff)
			}
			after, err := unidiff.Apply(string(data), hunks)
			if err != nil {
				t.Fatalf("%s TS%d: the diff does not apply exactly to the demo's file: %v\n%s", s.File, s.Code, err, st.Diff)
			}
			if after == string(data) {
				t.Errorf("%s TS%d: the diff changes nothing", s.File, s.Code)
			}
			if sup := assist.Suppression(hunks); sup != "" {
				t.Errorf("%s TS%d: the diff adds a suppression (%s)", s.File, s.Code, sup)
			}
		}
	}
}

// The JSX site's first proposal is the weak one (any), a retry or a hint
// gets React.JSX.Element.
func TestJSXProposalsFirstWeakThenGood(t *testing.T) {
	p := New(nil)
	diffOf := func(req assist.Request) string {
		t.Helper()
		reply, err := p.Complete(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		st, err := assist.ParseReply(reply.Text)
		if err != nil {
			t.Fatal(err)
		}
		return st.Diff
	}
	jsx := site("packages/web/src/App.tsx", 9, 2503)
	if d := diffOf(assist.Request{Site: jsx, Attempt: 1}); !strings.Contains(d, "+export function App(props: { upload?: Upload }): any {") {
		t.Errorf("the first JSX proposal should be the weak any:\n%s", d)
	}
	for _, req := range []assist.Request{{Site: jsx, Attempt: 2}, {Site: jsx, Attempt: 1, Hint: "keep the type"}} {
		if d := diffOf(req); !strings.Contains(d, "+export function App(props: { upload?: Upload }): React.JSX.Element {") || strings.Contains(d, "any") {
			t.Errorf("a retry (attempt %d, hint %q) should propose React.JSX.Element:\n%s", req.Attempt, req.Hint, d)
		}
	}
}

// The diff is made against the file as read (the upgraded clone's, where
// a rule edit may have changed a line in the hunk's context).
func TestDiffFollowsTheFileAsRead(t *testing.T) {
	edited := "import { useRef } from \"react\";\nexport function App(props: { upload?: Upload }): JSX.Element {\n  const input = useRef<HTMLInputElement | undefined>(undefined);\n}\n"
	p := New(func(string) (string, error) { return edited, nil })
	reply, err := p.Complete(context.Background(), assist.Request{Site: site("packages/web/src/App.tsx", 2, 2503), Attempt: 2})
	if err != nil {
		t.Fatal(err)
	}
	st, err := assist.ParseReply(reply.Text)
	if err != nil {
		t.Fatal(err)
	}
	hunks, err := unidiff.Parse(st.Diff, "packages/web/src/App.tsx")
	if err != nil {
		t.Fatal(err)
	}
	after, err := unidiff.Apply(edited, hunks)
	if err != nil {
		t.Fatalf("the diff does not apply to the file as read: %v\n%s", err, st.Diff)
	}
	if !strings.Contains(after, "React.JSX.Element") || !strings.Contains(after, "(undefined)") {
		t.Errorf("after the patch:\n%s", after)
	}
	// A site whose text the file no longer has is an error, not a diff.
	p = New(func(string) (string, error) { return "export const x = 1;\n", nil })
	if _, err := p.Complete(context.Background(), assist.Request{Site: site("packages/web/src/App.tsx", 2, 2503), Attempt: 1}); err == nil {
		t.Error("an edit of text the file lacks should fail")
	}
}

// A site the script does not know is an error naming it, never an empty
// or made-up diff.
func TestUnknownSiteIsAnError(t *testing.T) {
	p := New(nil)
	for _, s := range []assist.Site{
		site("packages/web/src/Other.tsx", 3, 2503),
		site("packages/web/src/App.tsx", 9, 2322),
	} {
		_, err := p.Complete(context.Background(), assist.Request{Site: s, Attempt: 1})
		if err == nil || !strings.Contains(err.Error(), s.File) {
			t.Errorf("%s TS%d: error %v, want one naming the file", s.File, s.Errors[0].Code, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Complete(ctx, assist.Request{Site: site(Scripts[0].File, 9, Scripts[0].Code), Attempt: 1}); err == nil {
		t.Error("a cancelled call should fail")
	}
}

// An edit whose old text is not in the file once is refused.
func TestDiffRefusesAnAmbiguousEdit(t *testing.T) {
	p := New(nil)
	if _, err := p.Diff("packages/web/src/App.tsx", Reply{Edits: []Edit{{Old: "not in the file", New: "x"}}}); err == nil {
		t.Error("an edit of text the file lacks should fail")
	}
	if _, err := p.Diff("packages/web/src/Missing.tsx", Reply{}); err == nil {
		t.Error("a file the demo lacks should fail")
	}
}
