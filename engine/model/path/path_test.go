package path

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func seg(sep byte, kind SegmentKind, name string) Segment {
	return Segment{Sep: sep, Kind: kind, Name: name}
}

func TestParseAndPrint(t *testing.T) {
	tests := []struct {
		in   string
		want Path
	}{
		{"parse", Path{Segments: []Segment{seg(0, Name, "parse")}}},
		{"Stripe.SubscriptionCreateParams", Path{Segments: []Segment{seg(0, Name, "Stripe"), seg('.', Name, "SubscriptionCreateParams")}}},
		{"Stripe#subscriptions", Path{Segments: []Segment{seg(0, Name, "Stripe"), seg('#', Name, "subscriptions")}}},
		{"Parser.version", Path{Segments: []Segment{seg(0, Name, "Parser"), seg('.', Name, "version")}}},
		{"Parser#version", Path{Segments: []Segment{seg(0, Name, "Parser"), seg('#', Name, "version")}}},
		{"Stripe.SubscriptionCreateParams#items[]#quantity", Path{Segments: []Segment{
			seg(0, Name, "Stripe"), seg('.', Name, "SubscriptionCreateParams"), seg('#', Name, "items"),
			seg('[', Element, ""), seg('#', Name, "quantity")}}},
		{`Headers#"content-type"`, Path{Segments: []Segment{seg(0, Name, "Headers"), seg('#', Name, "content-type")}}},
		{"Headers#[string]", Path{Segments: []Segment{seg(0, Name, "Headers"), seg('#', Index, "string")}}},
		{"Parser#()", Path{Segments: []Segment{seg(0, Name, "Parser"), seg('#', Call, "")}}},
		{"Parser.new()", Path{Segments: []Segment{seg(0, Name, "Parser"), seg('.', Construct, "")}}},
		{"Color.Red", Path{Segments: []Segment{seg(0, Name, "Color"), seg('.', Name, "Red")}}},
		{`"express":Request#user`, Path{Scope: "express", Segments: []Segment{seg(0, Name, "Request"), seg('#', Name, "user")}}},
		{`"./server":Client`, Path{Scope: "./server", Segments: []Segment{seg(0, Name, "Client")}}},
		{`"@scope/pkg/sub":X.y`, Path{Scope: "@scope/pkg/sub", Segments: []Segment{seg(0, Name, "X"), seg('.', Name, "y")}}},
		{`Attrs#["data-${string}"]`, Path{Segments: []Segment{seg(0, Name, "Attrs"), seg('#', Index, `"data-${string}"`)}}},
		{"Attrs#[`data-${string}`]", Path{Segments: []Segment{seg(0, Name, "Attrs"), seg('#', Index, "`data-${string}`")}}},
		{"Reg.[number]", Path{Segments: []Segment{seg(0, Name, "Reg"), seg('.', Index, "number")}}},
		{"M#grid[][]", Path{Segments: []Segment{seg(0, Name, "M"), seg('#', Name, "grid"), seg('[', Element, ""), seg('[', Element, "")}}},
		{`X#"a.b#c[d]\"e\\f"`, Path{Segments: []Segment{seg(0, Name, "X"), seg('#', Name, `a.b#c[d]"e\f`)}}},
		{`X#""`, Path{Segments: []Segment{seg(0, Name, "X"), seg('#', Name, "")}}},
		{`X#"0"`, Path{Segments: []Segment{seg(0, Name, "X"), seg('#', Name, "0")}}},
		{`X#"()"`, Path{Segments: []Segment{seg(0, Name, "X"), seg('#', Name, "()")}}},
		{`X#"new()"`, Path{Segments: []Segment{seg(0, Name, "X"), seg('#', Name, "new()")}}},
		{"X.new", Path{Segments: []Segment{seg(0, Name, "X"), seg('.', Name, "new")}}},
		{"X#default", Path{Segments: []Segment{seg(0, Name, "X"), seg('#', Name, "default")}}},
		{"$._", Path{Segments: []Segment{seg(0, Name, "$"), seg('.', Name, "_")}}},
		{"café#naïve", Path{Segments: []Segment{seg(0, Name, "café"), seg('#', Name, "naïve")}}},
		{`X#"line\nbreak\u0001"`, Path{Segments: []Segment{seg(0, Name, "X"), seg('#', Name, "line\nbreak\x01")}}},
		{`"a b"`, Path{Segments: []Segment{seg(0, Name, "a b")}}},
		{"()", Path{Segments: []Segment{seg(0, Call, "")}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("Parse mismatch (-want +got):\n%s", diff)
			}
			if s := got.String(); s != tt.in {
				t.Fatalf("String() = %q, want %q", s, tt.in)
			}
		})
	}
}

