package lockfile

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

const pnpmHint = "restore it from version control or run `pnpm install` to write it again"

// pnpmLockfile is pnpm-lock.yaml. Only importers are read: they map each
// workspace's dependency to the exact version it links.
type pnpmLockfile struct {
	file   string
	format Format
	// refs are the registry versions the importers name, checked against
	// the package table once it is known.
	refs []pnpmRef
	// importers maps workspace path → manifest name → version as written
	// ("1.7.0(react@18.3.1)", "left-pad@1.3.0", "link:../a").
	importers map[string]map[string]string
}

func (l *pnpmLockfile) Path() string   { return l.file }
func (l *pnpmLockfile) Format() Format { return l.format }
func (l *pnpmLockfile) Installed(ws, name, spec string) (string, bool) {
	return installed(l, ws, name, spec)
}

func (l *pnpmLockfile) Lookup(ws, name, _ string) (Entry, bool) {
	deps, ok := l.importers[cleanWorkspace(ws)]
	if !ok {
		return Entry{}, false
	}
	raw, ok := deps[name]
	if !ok {
		return Entry{}, false
	}
	return pnpmEntry(l.format, name, raw), true
}

// pnpmEntry reads an importer's version. Its forms:
//
//	v5: 18.3.1, 1.7.0_react@18.3.1, /left-pad/1.3.0 (alias), link:../a
//	v6: 18.3.1, 1.7.0(react@18.3.1), /left-pad@1.3.0 (alias)
//	v9: 18.3.1, 1.7.0(react@18.3.1), left-pad@1.3.0 (alias)
//
// plus file:, tarball URLs and git hosts, which carry no registry version.
func pnpmEntry(f Format, name, raw string) Entry {
	if isLocalProtocol(raw) {
		return Entry{Package: name, Resolution: raw, Local: true}
	}
	if strings.Contains(raw, "://") {
		return Entry{Package: name, Resolution: raw}
	}
	pkg, ver := name, raw
	if f == PnpmV5 {
		if strings.Contains(ver, "/") {
			parts := strings.Split(strings.TrimPrefix(ver, "/"), "/")
			ver = parts[len(parts)-1]
			if len(parts) >= 3 && strings.HasPrefix(parts[len(parts)-3], "@") {
				pkg = parts[len(parts)-3] + "/" + parts[len(parts)-2]
			} else if len(parts) >= 2 {
				pkg = parts[len(parts)-2]
			}
		}
		if i := strings.IndexByte(ver, '_'); i >= 0 {
			ver = ver[:i]
		}
	} else {
		if i := strings.IndexByte(ver, '('); i >= 0 {
			ver = ver[:i]
		}
		ver = strings.TrimPrefix(ver, "/")
		// The last @ separates the version: the first may be a scope's,
		// after a registry host ("host/@babel/core@7.19.0").
		if i := strings.LastIndexByte(ver, '@'); i > 0 {
			pkg, ver = registryName(ver[:i]), ver[i+1:]
		}
	}
	if !isVersion(ver) {
		return Entry{Package: name, Resolution: raw}
	}
	return Entry{Package: pkg, Version: ver}
}

// registryName drops the registry host pnpm puts in front of a package
// from a registry other than the default ("host/@s/x" or "host/x").
func registryName(n string) string {
	if strings.HasPrefix(n, "@") {
		return n
	}
	if i := strings.Index(n, "/@"); i >= 0 {
		return n[i+1:]
	}
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		return n[i+1:]
	}
	return n
}

