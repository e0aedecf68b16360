package match

import (
	"fmt"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

const pkg = "pkg"

// use is a usage at line of file, with a span of width characters starting
// at start; its canonical path is the name written unless set otherwise.
func use(file string, line int, written string, access model.Access) model.Usage {
	return model.Usage{
		Workspace: ".", File: file, Line: line, Column: 1,
		Start: line * 100, End: line*100 + 40,
		SymbolPath: written, CanonicalPath: written,
		Access: access, Via: model.ViaDirect, Loader: model.LoaderImport, Checked: true, Subpath: ".",
	}
}

func canonical(u model.Usage, p string) model.Usage  { u.CanonicalPath = p; return u }
func via(u model.Usage, v model.Via) model.Usage     { u.Via = v; return u }
func col(u model.Usage, c int) model.Usage           { u.Column = c; u.Start += c; u.End = u.Start + 5; return u }
func span(u model.Usage, start, end int) model.Usage { u.Start, u.End = start, end; return u }
func unchecked(u model.Usage) model.Usage            { u.Checked = false; return u }

func change(p string, k model.ChangeKind, sev model.Severity) model.Change {
	return model.Change{Path: p, Kind: k, Severity: sev, Confidence: 1}
}

func withRule(c model.Change, rule string) model.Change { c.Rule = rule; return c }
func withRole(c model.Change, role string) model.Change { c.Role = role; return c }
func withConf(c model.Change, x float64) model.Change   { c.Confidence = x; return c }
func aliasOf(c model.Change, p string) model.Change     { c.AliasOf = p; return c }
func foldedInto(c model.Change, p string) model.Change  { c.FoldedInto = p; return c }
func replacement(c model.Change, r string) model.Change { c.Replacement = r; return c }

func surface(syms ...model.Symbol) *model.Surface {
	return &model.Surface{Package: pkg, Version: "2.0.0", Symbols: syms}
}

func sym(p string, k model.SymbolKind, sig string) model.Symbol {
	return model.Symbol{Path: p, Kind: k, Signature: sig, ExportedFrom: []string{"."}, File: "index.d.ts"}
}

func inFile(s model.Symbol, f string) model.Symbol { s.File = f; return s }

// diag is a diagnostic starting at offset start of file.
func diag(file string, start, code int, msg string) model.Diagnostic {
	return model.Diagnostic{Workspace: ".", File: file, Line: start / 100, Column: start%100 + 1, Start: start, Length: 3, Code: code, Message: msg}
}

func rooted(d model.Diagnostic, r model.Root) model.Diagnostic { d.Root = &r; return d }

// brief is the part of a finding the tests compare.
type brief struct {
	Path, SymbolPath, Change string
	Severity                 model.Severity
	Confidence               float64
	File                     string
	Line                     int
}

func (b brief) String() string {
	return fmt.Sprintf("%s %s (%s) %s %.3f at %s:%d", b.Change, b.Path, b.SymbolPath, b.Severity, b.Confidence, b.File, b.Line)
}

func briefOf(f model.Finding) brief {
	return brief{f.Path, f.SymbolPath, f.Change, f.Severity, f.Confidence, f.File, f.Line}
}

func briefs(fs []model.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = briefOf(f).String()
	}
	return out
}

// expect is one finding a case expects, compared field by field where set.
type expect struct {
	brief
	reason     string // substring
	fix        model.Fixability
	hidden     bool
	evidence   int
	sites      int
	downstream int
	similar    int
	root       string
	anchor     bool
}

func (e expect) check(t *testing.T, f model.Finding) {
	t.Helper()
	if got := briefOf(f); got != e.brief {
		t.Errorf("finding = %v\n       want %v", got, e.brief)
	}
	if !strings.Contains(f.Reason, e.reason) {
		t.Errorf("reason = %q, want it to contain %q", f.Reason, e.reason)
	}
	if e.fix != "" && f.Fixability != e.fix {
		t.Errorf("fixability = %q, want %q", f.Fixability, e.fix)
	}
	if f.Hidden != e.hidden {
		t.Errorf("hidden = %v, want %v", f.Hidden, e.hidden)
	}
	if len(f.Evidence) != e.evidence {
		t.Errorf("evidence = %d diagnostics, want %d", len(f.Evidence), e.evidence)
	}
	if len(f.Sites) != e.sites {
		t.Errorf("sites = %d, want %d", len(f.Sites), e.sites)
	}
	if len(f.Downstream) != e.downstream {
		t.Errorf("downstream = %d, want %d", len(f.Downstream), e.downstream)
	}
	if f.Similar != e.similar {
		t.Errorf("similar = %d, want %d", f.Similar, e.similar)
	}
	if f.Root != e.root {
		t.Errorf("root = %q, want %q", f.Root, e.root)
	}
	if f.AnchorOnly != e.anchor {
		t.Errorf("anchorOnly = %v, want %v", f.AnchorOnly, e.anchor)
	}
	if f.ID == "" || f.Package == "" {
		t.Errorf("finding without id or package: %+v", f)
	}
}

func checkAll(t *testing.T, got []model.Finding, want []expect) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d:\n  %s", len(got), len(want), strings.Join(briefs(got), "\n  "))
	}
	for i := range want {
		want[i].check(t, got[i])
	}
}
