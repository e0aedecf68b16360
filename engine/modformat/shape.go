package modformat

import (
	"sort"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
)

// ExportShape is what require() of the target's ESM entry returns on a
// Node with require(esm): the module namespace, whose properties are the
// named exports plus "default".
type ExportShape struct {
	// Name is the package name; Package labels reasons ("zod@4.1.12").
	Name    string `json:"name"`
	Package string `json:"package"`
	Subpath string `json:"subpath"`
	// Known: the target's declarations were read. Without them (a package
	// that ships none) the shape says nothing and sites that need it are
	// unverified.
	Known bool `json:"known"`
	// Named are the top-level export names other than default, sorted.
	Named []string `json:"named"`
	// HasDefault: the entry has a default export; DefaultCallable and
	// DefaultConstructable say what it is.
	HasDefault           bool `json:"hasDefault"`
	DefaultCallable      bool `json:"defaultCallable,omitempty"`
	DefaultConstructable bool `json:"defaultConstructable,omitempty"`
	// DefaultOpaque: the target's declarations use `export =`, so which of
	// the value's members the ESM build also exports by name is unknown.
	DefaultOpaque bool `json:"defaultOpaque,omitempty"`
	// ModuleRoots are the names a usage's canonical path starts with when it
	// is the module value itself: "default" and the installed version's
	// `export =` root (sharp for `export = sharp`), since usages carry the
	// installed surface's paths.
	ModuleRoots []string `json:"moduleRoots"`
	// NotRequirable and TopLevelAwait come from the manifests (WithFormat):
	// require() fails on every Node.
	NotRequirable bool           `json:"notRequirable,omitempty"`
	TopLevelAwait *TopLevelAwait `json:"topLevelAwait,omitempty"`
}

// ShapeOf derives the export shape of one entry point from the installed
// and target surfaces (either may be nil; a nil target leaves the shape
// unknown). Only top-level symbols exported from subpath count.
//
// A default export declared as a named class or function is placed in the
// surface under its declared name, indistinguishable from a named export of
// that name; the model carries no marker for it. That only matters for a
// site that destructures that very name from require(), which the installed
// surface's `export =` root makes rare.
func ShapeOf(installed, target *model.Surface, subpath string) ExportShape {
	subpath = normalizeSubpath(subpath)
	sh := ExportShape{Subpath: subpath, ModuleRoots: []string{"default"}}
	if installed != nil {
		sh.Name = installed.Package
		for _, s := range installed.Symbols {
			if s.ExportEquals && inEntry(s, subpath) {
				if top, _, ok := splitTop(s.Path); ok && top != "default" {
					sh.ModuleRoots = append(sh.ModuleRoots, top)
				}
			}
		}
	}
	if target == nil {
		return sh
	}
	sh.Name, sh.Package = target.Package, target.Package
	if target.Version != "" {
		sh.Package += "@" + target.Version
	}
	sh.Known = true
	named := map[string]bool{}
	for _, s := range target.Symbols {
		if !inEntry(s, subpath) || s.Visibility == model.Internal {
			continue
		}
		top, rest, ok := splitTop(s.Path)
		if !ok || rest.Len() > 0 {
			continue
		}
		isDefault := top == "default" || s.ExportEquals
		if !isDefault {
			if isValueKind(s.Kind) {
				named[top] = true
			}
			continue
		}
		sh.HasDefault = true
		sh.DefaultOpaque = sh.DefaultOpaque || s.ExportEquals
		switch s.Kind {
		case model.KindFunction:
			sh.DefaultCallable = true
		case model.KindClass:
			sh.DefaultConstructable = true
		}
		if s.ExportEquals && top != "default" {
			sh.ModuleRoots = append(sh.ModuleRoots, top)
		}
	}
	for n := range named {
		sh.Named = append(sh.Named, n)
	}
	sort.Strings(sh.Named)
	sh.ModuleRoots = dedupe(sh.ModuleRoots)
	return sh
}

// WithFormat adds what the manifests say about requiring the entry.
func (sh ExportShape) WithFormat(e EntryFormat) ExportShape {
	sh.NotRequirable = e.NotRequirable
	sh.TopLevelAwait = e.TopLevelAwait
	return sh
}

func (sh ExportShape) isNamed(name string) bool {
	i := sort.SearchStrings(sh.Named, name)
	return i < len(sh.Named) && sh.Named[i] == name
}

func (sh ExportShape) isRoot(name string) bool {
	for _, r := range sh.ModuleRoots {
		if r == name {
			return true
		}
	}
	return false
}

// isValueKind: types and interfaces vanish at runtime, so they are not
// properties of the namespace; a site can only reach them in a type
// position, where nothing loads.
func isValueKind(k model.SymbolKind) bool {
	switch k {
	case model.KindInterface, model.KindTypeAlias:
		return false
	}
	return true
}

func inEntry(s model.Symbol, subpath string) bool {
	if len(s.ExportedFrom) == 0 {
		return subpath == "."
	}
	for _, e := range s.ExportedFrom {
		if e == subpath {
			return true
		}
	}
	return false
}

// splitTop splits a canonical path into its top-level export name and the
// segments under it.
func splitTop(p string) (string, path.Path, bool) {
	pp, err := path.Parse(p)
	if err != nil || pp.Scope != "" || pp.Len() == 0 || pp.Segments[0].Kind != path.Name {
		return "", path.Path{}, false
	}
	return pp.Segments[0].Name, path.Path{Segments: pp.Segments[1:]}, true
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
