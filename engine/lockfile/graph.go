package lockfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/jsonc"
	"gopkg.in/yaml.v3"
)

// Record is one installed package of a lockfile's whole graph.
type Record struct {
	// Key identifies the record within its lockfile: an npm install
	// location ("node_modules/a/node_modules/b"), a pnpm snapshot key
	// ("a@1.0.0(react@18.3.1)"), a yarn "name@version", a berry
	// resolution, a bun package key ("web/zod").
	Key     string
	Name    string
	Version string
	// Integrity is the checksum, else the resolution the lockfile records.
	Integrity string
	// Dependencies maps each dependency (any kind) to what the lockfile
	// writes for it: a range (npm, yarn, bun) or a version (pnpm).
	Dependencies map[string]string
	// Edges are the keys of the records those dependencies resolve to.
	Edges []string
	// Content is every field of the record the lockfile writes, in one
	// canonical form: two records are the same install when their
	// Contents are equal.
	Content string
}

// Graph is everything a lockfile installs: each record and what each
// importer (workspace, or pnpm catalog) declares.
type Graph struct {
	File    string
	Format  Format
	Records map[string]*Record
	// Importers maps an importer ("." the root, "packages/a", and for pnpm
	// "catalog:default") to declared name → the lockfile's text for it
	// (specifier and resolved version).
	Importers map[string]map[string]string
	// ImporterEdges maps an importer to declared name → record key, where
	// the declaration resolves to a record.
	ImporterEdges map[string]map[string]string
	// descriptors maps yarn's "name@range" keys to record keys.
	descriptors map[string]string
}

// Descriptor is the record a yarn descriptor ("zod@^3.22.4", berry's
// "zod@npm:^3.22.4") resolves to.
func (g *Graph) Descriptor(d string) (string, bool) {
	k, ok := g.descriptors[d]
	return k, ok
}

// LoadGraph reads the whole graph of a lockfile. Unlike Load it reads
// every record; it is for comparing two versions of one file, not for the
// per-workspace questions Load answers quickly. npm v1 and pnpm v5 are not
// read (an *Error says so).
func LoadGraph(file string) (*Graph, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, &Error{File: abs, Msg: "cannot read the lockfile: " + unwrapPathError(err), Hint: "check that it exists and is readable"}
	}
	return ParseGraph(abs, data)
}

// ParseGraph is LoadGraph of content already read; file names it in errors
// and its base name chooses the format.
func ParseGraph(file string, data []byte) (g *Graph, err error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	// Parse first: it validates the file and names its format.
	lf, err := Parse(file, data)
	if err != nil {
		return nil, err
	}
	g = &Graph{File: file, Format: lf.Format(), Records: map[string]*Record{}, Importers: map[string]map[string]string{}, ImporterEdges: map[string]map[string]string{}}
	switch lf.Format() {
	case NPMv2, NPMv3:
		err = g.readNPM(data)
	case PnpmV6, PnpmV9:
		err = g.readPnpm(data)
	case YarnV1:
		err = g.readYarnV1(data)
	case YarnBerry:
		err = g.readBerry(data)
	case Bun:
		err = g.readBun(data)
	default:
		return nil, &Error{File: file, Msg: fmt.Sprintf("the whole graph of a %s lockfile is not read", lf.Format()),
			Hint: "write it again with a current package manager (npm 7+, pnpm 8+)"}
	}
	if err != nil {
		return nil, err
	}
	for _, r := range g.Records {
		sort.Strings(r.Edges)
		if r.Content == "" {
			r.Content = canonical(r.Name, r.Version, r.Integrity, r.Dependencies)
		}
	}
	return g, nil
}

func canonical(parts ...any) string {
	b, _ := json.Marshal(parts)
	return string(b)
}

// Reachable is the set of record keys reachable from the given records
// (themselves included).
func (g *Graph) Reachable(from []string) map[string]bool {
	seen := map[string]bool{}
	stack := append([]string{}, from...)
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[k] {
			continue
		}
		r, ok := g.Records[k]
		if !ok {
			continue
		}
		seen[k] = true
		stack = append(stack, r.Edges...)
	}
	return seen
}

