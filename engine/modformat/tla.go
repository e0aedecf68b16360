package modformat

import (
	"io/fs"
	"path"
	"strings"
)

// TopLevelAwait is where a module graph awaits at top level, which makes it
// impossible to require() even on a Node with require(esm)
// (ERR_REQUIRE_ASYNC_MODULE).
type TopLevelAwait struct {
	// File is package-relative; Line is 1-based.
	File string `json:"file"`
	Line int    `json:"line"`
}

// Bounds on the scan: a package's ESM graph is followed file by file, and a
// pathological package must not make check slow.
const (
	maxScanFiles = 2000
	maxScanBytes = 8 << 20
)

// FindTopLevelAwait walks the static ESM graph of a package from entry
// (package-relative): every relative import and re-export is followed, and
// each file is scanned for an await outside any function. It returns the
// first one found, or nil.
//
// The scan is lexical, not a parse: it skips comments, strings, template
// literals and regular expressions, and tells function bodies from blocks
// by what precedes their brace. It under-reports rather than over-reports
// (an await after an arrow function's expression body on the same
// statement is taken as inside it). Bare imports (the package's
// dependencies) are not followed: their awaits are not seen.
func FindTopLevelAwait(fsys fs.FS, entry string) *TopLevelAwait {
	if fsys == nil || entry == "" {
		return nil
	}
	seen := map[string]bool{}
	queue := []string{path.Clean(strings.TrimPrefix(entry, "./"))}
	total := 0
	for len(queue) > 0 && len(seen) < maxScanFiles {
		file := queue[0]
		queue = queue[1:]
		if seen[file] {
			continue
		}
		seen[file] = true
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			continue
		}
		total += len(data)
		if total > maxScanBytes {
			break
		}
		line, imports := scanModule(data)
		if line > 0 {
			return &TopLevelAwait{File: file, Line: line}
		}
		for _, spec := range imports {
			if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
				continue
			}
			target := path.Join(path.Dir(file), spec)
			if strings.HasPrefix(target, "../") || target == ".." {
				continue
			}
			if !seen[target] {
				queue = append(queue, target)
			}
		}
	}
	return nil
}

// frame is one open bracket of the scan.
type frame struct {
	open byte // '{', '(', '[', or '`' for a template's ${
	// fn: a function body or class body; awaits inside are not top level.
	fn bool
	// arrowExpr: an arrow function's expression body is open at this
	// level, until a ',' or ';' or the frame closes.
	arrowExpr bool
	// head and head2 are the two tokens before a '(' (if, for, await…).
	head, head2 string
}

type scanner struct {
	src   []byte
	i     int
	line  int
	stack []frame
	top   frame // the module's own level
	// prev and prev2 are the last two significant tokens.
	prev, prev2 string
	// closedHead and closedHead2 are the heads of the paren group that
	// just closed.
	closedHead, closedHead2 string
	// classAt is the stack depth a "class" keyword waits at for its body.
	classAt int
	imports []string
	// newline: a line break since the previous token.
	newline bool
}

// scanModule returns the line of the first top-level await (0 if none) and
// the specifiers of static imports and re-exports.
func scanModule(src []byte) (tlaLine int, imports []string) {
	s := &scanner{src: src, line: 1, classAt: -1}
	for {
		tok, isString, ok := s.next()
		if !ok {
			return 0, s.imports
		}
		if line := s.handle(tok, isString); line > 0 {
			return line, s.imports
		}
	}
}

func (s *scanner) cur() *frame {
	if len(s.stack) == 0 {
		return &s.top
	}
	return &s.stack[len(s.stack)-1]
}

func (s *scanner) inFunction() bool {
	if s.top.arrowExpr {
		return true
	}
	for _, f := range s.stack {
		if f.fn || f.arrowExpr {
			return true
		}
	}
	return false
}

var blockHeads = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "with": true}

var statementStarts = map[string]bool{
	"await": true, "const": true, "let": true, "var": true, "export": true, "import": true,
	"if": true, "for": true, "while": true, "return": true, "class": true, "function": true,
}

