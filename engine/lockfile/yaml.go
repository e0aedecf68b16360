package lockfile

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// section is one top-level key of a YAML document with its value's text.
type section struct {
	key  string
	line int    // 1-based line of the key in the file
	text []byte // the key line and everything indented under it
}

// lastDocument returns the last YAML document of a stream that has content,
// and the file line it starts on. pnpm 11+ may put an "env" document (config
// and package-manager dependencies) before the project's graph; the graph is
// always the last one.
func lastDocument(data []byte) ([]byte, int) {
	// Marker lines are rare, so find them with IndexByte over line starts
	// instead of looking at every line.
	type mark struct{ at, next, line int }
	var marks []mark
	line := 1
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			next = off + end + 1
		}
		if c := data[off]; (c == '-' || c == '.') && isDocMarker(bytes.TrimRight(data[off:next], "\r\n")) {
			marks = append(marks, mark{off, next, line})
		}
		off = next
		line++
	}
	end := len(data)
	for i := len(marks) - 1; i >= -1; i-- {
		start, startLine := 0, 1
		if i >= 0 {
			start, startLine = marks[i].next, marks[i].line+1
		}
		if hasContent(data[start:end]) {
			return data[start:end], startLine
		}
		if i >= 0 {
			end = marks[i].at
		}
	}
	return data, 1
}

// hasContent reports whether text has a line that is neither blank nor a
// comment.
func hasContent(text []byte) bool {
	for off := 0; off < len(text); {
		end := bytes.IndexByte(text[off:], '\n')
		next := len(text)
		if end >= 0 {
			next = off + end + 1
		}
		if t := bytes.TrimSpace(text[off:next]); len(t) > 0 && t[0] != '#' {
			return true
		}
		off = next
	}
	return false
}

func isDocMarker(l []byte) bool {
	if len(l) < 3 || !(bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("..."))) {
		return false
	}
	return len(l) == 3 || l[3] == ' ' || l[3] == '\t'
}

// sections splits a block-mapping document into its top-level keys, so that
// only the keys a question needs go through the YAML parser: in a pnpm
// lockfile importers are a small part of the file, and packages and
// snapshots, which never say what a workspace installed, are most of it.
func sections(file string, doc []byte, firstLine int, hint string) ([]section, error) {
	var out []section
	seen := map[string]int{}
	line := firstLine
	for off := 0; off < len(doc); {
		end := bytes.IndexByte(doc[off:], '\n')
		next := len(doc)
		if end >= 0 {
			next = off + end + 1
		}
		l := doc[off:next]
		if startsKey(l) {
			key, ok := topKey(bytes.TrimRight(l, "\r\n"))
			if !ok {
				return nil, &Error{File: file, Line: line, Msg: fmt.Sprintf("expected a top-level `key:` here, found %q", clip(string(bytes.TrimSpace(l)))), Hint: hint}
			}
			if prev, dup := seen[key]; dup {
				return nil, &Error{File: file, Line: line, Msg: fmt.Sprintf("%q appears twice (first at line %d)", key, prev), Hint: hint}
			}
			seen[key] = line
			out = append(out, section{key: key, line: line, text: doc[off:next]})
		} else if len(out) > 0 {
			s := &out[len(out)-1]
			s.text = s.text[:len(s.text)+len(l)]
		} else if t := bytes.TrimSpace(l); len(t) > 0 && t[0] != '#' && t[0] != '%' {
			return nil, &Error{File: file, Line: line, Msg: fmt.Sprintf("expected a top-level `key:` here, found %q", clip(string(t))), Hint: hint}
		}
		off = next
		line++
	}
	return out, nil
}

// startsKey reports whether a line begins a top-level key: it starts in
// column 0 with something other than a comment, a block-sequence dash or
// the close of a flow collection (those continue the previous key).
func startsKey(l []byte) bool {
	if len(l) == 0 {
		return false
	}
	switch l[0] {
	case ' ', '\t', '\r', '\n', '#', '}', ']':
		return false
	case '-':
		return !(len(l) == 1 || l[1] == ' ' || l[1] == '\t' || l[1] == '\r' || l[1] == '\n')
	}
	return true
}

// topKey reads the key of a `key: value` line.
func topKey(l []byte) (string, bool) {
	if len(l) > 0 && (l[0] == '"' || l[0] == '\'') {
		q := l[0]
		for i := 1; i < len(l); i++ {
			if l[i] == '\\' && q == '"' {
				i++
				continue
			}
			if l[i] == q {
				if q == '\'' && i+1 < len(l) && l[i+1] == '\'' {
					i++
					continue
				}
				rest := bytes.TrimLeft(l[i+1:], " \t")
				if len(rest) == 0 || rest[0] != ':' {
					return "", false
				}
				var k string
				if err := yaml.Unmarshal(l[:i+1], &k); err != nil {
					return "", false
				}
				return k, true
			}
		}
		return "", false
	}
	for i := 0; i < len(l); i++ {
		if l[i] == ':' && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t') {
			return string(bytes.TrimRight(l[:i], " \t")), i > 0
		}
	}
	return "", false
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parseYAML parses a piece of a file that starts on line firstLine into a
// node tree whose lines are the file's.
func parseYAML(file string, text []byte, firstLine int, hint string) (n *yaml.Node, err error) {
	defer func() {
		// yaml.v3 has panicked on hostile input before; a lockfile is
		// outside input, and a panic here would take the whole run down.
		if r := recover(); r != nil {
			n, err = nil, &Error{File: file, Line: firstLine, Msg: fmt.Sprintf("the YAML parser failed: %v", r), Hint: hint}
		}
	}()
	// YAML also breaks lines at a lone CR, which no editor shows as a line
	// of the file: lines past the last newline's are the last line.
	lastLine := firstLine + lineCount(text) - 1
	if lastLine < firstLine {
		lastLine = firstLine
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		msg := err.Error()
		line := 0
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			if k, convErr := strconv.Atoi(m[1]); convErr == nil {
				line = min(k+firstLine-1, lastLine)
			}
			msg = m[2]
		}
		msg = strings.TrimPrefix(msg, "yaml: ")
		return nil, &Error{File: file, Line: line, Msg: "not valid YAML: " + msg, Hint: hint}
	}
	shiftLines(&doc, firstLine-1, lastLine)
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		return doc.Content[0], nil
	}
	return &doc, nil
}

func shiftLines(n *yaml.Node, by, last int) {
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x.Line = min(x.Line+by, last)
		stack = append(stack, x.Content...)
	}
}

// MapGet returns the value of key in a YAML mapping node (nil when m is no
// mapping or has no such key).
func MapGet(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// value follows an alias to the node it names.
func value(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 16; i++ {
		n = n.Alias
	}
	return n
}