// --- npm v2/v3 ---

type npmGraphPackage struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Resolved             string            `json:"resolved"`
	Integrity            string            `json:"integrity"`
	Link                 bool              `json:"link"`
	Dev                  bool              `json:"dev"`
	Optional             bool              `json:"optional"`
	Peer                 bool              `json:"peer"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
}

func (g *Graph) readNPM(data []byte) error {
	var f struct {
		Packages map[string]json.RawMessage `json:"packages"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return jsonError(g.File, data, err, npmHint)
	}
	pkgs := map[string]npmGraphPackage{}
	for loc, raw := range f.Packages {
		var p npmGraphPackage
		if err := json.Unmarshal(raw, &p); err != nil {
			return &Error{File: g.File, Line: keyLine(data, fmt.Sprintf("%q", loc)), Msg: fmt.Sprintf("packages entry %q is not a package record", clip(loc)), Hint: npmHint}
		}
		pkgs[loc] = p
	}
	// resolve follows Node's lookup from an install location.
	resolve := func(from, name string) (string, bool) {
		dir := from
		for {
			cand := "node_modules/" + name
			if dir != "" {
				cand = dir + "/node_modules/" + name
			}
			if _, ok := pkgs[cand]; ok {
				return cand, true
			}
			if dir == "" {
				return "", false
			}
			i := strings.LastIndex(dir, "/node_modules/")
			switch {
			case i >= 0:
				dir = dir[:i]
			case strings.HasPrefix(dir, "node_modules/"):
				dir = ""
			default:
				// A workspace directory resolves through the root.
				dir = ""
			}
		}
	}
	for loc, p := range pkgs {
		deps := map[string]string{}
		for _, m := range []map[string]string{p.Dependencies, p.OptionalDependencies, p.PeerDependencies} {
			for k, v := range m {
				deps[k] = v
			}
		}
		isImporter := loc == "" || !strings.Contains(loc, "node_modules/") && !p.Link
		if isImporter {
			ws := "."
			if loc != "" {
				ws = cleanWorkspace(loc)
			}
			decl, edges := importerDecl(p.Dependencies, p.DevDependencies, p.OptionalDependencies, p.PeerDependencies,
				func(k string) (string, bool) { return resolve(loc, k) })
			g.Importers[ws], g.ImporterEdges[ws] = decl, edges
			continue
		}
		name := p.Name
		if i := strings.LastIndex(loc, "node_modules/"); i >= 0 && name == "" {
			name = loc[i+len("node_modules/"):]
		}
		r := &Record{Key: loc, Name: name, Version: p.Version, Integrity: p.Integrity, Dependencies: deps}
		if r.Integrity == "" {
			r.Integrity = p.Resolved
		}
		if p.Link {
			r.Version = "link:" + p.Resolved
		}
		for k := range deps {
			if to, ok := resolve(loc, k); ok {
				r.Edges = append(r.Edges, to)
			}
		}
		r.Content = canonical(name, p.Version, p.Resolved, p.Integrity, p.Link, p.Dev, p.Optional, p.Peer,
			p.Dependencies, p.OptionalDependencies, p.PeerDependencies)
		g.Records[loc] = r
	}
	return nil
}

// --- pnpm v6/v9 ---

