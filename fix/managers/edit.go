package managers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/uptide/uptide/engine/lockfile"
)

// styledRange is the specifier that moves spec to version keeping its
// style: ^1.2.3 → ^X, ~1.2.3 → ~X, 1.2.3 → X, npm:pkg@^1 → npm:pkg@^X.
// exact is the same specifier pinned to X, which the first install
// resolves. ok is false for any other form.
func styledRange(spec, version string) (exact, styled string, ok bool) {
	if rest, isAlias := strings.CutPrefix(spec, "npm:"); isAlias {
		at := strings.LastIndexByte(rest, '@')
		if at <= 0 {
			return "", "", false
		}
		e, s, ok := styledRange(rest[at+1:], version)
		if !ok {
			return "", "", false
		}
		return "npm:" + rest[:at+1] + e, "npm:" + rest[:at+1] + s, true
	}
	s := strings.TrimSpace(spec)
	switch {
	case strings.HasPrefix(s, "^") && plainVersion.MatchString(s[1:]):
		return version, "^" + version, true
	case strings.HasPrefix(s, "~") && !strings.HasPrefix(s, "~>") && plainVersion.MatchString(s[1:]):
		return version, "~" + version, true
	case exactVersion.MatchString(s):
		return version, version, true
	}
	return "", "", false
}

var (
	// plainVersion is a full or partial version after ^ or ~: 1, 1.2, 1.2.3, 1.2.3-rc.1.
	plainVersion = regexp.MustCompile(`^v?\d+(\.\d+(\.\d+([-+][0-9A-Za-z.+-]+)?)?)?$`)
	exactVersion = regexp.MustCompile(`^=?v?\d+\.\d+\.\d+([-+][0-9A-Za-z.+-]+)?$`)
)

// jsonMember is one member of a JSON object with the byte spans of its
// key and value.
type jsonMember struct {
	key              string
	keyStart         int
	valStart, valEnd int
}

// objectMembers reads the members of the object at path (a chain of keys
// from the top) with their spans, and the span of the object itself.
func objectMembers(data []byte, path ...string) (members []jsonMember, objStart, objEnd int, err error) {
	start := skipSpace(data, 0)
	for depth := 0; ; depth++ {
		ms, end, err := scanObject(data, start)
		if err != nil {
			return nil, 0, 0, err
		}
		if depth == len(path) {
			return ms, start, end, nil
		}
		next := -1
		for _, m := range ms {
			if m.key == path[depth] && data[m.valStart] == '{' {
				next = m.valStart
			}
		}
		if next < 0 {
			return nil, 0, 0, errNotFound
		}
		start = next
	}
}

var errBadJSON = errors.New("not valid JSON")

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

// scanObject reads the object starting at data[i] == '{'.
func scanObject(data []byte, i int) ([]jsonMember, int, error) {
	if i >= len(data) || data[i] != '{' {
		return nil, 0, errBadJSON
	}
	var out []jsonMember
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return out, i + 1, nil
	}
	for {
		keyStart := i
		keyEnd, err := scanString(data, i)
		if err != nil {
			return nil, 0, err
		}
		var key string
		if err := json.Unmarshal(data[keyStart:keyEnd], &key); err != nil {
			return nil, 0, errBadJSON
		}
		i = skipSpace(data, keyEnd)
		if i >= len(data) || data[i] != ':' {
			return nil, 0, errBadJSON
		}
		i = skipSpace(data, i+1)
		valEnd, err := scanValue(data, i)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, jsonMember{key: key, keyStart: keyStart, valStart: i, valEnd: valEnd})
		i = skipSpace(data, valEnd)
		if i >= len(data) {
			return nil, 0, errBadJSON
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return out, i + 1, nil
		default:
			return nil, 0, errBadJSON
		}
	}
}

func scanString(data []byte, i int) (int, error) {
	if i >= len(data) || data[i] != '"' {
		return 0, errBadJSON
	}
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, errBadJSON
}

