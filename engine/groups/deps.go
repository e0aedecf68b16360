package groups

import (
	"path"
	"slices"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
	"github.com/uptide/uptide/internal/lists"
)

// Dep is one direct dependency as installed in one workspace.
type Dep struct {
	Name      string
	Installed string
	// Workspace is the declaring workspace, slash-separated from the
	// repository root: "." or "packages/web".
	Workspace string
	// Target is the version the dependency would be upgraded to; the peer
	// link of ReleaseGroups reads its manifest. Empty means the packument's
	// latest dist-tag.
	Target string
}

// Packuments maps a package name to what the registry knows of it.
type Packuments map[string]*model.Packument

// release returns the manifest of name@version, also when the version is
// spelled differently from the packument's key ("v1.2.3", "=1.2.3").
func (p Packuments) release(name, version string) (model.Release, bool) {
	pk := p[name]
	if pk == nil || version == "" {
		return model.Release{}, false
	}
	if r, ok := pk.Versions[version]; ok {
		return r, true
	}
	if canon, ok := semver.Exact(version); ok && canon != version {
		r, ok := pk.Versions[canon]
		return r, ok
	}
	return model.Release{}, false
}

// latest is the packument's latest dist-tag, or its newest release when the
// tag is missing or not a version.
func latest(pk *model.Packument) string {
	if pk == nil {
		return ""
	}
	if l := pk.DistTags["latest"]; semver.IsExact(l) {
		return l
	}
	vs := make([]string, 0, len(pk.Versions))
	for v := range pk.Versions {
		vs = append(vs, v)
	}
	return semver.Newest(vs, false)
}

// scope returns "@scope" for "@scope/name", "" for an unscoped name.
func scope(name string) string {
	if strings.HasPrefix(name, "@") {
		if i := strings.IndexByte(name, '/'); i > 1 {
			return name[:i]
		}
	}
	return ""
}

// family is the release family of a package: its scope, or for an
// unscoped package the scope named after it, whose packages are released
// with it (nx and @nx/*, storybook and @storybook/*, prisma and
// @prisma/client, eslint and @eslint/js).
func family(name string) string {
	if s := scope(name); s != "" {
		return s
	}
	return "@" + name
}

func sameScope(a, b string) bool {
	s := scope(a)
	return s != "" && s == scope(b)
}

// TypesName is the DefinitelyTyped package for pkg: @types/react for react,
// @types/babel__core for @babel/core.
func TypesName(pkg string) string {
	if s := scope(pkg); s != "" {
		return "@types/" + s[1:] + "__" + pkg[len(s)+1:]
	}
	return "@types/" + pkg
}

// TypedPackage is the package a DefinitelyTyped package types, "" when name
// is not one.
func TypedPackage(name string) string {
	rest, ok := strings.CutPrefix(name, "@types/")
	if !ok || rest == "" {
		return ""
	}
	if s, n, ok := strings.Cut(rest, "__"); ok && s != "" && n != "" {
		return "@" + s + "/" + n
	}
	return rest
}

// link is one manifest entry naming another package.
type link struct {
	field model.DepType
	spec  string
}

// linksTo lists the entries of r that name pkg, peer entries first.
func linksTo(r model.Release, pkg string) []link {
	var out []link
	if s, ok := r.PeerDependencies[pkg]; ok {
		out = append(out, link{model.Peer, s})
	}
	if s, ok := r.Dependencies[pkg]; ok {
		out = append(out, link{model.Prod, s})
	}
	if s, ok := r.OptionalDependencies[pkg]; ok {
		out = append(out, link{model.Optional, s})
	}
	return out
}

// names lists every package r depends on in any field, sorted.
func names(r model.Release) []string {
	seen := map[string]bool{}
	for _, m := range []map[string]string{r.Dependencies, r.PeerDependencies, r.OptionalDependencies} {
		for n := range m {
			seen[n] = true
		}
	}
	return lists.SortedKeys(seen)
}