func (g *Graph) readPnpm(data []byte) error {
	doc, first := lastDocument(data)
	secs, err := sections(g.File, doc, first, pnpmHint)
	if err != nil {
		return err
	}
	byKey := map[string]*yaml.Node{}
	for _, s := range secs {
		switch s.key {
		case "importers", "packages", "snapshots", "catalogs", "dependencies", "devDependencies", "optionalDependencies":
			root, err := parseYAML(g.File, s.text, s.line, pnpmHint)
			if err != nil {
				return err
			}
			byKey[s.key] = value(MapGet(root, s.key))
		}
	}
	v9 := g.Format == PnpmV9
	// refKey is the record an importer or dependency version points at.
	refKey := func(name, ref string) (string, bool) {
		if ref == "" || isLocalProtocol(ref) || strings.Contains(ref, "://") {
			return "", false
		}
		if ref[0] >= '0' && ref[0] <= '9' {
			if v9 {
				return name + "@" + ref, true
			}
			return "/" + name + "@" + ref, true
		}
		return ref, true
	}
	pkgs := byKey["packages"]
	if pkgs != nil && pkgs.Kind != yaml.MappingNode && !isNull(pkgs) {
		return &Error{File: g.File, Line: pkgs.Line, Msg: "packages is not a mapping", Hint: pnpmHint}
	}
	table := pkgs
	if v9 {
		table = byKey["snapshots"]
		if table != nil && table.Kind != yaml.MappingNode && !isNull(table) {
			return &Error{File: g.File, Line: table.Line, Msg: "snapshots is not a mapping", Hint: pnpmHint}
		}
	}
	meta := map[string]*yaml.Node{}
	if pkgs != nil && pkgs.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(pkgs.Content); i += 2 {
			meta[pkgs.Content[i].Value] = value(pkgs.Content[i+1])
		}
	}
	if table != nil && table.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(table.Content); i += 2 {
			key, n := table.Content[i].Value, value(table.Content[i+1])
			if n != nil && n.Kind != yaml.MappingNode {
				return &Error{File: g.File, Line: table.Content[i].Line, Msg: fmt.Sprintf("entry %q is not a mapping", clip(key)), Hint: pnpmHint}
			}
			base, _, _ := strings.Cut(key, "(")
			nameVer := strings.TrimPrefix(base, "/")
			name, ver := nameVer, ""
			if j := strings.LastIndexByte(nameVer, '@'); j > 0 {
				name, ver = registryName(nameVer[:j]), nameVer[j+1:]
			}
			m := n
			if v9 {
				m = meta[base]
			}
			r := &Record{Key: key, Name: name, Version: ver, Dependencies: map[string]string{}}
			if res := value(MapGet(m, "resolution")); res != nil {
				r.Integrity = yamlText(res)
			}
			for _, field := range []string{"dependencies", "optionalDependencies"} {
				d := value(MapGet(n, field))
				if d == nil || d.Kind != yaml.MappingNode {
					continue
				}
				for j := 0; j+1 < len(d.Content); j += 2 {
					dn, dv := d.Content[j].Value, value(d.Content[j+1])
					if dv == nil || dv.Kind != yaml.ScalarNode {
						return &Error{File: g.File, Line: d.Content[j].Line, Msg: fmt.Sprintf("dependency %q of %q has no version", clip(dn), clip(key)), Hint: pnpmHint}
					}
					r.Dependencies[dn] = dv.Value
					if to, ok := refKey(dn, dv.Value); ok {
						r.Edges = append(r.Edges, to)
					}
				}
			}
			r.Content = canonical(yamlText(n), yamlText(m))
			g.Records[key] = r
		}
	}
	addImporter := func(ws string, imp *yaml.Node) error {
		decl, edges := map[string]string{}, map[string]string{}
		for _, field := range depFields {
			d := value(MapGet(imp, field))
			if d == nil || d.Kind != yaml.MappingNode {
				continue
			}
			for j := 0; j+1 < len(d.Content); j += 2 {
				dn, dv := d.Content[j].Value, value(d.Content[j+1])
				ver := ""
				if dv != nil && dv.Kind == yaml.ScalarNode {
					ver = dv.Value
				} else if vv := value(MapGet(dv, "version")); vv != nil && vv.Kind == yaml.ScalarNode {
					ver = vv.Value
				}
				decl[dn] = field + " " + yamlText(dv)
				if to, ok := refKey(dn, ver); ok {
					edges[dn] = to
				}
			}
		}
		g.Importers[ws], g.ImporterEdges[ws] = decl, edges
		return nil
	}
	if imps := byKey["importers"]; imps != nil && imps.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(imps.Content); i += 2 {
			if err := addImporter(cleanWorkspace(imps.Content[i].Value), value(imps.Content[i+1])); err != nil {
				return err
			}
		}
	} else {
		root := &yaml.Node{Kind: yaml.MappingNode}
		for _, f := range depFields {
			if n := byKey[f]; n != nil {
				root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: f}, n)
			}
		}
		if err := addImporter(".", root); err != nil {
			return err
		}
	}
	if cats := byKey["catalogs"]; cats != nil && cats.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(cats.Content); i += 2 {
			entries := value(cats.Content[i+1])
			decl := map[string]string{}
			if entries != nil && entries.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(entries.Content); j += 2 {
					decl[entries.Content[j].Value] = yamlText(entries.Content[j+1])
				}
			}
			g.Importers["catalog:"+cats.Content[i].Value] = decl
		}
	}
	return nil
}

