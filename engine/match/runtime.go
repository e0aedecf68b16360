package match

import (
	"slices"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/model/path"
	"github.com/uptide/uptide/engine/probe"
)

// RuntimeSite is how a usage meets the package when it loads, for
// probe.Hits: the member chain read from what its loader returned, from
// the symbol path the usage resolves to. A type the path passes through
// (default.Tint#red: the interface typing the export) is not a member; an
// instance member of a class lives on instances, which the probe never
// builds, so the chain stops at the class and the site only reads it. ok
// is false for a path the probe cannot read; a subpath entry the probe did
// not load is for probe.Hits to say.
func RuntimeSite(u model.Usage, installed *model.Surface) (probe.Site, bool) {
	s := probe.Site{Loader: u.Loader, Access: u.Access, Subpath: u.Subpath}
	p := u.CanonicalPath
	if p == "" {
		p = u.SymbolPath
	}
	q, err := path.Parse(p)
	// A subpath entry's surface is scoped by its specifier ("./v4"): the
	// members below it are read from what that entry loads.
	if err != nil || (q.Scope != "" && q.Scope != u.Subpath) {
		return s, false
	}
	kinds := map[string]model.SymbolKind{}
	// roots are the top-level names the entry's `export =` is read as:
	// "default", or the declaration's own name (`export = fetch`).
	roots := map[string]bool{}
	entry := u.Subpath
	if entry == "" {
		entry = "."
	}
	if installed != nil {
		for _, sym := range installed.Symbols {
			kinds[sym.Path] = sym.Kind
			if !sym.ExportEquals || (len(sym.ExportedFrom) > 0 && !slices.Contains(sym.ExportedFrom, entry)) {
				continue
			}
			if r, err := path.Parse(sym.Path); err == nil && len(r.Segments) == 1 {
				roots[r.Segments[0].Name] = true
			}
		}
	}
	prefix := path.Path{Scope: q.Scope}
	typeView := false
	for i, seg := range q.Segments {
		if seg.Kind != path.Name {
			s.Access = model.AccessRead // a call's result, an index: deeper than the probe reads
			break
		}
		if seg.Sep == path.SepInstance {
			prefix = prefix.Instance(seg.Name)
		} else {
			prefix = prefix.Static(seg.Name)
		}
		if seg.Sep == path.SepInstance && i > 0 && !typeView {
			s.Access = model.AccessRead // on instances: the class is what is read
			break
		}
		switch kinds[prefix.String()] {
		case model.KindInterface, model.KindTypeAlias:
			if i > 0 {
				typeView = true
				continue
			}
		}
		typeView = false
		s.Path = append(s.Path, seg.Name)
	}
	// export = is module.exports: what require() returns itself, and what
	// import() gives as the default export.
	if len(s.Path) > 0 && roots[s.Path[0]] {
		switch u.Loader {
		case model.LoaderRequire:
			s.Path = s.Path[1:]
		case model.LoaderImport:
			s.Path = append([]string{"default"}, s.Path[1:]...)
		}
	}
	return s, true
}

// RuntimeHits is what the probe says of a finding's sites: the changes
// they meet, and whether it decided for every one of them.
func RuntimeHits(res *model.RuntimeResult, sites []model.Usage, installed *model.Surface) ([]model.RuntimeChange, bool) {
	if res == nil || len(sites) == 0 {
		return nil, false
	}
	decided := true
	var out []model.RuntimeChange
	for _, u := range sites {
		s, ok := RuntimeSite(u, installed)
		if !ok {
			decided = false
			continue
		}
		hits, d := probe.Hits(*res, s)
		if !d {
			decided = false
			continue
		}
		out = AppendRuntimeChanges(out, hits)
	}
	return out, decided
}

// AppendRuntimeChanges adds the changes to is missing, each change once.
func AppendRuntimeChanges(to, from []model.RuntimeChange) []model.RuntimeChange {
	for _, c := range from {
		if !slices.ContainsFunc(to, func(o model.RuntimeChange) bool { return o.Kind == c.Kind && o.Loader == c.Loader && o.Key == c.Key }) {
			to = append(to, c)
		}
	}
	return to
}
