package model

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestWordsRoundTrip: every typed word marshals as itself and reads back;
// JSON envelopes keep the words they always had.
func TestWordsRoundTrip(t *testing.T) {
	type doc struct {
		Verdict Verdict        `json:"verdict,omitempty"`
		Status  AnalysisStatus `json:"status"`
		Row     RowStatus      `json:"row"`
		Update  UpdateKind     `json:"update,omitzero"`
		Fix     FixStatus      `json:"fix"`
		Risk    RiskLevel      `json:"risk"`
		Test    TestStatus     `json:"test"`
		Phase   Phase          `json:"phase"`
	}
	for _, tc := range []struct {
		in   doc
		want string
	}{
		{doc{VerdictBreaking, StatusAnalyzed, RowOK, Major(1), FixVerified, RiskLow, TestPassed, PhaseInstall},
			`{"verdict":"breaking","status":"analyzed","row":"ok","update":"major","fix":"verified","risk":"low","test":"passed","phase":"install"}`},
		{doc{VerdictUnknown, StatusNotAnalyzed, RowNotChecked, Major(9), FixNotRun, RiskHigh, TestNoTests, PhaseTests},
			`{"verdict":"unknown","status":"not-analyzed","row":"not-checked","update":"major ×9","fix":"not-run","risk":"high","test":"no-tests","phase":"tests"}`},
		{doc{VerdictNone, StatusSkipped, RowOK, UpdateKind{Level: LevelPrerelease}, FixFailed, RiskMedium, TestTimedOut, PhaseBisect},
			`{"status":"skipped","row":"ok","update":"prerelease","fix":"failed","risk":"medium","test":"timed-out","phase":"bisect"}`},
		{doc{VerdictSafe, StatusPartial, RowOK, UpdateKind{}, FixFailed, RiskLow, TestError, PhasePublish},
			`{"verdict":"safe","status":"partial","row":"ok","fix":"failed","risk":"low","test":"error","phase":"publish"}`},
	} {
		b, err := json.Marshal(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("marshal %+v:\n got %s\nwant %s", tc.in, b, tc.want)
		}
		var back doc
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		if back != tc.in {
			t.Errorf("round trip of %s: %+v, want %+v", b, back, tc.in)
		}
	}
}

// TestUnknownWordsAreRefused: a stored report naming a word this version
// does not know is an error that names the word and the ones allowed,
// never a silent zero value.
func TestUnknownWordsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		into any
		doc  string
		want string
	}{
		{new(struct{ V Verdict }), `{"V":"broken"}`, `unknown verdict "broken": want one of "breaking"`},
		{new(struct{ V Verdict }), `{"V":""}`, `unknown verdict ""`},
		{new(struct{ S AnalysisStatus }), `{"S":"done"}`, `unknown analysis status "done"`},
		{new(struct{ S AnalysisStatus }), `{"S":""}`, `unknown analysis status ""`},
		{new(struct{ S RowStatus }), `{"S":"OK"}`, `unknown row status "OK"`},
		{new(struct{ U UpdateKind }), `{"U":"huge"}`, `unknown update kind "huge"`},
		{new(struct{ U UpdateKind }), `{"U":"major ×1"}`, `unknown update kind "major ×1"`},
		{new(struct{ U UpdateKind }), `{"U":"major ×x"}`, `unknown update kind "major ×x"`},
		{new(struct{ U UpdateKind }), `{"U":"major ×02"}`, `unknown update kind "major ×02"`},
		{new(struct{ S FixStatus }), `{"S":"ok"}`, `unknown fix status "ok"`},
		{new(struct{ L RiskLevel }), `{"L":"severe"}`, `unknown risk level "severe"`},
		{new(struct{ S TestStatus }), `{"S":"skipped"}`, `unknown test status "skipped"`},
		{new(struct{ K CompanionKind }), `{"K":"friend"}`, `unknown companion kind "friend"`},
		{new(struct{ P Phase }), `{"P":"installing"}`, `unknown fix phase "installing"`},
	} {
		err := json.Unmarshal([]byte(tc.doc), tc.into)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.doc, err, tc.want)
		}
	}
}

func TestUpdateKind(t *testing.T) {
	for _, tc := range []struct {
		k            UpdateKind
		text         string
		major, empty bool
	}{
		{UpdateKind{}, "", false, true},
		{UpdateKind{Level: LevelPatch}, "patch", false, false},
		{UpdateKind{Level: LevelMinor}, "minor", false, false},
		{Major(1), "major", true, false},
		{Major(0), "major", true, false},
		{Major(3), "major ×3", true, false},
	} {
		if tc.k.String() != tc.text || tc.k.IsMajor() != tc.major || tc.k.IsZero() != tc.empty {
			t.Errorf("%+v: %q major=%v zero=%v, want %q %v %v", tc.k, tc.k, tc.k.IsMajor(), tc.k.IsZero(), tc.text, tc.major, tc.empty)
		}
	}
}

