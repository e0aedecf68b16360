package html_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/fix/verify"
	"github.com/uptide/uptide/view/html"
)

// richFix is a failed run with every section view.Fix draws.
func richFix() *fix.Report {
	d := func(file string, line int, msg string) model.Diagnostic {
		return model.Diagnostic{File: file, Line: line, Column: 3, Code: 2345, Message: msg}
	}
	return &fix.Report{Package: "zod", From: "3.23.8", To: "4.0.17", Branch: "uptide/zod-4.0.17", Status: fix.StatusFailed, Reason: "2 new type errors",
		Risk:    fix.Risk{Level: "high", Why: []string{"a major", "no tests"}},
		Moves:   []fix.Move{{Name: "zod", From: "3.23.8", To: "4.0.17", Why: "the upgrade"}, {Name: "@types/x", From: "1.0.0", Why: "removal"}},
		Install: &fix.Install{Manager: "pnpm", Version: "9.15.9", Lockfile: "pnpm-lock.yaml"},
		Commits: []fix.Commit{{Sha: "0123456789abcdef", Subject: "upgrade zod"}},
		Patches: []fix.PatchResult{{File: "src/a.ts", Line: 3, Rule: "r", Reason: "did not apply"}},
		Rules:   &fix.RulesReport{Pack: "zod", Sites: []fix.RuleSite{{File: "src/e.ts", Line: 5, Rule: "zod-error"}}},
		Types: fix.TypesReport{Compiler: "TypeScript 5.8.3", Projects: []string{"tsconfig.json"}, Files: 3, Baseline: 1,
			New: []model.Diagnostic{d("src/a.ts", 4, "Argument of type 'x' is not assignable")}},
		Tests:     fix.TestsReport{Results: []verify.TestResult{{Run: verify.TestRun{Command: []string{"sh", "-c", "vitest run"}, Scope: "root"}, Status: "failed", Passed: 3, Failed: 1}}},
		Sites:     []fix.Site{{File: "src/b.ts", Line: 2, Rule: "removed", Message: "m", Errors: []model.Diagnostic{d("src/b.ts", 2, "m")}}},
		Decisions: []string{"decide this"},
		Clone:     fix.CloneReport{Repo: "/tmp/r/repo", Kept: true, Why: "the run did not verify: look at it there"},
		Checkout:  fix.CheckoutReport{RunFile: "/r/.git/uptide/uptide/zod-4.0.17/run.json"},
	}
}

func TestPlanGolden(t *testing.T) {
	var b bytes.Buffer
	if err := html.Plan(&b, richPlan()); err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "plan-rich.html"), b.String())
}

func TestFixGolden(t *testing.T) {
	var b bytes.Buffer
	if err := html.Fix(&b, richFix()); err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "fix-rich.html"), b.String())
}

// Package names, messages and diffs are the repository's and the
// registry's text: on the page they are text, never markup.
func TestUntrustedTextIsEscaped(t *testing.T) {
	const evil = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`
	rep := richCheck()
	rep.Repository.Name = evil
	p := &rep.Packages[2]
	p.Title, p.Findings[0].Reason, p.Findings[0].File = evil, evil, evil
	p.Plan.Rules[1].Title = evil
	p.Plan.Rules[1].Previews["a46084e2a59731e5"] = "@@ a @@\n-" + evil + "\n+</pre><script>x()</script>\n"
	p.Companions.Companions[0].Why = evil
	p.Plan.Next = []string{evil}
	var b bytes.Buffer
	if err := html.Check(&b, rep); err != nil {
		t.Fatal(err)
	}
	assertInert(t, b.String())
	r := richFix()
	r.Package, r.Reason, r.Decisions = evil, evil, []string{evil}
	r.Sites[0].Message = evil
	b.Reset()
	if err := html.Fix(&b, r); err != nil {
		t.Fatal(err)
	}
	assertInert(t, b.String())
	pl := richPlan()
	pl.Plan.Steps[1].Moves[0].Name, pl.Plan.Steps[1].Priorities[0].URL, pl.Plan.Steps[1].Blocked = evil, evil, evil
	b.Reset()
	if err := html.Plan(&b, pl); err != nil {
		t.Fatal(err)
	}
	assertInert(t, b.String())
}

// FuzzCheckPage: whatever text a report holds, the page has no element
// or attribute of its own making.
func FuzzCheckPage(f *testing.F) {
	f.Add(`<script>alert(1)</script>`, `"><img src=x onerror=y>`)
	f.Add(`</pre></div><style>body{}</style>`, "javascript:alert(1)")
	f.Add(`<!--`, `]]><![CDATA[`)
	f.Fuzz(func(t *testing.T, a, b string) {
		rep := richCheck()
		p := &rep.Packages[2]
		p.Title, p.Findings[0].Reason, p.Findings[0].File, p.Workspaces = a, b, a, []string{b}
		p.Plan.Rules[1].Previews["a46084e2a59731e5"] = "-" + a + "\n+" + b
		p.Compile.Line, p.Warnings = b, []string{a}
		var buf bytes.Buffer
		if err := html.Check(&buf, rep); err != nil {
			t.Fatal(err)
		}
		assertInert(t, buf.String())
	})
}

