package modformat

import (
	"fmt"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
)

// verdict is how one require() site fares on a Node with require(esm).
type verdict uint8

const (
	works verdict = iota
	breaksAnyway
	unsure
)

// JudgeSite decides whether one usage of a package that stops supporting
// require() breaks, on the repository's Node:
//
//   - an import (or import()) site is not affected;
//   - a target require() cannot reach on any Node (exports without a
//     require or default condition, or an ESM graph with top-level await)
//     breaks every require() site;
//   - a site that breaks even with require(esm) breaks whatever the Node:
//     calling or constructing the module value (require() returns the
//     namespace, not the default export), a member that lives only on the
//     default export;
//   - otherwise a Node without require(esm) breaks the site
//     (ERR_REQUIRE_ESM), one with it does not (a destructured or accessed
//     named export is on the namespace), and an unknown Node leaves the
//     site unverified, saying so;
//   - what the shape cannot tell (no target declarations, an `export =`
//     target's members, a read of the module value itself) is unverified
//     on a Node with require(esm).
//
// unverified is never set together with breaks.
func JudgeSite(usage model.Usage, shape ExportShape, node NodeInfo) (breaks bool, unverified bool, reason string) {
	pkg := shape.Package
	if pkg == "" {
		pkg = "the package"
	}
	if usage.Loader != model.LoaderRequire {
		return false, false, fmt.Sprintf("%s is loaded with import, which loads ES modules on every Node", pkg)
	}
	if usage.Access == model.AccessTypeRef {
		return false, false, "a type reference loads nothing at runtime"
	}
	if shape.NotRequirable {
		return true, false, fmt.Sprintf("%s's exports give require(%q) no target on any Node (ERR_PACKAGE_PATH_NOT_EXPORTED): load it with import()", pkg, shape.specifier())
	}
	if t := shape.TopLevelAwait; t != nil {
		return true, false, fmt.Sprintf("%s awaits at top level (%s:%d), so require() throws on every Node (ERR_REQUIRE_ESM, or ERR_REQUIRE_ASYNC_MODULE with require(esm)): load it with import()", pkg, t.File, t.Line)
	}
	v, why := judgeShape(usage, shape, pkg)
	if v == breaksAnyway {
		return true, false, why + ", on every Node"
	}
	has, known := HasRequireESM(node.Version)
	switch {
	case !known:
		src := "no Dockerfile, version file, CI workflow or engines.node names it"
		if node.Note != "" {
			src = node.Note
		}
		return false, true, fmt.Sprintf("%s is ESM only and the repository's Node is unknown (%s): require() throws ERR_REQUIRE_ESM before Node 20.19 and 22.12; with require(esm), %s", pkg, src, why)
	case !has:
		return true, false, fmt.Sprintf("%s is ESM only and %s has no require(esm) (it came in 22.12 and 20.19): require() throws ERR_REQUIRE_ESM; load it with import() or move to Node 22.12+", pkg, node)
	case v == unsure:
		return false, true, fmt.Sprintf("on %s require() loads the ESM build, but %s", node, why)
	default:
		return false, false, fmt.Sprintf("on %s require() loads the ESM build and %s", node, why)
	}
}

// judgeShape is the verdict for a Node with require(esm), where require()
// returns the module namespace.
func judgeShape(u model.Usage, sh ExportShape, pkg string) (verdict, string) {
	p := u.CanonicalPath
	if p == "" {
		p = u.SymbolPath
	}
	if p == "" {
		// The load itself, with nothing read from it yet.
		return works, "the load itself returns the namespace"
	}
	top, rest, ok := splitTop(p)
	if !ok {
		return unsure, fmt.Sprintf("the site's path %q names no top-level export", p)
	}
	if !sh.Known {
		return unsure, fmt.Sprintf("without declarations for %s the shape of its ESM exports is unknown", pkg)
	}
	if sh.isRoot(top) {
		return judgeModuleValue(u, sh, pkg, top, rest)
	}
	if sh.isNamed(top) {
		return works, fmt.Sprintf("%s is a named export, a property of the namespace require() returns", top)
	}
	return unsure, fmt.Sprintf("%s is not among the ESM entry's exports", top)
}

// judgeModuleValue judges a site on what require() used to return: the
// function, class or object the installed version assigned to
// module.exports.
func judgeModuleValue(u model.Usage, sh ExportShape, pkg, root string, rest path.Path) (verdict, string) {
	if rest.Len() == 0 {
		switch u.Access {
		case model.AccessCall:
			return breaksAnyway, fmt.Sprintf("require(%q) now returns the module namespace, which is not callable; the function is its .default", sh.specifier())
		case model.AccessConstruct:
			return breaksAnyway, fmt.Sprintf("require(%q) now returns the module namespace, which cannot be constructed; the class is its .default", sh.specifier())
		case model.AccessImport:
			return works, "binding the namespace does not fail by itself; its uses are judged on their own"
		}
		return unsure, fmt.Sprintf("require() now returns the namespace rather than the value %s exported, and what the code does with it decides", root)
	}
	for _, seg := range rest.Segments {
		if seg.Sep != path.SepStatic || seg.Kind != path.Name {
			// An instance member, a call result's member: the value it is
			// read from came from a call or new on the module, judged there.
			return works, fmt.Sprintf("%s is read from a value the module produced, not from the module", joinPath(root, rest))
		}
	}
	first := rest.Segments[0]
	spec := sh.specifier()
	if sh.isNamed(first.Name) {
		return works, fmt.Sprintf("%s is also a named export, a property of the namespace require() returns", first.Name)
	}
	if sh.DefaultOpaque {
		return unsure, fmt.Sprintf("%s's declarations use export =, so whether its ESM build also exports %s by name is unknown", pkg, first.Name)
	}
	if sh.HasDefault {
		return breaksAnyway, fmt.Sprintf("%s lives only on the default export; require(%q).%s is undefined, use .default.%s", first.Name, spec, first.Name, first.Name)
	}
	return breaksAnyway, fmt.Sprintf("%s is no export of %s's ESM entry; require(%q).%s is undefined", first.Name, pkg, spec, first.Name)
}

func joinPath(root string, rest path.Path) string {
	return path.Path{Segments: append([]path.Segment{{Kind: path.Name, Name: root}}, rest.Segments...)}.String()
}

// specifier is what the site passes to require(): "sharp", "zod/v4".
func (sh ExportShape) specifier() string {
	name := sh.Name
	if name == "" {
		name = "pkg"
	}
	if sh.Subpath == "" || sh.Subpath == "." {
		return name
	}
	return name + strings.TrimPrefix(sh.Subpath, ".")
}
