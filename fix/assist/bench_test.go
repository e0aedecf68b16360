package assist

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix/unidiff"
	"github.com/uptide/uptide/internal/testkit/fakellm"
)

// noCompile is a Validator that judges nothing: the benchmarks measure
// the fixer's own work, not the compiler's.
type noCompile struct{ gone Compiled }

func (n noCompile) Validate(context.Context, string, string) (Compiled, error) { return n.gone, nil }

// bigFile is a 2,000-line module with the site in the middle.
func bigFile() string {
	var b strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "export const v%d = make(%d);\n", i, i)
	}
	return strings.Replace(b.String(), "make(1000);", "make();", 1)
}

func BenchmarkValidate(b *testing.B) {
	file := bigFile()
	after := strings.Replace(file, "make();", "make(0);", 1)
	diff := unidiff.Make("src/big.ts", file, after, 3)
	s := Site{ID: "s", File: "src/big.ts", Line: 1001, Errors: []model.Diagnostic{errB}}
	read := func(string) (string, error) { return file, nil }
	v := noCompile{Compiled{Gone: []model.Diagnostic{errB}}}
	b.ReportAllocs()
	for b.Loop() {
		val, err := Validate(context.Background(), s, diff, read, v)
		if err != nil || !val.OK {
			b.Fatal(err, val.Reason)
		}
	}
}

// BenchmarkProposeOverHTTP is one proposal: the prompt, the call to the
// fake Anthropic API on loopback, the reply's parsing and checks.
func BenchmarkProposeOverHTTP(b *testing.B) {
	srv := fakellm.New("k")
	defer srv.Close()
	file := bigFile()
	diff := unidiff.Make("src/big.ts", file, strings.Replace(file, "make();", "make(0);", 1), 3)
	text := reply(diff, "pass the seed")
	f := &Fixer{Provider: &Anthropic{Key: "k", BaseURL: srv.URL}, Validator: noCompile{Compiled{Gone: []model.Diagnostic{errB}}},
		Read: func(string) (string, error) { return file, nil }, Budget: NewBudget(1e9)}
	lines := strings.SplitAfter(file, "\n")
	s := Site{ID: "s", File: "src/big.ts", Line: 1001, Errors: []model.Diagnostic{errB},
		Scope: Scope{StartLine: 1001, EndLine: 1001, Text: lines[1000]}}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		srv.Script(fakellm.Step{Text: text})
		b.StartTimer()
		p, err := f.Propose(context.Background(), s, 1, 1, "", nil)
		if err != nil || !p.Valid {
			b.Fatal(err, p.Reason)
		}
	}
}
