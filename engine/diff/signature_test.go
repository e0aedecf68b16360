package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

func TestParseCallable(t *testing.T) {
	got, err := parseCallable("protected <T>(this: Ctx, { a, b }: Opts, cb?: (e: Error, v: T) => void, ...rest: T[]): Promise<T>; (x: string)")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d overloads", len(got))
	}
	o := got[0]
	if diff := cmp.Diff([]string{"protected"}, o.modifiers); diff != "" {
		t.Errorf("modifiers: %s", diff)
	}
	wantParams := []param{
		{name: "this", typ: "Ctx"},
		{name: "{ a, b }", typ: "Opts"},
		{name: "cb", typ: "(e: Error, v: T) => void", optional: true},
		{name: "rest", typ: "T[]", rest: true},
	}
	if diff := cmp.Diff(wantParams, o.params, cmp.AllowUnexported(param{})); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
	if !o.hasRet || o.ret != "Promise<T>" || len(o.typeParams) != 1 {
		t.Errorf("return %q %v, type params %v", o.ret, o.hasRet, o.typeParams)
	}
	if got[1].hasRet || len(got[1].params) != 1 {
		t.Errorf("constructor-like overload: %+v", got[1])
	}
	c, err := parseCallable("new (x: string) => Client")
	if err != nil || len(c[0].modifiers) != 1 || c[0].modifiers[0] != "new" || c[0].ret != "Client" {
		t.Errorf("construct signature: %+v %v", c, err)
	}
	for _, bad := range []string{"", "string", "(x: string", "(x: string) Item", "(x: string):", "(: string): void", "(x:): void", "(a,, b): void"} {
		if _, err := parseCallable(bad); err == nil {
			t.Errorf("parseCallable(%q) accepted it", bad)
		}
	}
}

func TestParseHeader(t *testing.T) {
	h, err := parseHeader("abstract class<T = Item> extends Base<T, Map<K, V>> implements I, J<T>")
	if err != nil {
		t.Fatal(err)
	}
	want := header{abstract: true, keyword: "class", typeParams: []string{"T = Item"},
		heritage: []string{"extends Base<T, Map<K, V>>", "implements I", "implements J<T>"}}
	if diff := cmp.Diff(want, h, cmp.AllowUnexported(header{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	h, err = parseHeader("interface<T extends { a: 1 }> extends A, B")
	if err != nil || h.keyword != "interface" || len(h.heritage) != 2 {
		t.Errorf("interface header: %+v %v", h, err)
	}
	for _, bad := range []string{"klass", "class foo", "interface extends", "class<T"} {
		if _, err := parseHeader(bad); err == nil {
			t.Errorf("parseHeader(%q) accepted it", bad)
		}
	}
}

func TestParseAliasAndValue(t *testing.T) {
	a, err := parseAlias("type<T> = T extends string ? A : B")
	if err != nil || !a.hasBody || a.body != "T extends string ? A : B" || len(a.typeParams) != 1 {
		t.Errorf("alias: %+v %v", a, err)
	}
	if a, err := parseAlias("type<T>"); err != nil || a.hasBody {
		t.Errorf("object alias: %+v %v", a, err)
	}
	for _, bad := range []string{"typo", "type =", "type<T> x"} {
		if _, err := parseAlias(bad); err == nil {
			t.Errorf("parseAlias(%q) accepted it", bad)
		}
	}
	v := parseValue("protected readonly Map<string, number>", false)
	if diff := cmp.Diff([]string{"protected", "readonly"}, v.modifiers); diff != "" || v.typ != "Map<string, number>" {
		t.Errorf("value: %+v", v)
	}
	v = parseValue("const {…}", true)
	if len(v.modifiers) != 1 || v.typ != "{…}" {
		t.Errorf("variable: %+v", v)
	}
}

// FuzzSignatures feeds arbitrary signature text, as a hostile package's
// declarations could produce, through every parser and comparison: none
// may panic, and a signature compared with itself changes nothing unless
// it cannot be parsed.
func FuzzSignatures(f *testing.F) {
	for _, tc := range ruleCases {
		for _, s := range append(append([]model.Symbol(nil), tc.a...), tc.b...) {
			f.Add(s.Signature, s.Signature+" | X", uint8(len(s.Kind)))
		}
	}
	f.Add("<T extends `${infer U}`>(x: T) => U", "(", uint8(0))
	kinds := []model.SymbolKind{fn, meth, ctor, model.KindCallSignature, prop, vari, idx, emem, enum, talias, class, iface, ns}
	f.Fuzz(func(t *testing.T, a, b string, k uint8) {
		kind := kinds[int(k)%len(kinds)]
		_ = comparer{}.compare(kind, a, b)
		r := Relation{Assignability: aToB, Signatures: []SignatureRelation{{Params: []Assignability{bToA}, Return: ptr(neither)}}}
		_ = comparer{rel: &r}.compare(kind, a, b)
		_ = declKindFindings(kind, kinds[(int(k)+1)%len(kinds)], a, b)
		for _, f := range (comparer{}).compare(kind, a, a) {
			if f.rule != "sig/unparsed" {
				t.Fatalf("%s signature %q compared with itself: %+v", kind, a, f)
			}
		}
	})
}