func TestParseCanonicalizes(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"parse"`, "parse"},
		{`X#"name"`, "X#name"},
		{`X#"a\/b"`, `X#"a/b"`},
		{`X#"\u0041"`, "X#A"},
		{`X#"\ud83d\ude00"`, `X#"😀"`},
		{`"./server":"Client"`, `"./server":Client`},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.in, err)
		}
		if got.String() != tt.want {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, got.String(), tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		{"", 0, "empty path"},
		{"a.", 2, "missing segment"},
		{"a#", 2, "missing segment"},
		{".a", 0, "missing segment"},
		{"a..b", 2, "missing segment"},
		{"a-b", 0, "must be JSON-quoted"},
		{"a.b-c", 2, "must be JSON-quoted"},
		{"a[string]", 1, "needs '.' or '#'"},
		{"a#[]", 2, "without a key type"},
		{"a#[string", 2, "unterminated index"},
		{`a#"x`, 2, "unterminated quoted"},
		{`a#"x\q"`, 4, `unknown escape`},
		{`a#"x` + "\n" + `"`, 4, "control character"},
		{`"":a`, 2, "empty module scope"},
		{`"./s":`, 6, "missing segment"},
		{"a()", 0, "must be JSON-quoted"},
		{"a.new()x", 7, "unexpected"},
		{"[]", 0, "without a key type"},
		{"a b", 0, "must be JSON-quoted"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := Parse(tt.in)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error = %v, want a *SyntaxError", tt.in, err)
			}
			if se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) {
				t.Fatalf("Parse(%q) = offset %d %q, want offset %d containing %q", tt.in, se.Offset, se.Msg, tt.offset, tt.msg)
			}
			if !strings.Contains(err.Error(), "JSON-quoted") {
				t.Fatalf("error %q does not say how paths are written", err)
			}
		})
	}
}

func TestBuilders(t *testing.T) {
	tests := []struct {
		got  Path
		want string
	}{
		{Root("parse"), "parse"},
		{Root("Stripe").Static("SubscriptionCreateParams").Instance("items").Element().Instance("quantity"), "Stripe.SubscriptionCreateParams#items[]#quantity"},
		{Root("Headers").Instance("content-type"), `Headers#"content-type"`},
		{Root("Headers").Index("string"), "Headers#[string]"},
		{Root("Reg").StaticIndex("number"), "Reg.[number]"},
		{Root("Parser").Call(), "Parser#()"},
		{Root("Parser").Construct(), "Parser.new()"},
		{Root("Request").Instance("user").Scoped("express"), `"express":Request#user`},
		{Root("Client").Scoped("./server"), `"./server":Client`},
		{Root("a.b"), `"a.b"`},
		{Path{}.Static("x"), "x"},
		{Path{}.Instance("x"), "x"},
		{Path{}.Element(), ""},
		{Root("X").Instance(`"quoted"`), `X#"\"quoted\""`},
	}
	for _, tt := range tests {
		if s := tt.got.String(); s != tt.want {
			t.Errorf("built %q, want %q", s, tt.want)
		}
		if tt.want == "" {
			continue
		}
		back, err := Parse(tt.want)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.want, err)
		}
		if !back.Equal(tt.got) {
			t.Errorf("Parse(%q) = %#v, want %#v", tt.want, back, tt.got)
		}
	}
}

