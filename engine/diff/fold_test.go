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