// yamlText is a node in one canonical text (flow style, sorted keys by
// way of a decode into Go maps), so formatting never counts as a change.
func yamlText(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return n.Value
	}
	b, err := json.Marshal(jsonable(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// jsonable turns yaml.v3's decoded maps into ones encoding/json accepts.
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonable(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = jsonable(e)
		}
		return out
	case []any:
		for i := range x {
			x[i] = jsonable(x[i])
		}
	}
	return v
}

// --- yarn v1 ---

func (g *Graph) readYarnV1(data []byte) error {
	type entry struct {
		keys   []string
		fields map[string]string
		deps   map[string]string
		line   int
	}
	var entries []*entry
	var cur *entry
	var inDeps bool
	for l := range yarnLines(data) {
		line, text, indent := l.n, l.text, l.indent
		if text[0] == '#' {
			continue
		}
		switch {
		case indent == 0:
			keys, err := yarnKeys(text)
			if err != nil {
				return &Error{File: g.File, Line: line, Msg: err.Error(), Hint: yarnHint}
			}
			cur = &entry{keys: keys, fields: map[string]string{}, deps: map[string]string{}, line: line}
			entries = append(entries, cur)
			inDeps = false
		case cur == nil:
			return &Error{File: g.File, Line: line, Msg: "an indented line before any entry", Hint: yarnHint}
		case indent == 2:
			field, val, err := yarnField(text)
			if err != nil {
				return &Error{File: g.File, Line: line, Msg: err.Error(), Hint: yarnHint}
			}
			inDeps = (field == "dependencies" || field == "optionalDependencies") && val == ""
			if !inDeps {
				cur.fields[field] = val
			}
		case indent >= 4 && inDeps:
			name, rng, err := yarnField(text)
			if err != nil {
				return &Error{File: g.File, Line: line, Msg: err.Error(), Hint: yarnHint}
			}
			cur.deps[name] = rng
		}
	}
	byDescriptor := map[string]string{}
	for _, e := range entries {
		name, _, _ := splitAt(e.keys[0])
		key := name + "@" + e.fields["version"]
		for _, k := range e.keys {
			byDescriptor[k] = key
		}
	}
	for _, e := range entries {
		name, _, _ := splitAt(e.keys[0])
		key := name + "@" + e.fields["version"]
		keys := append([]string{}, e.keys...)
		sort.Strings(keys)
		r := &Record{Key: key, Name: name, Version: e.fields["version"], Integrity: e.fields["integrity"], Dependencies: e.deps}
		if r.Integrity == "" {
			r.Integrity = e.fields["resolved"]
		}
		for n, rng := range e.deps {
			if to, ok := byDescriptor[n+"@"+rng]; ok {
				r.Edges = append(r.Edges, to)
			}
		}
		r.Content = canonical(keys, e.fields, e.deps)
		if prev, dup := g.Records[key]; dup {
			// Two entries of one version (yarn merges them on its next
			// install): both count.
			prev.Content += r.Content
			prev.Edges = append(prev.Edges, r.Edges...)
			continue
		}
		g.Records[key] = r
	}
	// Yarn 1 has no importers: the descriptors are the manifests' ranges.
	g.descriptors = byDescriptor
	return nil
}

