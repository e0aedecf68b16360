package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

func TestRawPairs(t *testing.T) {
	a := surface("1", sym("same", fn, "(): void"), sym("changed", fn, "(): void"), sym("gone", fn, "(): void"),
		from(sym("reexported", fn, "(): void"), ".", "./a"))
	b := surface("2", sym("same", fn, "(): void"), sym("changed", fn, "(x?: number): void"), sym("new", fn, "(): void"),
		from(sym("reexported", fn, "(): void"), ".", "./b"))
	type row struct {
		Path string
		A, B bool
	}
	var got []row
	for _, p := range Raw(a, b) {
		got = append(got, row{p.Path, p.A != nil, p.B != nil})
	}
	// "reexported" differs in its entry points, so it is paired; Classify
	// then decides that a shared entry point means nothing changed.
	want := []row{{"changed", true, true}, {"gone", true, false}, {"new", false, true}, {"reexported", true, true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestOnePairSeveralChanges(t *testing.T) {
	a := surface("1", optional(sym("Options#mode", prop, "'a' | 'b'")))
	b := surface("2", deprecated(sym("Options#mode", prop, "'a'"), "Use variant.", "variant"))
	got := Diff(a, b, nil)
	var kinds []string
	for _, c := range got {
		kinds = append(kinds, string(c.Kind)+" "+c.Rule)
	}
	want := []string{"deprecated deprecated", "narrowed type/narrowed", "required required"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestCombinedFindingsKeepTheirDetails(t *testing.T) {
	a := surface("1", sym("parse", fn, "(input: string): Item"))
	b := surface("2", sym("parse", fn, "(input: string | Buffer, opts?: Options): Item"))
	got := Diff(a, b, nil)
	if len(got) != 1 {
		t.Fatalf("got %+v", got)
	}
	c := got[0]
	// Additive findings: the least confident one decides (widened at 0.8).
	if c.Rule != "sig/param/widened" || c.Severity != model.Additive || c.Confidence != 0.8 || c.Kind != model.ChangeSignature {
		t.Fatalf("got %+v", c)
	}
	if c.Note != "parameter 1 (input): string → string | Buffer; parameter 2 (opts: Options) added" {
		t.Fatalf("note %q", c.Note)
	}
}

// A class constructor prints no return type; the construct signature of
// the value + interface pair that replaces it returns the instance type.
// `new X()` is the same to a consumer either way.
func TestConstructorImpliedReturn(t *testing.T) {
	tests := []struct {
		name, path, a, b string
		rule             string
	}{
		{"class constructor to construct signature", "ZodNumber.new()", "(def?: object)", "(def?: object): ZodNumber", ""},
		{"and back, generic", "Box.new()", "<T>(value: T): Box<T>", "<T>(value: T)", ""},
		{"scoped container", `"./server":Client.new()`, "()", "(): Client", ""},
		{"constructs something else now", "ZodNumber.new()", "(def?: object)", "(def?: object): ZodType", "sig/return/changed"},
		{"not a constructor", "create", "(def?: object): void", "(def?: object)", "sig/return/changed"},
	}
	for _, tt := range tests {
		got := Diff(surface("1", sym(tt.path, ctor, tt.a)), surface("2", sym(tt.path, ctor, tt.b)), nil)
		switch {
		case tt.rule == "" && len(got) != 0:
			t.Errorf("%s: want no change, got %+v", tt.name, got)
		case tt.rule != "" && (len(got) != 1 || got[0].Rule != tt.rule):
			t.Errorf("%s: got %+v, want rule %s", tt.name, got, tt.rule)
		}
	}
}
