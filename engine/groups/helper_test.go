package groups

import (
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/semver"
)

// opt shapes one release of a test packument.
type opt func(*model.Release)

func dep(name, spec string) opt {
	return func(r *model.Release) {
		if r.Dependencies == nil {
			r.Dependencies = map[string]string{}
		}
		r.Dependencies[name] = spec
	}
}

func peer(name, spec string) opt {
	return func(r *model.Release) {
		if r.PeerDependencies == nil {
			r.PeerDependencies = map[string]string{}
		}
		r.PeerDependencies[name] = spec
	}
}

func deprecated(msg string) opt { return func(r *model.Release) { r.Deprecated = msg } }

// rel is one version with its manifest options.
type rel struct {
	v    string
	opts []opt
}

func v(version string, opts ...opt) rel { return rel{version, opts} }

// pk builds a packument; latest defaults to the newest non-prerelease.
func pk(name string, rels ...rel) *model.Packument {
	p := &model.Packument{Name: name, DistTags: map[string]string{}, Versions: map[string]model.Release{}}
	var all []string
	for _, r := range rels {
		m := model.Release{Name: name, Version: r.v}
		for _, o := range r.opts {
			o(&m)
		}
		p.Versions[r.v] = m
		all = append(all, r.v)
	}
	p.DistTags["latest"] = semver.Newest(all, false)
	return p
}

func tagged(p *model.Packument, tag, version string) *model.Packument {
	p.DistTags[tag] = version
	return p
}

func registry(ps ...*model.Packument) Packuments {
	out := Packuments{}
	for _, p := range ps {
		out[p.Name] = p
	}
	return out
}

func merge(rs ...Packuments) Packuments {
	out := Packuments{}
	for _, r := range rs {
		for k, v := range r {
			out[k] = v
		}
	}
	return out
}

// The React family as the registry publishes it, trimmed.
func reactRegistry() Packuments {
	return registry(
		pk("react", v("18.2.0"), v("18.3.1"), v("19.0.0"), v("19.1.0")),
		pk("react-dom",
			v("18.2.0", peer("react", "^18.2.0")),
			v("18.3.1", peer("react", "^18.3.1")),
			v("19.0.0", peer("react", "^19.0.0")),
			v("19.1.0", peer("react", "^19.1.0"))),
		pk("@types/react", v("18.3.12"), v("18.3.18"), v("19.0.0"), v("19.0.2"), v("19.0.8"), v("19.1.2")),
		pk("@types/react-dom",
			v("18.3.1", dep("@types/react", "*")),
			v("18.3.5", peer("@types/react", "^18.0.0")),
			v("19.0.0", peer("@types/react", "^19.0.0")),
			v("19.0.4", peer("@types/react", "^19.0.0")),
			v("19.1.2", peer("@types/react", "^19.0.0"))),
		pk("@testing-library/react",
			v("14.3.1", peer("react", "^18.0.0")),
			v("16.1.0", peer("react", "^18.0.0 || ^19.0.0"))),
		pk("@ai-sdk/react",
			v("0.0.60", peer("react", "^18.2.0")),
			v("0.0.70", peer("react", "^18.2.0"))),
		pk("lodash", v("4.17.21")),
	)
}

// ai and the @ai-sdk packages, which pin one another exactly.
func aiRegistry() Packuments {
	return registry(
		pk("ai",
			v("3.4.0", dep("@ai-sdk/provider", "0.0.26"), dep("@ai-sdk/provider-utils", "1.0.20"), peer("react", "^18 || ^19")),
			v("4.0.0", dep("@ai-sdk/provider", "1.0.0"), dep("@ai-sdk/provider-utils", "2.0.0"), dep("@ai-sdk/react", "1.0.0"), peer("react", "^18 || ^19"))),
		pk("@ai-sdk/openai",
			v("0.0.66", dep("@ai-sdk/provider", "0.0.26"), dep("@ai-sdk/provider-utils", "1.0.20")),
			v("1.0.0", dep("@ai-sdk/provider", "1.0.0"), dep("@ai-sdk/provider-utils", "2.0.0")),
			v("1.0.5", dep("@ai-sdk/provider", "1.0.1"), dep("@ai-sdk/provider-utils", "2.0.3"))),
		pk("@ai-sdk/anthropic",
			v("0.0.50", dep("@ai-sdk/provider", "0.0.26"), dep("@ai-sdk/provider-utils", "1.0.20")),
			v("1.0.0", dep("@ai-sdk/provider", "1.0.1"), dep("@ai-sdk/provider-utils", "2.0.3"))),
		pk("@ai-sdk/react",
			v("0.0.70", dep("@ai-sdk/provider-utils", "1.0.20"), peer("react", "^18.2.0")),
			v("1.0.0", dep("@ai-sdk/provider-utils", "2.0.0"), peer("react", "^18 || ^19"))),
		pk("zod", v("3.23.8")),
	)
}