func parsePnpm(file string, data []byte) (Lockfile, error) {
	if err := checkComplete(file, data, "pnpm lockfile", pnpmHint); err != nil {
		return nil, err
	}
	doc, first := lastDocument(data)
	secs, err := sections(file, doc, first, pnpmHint)
	if err != nil {
		return nil, err
	}
	byKey := map[string]section{}
	for _, s := range secs {
		byKey[s.key] = s
	}
	l := &pnpmLockfile{file: file, importers: map[string]map[string]string{}}
	if err := l.readVersion(byKey); err != nil {
		return nil, err
	}
	registryDeps := false
	if s, ok := byKey["importers"]; ok {
		root, err := parseYAML(file, s.text, s.line, pnpmHint)
		if err != nil {
			return nil, err
		}
		imps := value(MapGet(root, "importers"))
		if imps != nil && imps.Kind != yaml.MappingNode && !isNull(imps) {
			return nil, &Error{File: file, Line: imps.Line, Msg: "importers is not a mapping of workspace paths", Hint: pnpmHint}
		}
		if imps != nil && imps.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(imps.Content); i += 2 {
				ws := cleanWorkspace(imps.Content[i].Value)
				deps := map[string]string{}
				if err := l.readImporter(value(imps.Content[i+1]), ws, deps, &registryDeps); err != nil {
					return nil, err
				}
				l.importers[ws] = deps
			}
		}
	} else {
		// The lockfile of a project without workspaces keeps the root's
		// dependencies at the top level.
		deps := map[string]string{}
		for _, field := range depFields {
			s, ok := byKey[field]
			if !ok {
				continue
			}
			root, err := parseYAML(file, s.text, s.line, pnpmHint)
			if err != nil {
				return nil, err
			}
			if err := l.readDeps(value(MapGet(root, field)), ".", field, deps, &registryDeps); err != nil {
				return nil, err
			}
		}
		l.importers["."] = deps
	}
	if registryDeps {
		need := []string{"packages"}
		if l.format == PnpmV9 {
			need = append(need, "snapshots")
		}
		for _, k := range need {
			if _, ok := byKey[k]; !ok {
				return nil, &Error{File: file, Line: lineCount(data), Msg: fmt.Sprintf("the importers name registry packages but there is no %q section, so the file looks truncated", k), Hint: pnpmHint}
			}
		}
		if err := l.checkRefs(byKey[need[len(need)-1]]); err != nil {
			return nil, err
		}
	}
	l.refs = nil
	return l, nil
}

// checkRefs makes sure every registry version an importer links has its
// entry in the package table (snapshots in v9, packages before): pnpm
// never writes one without the other, so a missing entry means the file
// was cut short or merged by hand, and its versions cannot be trusted.
func (l *pnpmLockfile) checkRefs(table section) error {
	keys := make([]string, len(l.refs))
	want := make(map[string]int, len(l.refs))
	for i, r := range l.refs {
		if k, ok := pnpmTableKey(l.format, r.name, r.raw); ok {
			keys[i] = k
			if _, dup := want[k]; !dup {
				want[k] = len(want)
			}
		}
	}
	found := make([]bool, len(want))
	eachEntryKey(table.text, func(k []byte) {
		// string(k) in a map index does not allocate.
		if i, ok := want[string(k)]; ok {
			found[i] = true
		}
	})
	for i, r := range l.refs {
		if keys[i] == "" || found[want[keys[i]]] {
			continue
		}
		where := "packages"
		if l.format == PnpmV9 {
			where = "snapshots"
		}
		return &Error{File: l.file, Line: r.line, Msg: fmt.Sprintf("importer %q links %s %s, which has no entry %q in %s, so the file looks truncated or badly merged", r.ws, r.name, r.raw, keys[i], where), Hint: pnpmHint}
	}
	return nil
}

// pnpmTableKey is the key of the package-table entry an importer version
// points at, when its form is certain.
func pnpmTableKey(f Format, name, raw string) (string, bool) {
	if raw == "" || strings.Contains(raw, ":") {
		return "", false
	}
	plain := raw[0] >= '0' && raw[0] <= '9'
	switch f {
	case PnpmV5:
		if plain {
			return "/" + name + "/" + raw, true
		}
		return raw, raw[0] == '/'
	case PnpmV6:
		if plain {
			return "/" + name + "@" + raw, true
		}
		return raw, raw[0] == '/'
	}
	if plain {
		return name + "@" + raw, true
	}
	// An alias: "left-pad@1.3.0", "@scope/real@1.0.1(react@18.3.1)".
	base, _, _ := strings.Cut(raw, "(")
	n, v, ok := splitAt(base)
	if !ok || !isVersion(v) {
		return "", false
	}
	if strings.HasPrefix(n, "@") {
		return raw, strings.Count(n, "/") == 1
	}
	return raw, !strings.Contains(n, "/")
}

// eachEntryKey calls fn with the key of each entry of a top-level mapping
// (the lines indented by exactly two spaces), without parsing the values.
func eachEntryKey(text []byte, fn func(key []byte)) {
	for off := 0; off < len(text); {
		end := bytes.IndexByte(text[off:], '\n')
		next := len(text)
		if end >= 0 {
			next = off + end + 1
		}
		l := text[off:next]
		off = next
		if len(l) < 3 || l[0] != ' ' || l[1] != ' ' || l[2] == ' ' || l[2] == '#' || l[2] == '\r' || l[2] == '\n' {
			continue
		}
		l = bytes.TrimRight(l[2:], "\r\n")
		if l[0] == '\'' || l[0] == '"' {
			if k, ok := quotedKey(l); ok {
				fn(k)
			}
			continue
		}
		if i := bytes.Index(l, []byte(": ")); i >= 0 {
			fn(l[:i])
		} else if l[len(l)-1] == ':' {
			fn(l[:len(l)-1])
		}
	}
}