// scanValue returns the end of the value starting at data[i].
func scanValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, errBadJSON
	}
	switch data[i] {
	case '"':
		return scanString(data, i)
	case '{':
		_, end, err := scanObject(data, i)
		return end, err
	case '[':
		i = skipSpace(data, i+1)
		if i < len(data) && data[i] == ']' {
			return i + 1, nil
		}
		for {
			end, err := scanValue(data, i)
			if err != nil {
				return 0, err
			}
			i = skipSpace(data, end)
			if i >= len(data) {
				return 0, errBadJSON
			}
			if data[i] == ']' {
				return i + 1, nil
			}
			if data[i] != ',' {
				return 0, errBadJSON
			}
			i = skipSpace(data, i+1)
		}
	}
	j := i
	for j < len(data) && !strings.ContainsRune(" \t\r\n,]}", rune(data[j])) {
		j++
	}
	if j == i {
		return 0, errBadJSON
	}
	return j, nil
}

var errNotFound = errors.New("not found")

// setJSONString replaces the string value at path (the last element is
// the member's key) with value, leaving every other byte alone.
func setJSONString(data []byte, value string, path ...string) ([]byte, error) {
	members, _, _, err := objectMembers(data, path[:len(path)-1]...)
	if err != nil {
		return nil, err
	}
	for _, m := range members {
		if m.key != path[len(path)-1] {
			continue
		}
		if data[m.valStart] != '"' {
			return nil, fmt.Errorf("%s is not a string", strings.Join(path, "."))
		}
		enc, _ := json.Marshal(value)
		enc = bytes.ReplaceAll(enc, []byte(`\u003c`), []byte("<"))
		enc = bytes.ReplaceAll(enc, []byte(`\u003e`), []byte(">"))
		enc = bytes.ReplaceAll(enc, []byte(`\u0026`), []byte("&"))
		out := append([]byte{}, data[:m.valStart]...)
		out = append(out, enc...)
		return append(out, data[m.valEnd:]...), nil
	}
	return nil, errNotFound
}

// addJSONDependency adds "name": "value" as the last member of the
// object field (creating it after the last top-level member when absent),
// indented like its neighbours.
func addJSONDependency(data []byte, field, name, value string) ([]byte, error) {
	enc := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	members, objStart, objEnd, err := objectMembers(data, field)
	if errors.Is(err, errNotFound) {
		top, tStart, tEnd, terr := objectMembers(data)
		if terr != nil {
			return nil, terr
		}
		indent := indentBefore(data, tStart, top)
		inner := indent + indent
		insert := "{\n" + inner + enc(name) + ": " + enc(value) + "\n" + indent + "}"
		if len(top) == 0 {
			out := append([]byte{}, data[:tStart+1]...)
			out = append(out, "\n"+indent+enc(field)+": "+insert+"\n"...)
			return append(out, data[tEnd-1:]...), nil
		}
		last := top[len(top)-1]
		out := append([]byte{}, data[:last.valEnd]...)
		out = append(out, ",\n"+indent+enc(field)+": "+insert...)
		return append(out, data[last.valEnd:]...), nil
	}
	if err != nil {
		return nil, err
	}
	for _, m := range members {
		if m.key == name {
			return nil, fmt.Errorf("%s already declares %s", field, name)
		}
	}
	if len(members) == 0 {
		indent := lineIndent(data, objStart)
		unit := detectUnit(data)
		out := append([]byte{}, data[:objStart+1]...)
		out = append(out, "\n"+indent+unit+enc(name)+": "+enc(value)+"\n"+indent...)
		return append(out, data[objEnd-1:]...), nil
	}
	last := members[len(members)-1]
	indent := lineIndent(data, last.keyStart)
	out := append([]byte{}, data[:last.valEnd]...)
	out = append(out, ",\n"+indent+enc(name)+": "+enc(value)...)
	return append(out, data[last.valEnd:]...), nil
}

// removeJSONMember deletes "name": … from the object field, with the comma
// and line break that separated it, leaving every other byte alone (an
// object it empties stays, as {}). A key written twice (a merge leaves
// that) goes twice: the manager reads the last one.
func removeJSONMember(data []byte, field, name string) ([]byte, error) {
	out, err := removeFirstJSONMember(data, field, name)
	for err == nil {
		next, nerr := removeFirstJSONMember(out, field, name)
		if errors.Is(nerr, errNotFound) {
			return out, nil
		}
		out, err = next, nerr
	}
	return nil, err
}