// pins maps each package r names with an exact version to that version.
func pins(r model.Release) map[string]string {
	out := map[string]string{}
	for _, m := range []map[string]string{r.OptionalDependencies, r.PeerDependencies, r.Dependencies} {
		for n, spec := range m {
			if v, ok := semver.Exact(spec); ok {
				out[n] = v
			}
		}
	}
	return out
}

// pinWorthSharing says whether two packages pinning dep exactly are one
// release train: the pinned package belongs to the scope of one of them
// (ai and @ai-sdk/openai both pinning @ai-sdk/provider), not a utility two
// strangers happen to pin, and not a types package.
func pinWorthSharing(dep, a, b string) bool {
	s := scope(dep)
	return s != "" && s != "@types" && (s == scope(a) || s == scope(b))
}

// verb is how a manifest field reads in a sentence.
func verb(f model.DepType) string {
	if f == model.Peer {
		return "peer-requires"
	}
	return "depends on"
}

func fieldWord(f model.DepType) string {
	switch f {
	case model.Peer:
		return "peer"
	case model.Optional:
		return "optional dependency"
	}
	return "dependency"
}

// accepts reports whether every entry's range admits v (nil: an invalid
// version, which no range admits). A specifier that is not a range (a tag,
// an alias, a URL) gives no verdict, so it accepts.
func (c *cache) accepts(ls []link, v *semver.Version) bool {
	for _, l := range ls {
		r := c.rng(l.spec)
		if r != nil && (v == nil || !r.SatisfiesVersion(v)) {
			return false
		}
	}
	return true
}

// cache remembers parsed ranges and sorted releases of one set of packuments.
type cache struct {
	p        Packuments
	ranges   map[string]*semver.Range
	versions map[string][]relVersion
}

func newCache(p Packuments) *cache {
	return &cache{p: p, ranges: map[string]*semver.Range{}, versions: map[string][]relVersion{}}
}

func (c *cache) rng(spec string) *semver.Range {
	if r, ok := c.ranges[spec]; ok {
		return r
	}
	r, err := semver.ParseRange(spec)
	if err != nil {
		r = nil
	}
	c.ranges[spec] = r
	return r
}

type relVersion struct {
	raw string
	v   *semver.Version
	rel *model.Release
}

// releases lists the valid versions of name, newest first.
func (c *cache) releases(name string) []relVersion {
	if rs, ok := c.versions[name]; ok {
		return rs
	}
	var rs []relVersion
	if pk := c.p[name]; pk != nil {
		rels := make([]model.Release, 0, len(pk.Versions))
		rs = make([]relVersion, 0, len(pk.Versions))
		for raw, rel := range pk.Versions {
			if v, err := semver.Parse(raw); err == nil {
				rels = append(rels, rel)
				rs = append(rs, relVersion{raw, v, &rels[len(rels)-1]})
			}
		}
	}
	slices.SortFunc(rs, func(a, b relVersion) int {
		if d := b.v.Compare(a.v); d != 0 {
			return d
		}
		return strings.Compare(a.raw, b.raw)
	})
	c.versions[name] = rs
	return rs
}

// visible reports whether a dependency declared in workspace w resolves
// from workspace from: the same workspace or an ancestor directory.
func visible(w, from string) bool {
	w, from = cleanWS(w), cleanWS(from)
	return w == from || w == "." || strings.HasPrefix(from, w+"/")
}

// above reports whether workspace a is a directory strictly above b; both
// are cleaned.
func above(a, b string) bool {
	return a != b && (a == "." || strings.HasPrefix(b, a+"/"))
}

func cleanWS(w string) string {
	if w == "" {
		return "."
	}
	// Workspace paths from the repository are already clean; only hand-made
	// ones pay for path.Clean.
	if w == "." || !(strings.HasPrefix(w, ".") || strings.HasSuffix(w, "/") || strings.Contains(w, "//") || strings.Contains(w, "/.")) {
		return w
	}
	return path.Clean(strings.TrimPrefix(w, "./"))
}

func depth(w string) int {
	w = cleanWS(w)
	if w == "." {
		return 0
	}
	return strings.Count(w, "/") + 1
}