func TestBuildersDoNotAlias(t *testing.T) {
	parent := Root("A").Instance("b")
	x := parent.Instance("x")
	y := parent.Instance("y")
	if x.String() != "A#b#x" || y.String() != "A#b#y" {
		t.Fatalf("siblings share storage: %q %q", x, y)
	}
	p := parent.Parent().Static("z")
	if parent.String() != "A#b" || p.String() != "A.z" {
		t.Fatalf("Parent result shares storage: %q %q", parent, p)
	}
}

func TestStructure(t *testing.T) {
	p := MustParse(`"./v4":Stripe.Customer#address[]#"line-1"`)
	if got := p.Parent().String(); got != `"./v4":Stripe.Customer#address[]` {
		t.Errorf("Parent = %q", got)
	}
	if got := p.Leaf(); got != seg('#', Name, "line-1") {
		t.Errorf("Leaf = %#v", got)
	}
	if got := p.Top(); got != `"./v4":Stripe` {
		t.Errorf("Top = %q", got)
	}
	var anc []string
	for _, a := range p.Ancestors() {
		anc = append(anc, a.String())
		if !a.IsAncestorOf(p) || !IsAncestor(a.String(), p.String()) {
			t.Errorf("%q is not reported as an ancestor of %q", a, p)
		}
	}
	want := []string{`"./v4":Stripe`, `"./v4":Stripe.Customer`, `"./v4":Stripe.Customer#address`, `"./v4":Stripe.Customer#address[]`}
	if diff := cmp.Diff(want, anc); diff != "" {
		t.Errorf("Ancestors (-want +got):\n%s", diff)
	}
	top := Root("x")
	if !top.Parent().IsZero() || top.Parent().String() != "" || top.Ancestors() != nil {
		t.Errorf("a top-level path has no parent: %#v", top.Parent())
	}
	if (Path{}).Top() != "" || (Path{}).Leaf() != (Segment{}) || !(Path{}).Parent().IsZero() {
		t.Errorf("the empty path has no structure")
	}
}