// --- yarn berry ---

func (g *Graph) readBerry(data []byte) error {
	root, err := parseYAML(g.File, data, 1, yarnHint)
	if err != nil {
		return err
	}
	if root.Kind != yaml.MappingNode {
		return &Error{File: g.File, Line: root.Line, Msg: "expected a mapping of package descriptors", Hint: yarnHint}
	}
	byDescriptor := map[string]string{}
	type entry struct {
		res  string
		node *yaml.Node
		line int
	}
	var entries []entry
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], value(root.Content[i+1])
		if k.Value == "__metadata" {
			continue
		}
		res := ""
		if r := value(MapGet(v, "resolution")); r != nil && r.Kind == yaml.ScalarNode {
			res = r.Value
		}
		if res == "" {
			return &Error{File: g.File, Line: k.Line, Msg: fmt.Sprintf("the entry for %q has no resolution", clip(k.Value)), Hint: yarnHint}
		}
		for _, d := range splitDescriptors(k.Value) {
			byDescriptor[d] = res
			if base, _, ok := strings.Cut(d, "::"); ok {
				if _, taken := byDescriptor[base]; !taken {
					byDescriptor[base] = res
				}
			}
		}
		entries = append(entries, entry{res: res, node: v, line: k.Line})
	}
	for _, e := range entries {
		name, rng, _ := splitAt(e.res)
		deps := map[string]string{}
		var edges []string
		for _, field := range []string{"dependencies", "optionalDependencies"} {
			d := value(MapGet(e.node, field))
			if d == nil || d.Kind != yaml.MappingNode {
				continue
			}
			for j := 0; j+1 < len(d.Content); j += 2 {
				dn, dv := d.Content[j].Value, value(d.Content[j+1])
				if dv == nil || dv.Kind != yaml.ScalarNode {
					continue
				}
				deps[dn] = dv.Value
				if to, ok := byDescriptor[dn+"@"+berryRange(dv.Value)]; ok {
					edges = append(edges, to)
				}
			}
		}
		if strings.HasPrefix(rng, "workspace:") {
			ws := cleanWorkspace(strings.TrimPrefix(rng, "workspace:"))
			decl, iedges := map[string]string{}, map[string]string{}
			for k, v := range deps {
				decl[k] = v
				if to, ok := byDescriptor[k+"@"+berryRange(v)]; ok {
					iedges[k] = to
				}
			}
			g.Importers[ws], g.ImporterEdges[ws] = decl, iedges
			continue
		}
		r := &Record{Key: e.res, Name: name, Dependencies: deps, Edges: edges}
		if v := value(MapGet(e.node, "version")); v != nil {
			r.Version = v.Value
		}
		if c := value(MapGet(e.node, "checksum")); c != nil {
			r.Integrity = c.Value
		} else {
			r.Integrity = e.res
		}
		r.Content = yamlText(e.node)
		g.Records[e.res] = r
	}
	g.descriptors = byDescriptor
	return nil
}

// --- bun ---

