package diff

import (
	"github.com/uptide/uptide/engine/model"
)

// sym is a public symbol exported from the root entry point.
func sym(p string, kind model.SymbolKind, sig string) model.Symbol {
	return model.Symbol{Path: p, Kind: kind, Signature: sig, ExportedFrom: []string{"."}}
}

func optional(s model.Symbol) model.Symbol { s.Optional = true; return s }

func from(s model.Symbol, entries ...string) model.Symbol { s.ExportedFrom = entries; return s }

func deprecated(s model.Symbol, msg, replacement string) model.Symbol {
	s.Deprecated = &model.Deprecation{Message: msg, Replacement: replacement}
	return s
}

func visibility(s model.Symbol, v model.Visibility) model.Symbol { s.Visibility = v; return s }

func aliasOfSym(s model.Symbol, canonical string) model.Symbol { s.AliasOf = canonical; return s }

func exportEquals(s model.Symbol) model.Symbol { s.ExportEquals = true; return s }

func surface(version string, syms ...model.Symbol) *model.Surface {
	entries := map[string]bool{}
	for _, s := range syms {
		for _, e := range s.ExportedFrom {
			entries[e] = true
		}
	}
	s := &model.Surface{Package: "pkg", Version: version, Adapter: "typescript", SchemaVersion: model.SurfaceSchemaVersion, Symbols: syms}
	for e := range entries {
		s.EntryPoints = append(s.EntryPoints, e)
	}
	return s
}

func rel(aToB, bToA bool) Relation {
	return Relation{Assignability: Assignability{AToB: aToB, BToA: bToA}}
}

// sigRel is a relation for a single-overload callable: one Assignability
// per parameter, then the return.
func sigRel(ret *Assignability, params ...Assignability) Relation {
	return Relation{Signatures: []SignatureRelation{{Params: params, Return: ret}}}
}

var (
	both    = Assignability{AToB: true, BToA: true}
	aToB    = Assignability{AToB: true}
	bToA    = Assignability{BToA: true}
	neither = Assignability{}
)

func ptr(a Assignability) *Assignability { return &a }

func changesAt(changes []model.Change, p string) []model.Change {
	var out []model.Change
	for _, c := range changes {
		if c.Path == p {
			out = append(out, c)
		}
	}
	return out
}