func removeFirstJSONMember(data []byte, field, name string) ([]byte, error) {
	members, objStart, objEnd, err := objectMembers(data, field)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(members, func(m jsonMember) bool { return m.key == name })
	var from, to int
	switch {
	case i < 0:
		return nil, errNotFound
	case len(members) == 1:
		from, to = objStart+1, objEnd-1
	case i < len(members)-1:
		from, to = members[i].keyStart, members[i+1].keyStart
	default:
		from, to = members[i-1].valEnd, members[i].valEnd
	}
	out := append([]byte{}, data[:from]...)
	return append(out, data[to:]...), nil
}

func indentBefore(data []byte, objStart int, members []jsonMember) string {
	if len(members) > 0 {
		return lineIndent(data, members[0].keyStart)
	}
	return detectUnit(data)
}

// lineIndent is the whitespace that starts the line holding offset.
func lineIndent(data []byte, off int) string {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	end := start
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

func detectUnit(data []byte) string {
	for _, l := range strings.Split(string(data), "\n") {
		t := strings.TrimLeft(l, " \t")
		if t != l && t != "" {
			return l[:len(l)-len(t)]
		}
	}
	return "  "
}

// setCatalogEntry rewrites the value of a pnpm-workspace.yaml catalog
// entry in place, keeping its quoting and every other byte of the file.
func setCatalogEntry(data []byte, catalog, name, value string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, errNotFound
	}
	root := doc.Content[0]
	var entries *yaml.Node
	if catalog == "default" {
		entries = lockfile.MapGet(root, "catalog")
	}
	if entries == nil {
		entries = lockfile.MapGet(lockfile.MapGet(root, "catalogs"), catalog)
	}
	n := lockfile.MapGet(entries, name)
	if n == nil || n.Kind != yaml.ScalarNode {
		return nil, errNotFound
	}
	if n.Line < 1 || n.Column < 1 || n.Tag == "!!null" || n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return nil, errNotFound
	}
	// The scalar's offset from its line and column (columns count runes).
	off := 0
	for i := 1; i < n.Line; i++ {
		j := bytes.IndexByte(data[off:], '\n')
		if j < 0 {
			return nil, errNotFound
		}
		off += j + 1
	}
	lineRunes := []rune(string(data[off:min(len(data), off+bytes.IndexByte(append(data[off:], '\n'), '\n'))]))
	if n.Column-1 > len(lineRunes) {
		return nil, errNotFound
	}
	start := off + len(string(lineRunes[:n.Column-1]))
	if start >= len(data) {
		return nil, errNotFound
	}
	end := start
	var repl string
	switch data[start] {
	case '\'', '"':
		q := data[start]
		end = start + 1
		for end < len(data) && data[end] != q && data[end] != '\n' {
			if q == '"' && data[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(data) || data[end] != q {
			return nil, errNotFound
		}
		end++
		repl = string(q) + value + string(q)
	default:
		for end < len(data) && data[end] != '\n' && data[end] != '\r' && data[end] != ',' && data[end] != '}' &&
			!(data[end] == '#' && end > start && (data[end-1] == ' ' || data[end-1] == '\t')) {
			end++
		}
		for end > start && (data[end-1] == ' ' || data[end-1] == '\t') {
			end--
		}
		repl = value
		if needsQuote(value) {
			repl = "'" + value + "'"
		}
	}
	out := append([]byte{}, data[:start]...)
	out = append(out, repl...)
	out = append(out, data[end:]...)
	// The edit must read back as the value and change nothing else.
	var check yaml.Node
	if err := yaml.Unmarshal(out, &check); err != nil || len(check.Content) == 0 {
		return nil, fmt.Errorf("the edited file does not parse: %v", err)
	}
	root = check.Content[0]
	entries = nil
	if catalog == "default" {
		entries = lockfile.MapGet(root, "catalog")
	}
	if entries == nil {
		entries = lockfile.MapGet(lockfile.MapGet(root, "catalogs"), catalog)
	}
	if got := lockfile.MapGet(entries, name); got == nil || got.Value != value {
		return nil, fmt.Errorf("the edit does not read back as %q", value)
	}
	return out, nil
}

func needsQuote(v string) bool {
	return strings.ContainsAny(v, ":#{}[],&*!|>'\"%@`") || strings.HasPrefix(v, "-") || strings.HasPrefix(v, "?")
}