func (g *Graph) readBun(data []byte) error {
	clean := jsonc.Strip(data)
	var f struct {
		Workspaces map[string]struct {
			Name                 string            `json:"name"`
			Dependencies         map[string]string `json:"dependencies"`
			DevDependencies      map[string]string `json:"devDependencies"`
			OptionalDependencies map[string]string `json:"optionalDependencies"`
			PeerDependencies     map[string]string `json:"peerDependencies"`
		} `json:"workspaces"`
		Packages map[string][]json.RawMessage `json:"packages"`
		Catalog  map[string]string            `json:"catalog"`
		Catalogs map[string]map[string]string `json:"catalogs"`
	}
	if err := json.Unmarshal(clean, &f); err != nil {
		return jsonError(g.File, clean, err, bunHint)
	}
	// resolve looks a dependency up from a package key outward: bun keys
	// a copy that only one parent sees "parent/dep".
	resolve := func(from []string, name string) (string, bool) {
		for i := len(from); i >= 0; i-- {
			k := strings.Join(append(append([]string{}, from[:i]...), name), "/")
			if _, ok := f.Packages[k]; ok {
				return k, true
			}
		}
		return "", false
	}
	for key, arr := range f.Packages {
		if len(arr) == 0 {
			return &Error{File: g.File, Line: keyLine(clean, fmt.Sprintf("%q", key)), Msg: fmt.Sprintf("package %q is an empty array", clip(key)), Hint: bunHint}
		}
		var id string
		if err := json.Unmarshal(arr[0], &id); err != nil {
			return &Error{File: g.File, Line: keyLine(clean, fmt.Sprintf("%q", key)), Msg: fmt.Sprintf("package %q does not start with \"name@version\"", clip(key)), Hint: bunHint}
		}
		name, ver, _ := splitAt(id)
		r := &Record{Key: key, Name: name, Version: ver, Dependencies: map[string]string{}}
		var info struct {
			Dependencies         map[string]string `json:"dependencies"`
			OptionalDependencies map[string]string `json:"optionalDependencies"`
		}
		var parts []string
		for i, raw := range arr {
			parts = append(parts, string(bytes.Join(bytes.Fields(raw), nil)))
			if i > 0 && len(raw) > 0 && raw[0] == '{' {
				_ = json.Unmarshal(raw, &info)
			}
			var s string
			if i > 0 && json.Unmarshal(raw, &s) == nil && strings.HasPrefix(s, "sha") {
				r.Integrity = s
			}
		}
		segs := bunSegments(key)
		for _, m := range []map[string]string{info.Dependencies, info.OptionalDependencies} {
			for dn, dv := range m {
				r.Dependencies[dn] = dv
				if to, ok := resolve(segs, dn); ok {
					r.Edges = append(r.Edges, to)
				}
			}
		}
		if r.Integrity == "" {
			r.Integrity = ver
		}
		r.Content = canonical(parts)
		if strings.HasPrefix(ver, "workspace:") {
			continue // the workspace itself; its declarations are an importer
		}
		g.Records[key] = r
	}
	for wsPath, w := range f.Workspaces {
		ws := "."
		if wsPath != "" {
			ws = cleanWorkspace(wsPath)
		}
		var from []string
		if ws != "." && w.Name != "" {
			from = bunSegments(w.Name)
		}
		decl, edges := importerDecl(w.Dependencies, w.DevDependencies, w.OptionalDependencies, w.PeerDependencies,
			func(k string) (string, bool) { return resolve(from, k) })
		g.Importers[ws], g.ImporterEdges[ws] = decl, edges
	}
	if len(f.Catalog) > 0 {
		g.Importers["catalog:default"] = f.Catalog
	}
	for n, c := range f.Catalogs {
		g.Importers["catalog:"+n] = c
	}
	return nil
}

// bunSegments splits a bun package key into package names ("@s/a/b" →
// ["@s/a", "b"]).
func bunSegments(key string) []string {
	parts := strings.Split(key, "/")
	var out []string
	for i := 0; i < len(parts); i++ {
		if strings.HasPrefix(parts[i], "@") && i+1 < len(parts) {
			out = append(out, parts[i]+"/"+parts[i+1])
			i++
			continue
		}
		out = append(out, parts[i])
	}
	return out
}

// importerDecl is what a workspace declares, by name ("<field> <spec>"),
// and where each declared name resolves to in the lockfile.
func importerDecl(deps, dev, optional, peer map[string]string, resolve func(name string) (string, bool)) (decl, edges map[string]string) {
	decl, edges = map[string]string{}, map[string]string{}
	// A name declared in two fields is the field that installs it: the
	// later fields below win (dependencies last), the same every run.
	fields := []struct {
		name string
		m    map[string]string
	}{{"peerDependencies", peer}, {"devDependencies", dev}, {"optionalDependencies", optional}, {"dependencies", deps}}
	for _, f := range fields {
		for k, v := range f.m {
			decl[k] = f.name + " " + v
			if to, ok := resolve(k); ok {
				edges[k] = to
			}
		}
	}
	return decl, edges
}
