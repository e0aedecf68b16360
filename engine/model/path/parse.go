package path

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// SyntaxError says where a path stops following the grammar.
type SyntaxError struct {
	Path string
	// Offset is the byte offset of the problem in Path.
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("symbol path %q: %s at byte %d (paths are written like Ns.Thing#member, with non-identifier names JSON-quoted)", e.Path, e.Msg, e.Offset)
}

// Parse splits a path into its scope and segments. Quoted names that are
// identifiers are accepted and print bare again, so String of the result is
// the canonical spelling.
func Parse(s string) (Path, error) {
	p := parser{s: s}
	return p.parse()
}

// MustParse is Parse for paths written in code and tests; a malformed
// literal is a programming error.
func MustParse(s string) Path {
	p, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return p
}

type parser struct {
	s string
	i int
}

func (p *parser) fail(msg string) error {
	return &SyntaxError{Path: p.s, Offset: p.i, Msg: msg}
}

func (p *parser) parse() (Path, error) {
	var out Path
	if p.s == "" {
		return out, p.fail("empty path")
	}
	if p.s[0] == '"' {
		name, err := p.quoted()
		if err != nil {
			return Path{}, err
		}
		if p.i < len(p.s) && p.s[p.i] == ':' {
			if name == "" {
				return Path{}, p.fail("empty module scope")
			}
			out.Scope = name
			p.i++
		} else {
			out.Segments = append(out.Segments, Segment{Kind: Name, Name: name})
		}
	}
	if len(out.Segments) == 0 {
		seg, err := p.segment(0)
		if err != nil {
			return Path{}, err
		}
		out.Segments = append(out.Segments, seg)
	}
	for p.i < len(p.s) {
		switch c := p.s[p.i]; c {
		case '.', '#':
			p.i++
			seg, err := p.segment(c)
			if err != nil {
				return Path{}, err
			}
			out.Segments = append(out.Segments, seg)
		case '[':
			if !strings.HasPrefix(p.s[p.i:], "[]") {
				return Path{}, p.fail("an index signature needs '.' or '#' before '['")
			}
			p.i += 2
			out.Segments = append(out.Segments, Segment{Sep: SepElement, Kind: Element})
		default:
			return Path{}, p.fail(fmt.Sprintf("unexpected %q after a segment", rune(c)))
		}
	}
	return out, nil
}

func (p *parser) segment(sep byte) (Segment, error) {
	if p.i >= len(p.s) {
		return Segment{}, p.fail("missing segment")
	}
	rest := p.s[p.i:]
	switch {
	case rest[0] == '"':
		name, err := p.quoted()
		if err != nil {
			return Segment{}, err
		}
		return Segment{Sep: sep, Kind: Name, Name: name}, nil
	case strings.HasPrefix(rest, "()"):
		p.i += 2
		return Segment{Sep: sep, Kind: Call}, nil
	case strings.HasPrefix(rest, "new()"):
		p.i += 5
		return Segment{Sep: sep, Kind: Construct}, nil
	case rest[0] == '[':
		key, err := p.indexKey()
		if err != nil {
			return Segment{}, err
		}
		return Segment{Sep: sep, Kind: Index, Name: key}, nil
	}
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '.' || c == '#' || c == '[' {
			break
		}
		p.i++
	}
	name := p.s[start:p.i]
	if !IsIdentifier(name) {
		p.i = start
		if name == "" {
			return Segment{}, p.fail("missing segment")
		}
		return Segment{}, p.fail(fmt.Sprintf("%q is not an identifier and must be JSON-quoted", name))
	}
	return Segment{Sep: sep, Kind: Name, Name: name}, nil
}

// indexKey reads "[key-type]". The key type is printer text, so brackets,
// parentheses, braces and string or template literals inside it are
// balanced; a ']' inside any of them does not end the segment.
func (p *parser) indexKey() (string, error) {
	start := p.i
	end, ok := skipBalanced(p.s, p.i)
	if !ok {
		return "", p.fail("unterminated index signature")
	}
	key := p.s[start+1 : end-1]
	if strings.TrimSpace(key) == "" {
		return "", p.fail("index signature without a key type")
	}
	p.i = end
	return key, nil
}

// skipBalanced returns the offset just past the bracket group opening at
// s[i].
func skipBalanced(s string, i int) (int, bool) {
	var stack []byte
	for i < len(s) {
		c := s[i]
		switch c {
		case '(', '[', '{':
			stack = append(stack, c)
		case ')', ']', '}':
			if len(stack) == 0 || stack[len(stack)-1] != Opener(c) {
				return 0, false
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return i + 1, true
			}
		case '"', '\'', '`':
			j, ok := skipString(s, i)
			if !ok {
				return 0, false
			}
			i = j
			continue
		}
		i++
	}
	return 0, false
}

// Opener is the bracket that a closing ), ] or } closes.
func Opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// skipString returns the offset just past the string or template literal
// opening at s[i]. A template's ${…} holes may nest further literals.
func skipString(s string, i int) (int, bool) {
	q := s[i]
	i++
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\':
			i += 2
			continue
		case c == q:
			return i + 1, true
		case q == '`' && c == '$' && i+1 < len(s) && s[i+1] == '{':
			j, ok := skipBalanced(s, i+1)
			if !ok {
				return 0, false
			}
			i = j
			continue
		}
		i++
	}
	return 0, false
}

// quoted reads a JSON string starting at p.i.
func (p *parser) quoted() (string, error) {
	start := p.i
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.fail("control character inside a quoted name")
		case c == '\\':
			if p.i+1 >= len(p.s) {
				p.i = start
				return "", p.fail("unterminated quoted name")
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", p.fail(`bad \u escape`)
				}
				if utf16.IsSurrogate(r) && strings.HasPrefix(p.s[p.i:], `\u`) {
					save := p.i
					p.i += 2
					if r2, ok := p.hex4(); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							b.WriteRune(d)
							continue
						}
					}
					p.i = save
				}
				b.WriteRune(r)
			default:
				p.i -= 2
				return "", p.fail(fmt.Sprintf("unknown escape \\%c", e))
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	p.i = start
	return "", p.fail("unterminated quoted name")
}

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(p.s[p.i : p.i+4]) {
		r <<= 4
		switch {
		case '0' <= c && c <= '9':
			r |= rune(c - '0')
		case 'a' <= c && c <= 'f':
			r |= rune(c - 'a' + 10)
		case 'A' <= c && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.i += 4
	return r, true
}