// proseNames are the fields and variables holding words for people: a
// reason, a why, a summary, a status or verdict line. Code decides on the
// typed words of this package, never on these.
var proseNames = regexp.MustCompile(`(?i)^(why|\w*why|reason|\w*reason|summary|status|\w*status|verdict|outcome|update|level|kind|phase|\w*phase)$`)

// textReaders are the strings functions that read a text's content.
var textReaders = map[string]bool{
	"HasPrefix": true, "HasSuffix": true, "Contains": true, "ContainsAny": true,
	"CutPrefix": true, "CutSuffix": true, "Index": true, "LastIndex": true, "EqualFold": true,
}

// allowed are the prose readings that decide nothing about a verdict or a
// status, with why.
var allowed = map[string]string{
	// Error() leaves out a cause its reason already quotes: wording of an
	// error message, not a decision.
	"engine/registry/errors.go": "e.Reason",
	// The providers' own protocol words (stop_reason, finish_reason): a
	// reply cut at its token limit.
	"fix/assist/anthropic.go": "r.StopReason",
	"fix/assist/openai.go":    "….FinishReason",
}

// TestNoCodeReadsProse fails when non-test code matches text on a reason,
// a why, a status or a verdict (strings.HasPrefix(w.Why, "release group
// "), strings.HasPrefix(r.Update, "major")): such a decision belongs on a
// typed word of this package, where the compiler sees every use.
func TestNoCodeReadsProse(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	scanned := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "fixtures", "node_modules", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		scanned++
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		ast.Inspect(file, func(n ast.Node) bool {
			// A word compared with a literal ("rep.Status == "verified"",
			// "case "install":" on a phase) is a decision on a word
			// the compiler does not see: name the typed constant instead.
			switch x := n.(type) {
			case *ast.BinaryExpr:
				if (x.Op == token.EQL || x.Op == token.NEQ) && proseWord(x.X) && wordLiteral(x.Y) != "" && allowed[rel] != exprText(x.X) {
					t.Errorf("%s: %s compared with %s: compare with a typed word of engine/model instead",
						fset.Position(x.Pos()), exprText(x.X), wordLiteral(x.Y))
				}
			case *ast.SwitchStmt:
				if x.Tag == nil || !proseWord(x.Tag) {
					return true
				}
				for _, c := range x.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						if lit := wordLiteral(e); lit != "" {
							t.Errorf("%s: switch on %s has case %s: switch on a typed word of engine/model instead",
								fset.Position(e.Pos()), exprText(x.Tag), lit)
						}
					}
				}
			}
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fn, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !textReaders[fn.Sel.Name] {
				return true
			}
			if pkg, ok := fn.X.(*ast.Ident); !ok || pkg.Name != "strings" {
				return true
			}
			name := lastName(call.Args[0])
			if name == "" || !proseNames.MatchString(name) {
				return true
			}
			if arg := exprText(call.Args[0]); allowed[rel] == arg {
				return true
			}
			t.Errorf("%s: strings.%s reads the prose of %s: decide on a typed word of engine/model instead",
				fset.Position(call.Pos()), fn.Sel.Name, exprText(call.Args[0]))
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 100 {
		t.Fatalf("scanned %d Go files under %s: the walk missed the module", scanned, root)
	}
}

// comparedNames are the words a comparison with a literal must not read
// (kind and level name other vocabularies too: a compiler's syntax kinds,
// a range's operator).
var comparedNames = regexp.MustCompile(`(?i)^(\w*why|\w*reason|summary|\w*status|verdict|outcome|\w*phase)$`)

// proseWord: e names a reason, a status, a verdict or a phase.
func proseWord(e ast.Expr) bool {
	name := lastName(e)
	return name != "" && comparedNames.MatchString(name)
}

// wordLiteral is e's text when e is a string literal other than "" (a
// test for presence decides nothing on a word), else "".
func wordLiteral(e ast.Expr) string {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING || lit.Value == `""` {
		return ""
	}
	return lit.Value
}

// lastName is the name an expression ends with: w.Why → Why, why → why.
func lastName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

func exprText(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprText(x.X) + "." + x.Sel.Name
	}
	return "…"
}