// quotedKey reads a quoted key followed by a colon. pnpm quotes keys that
// start with @ and never needs escapes in them; a key that has some goes
// through the YAML parser.
func quotedKey(l []byte) ([]byte, bool) {
	q := l[0]
	end := bytes.IndexByte(l[1:], q)
	if end < 0 {
		return nil, false
	}
	inner := l[1 : end+1]
	rest := l[end+2:]
	simple := !(q == '"' && bytes.IndexByte(inner, '\\') >= 0) && !(q == '\'' && len(rest) > 0 && rest[0] == '\'')
	if simple {
		if r := bytes.TrimLeft(rest, " \t"); len(r) > 0 && r[0] == ':' {
			return inner, true
		}
		return nil, false
	}
	k, ok := topKey(l)
	return []byte(k), ok
}

// pnpmRef is one importer dependency and where it is written.
type pnpmRef struct {
	ws, field, name, raw string
	line                 int
}

var depFields = []string{"dependencies", "devDependencies", "optionalDependencies"}

func (l *pnpmLockfile) readVersion(byKey map[string]section) error {
	s, ok := byKey["lockfileVersion"]
	if !ok {
		if s, old := byKey["shrinkwrapVersion"]; old {
			return &Error{File: l.file, Line: s.line, Msg: "this is a pnpm shrinkwrap from pnpm 2 or older, which Uptide does not read", Hint: "run `pnpm install` with pnpm 7 or later to write a current pnpm-lock.yaml"}
		}
		return &Error{File: l.file, Line: 1, Msg: "no lockfileVersion, so this is not a pnpm lockfile Uptide can read", Hint: pnpmHint}
	}
	root, err := parseYAML(l.file, s.text, s.line, pnpmHint)
	if err != nil {
		return err
	}
	v := value(MapGet(root, "lockfileVersion"))
	raw := ""
	if v != nil && v.Kind == yaml.ScalarNode {
		raw = v.Value
	}
	major, _, _ := strings.Cut(raw, ".")
	switch major {
	case "5":
		l.format = PnpmV5
	case "6":
		l.format = PnpmV6
	case "7", "9":
		// 7.0 was the pre-release name of the v9 format.
		l.format = PnpmV9
	default:
		return &Error{File: l.file, Line: s.line, Msg: fmt.Sprintf("lockfileVersion %q is not one Uptide reads (5.x, 6.x or 9.0)", raw),
			Hint: "write it with pnpm 7 to 12, or upgrade Uptide"}
	}
	return nil
}

func (l *pnpmLockfile) readImporter(imp *yaml.Node, ws string, deps map[string]string, registryDeps *bool) error {
	if imp == nil || isNull(imp) {
		return nil
	}
	if imp.Kind != yaml.MappingNode {
		return &Error{File: l.file, Line: imp.Line, Msg: fmt.Sprintf("importer %q is not a mapping", ws), Hint: pnpmHint}
	}
	for _, field := range depFields {
		if err := l.readDeps(value(MapGet(imp, field)), ws, field, deps, registryDeps); err != nil {
			return err
		}
	}
	return nil
}

func (l *pnpmLockfile) readDeps(m *yaml.Node, ws, field string, deps map[string]string, registryDeps *bool) error {
	if m == nil || isNull(m) {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		return &Error{File: l.file, Line: m.Line, Msg: fmt.Sprintf("%s of importer %q is not a mapping", field, ws), Hint: pnpmHint}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], value(m.Content[i+1])
		raw := ""
		switch {
		case v == nil:
		case v.Kind == yaml.ScalarNode:
			// v5: name: version
			raw = v.Value
		case v.Kind == yaml.MappingNode:
			// v6, v9: name: {specifier, version}
			if ver := value(MapGet(v, "version")); ver != nil && ver.Kind == yaml.ScalarNode {
				raw = ver.Value
			}
		}
		if raw == "" || isNull(v) {
			return &Error{File: l.file, Line: k.Line, Msg: fmt.Sprintf("%s %q of importer %q has no version", field, k.Value, ws), Hint: pnpmHint}
		}
		if _, dup := deps[k.Value]; !dup {
			deps[k.Value] = raw
		}
		if !isLocalProtocol(raw) {
			*registryDeps = true
			l.refs = append(l.refs, pnpmRef{ws: ws, field: field, name: k.Value, raw: raw, line: k.Line})
		}
	}
	return nil
}

func isNull(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}
