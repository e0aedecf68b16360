package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

func TestFold(t *testing.T) {
	a := []model.Symbol{
		sym("Legacy", class, "class"),
		sym("Legacy#run", meth, "(): void"),
		sym("Legacy#opts", prop, "{…}"),
		sym("Legacy#opts#depth", prop, "number"),
		from(sym("v3", ns, "namespace"), "./v3"),
		from(sym("v3.parse", fn, "(x: string): T"), "./v3"),
		sym("createClient", fn, "(key: string): Client"),
		aliasOfSym(sym("makeClient", fn, "(key: string): Client"), "createClient"),
		sym("format", fn, "(x: string): string"),
		aliasOfSym(sym("fmt", fn, "(x: string): string"), "format"),
	}
	b := []model.Symbol{
		from(sym("v3", ns, "namespace"), "./legacy"),
		from(sym("v3.parse", fn, "(x: string): T"), "./legacy"),
		sym("createClient", fn, "(key: string, opts: Options): Client"),
		aliasOfSym(sym("makeClient", fn, "(key: string, opts: Options): Client"), "createClient"),
		sym("format", fn, "(x: string): string"),
	}
	got := Diff(surface("1", a...), surface("2", b...), nil)
	type row struct{ Path, Kind, FoldedInto, AliasOf string }
	var rows []row
	for _, c := range got {
		rows = append(rows, row{c.Path, string(c.Kind), c.FoldedInto, c.AliasOf})
	}
	want := []row{
		{"Legacy", "removed", "", ""},
		{"Legacy#opts", "removed", "Legacy", ""},
		{"Legacy#opts#depth", "removed", "Legacy", ""},
		{"Legacy#run", "removed", "Legacy", ""},
		{"createClient", "signature", "", ""},
		{"fmt", "removed", "", ""}, // the canonical path survived: removing the alias breaks its users
		{"makeClient", "signature", "", "createClient"},
		{"v3", "moved", "", ""},
		{"v3.parse", "moved", "v3", ""},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	var public []string
	for _, c := range GenuinelyPublic(got) {
		public = append(public, c.Path)
	}
	if diff := cmp.Diff([]string{"Legacy", "createClient", "fmt", "v3"}, public); diff != "" {
		t.Fatalf("genuinely public (-want +got):\n%s", diff)
	}
}

func TestGenuinelyPublic(t *testing.T) {
	base := model.Change{Path: "x", Kind: model.ChangeRemoved, Severity: model.Breaking, Confidence: 1}
	with := func(f func(*model.Change)) model.Change { c := base; f(&c); return c }
	tests := []struct {
		name string
		c    model.Change
		want bool
	}{
		{"breaking, public, certain", base, true},
		{"confidence exactly 0.7", with(func(c *model.Change) { c.Confidence = 0.7 }), true},
		{"confidence 0.6", with(func(c *model.Change) { c.Confidence = 0.6 }), false},
		{"protected", with(func(c *model.Change) { c.Visibility = model.Protected }), false},
		{"internal", with(func(c *model.Change) { c.Visibility = model.Internal }), false},
		{"additive", with(func(c *model.Change) { c.Severity = model.Additive }), false},
		{"deprecated", with(func(c *model.Change) { c.Severity = model.Deprecated }), false},
		{"folded into a removed ancestor", with(func(c *model.Change) { c.FoldedInto = "X" }), false},
		{"alias of a changed canonical path", with(func(c *model.Change) { c.AliasOf = "y" }), false},
	}
	for _, tt := range tests {
		if got := len(GenuinelyPublic([]model.Change{tt.c})) == 1; got != tt.want {
			t.Errorf("%s: genuinely public = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestVisibilityIsCarried(t *testing.T) {
	a := []model.Symbol{
		visibility(sym("Base#hook", meth, "protected (): void"), model.Protected),
		visibility(sym("_internal", fn, "(): void"), model.Internal),
	}
	b := []model.Symbol{visibility(sym("_internal2", fn, "(): void"), model.Internal)}
	got := Diff(surface("1", a...), surface("2", b...), nil)
	if len(got) != 3 {
		t.Fatalf("got %+v", got)
	}
	for _, c := range got {
		if c.Visibility == model.Public {
			t.Errorf("%s lost its visibility marker", c.Path)
		}
	}
	if n := len(GenuinelyPublic(got)); n != 0 {
		t.Errorf("%d marked changes counted as genuinely public", n)
	}
}

// at places a symbol's declaration, as the surface does for inherited
// copies: they carry the declaring member's File and Pos.
func at(s model.Symbol, file string, pos int) model.Symbol { s.File, s.Pos = file, pos; return s }

func TestFoldInherited(t *testing.T) {
	tests := []struct {
		name string
		a, b []model.Symbol
		// want: path → FoldedInto of its change
		want       map[string]string
		wantPublic []string
	}{
		{
			name: "copies changed like the declaration fold into it, wherever the derived ones are declared",
			a: []model.Symbol{
				at(sym("InputHTMLAttributes", iface, "interface extends DOMAttributes"), "index.d.ts", 10),
				at(sym("InputHTMLAttributes#onChange", prop, "Handler"), "index.d.ts", 150),
				at(sym("DOMAttributes", iface, "interface"), "index.d.ts", 100),
				at(sym("DOMAttributes#onChange", prop, "Handler"), "index.d.ts", 150),
				at(sym("SelectHTMLAttributes", iface, "interface extends DOMAttributes"), "index.d.ts", 300),
				at(sym("SelectHTMLAttributes#onChange", prop, "Handler"), "index.d.ts", 150),
			},
			b: []model.Symbol{
				at(sym("InputHTMLAttributes", iface, "interface extends DOMAttributes"), "index.d.ts", 10),
				at(sym("InputHTMLAttributes#onChange", prop, "Handler2"), "index.d.ts", 150),
				at(sym("DOMAttributes", iface, "interface"), "index.d.ts", 100),
				at(sym("DOMAttributes#onChange", prop, "Handler2"), "index.d.ts", 150),
				at(sym("SelectHTMLAttributes", iface, "interface extends DOMAttributes"), "index.d.ts", 300),
				at(sym("SelectHTMLAttributes#onChange", prop, "Handler2"), "index.d.ts", 150),
			},
			want: map[string]string{
				"DOMAttributes#onChange":        "",
				"InputHTMLAttributes#onChange":  "DOMAttributes#onChange",
				"SelectHTMLAttributes#onChange": "DOMAttributes#onChange",
			},
			wantPublic: []string{"DOMAttributes#onChange"},
		},
		{
			name: "a copy that changed differently keeps its own change",
			a: []model.Symbol{
				at(sym("Base", iface, "interface"), "a.d.ts", 10),
				at(sym("Base#x", prop, "string"), "a.d.ts", 20),
				at(sym("Derived", iface, "interface extends Base"), "a.d.ts", 40),
				at(sym("Derived#x", prop, "string"), "a.d.ts", 20),
			},
			b: []model.Symbol{
				at(sym("Base", iface, "interface"), "a.d.ts", 10),
				at(sym("Base#x", prop, "number"), "a.d.ts", 20),
				at(sym("Derived", iface, "interface extends Base"), "a.d.ts", 40),
				at(sym("Derived#x", prop, "boolean"), "a.d.ts", 20),
			},
			want:       map[string]string{"Base#x": "", "Derived#x": ""},
			wantPublic: []string{"Base#x", "Derived#x"},
		},
		{
			name: "members of an inherited anonymous object follow the declaring container",
			a: []model.Symbol{
				at(sym("Derived", iface, "interface extends Base"), "a.d.ts", 5),
				at(sym("Derived#opts", prop, "{…}"), "a.d.ts", 30),
				at(sym("Derived#opts#depth", prop, "number"), "a.d.ts", 40),
				at(sym("Base", iface, "interface"), "a.d.ts", 20),
				at(sym("Base#opts", prop, "{…}"), "a.d.ts", 30),
				at(sym("Base#opts#depth", prop, "number"), "a.d.ts", 40),
			},
			b: []model.Symbol{
				at(sym("Derived", iface, "interface extends Base"), "a.d.ts", 5),
				at(sym("Derived#opts", prop, "{…}"), "a.d.ts", 30),
				at(sym("Base", iface, "interface"), "a.d.ts", 20),
				at(sym("Base#opts", prop, "{…}"), "a.d.ts", 30),
			},
			want: map[string]string{
				"Base#opts#depth":    "",
				"Derived#opts#depth": "Base#opts#depth",
			},
			wantPublic: []string{"Base#opts#depth"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(surface("1", tt.a...), surface("2", tt.b...), nil)
			folded := map[string]string{}
			for _, c := range got {
				folded[c.Path] = c.FoldedInto
			}
			if diff := cmp.Diff(tt.want, folded); diff != "" {
				t.Errorf("foldedInto (-want +got):\n%s", diff)
			}
			var public []string
			for _, c := range GenuinelyPublic(got) {
				public = append(public, c.Path)
			}
			if diff := cmp.Diff(tt.wantPublic, public); diff != "" {
				t.Errorf("genuinely public (-want +got):\n%s", diff)
			}
		})
	}
}
