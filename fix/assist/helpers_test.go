package assist

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix/unidiff"
)

// The files of the upgraded code the tests patch.
var testFiles = map[string]string{
	"src/a.ts": "import { make } from \"lib\";\n\nexport function one() {\n  return make();\n}\n\nexport function two() {\n  return make();\n}\n",
	"src/b.ts": "import { make } from \"lib\";\n\nexport const b = make();\n",
}

func readTest(file string) (string, error) {
	if s, ok := testFiles[file]; ok {
		return s, nil
	}
	return "", &missingFile{file}
}

type missingFile struct{ file string }

func (m *missingFile) Error() string { return m.file + ": no such file" }

var (
	errOne = model.Diagnostic{File: "src/a.ts", Line: 4, Code: 2554, Message: "Expected 1 arguments, but got 0."}
	errTwo = model.Diagnostic{File: "src/a.ts", Line: 8, Code: 2554, Message: "Expected 1 arguments, but got 0."}
	errB   = model.Diagnostic{File: "src/b.ts", Line: 3, Code: 2554, Message: "Expected 1 arguments, but got 0."}
	errNew = model.Diagnostic{File: "src/a.ts", Line: 1, Code: 2305, Message: "Module \"lib\" has no exported member 'nope'."}
)

func site(id, file string, line int, errs ...model.Diagnostic) Site {
	text := testFiles[file]
	return Site{ID: id, Package: "lib", From: "1.0.0", To: "2.0.0", Rule: "lib/make-arg", RuleTitle: "make needs an argument",
		Reason: "make now takes an argument", File: file, Line: line, Errors: errs,
		Scope: Scope{StartLine: 1, EndLine: strings.Count(text, "\n"), Text: text}}
}

// ruleValidator is the compile of the tests' two files, as a rule: each
// make() left is an error on its line, each make(0) none, a nope import
// a new error. The real compile is cmd/uptide's e2e's.
type ruleValidator struct {
	mu    sync.Mutex
	calls int
}

func (v *ruleValidator) Validate(_ context.Context, file, content string) (Compiled, error) {
	v.mu.Lock()
	v.calls++
	v.mu.Unlock()
	var c Compiled
	before := testFiles[file]
	errsOf := func(text string) []model.Diagnostic {
		var out []model.Diagnostic
		for i, l := range strings.Split(text, "\n") {
			if strings.Contains(l, "make()") && !strings.HasPrefix(l, "import") {
				out = append(out, model.Diagnostic{File: file, Line: i + 1, Code: 2554, Message: "Expected 1 arguments, but got 0."})
			}
		}
		return out
	}
	was, now := errsOf(before), errsOf(content)
	c.Gone = model.Without(was, now)
	c.New = model.Without(now, was)
	if strings.Contains(content, "nope") {
		c.New = append(c.New, errNew)
	}
	return c, nil
}

// diffOf is a diff of file replacing old with new text.
func diffOf(file, old, new string) string {
	before := testFiles[file]
	return unidiff.Make(file, before, strings.Replace(before, old, new, 1), 1)
}

func reply(diff, why string) string {
	b, _ := jsonMarshal(Structured{Diff: diff, Explanation: why})
	return string(b)
}

// waitFor waits until cond holds over the queue's items; the limit only
// keeps a broken queue from hanging the test.
func waitFor(t *testing.T, q *Queue, what string, cond func([]Item) bool) []Item {
	t.Helper()
	limit := time.After(20 * time.Second)
	for {
		items := q.Items()
		if cond(items) {
			return items
		}
		select {
		case <-q.Changed():
		case <-limit:
			t.Fatalf("waiting for %s: items are %+v", what, statuses(items))
		}
	}
}

func statuses(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Site.ID+"="+it.Status.String()+" ("+it.Reason+")")
	}
	return out
}

func settled(items []Item) bool {
	for _, it := range items {
		if it.Status == Waiting || it.Status == Proposing {
			return false
		}
	}
	return true
}
