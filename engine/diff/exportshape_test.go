package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

// sharp's two shapes: `export = sharp` with a merged namespace, and an ESM
// build exporting the function as default and the namespace's types by
// name. To a consumer they are one API.
func sharpExportEquals(extra ...model.Symbol) []model.Symbol {
	return append([]model.Symbol{
		exportEquals(sym("sharp", fn, "(input?: string | Buffer, options?: sharp.SharpOptions): sharp.Sharp")),
		sym("sharp.SharpOptions", iface, "interface"),
		sym("sharp.SharpOptions#density", prop, "number"),
		sym("sharp.Sharp", iface, "interface extends Duplex"),
		sym("sharp.Sharp#resize", meth, "(options?: sharp.ResizeOptions): sharp.Sharp"),
		sym("sharp.ResizeOptions", iface, "interface"),
		sym("sharp.ResizeOptions#width", prop, "number"),
		sym("sharp.versions", vari, "const {…}"),
	}, extra...)
}

func sharpNamed(root string, extra ...model.Symbol) []model.Symbol {
	return append([]model.Symbol{
		sym(root, fn, "(input?: string | Buffer, options?: SharpOptions): Sharp"),
		sym("SharpOptions", iface, "interface"),
		sym("SharpOptions#density", prop, "number"),
		sym("Sharp", iface, "interface extends Duplex"),
		sym("Sharp#resize", meth, "(options?: ResizeOptions): Sharp"),
		sym("ResizeOptions", iface, "interface"),
		sym("ResizeOptions#width", prop, "number"),
		sym("versions", vari, "const {…}"),
	}, extra...)
}

func TestExportShapeEquivalence(t *testing.T) {
	tests := []struct {
		name string
		a, b []model.Symbol
	}{
		{"export = to default under the declared name", sharpExportEquals(), sharpNamed("sharp")},
		{"export = to a default variable", sharpExportEquals(), sharpNamed("default")},
		{"default plus named to export =", sharpNamed("sharp"), sharpExportEquals()},
		{"default variable plus named to export =", sharpNamed("default"), sharpExportEquals()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(surface("1", tt.a...), surface("2", tt.b...), nil)
			if len(got) != 0 {
				t.Fatalf("same API in two export shapes gave changes: %+v", got)
			}
		})
	}
}

func TestExportShapeRealChanges(t *testing.T) {
	a := sharpExportEquals(sym("sharp.Sharp#rotate", meth, "(angle?: number): sharp.Sharp"))
	b := sharpNamed("sharp", sym("Sharp#flip", meth, "(flip?: boolean): Sharp"))
	b[6] = sym("ResizeOptions#width", prop, "number | string")
	got := Diff(surface("1", a...), surface("2", b...), nil)
	type pk struct{ Path, Rule string }
	var keys []pk
	for _, c := range got {
		keys = append(keys, pk{c.Path, c.Rule})
	}
	want := []pk{
		{"Sharp#flip", "added"},
		{"sharp.ResizeOptions#width", "type/widened"}, // reported where A's consumers wrote it
		{"sharp.Sharp#rotate", "removed"},
	}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestExportShapeSameOnBothSides(t *testing.T) {
	// Both export =: paths compare directly, nothing is remapped, and a
	// namespace member that became top-level is a real move of name.
	a := []model.Symbol{exportEquals(sym("lib", fn, "(): void")), sym("lib.Options", iface, "interface")}
	b := []model.Symbol{exportEquals(sym("lib", fn, "(): void")), sym("Options", iface, "interface")}
	got := Diff(surface("1", a...), surface("2", b...), nil)
	if len(got) != 2 || got[0].Path != "Options" || got[0].Kind != model.ChangeAdded || got[1].Path != "lib.Options" || got[1].Kind != model.ChangeRemoved {
		t.Fatalf("got %+v", got)
	}
}

func TestExportShapeDoesNotStealMatchedPaths(t *testing.T) {
	// B exports Options both at the top and under the old root; the top-level
	// one exists in A too, so A's sharp.Options must not be paired with it.
	a := []model.Symbol{exportEquals(sym("sharp", fn, "(): void")), sym("sharp.Options", iface, "interface"), sym("Options", talias, "type = string")}
	b := []model.Symbol{sym("sharp", fn, "(): void"), sym("Options", talias, "type = string")}
	got := Diff(surface("1", a...), surface("2", b...), nil)
	if len(got) != 1 || got[0].Path != "sharp.Options" || got[0].Kind != model.ChangeRemoved {
		t.Fatalf("got %+v", got)
	}
}
