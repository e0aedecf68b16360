package registryserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// abbreviatedFields are the version fields the npm abbreviated ("corgi")
// document keeps: what an installer needs to resolve and place a package.
var abbreviatedFields = []string{
	"name", "version", "deprecated",
	"dependencies", "optionalDependencies", "devDependencies", "bundleDependencies",
	"peerDependencies", "peerDependenciesMeta",
	"bin", "directories", "engines", "cpu", "os", "libc",
	"_hasShrinkwrap", "funding", "license",
}

// tarballURL is where dist.tarball points: /<name>/-/<basename>-<version>.tgz
// with the scope left unencoded, as the public registry writes it.
func tarballURL(base, name, ver string) string {
	basename := name
	if i := strings.LastIndex(name, "/"); i >= 0 {
		basename = name[i+1:]
	}
	return base + name + "/-/" + basename + "-" + ver + ".tgz"
}

func (v *version) dist(base string) (map[string]any, error) {
	t, err := v.tarball()
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"tarball":      tarballURL(base, v.name, v.version),
		"integrity":    t.integrity,
		"shasum":       t.shasum,
		"fileCount":    t.fileCount,
		"unpackedSize": t.unpackedSize,
	}, nil
}

// fullManifest is the version as the full packument and the per-version
// endpoint carry it: the package.json plus _id and dist.
func (v *version) fullManifest(base string) (map[string]any, error) {
	d, err := v.dist(base)
	if err != nil {
		return nil, err
	}
	m := make(map[string]any, len(v.manifest)+2)
	for k, val := range v.manifest {
		m[k] = val
	}
	m["_id"] = v.name + "@" + v.version
	m["dist"] = d
	return m, nil
}

func (v *version) abbreviatedManifest(base string) (map[string]any, error) {
	d, err := v.dist(base)
	if err != nil {
		return nil, err
	}
	m := map[string]any{"dist": d}
	for _, k := range abbreviatedFields {
		if val, ok := v.manifest[k]; ok {
			m[k] = val
		}
	}
	if v.hasInstallScript() {
		m["hasInstallScript"] = true
	}
	return m, nil
}

func (v *version) hasInstallScript() bool {
	scripts, _ := v.manifest["scripts"].(map[string]any)
	for _, s := range []string{"preinstall", "install", "postinstall"} {
		if _, ok := scripts[s]; ok {
			return true
		}
	}
	return false
}

// document renders (and caches until the next publish) a packument.
// The caller holds r.mu.
func (p *pkg) document(abbreviated bool, base string) (*document, error) {
	key := docKey{abbreviated: abbreviated, base: base}
	if d := p.docs[key]; d != nil {
		return d, nil
	}
	times := p.timeMap()
	versions := map[string]any{}
	for _, v := range p.sortedVersions() {
		var m map[string]any
		var err error
		if abbreviated {
			m, err = v.abbreviatedManifest(base)
		} else {
			m, err = v.fullManifest(base)
		}
		if err != nil {
			return nil, err
		}
		versions[v.version] = m
	}
	doc := map[string]any{
		"name":      p.name,
		"dist-tags": p.distTags(),
		"versions":  versions,
	}
	if abbreviated {
		doc["modified"] = times["modified"]
	} else {
		doc["_id"] = p.name
		doc["time"] = times
		if latest := p.versions[p.distTags()["latest"]]; latest != nil {
			for _, k := range []string{"description", "license", "homepage", "repository", "keywords"} {
				if val, ok := latest.manifest[k]; ok {
					doc[k] = val
				}
			}
		}
	}
	body, err := marshal(doc)
	if err != nil {
		return nil, err
	}
	d := &document{body: body, etag: etagOf(body)}
	if p.docs == nil {
		p.docs = map[docKey]*document{}
	}
	p.docs[key] = d
	return d, nil
}

// marshal writes JSON without HTML escaping (deprecation messages and
// ranges such as ">=18 <19" stay readable) and with sorted keys.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}
