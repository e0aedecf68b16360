package modformat

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

func sym(p string, k model.SymbolKind, opts ...func(*model.Symbol)) model.Symbol {
	s := model.Symbol{Path: p, Kind: k, ExportedFrom: []string{"."}}
	for _, o := range opts {
		o(&s)
	}
	return s
}

func exportEquals(s *model.Symbol) { s.ExportEquals = true }

func from(entries ...string) func(*model.Symbol) {
	return func(s *model.Symbol) { s.ExportedFrom = entries }
}

// sharp 0.32: `export = sharp` with a merged namespace.
var sharpInstalled = &model.Surface{Package: "sharp", Version: "0.32.0", Symbols: []model.Symbol{
	sym("sharp", model.KindFunction, exportEquals),
	sym("sharp.versions", model.KindVariable),
	sym("sharp.cache", model.KindFunction),
	sym("sharp.Sharp", model.KindInterface),
	sym("sharp.Sharp#resize", model.KindMethod),
}}

// A hypothetical ESM-only sharp: the function as default, cache also named.
var sharpESM = &model.Surface{Package: "sharp", Version: "1.0.0", Symbols: []model.Symbol{
	sym("default", model.KindFunction),
	sym("cache", model.KindFunction),
	sym("Sharp", model.KindInterface),
	sym("Sharp#resize", model.KindMethod),
	sym("node", model.KindVariable, from("./node")),
}}

func TestShapeOf(t *testing.T) {
	got := ShapeOf(sharpInstalled, sharpESM, ".")
	want := ExportShape{
		Name: "sharp", Package: "sharp@1.0.0", Subpath: ".", Known: true,
		Named:      []string{"cache"},
		HasDefault: true, DefaultCallable: true,
		ModuleRoots: []string{"default", "sharp"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	sub := ShapeOf(nil, sharpESM, "node")
	if d := cmp.Diff([]string{"node"}, sub.Named); d != "" || sub.HasDefault || sub.Subpath != "./node" {
		t.Errorf("subpath shape %+v", sub)
	}
	unknown := ShapeOf(sharpInstalled, nil, ".")
	if unknown.Known || unknown.Package != "" || len(unknown.ModuleRoots) != 2 {
		t.Errorf("nil target shape %+v", unknown)
	}
	opaque := ShapeOf(nil, &model.Surface{Package: "x", Symbols: []model.Symbol{sym("X", model.KindClass, exportEquals)}}, ".")
	if !opaque.DefaultOpaque || !opaque.DefaultConstructable || !opaque.HasDefault || opaque.ModuleRoots[1] != "X" {
		t.Errorf("export = target shape %+v", opaque)
	}
}

func TestJudgeSite(t *testing.T) {
	shape := ShapeOf(sharpInstalled, sharpESM, ".")
	node := func(v string) NodeInfo { return NodeInfo{Version: v, Source: ".nvmrc"} }
	req := func(p string, a model.Access) model.Usage {
		return model.Usage{CanonicalPath: p, SymbolPath: p, Access: a, Loader: model.LoaderRequire}
	}
	const (
		ok = iota
		brk
		unv
	)
	tests := []struct {
		name   string
		usage  model.Usage
		shape  ExportShape
		node   NodeInfo
		want   int
		reason string
	}{
		{"import site is never affected", model.Usage{CanonicalPath: "sharp", Access: model.AccessCall, Loader: model.LoaderImport}, shape, node("18"), ok, "loaded with import"},
		{"no require(esm): a named export still breaks", req("cache", model.AccessCall), shape, node("20.18"), brk, "Node 20.18 (.nvmrc) has no require(esm)"},
		{"Node 21 has no require(esm)", req("cache", model.AccessCall), shape, node("21"), brk, "ERR_REQUIRE_ESM"},
		{"require(esm): named export works", req("cache", model.AccessCall), shape, node("22"), ok, "cache is a named export"},
		{"require(esm): namespace member also named", req("sharp.cache", model.AccessCall), shape, node("20.19"), ok, "also a named export"},
		{"calling the module breaks on every Node", req("sharp", model.AccessCall), shape, node("22"), brk, `require("sharp") now returns the module namespace, which is not callable; the function is its .default, on every Node`},
		{"calling the module breaks even with unknown Node", req("sharp", model.AccessCall), shape, NodeInfo{}, brk, "on every Node"},
		{"constructing the module breaks", req("default", model.AccessConstruct), shape, node("24"), brk, "cannot be constructed"},
		{"member only on default breaks", req("sharp.versions", model.AccessRead), shape, node("22.12.0"), brk, `versions lives only on the default export; require("sharp").versions is undefined`},
		{"instance member is judged at the call", req("sharp.Sharp#resize", model.AccessCall), shape, node("22"), ok, ""},
		{"instance member of the module value", req("sharp#resize", model.AccessCall), shape, node("22"), ok, "read from a value the module produced"},
		{"binding the namespace", req("sharp", model.AccessImport), shape, node("lts"), ok, "binding the namespace"},
		{"reading the module value is unsure", req("sharp", model.AccessRead), shape, node("22"), unv, "what the code does with it decides"},
		{"unknown Node leaves a working site unverified", req("cache", model.AccessCall), shape, NodeInfo{Note: "Dockerfile builds on acme/base: production Node unknown"}, unv, "production Node unknown"},
		{"unknown Node without a note", req("cache", model.AccessCall), shape, NodeInfo{}, unv, "no Dockerfile, version file"},
		{"type reference loads nothing", req("sharp.Sharp", model.AccessTypeRef), shape, node("18"), ok, "type reference"},
		{"unknown name", req("gone", model.AccessCall), shape, node("22"), unv, "not among the ESM entry's exports"},
		{"no declarations: require(esm) cannot judge", req("cache", model.AccessCall), ShapeOf(sharpInstalled, nil, "."), node("22"), unv, "shape of its ESM exports is unknown"},
		{"no declarations: old Node still breaks", req("cache", model.AccessCall), ShapeOf(sharpInstalled, nil, "."), node("18"), brk, "ERR_REQUIRE_ESM"},
		{"not requirable breaks on every Node", req("cache", model.AccessCall), shape.WithFormat(EntryFormat{NotRequirable: true}), node("24"), brk, "ERR_PACKAGE_PATH_NOT_EXPORTED"},
		{"top-level await breaks on every Node", req("cache", model.AccessCall), shape.WithFormat(EntryFormat{TopLevelAwait: &TopLevelAwait{File: "a.js", Line: 3}}), node("24"), brk, "awaits at top level (a.js:3)"},
		{"export = target members are unsure", req("X.y", model.AccessRead), ShapeOf(nil, &model.Surface{Package: "x", Symbols: []model.Symbol{sym("X", model.KindClass, exportEquals)}}, "."), node("22"), unv, "use export ="},
		{"load without a path", model.Usage{Loader: model.LoaderRequire, Access: model.AccessImport}, shape, node("22"), ok, "the load itself"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			breaks, unverified, reason := JudgeSite(tt.usage, tt.shape, tt.node)
			got := ok
			switch {
			case breaks && unverified:
				t.Fatalf("breaks and unverified together: %s", reason)
			case breaks:
				got = brk
			case unverified:
				got = unv
			}
			if got != tt.want {
				t.Fatalf("verdict %d; want %d (reason %q)", got, tt.want, reason)
			}
			if !strings.Contains(reason, tt.reason) {
				t.Errorf("reason %q; want it to contain %q", reason, tt.reason)
			}
		})
	}
}
