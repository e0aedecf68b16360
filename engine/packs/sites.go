package packs

import (
	"strings"
)

// offset turns a finding's 1-based line and column into a byte offset, or
// -1 when the position is not in the file.
func offset(content string, line, col int) int {
	if line < 1 || col < 1 {
		return -1
	}
	at := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(content[at:], '\n')
		if i < 0 {
			return -1
		}
		at += i + 1
	}
	end := strings.IndexByte(content[at:], '\n')
	if end < 0 {
		end = len(content) - at
	}
	if col-1 > end {
		return -1
	}
	return at + col - 1
}

func isIdent(b byte) bool {
	return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// tokenAt is the offset of the identifier tok at the site: the compiler and
// the usage scan put the site at the identifier or at the expression it
// ends (React.useRef, z.record), so a qualified prefix is skipped.
func tokenAt(s Site, tok string) (int, bool) {
	at := offset(s.Content, s.Finding.Line, s.Finding.Column)
	if at < 0 {
		return 0, false
	}
	// A JSON key ("jsx" in a tsconfig) or a quoted object-literal key is
	// reported at its opening quote.
	if at < len(s.Content) && (s.Content[at] == '"' || s.Content[at] == '\'') {
		at++
	}
	// Walk a qualified name (a.b.c) from the site to the token.
	for i := at; i < len(s.Content) && i <= at+64; {
		if strings.HasPrefix(s.Content[i:], tok) && (i+len(tok) == len(s.Content) || !isIdent(s.Content[i+len(tok)])) && (i == 0 || !isIdent(s.Content[i-1])) {
			return i, true
		}
		j := i
		for j < len(s.Content) && isIdent(s.Content[j]) {
			j++
		}
		if j == i || j >= len(s.Content) || s.Content[j] != '.' {
			return 0, false
		}
		i = j + 1
	}
	return 0, false
}

// rename replaces the identifier old at the site with repl.
func rename(old, repl string) Transform {
	return func(s Site) ([]Edit, bool) {
		at, ok := tokenAt(s, old)
		if !ok {
			return nil, false
		}
		return []Edit{{File: s.Finding.File, Start: at, End: at + len(old), New: repl}}, true
	}
}

// renameType renames a type whose replacement is a plain name, refusing an
// import specifier whose new name the file already imports (the edit would
// declare it twice).
func renameType(old, repl string) Transform {
	r := rename(old, repl)
	return func(s Site) ([]Edit, bool) {
		at, ok := tokenAt(s, old)
		if !ok {
			return nil, false
		}
		if inImport(s.Content, at) && importsName(s.Content, repl) {
			return nil, false
		}
		return r(s)
	}
}

// lineOf is the text of the line holding offset at.
func lineOf(content string, at int) string {
	start := strings.LastIndexByte(content[:at], '\n') + 1
	end := strings.IndexByte(content[at:], '\n')
	if end < 0 {
		return content[start:]
	}
	return content[start : at+end]
}

func inImport(content string, at int) bool {
	l := strings.TrimSpace(lineOf(content, at))
	return strings.HasPrefix(l, "import ") || strings.HasPrefix(l, "export {")
}

func importsName(content, name string) bool {
	for _, l := range strings.Split(content, "\n") {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "import ") {
			continue
		}
		if i, j := strings.IndexByte(t, '{'), strings.IndexByte(t, '}'); i >= 0 && j > i {
			for _, spec := range strings.Split(t[i+1:j], ",") {
				f := strings.Fields(spec)
				if len(f) > 0 && (f[len(f)-1] == name) {
					return true
				}
			}
		}
	}
	return false
}

// importsReactNamespace: React is a value in scope (import React, or
// import * as React), so React.JSX resolves.
func importsReactNamespace(content string) bool {
	for _, l := range strings.Split(content, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "import * as React ") || strings.HasPrefix(t, "import React ") || strings.HasPrefix(t, "import React,") {
			return true
		}
	}
	return false
}