var (
	tagRe  = regexp.MustCompile(`<\s*/?\s*([a-zA-Z][a-zA-Z0-9]*)`)
	attrRe = regexp.MustCompile(`\s(on[a-z]+|src|href|action|formaction|srcdoc|style)\s*=`)
	// pageTags are the elements the templates write.
	pageTags = map[string]bool{"html": true, "head": true, "meta": true, "title": true, "style": true, "body": true, "header": true, "h1": true, "h2": true, "h3": true,
		"h4": true, "p": true, "main": true, "footer": true, "code": true, "table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true,
		"a": true, "section": true, "ul": true, "li": true, "span": true, "div": true, "pre": true}
)

// assertInert fails on any element the templates do not write, any
// event handler or source attribute, and any link but the page's own
// anchors. Text is escaped, so every '<' left on the page opens a tag.
func assertInert(t *testing.T, page string) {
	t.Helper()
	for _, tag := range regexp.MustCompile(`<[^>]*>`).FindAllString(page, -1) {
		if tag == "<!DOCTYPE html>" {
			continue
		}
		m := tagRe.FindStringSubmatch(tag)
		if m == nil || !pageTags[strings.ToLower(m[1])] {
			t.Fatalf("the page holds a tag it does not write: %s\n%s", tag, page)
		}
		for _, a := range attrRe.FindAllStringSubmatch(tag, -1) {
			if a[1] != "href" {
				t.Fatalf("the page holds a %s attribute: %s", a[1], tag)
			}
		}
		if h := regexp.MustCompile(`href="([^"]*)"`).FindStringSubmatch(tag); h != nil && !regexp.MustCompile(`^#p[0-9]+$`).MatchString(h[1]) {
			t.Fatalf("the page links to %q", h[1])
		}
	}
	if strings.Count(page, "<style>") != 1 || strings.Contains(page, "<script") {
		t.Fatalf("the page holds a style or script element of the input's")
	}
}

// No request: the policy forbids every fetch, and the page names no URL
// anywhere but in its text (an advisory's address is shown, not linked).
func TestPagesLoadNothing(t *testing.T) {
	rep := richCheck()
	rep.Packages[2].Notes = append(rep.Packages[2].Notes, "see https://example.invalid/zod for the guide")
	pages := map[string]func(*bytes.Buffer) error{
		"check": func(b *bytes.Buffer) error { return html.Check(b, rep) },
		"fix":   func(b *bytes.Buffer) error { return html.Fix(b, richFix()) },
		"plan":  func(b *bytes.Buffer) error { return html.Plan(b, richPlan()) },
	}
	for name, page := range pages {
		var b bytes.Buffer
		if err := page(&b); err != nil {
			t.Fatal(err)
		}
		assertNoRequest(t, name, b.String())
	}
}

func assertNoRequest(t *testing.T, name, page string) {
	t.Helper()
	const csp = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`
	if !strings.Contains(page, csp) {
		t.Errorf("%s: the page has no policy forbidding requests", name)
	}
	// Outside text content: the tags themselves and the style sheet.
	markup := regexp.MustCompile(`<[^>]*>`).FindAllString(page, -1)
	style := page[strings.Index(page, "<style>"):strings.Index(page, "</style>")]
	for _, m := range append(markup, style) {
		if strings.Contains(m, "http://") || strings.Contains(m, "https://") || strings.Contains(m, "url(") || strings.Contains(m, "@import") {
			t.Errorf("%s: the page names an address outside its text: %s", name, m)
		}
	}
}

func TestWriteFileNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-dir", "report.html")
	for _, err := range []error{html.Writable(missing), html.WriteFile(missing, 0o666, func(io.Writer) error { return nil })} {
		if err == nil || !strings.Contains(err.Error(), missing) {
			t.Errorf("an unwritable file: %v, want an error naming %s", err, missing)
		}
	}
	if err := html.Writable(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	ok := filepath.Join(dir, "r.html")
	if err := html.Writable(ok); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("Writable left %v behind", entries)
	}
}