// handle processes one token; it returns the line of a top-level await.
func (s *scanner) handle(tok string, isString bool) int {
	defer func() {
		s.prev2, s.prev = s.prev, tok
		if isString {
			s.prev = "\"str\""
		}
	}()
	if isString {
		if len(s.stack) == 0 && (s.prev == "from" || s.prev == "import") && s.prev2 != "." {
			s.imports = append(s.imports, tok)
		}
		return 0
	}
	if len(s.stack) == 0 && s.top.arrowExpr && s.newline && statementStarts[tok] {
		s.top.arrowExpr = false
	}
	switch tok {
	case "{":
		f := frame{open: '{'}
		switch {
		case s.prev == "=>":
			f.fn = true
		case s.prev == ")":
			f.fn = !(blockHeads[s.closedHead] || (s.closedHead == "await" && s.closedHead2 == "for"))
		case s.prev == "static":
			f.fn = true
		case s.classAt == len(s.stack):
			f.fn = true
			s.classAt = -1
		}
		s.stack = append(s.stack, f)
	case "(", "[":
		f := frame{open: tok[0], head: s.prev, head2: s.prev2}
		s.stack = append(s.stack, f)
	case "}", ")", "]":
		if len(s.stack) > 0 {
			f := s.stack[len(s.stack)-1]
			s.stack = s.stack[:len(s.stack)-1]
			if tok == ")" {
				s.closedHead, s.closedHead2 = f.head, f.head2
			}
			if f.open == '`' {
				// Back inside the template literal.
				s.template()
			}
		}
	case ",", ";":
		s.cur().arrowExpr = false
	case "=>":
		if s.peekByte() != '{' {
			s.cur().arrowExpr = true
		}
	case "class":
		if s.prev != "." {
			s.classAt = len(s.stack)
		}
	case "await":
		if s.prev != "." && s.prev != "?." && s.peekByte() != ':' && !s.inFunction() {
			return s.line
		}
	}
	return 0
}

// peekByte is the next non-space byte, comments not skipped.
func (s *scanner) peekByte() byte {
	for j := s.i; j < len(s.src); j++ {
		switch c := s.src[j]; c {
		case ' ', '\t', '\n', '\r':
			continue
		default:
			return c
		}
	}
	return 0
}

func (s *scanner) regexAllowed() bool {
	switch s.prev {
	case "", "(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "+", "-", "*", "%", "<", ">", "~", "^", "=>",
		"return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "await", "yield":
		return true
	}
	return false
}

// next returns the next significant token; isString marks a string
// literal, whose value is the token.
func (s *scanner) next() (tok string, isString, ok bool) {
	s.newline = false
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\n':
			s.line++
			s.newline = true
			s.i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			s.i++
		case c == '/' && s.i+1 < len(s.src) && s.src[s.i+1] == '/':
			for s.i < len(s.src) && s.src[s.i] != '\n' {
				s.i++
			}
		case c == '/' && s.i+1 < len(s.src) && s.src[s.i+1] == '*':
			s.i += 2
			for s.i < len(s.src) && !(s.src[s.i] == '*' && s.i+1 < len(s.src) && s.src[s.i+1] == '/') {
				if s.src[s.i] == '\n' {
					s.line++
					s.newline = true
				}
				s.i++
			}
			s.i += 2
		case c == '\'' || c == '"':
			return s.quoted(c), true, true
		case c == '`':
			s.i++
			s.template()
			return "`", false, true
		case c == '/' && s.regexAllowed():
			s.regex()
			return "/re/", false, true
		case isIdentByte(c):
			start := s.i
			for s.i < len(s.src) && isIdentByte(s.src[s.i]) {
				s.i++
			}
			return string(s.src[start:s.i]), false, true
		default:
			if c == '=' && s.i+1 < len(s.src) && s.src[s.i+1] == '>' {
				s.i += 2
				return "=>", false, true
			}
			if c == '?' && s.i+1 < len(s.src) && s.src[s.i+1] == '.' {
				s.i += 2
				return "?.", false, true
			}
			s.i++
			return string(c), false, true
		}
	}
	return "", false, false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func (s *scanner) quoted(q byte) string {
	s.i++
	var b strings.Builder
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\\':
			if s.i+1 < len(s.src) {
				b.WriteByte(s.src[s.i+1])
			}
			s.i += 2
			continue
		case c == q:
			s.i++
			return b.String()
		case c == '\n':
			// An unterminated string ends at the line.
			return b.String()
		}
		b.WriteByte(c)
		s.i++
	}
	return b.String()
}

// template skips template text up to its closing backtick, or up to a ${,
// where it opens a frame the matching } closes.
func (s *scanner) template() {
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\\':
			s.i += 2
			continue
		case c == '\n':
			s.line++
		case c == '`':
			s.i++
			return
		case c == '$' && s.i+1 < len(s.src) && s.src[s.i+1] == '{':
			s.i += 2
			s.stack = append(s.stack, frame{open: '`'})
			return
		}
		s.i++
	}
}

func (s *scanner) regex() {
	s.i++
	inClass := false
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\\':
			s.i += 2
			continue
		case c == '\n':
			return
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			s.i++
			for s.i < len(s.src) && isIdentByte(s.src[s.i]) {
				s.i++
			}
			return
		}
		s.i++
	}
}
