package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitTop(t *testing.T) {
	tests := []struct {
		in, sep string
		want    []string
	}{
		{"a | b | c", "|", []string{"a", "b", "c"}},
		{"Array<a | b> | c", "|", []string{"Array<a | b>", "c"}},
		{"(a | b)[] | { x: a | b; y: c } | [a | b]", "|", []string{"(a | b)[]", "{ x: a | b; y: c }", "[a | b]"}},
		{"Map<string, () => void> | null", "|", []string{"Map<string, () => void>", "null"}},
		{`"a|b" | 'c|d' | ` + "`e|${F | G}`", "|", []string{`"a|b"`, `'c|d'`, "`e|${F | G}`"}},
		{"(a: string): T; (b: Array<{ c: 1; d: 2 }>): T", ";", []string{"(a: string): T", "(b: Array<{ c: 1; d: 2 }>): T"}},
		{"a, b: Map<K, V>, c?: (x: 1, y: 2) => void", ",", []string{"a", "b: Map<K, V>", "c?: (x: 1, y: 2) => void"}},
	}
	for _, tt := range tests {
		got, err := splitTop(tt.in, tt.sep)
		if err != nil {
			t.Fatalf("splitTop(%q): %v", tt.in, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("splitTop(%q, %q) (-want +got):\n%s", tt.in, tt.sep, diff)
		}
	}
	for _, bad := range []string{"Array<string", "(a | b", "a ]", `"open`, "`x${y`", "a > b", "{ a: ( }"} {
		if _, err := splitTop(bad, "|"); err == nil {
			t.Errorf("splitTop(%q) accepted unbalanced text", bad)
		}
	}
}

func TestUnionMembers(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"string", []string{"string"}},
		{"b | a | a", []string{"a", "b"}},
		{"| a | b", []string{"a", "b"}},
		{"a | never", []string{"a"}},
		{"(x: A | B) => C | D", []string{"(x: A | B) => C | D"}},
		{"T extends string ? A | B : C", []string{"T extends string ? A | B : C"}},
		{"x is A | B", []string{"x is A | B"}},
		{"new () => A | B", []string{"new () => A | B"}},
		{"keyof A | B", []string{"B", "keyof A"}},
		{"A & B | C", []string{"A & B", "C"}},
	}
	for _, tt := range tests {
		got, err := unionMembers(tt.in)
		if err != nil {
			t.Fatalf("unionMembers(%q): %v", tt.in, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("unionMembers(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
	for _, bad := range []string{"", "|", "a | | b", "a | Array<b"} {
		if _, err := unionMembers(bad); err == nil {
			t.Errorf("unionMembers(%q) accepted it", bad)
		}
	}
}

func TestTextDirection(t *testing.T) {
	tests := []struct {
		a, b string
		want direction
	}{
		{"string", "string", same},
		{"a | b", "b | a", same},
		{"a", "a | b", widened},
		{"a | b", "a", narrowed},
		{"a | b", "a | c", changed},
		{"string", "number", changed},
		{"string", "any", widened},
		{"string | number", "unknown", widened},
		{"any", "string", narrowed},
		{"any", "unknown", changed},
		{"never", "string", widened},
		{"(x: string) => void", "(x: string | number) => void", changed},
	}
	for _, tt := range tests {
		got, err := textDirection(tt.a, tt.b)
		if err != nil {
			t.Fatalf("textDirection(%q, %q): %v", tt.a, tt.b, err)
		}
		if got != tt.want {
			t.Errorf("textDirection(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestTypeParams(t *testing.T) {
	tps, rest, err := typeParamList("<T extends Record<string, unknown> = {}, const U, in out V>(x: T): U")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"T extends Record<string, unknown> = {}", "const U", "in out V"}
	if diff := cmp.Diff(want, tps); diff != "" || rest != "(x: T): U" {
		t.Fatalf("typeParamList: rest %q, (-want +got):\n%s", rest, diff)
	}
	for tp, def := range map[string]bool{"T = X": true, "T extends (a: A) => B": false, "T extends (a: A) => B = C": true, "T": false} {
		if hasDefault(tp) != def {
			t.Errorf("hasDefault(%q) = %v", tp, !def)
		}
	}
}

func TestDropQualifier(t *testing.T) {
	tests := []struct{ in, want string }{
		{"(options?: sharp.SharpOptions): sharp.Sharp", "(options?: SharpOptions): Sharp"},
		{"notsharp.X | sharp.Y", "notsharp.X | Y"},
		{"Other.sharp.X", "Other.sharp.X"},
		{"sharp", "sharp"},
		{"sharp.", "sharp."},
	}
	for _, tt := range tests {
		if got := dropQualifier(tt.in, "sharp"); got != tt.want {
			t.Errorf("dropQualifier(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIsTypeReference(t *testing.T) {
	for s, want := range map[string]bool{
		"Options": true, "Stripe.Params": true, "Map<K, V>": true, "{…}": false,
		"string[]": false, "A | B": false, "": false, "1x": false,
	} {
		if isTypeReference(s) != want {
			t.Errorf("isTypeReference(%q) = %v", s, !want)
		}
	}
}