func TestIsAncestor(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"Foo", "Foo.bar", true},
		{"Foo", "Foo#bar", true},
		{"Foo#items", "Foo#items[]", true},
		{"Foo#items", "Foo#items[]#x", true},
		{"Foo", "Foo#[string]", true},
		{"Foo", "Foo", false},
		{"Foo", "Foobar", false},
		{"Foo", "Foo2.x", false},
		{"Foo.bar", "Foo", false},
		{"Foo", `"./s":Foo.bar`, false},
		{`"./s":Foo`, `"./s":Foo.bar`, true},
		{"X.new", "X.new()", false},
		{`"a b"`, `"a b".c`, true},
		{"", "Foo", false},
	}
	for _, tt := range tests {
		if got := IsAncestor(tt.a, tt.b); got != tt.want {
			t.Errorf("IsAncestor(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		pa, errA := Parse(tt.a)
		pb, errB := Parse(tt.b)
		if errA == nil && errB == nil && pa.IsAncestorOf(pb) != tt.want {
			t.Errorf("(%q).IsAncestorOf(%q) = %v, want %v", tt.a, tt.b, !tt.want, tt.want)
		}
	}
}

func TestReshaping(t *testing.T) {
	p := MustParse("sharp.ResizeOptions#width")
	if d, ok := p.DropRoot(); !ok || d.String() != "ResizeOptions#width" {
		t.Errorf("DropRoot = %q, %v", d, ok)
	}
	if _, ok := MustParse("sharp#resize").DropRoot(); ok {
		t.Errorf("an instance member is not a namespace member")
	}
	if _, ok := MustParse("sharp").DropRoot(); ok {
		t.Errorf("a top-level path has nothing to promote")
	}
	if n, ok := MustParse("ResizeOptions#width").Nest("sharp"); !ok || n.String() != "sharp.ResizeOptions#width" {
		t.Errorf("Nest = %q, %v", n, ok)
	}
	if w := MustParse("sharp#resize").WithRoot("default"); w.String() != "default#resize" {
		t.Errorf("WithRoot = %q", w)
	}
	orig := MustParse("sharp#resize")
	_ = orig.WithRoot("other")
	if orig.String() != "sharp#resize" {
		t.Errorf("WithRoot modified its receiver: %q", orig)
	}
	r, ok := MustParse("Foo.Inner#x").Rebase(MustParse("Foo"), MustParse("Bar"))
	if !ok || r.String() != "Bar.Inner#x" {
		t.Errorf("Rebase = %q, %v", r, ok)
	}
	r, ok = MustParse("Ns.Foo#x").Rebase(MustParse("Ns.Foo"), MustParse(`"./v2":Foo`))
	if !ok || r.String() != `"./v2":Foo#x` {
		t.Errorf("Rebase across scope = %q, %v", r, ok)
	}
	if _, ok := MustParse("Foo#x").Rebase(MustParse("Bar"), MustParse("Baz")); ok {
		t.Errorf("Rebase from an unrelated path succeeded")
	}
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"parse", "parse"},
		{"content-type", `"content-type"`},
		{"", `""`},
		{"1st", `"1st"`},
		{"a\tb", `"a\tb"`},
		{"\x7f", "\"\x7f\""},
		{"\x1f", `"\u001f"`},
		{"é", "é"},
		{"a\u200db", "a\u200db"},
		{"\u200d", "\"\u200d\""},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzParse checks that every accepted path prints to a canonical spelling
// that parses back to the same path and prints identically.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"parse", "Stripe.SubscriptionCreateParams#items[]#quantity", `Headers#"content-type"`,
		"Headers#[string]", "Parser#()", "Parser.new()", `"express":Request#user`, `"./server":Client`,
		"Attrs#[`data-${string}`]", `X#"a.b#c[d]\"e\\f"`, `X#"\ud83d\ude00"`, "M#grid[][]", `"a b"`,
		`Attrs#["]"]`, "Reg.[(string | number)]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		canon := p.String()
		q, err := Parse(canon)
		if err != nil {
			t.Fatalf("Parse(%q) ok but its canonical form %q does not parse: %v", s, canon, err)
		}
		if !q.Equal(p) {
			t.Fatalf("round trip of %q via %q: %#v != %#v", s, canon, q, p)
		}
		if q.String() != canon {
			t.Fatalf("canonical form is not stable: %q then %q", canon, q.String())
		}
		if utf8.ValidString(s) && strings.HasPrefix(canon, `"`) == (p.Scope == "" && !p.Segments[0].Quoted()) {
			t.Fatalf("quoting of the first segment disagrees with Quoted(): %q", canon)
		}
	})
}

// FuzzBuild builds paths from arbitrary names and checks they survive
// printing and parsing, which is what lets names with '.', '#', '[' or '"'
// inside never split a path.
func FuzzBuild(f *testing.F) {
	f.Add("Stripe", "content-type", "a.b#c", uint8(0b1011), "")
	f.Add("", "", "\"", uint8(0xff), "./server")
	f.Add("new()", "()", "[x]", uint8(3), "express")
	keys := []string{"string", "number", "`data-${string}`", `"]"`, "symbol | string"}
	f.Fuzz(func(t *testing.T, a, b, c string, ops uint8, scope string) {
		p := Root(a)
		for i, name := range []string{b, c, a + b} {
			switch (ops >> (2 * i)) & 3 {
			case 0:
				p = p.Static(name)
			case 1:
				p = p.Instance(name)
			case 2:
				p = p.Element().Index(keys[len(name)%len(keys)])
			case 3:
				p = p.Call().Construct()
			}
		}
		if scope != "" {
			p = p.Scoped(scope)
		}
		s := p.String()
		q, err := Parse(s)
		if err != nil {
			t.Fatalf("built %#v printed as %q, which does not parse: %v", p, s, err)
		}
		if !q.Equal(p) {
			t.Fatalf("built %#v, printed %q, parsed back %#v", p, s, q)
		}
		for _, anc := range p.Ancestors() {
			if !IsAncestor(anc.String(), s) {
				t.Fatalf("IsAncestor(%q, %q) = false", anc, s)
			}
		}
	})
}
