package path

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// SegmentKind says what a segment names.
type SegmentKind uint8

// The segment kinds.
const (
	// Name is a member or export name, printed bare when it is an identifier
	// and JSON-quoted otherwise.
	Name SegmentKind = iota
	// Call is a call signature: "()".
	Call
	// Construct is a constructor or construct signature: "new()".
	Construct
	// Index is an index signature; the segment's Name holds the key type:
	// "[string]".
	Index
	// Element is the element type of an array: "[]".
	Element
)

// Separators. The first segment of a path has Sep 0.
const (
	SepStatic   byte = '.'
	SepInstance byte = '#'
	// SepElement is the Sep of an Element segment, which is printed "[]"
	// with no separator before it.
	SepElement byte = '['
)

// Segment is one step of a path.
type Segment struct {
	Sep  byte
	Kind SegmentKind
	// Name is the unquoted name for Name segments and the key type for Index
	// segments; empty otherwise.
	Name string
}

// Quoted reports whether a Name segment prints JSON-quoted.
func (s Segment) Quoted() bool { return s.Kind == Name && !IsIdentifier(s.Name) }

func (s Segment) writeTo(b *strings.Builder) {
	if s.Kind == Element {
		b.WriteString("[]")
		return
	}
	if s.Sep != 0 {
		b.WriteByte(s.Sep)
	}
	switch s.Kind {
	case Name:
		writeQuoted(b, s.Name)
	case Call:
		b.WriteString("()")
	case Construct:
		b.WriteString("new()")
	case Index:
		b.WriteByte('[')
		b.WriteString(s.Name)
		b.WriteByte(']')
	}
}

// Path is a parsed canonical symbol path.
type Path struct {
	// Scope is the module specifier of a scoped path ("./server",
	// "express"); empty when the path is not scoped.
	Scope    string
	Segments []Segment
}

// String prints the canonical form. A path without segments prints "",
// whatever its scope, because a scope alone names nothing.
func (p Path) String() string {
	if len(p.Segments) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(8 * len(p.Segments))
	if p.Scope != "" {
		b.WriteString(jsonQuote(p.Scope))
		b.WriteByte(':')
	}
	for _, s := range p.Segments {
		s.writeTo(&b)
	}
	return b.String()
}

// IsZero reports whether p has no segments.
func (p Path) IsZero() bool { return len(p.Segments) == 0 }

// Len is the number of segments.
func (p Path) Len() int { return len(p.Segments) }

// Equal reports whether p and q are the same path.
func (p Path) Equal(q Path) bool {
	if p.Scope != q.Scope || len(p.Segments) != len(q.Segments) {
		return false
	}
	for i := range p.Segments {
		if p.Segments[i] != q.Segments[i] {
			return false
		}
	}
	return true
}

// Root is the path of a top-level export.
func Root(name string) Path {
	return Path{Segments: []Segment{{Kind: Name, Name: name}}}
}

// Scoped returns p scoped to the module specifier scope ("./server" for a
// subpath-only export whose name collides, "express" for an augmentation).
func (p Path) Scoped(scope string) Path {
	return Path{Scope: scope, Segments: p.Segments}
}

// with appends a segment without sharing p's backing array, so building two
// children of one parent never lets one overwrite the other.
func (p Path) with(s Segment) Path {
	if len(p.Segments) == 0 {
		s.Sep = 0
	}
	segs := make([]Segment, len(p.Segments), len(p.Segments)+1)
	copy(segs, p.Segments)
	return Path{Scope: p.Scope, Segments: append(segs, s)}
}

// Static is the static member name of p (namespace member, static class
// member, enum member): "Ns.Thing".
func (p Path) Static(name string) Path {
	return p.with(Segment{Sep: SepStatic, Kind: Name, Name: name})
}

// Instance is the instance member name of p (class instance member,
// interface or object-type member): "Client#request".
func (p Path) Instance(name string) Path {
	return p.with(Segment{Sep: SepInstance, Kind: Name, Name: name})
}

// Call is the call signature of p: "Parser#()".
func (p Path) Call() Path { return p.with(Segment{Sep: SepInstance, Kind: Call}) }

// Construct is the constructor or construct signature of p: "Parser.new()",
// static side because new X() is written on the class itself.
func (p Path) Construct() Path { return p.with(Segment{Sep: SepStatic, Kind: Construct}) }

// Index is the index signature of p with the given key type as the printer
// wrote it ("string", "number", "`data-${string}`"): "Headers#[string]".
// Brackets and quotes inside keyType must balance, as printer output does.
func (p Path) Index(keyType string) Path {
	return p.with(Segment{Sep: SepInstance, Kind: Index, Name: keyType})
}

// StaticIndex is a static index signature of a class: "Registry.[string]".
func (p Path) StaticIndex(keyType string) Path {
	return p.with(Segment{Sep: SepStatic, Kind: Index, Name: keyType})
}

// Element is the anonymous element type of the array p: "Params#items[]".
// An array needs something to be the element of, so Element of a path
// without segments returns it unchanged.
func (p Path) Element() Path {
	if len(p.Segments) == 0 {
		return p
	}
	return p.with(Segment{Sep: SepElement, Kind: Element})
}

// Parent is p without its last segment; the parent of a top-level path has
// no segments (and keeps the scope, so siblings under one scope compare
// equal).
func (p Path) Parent() Path {
	if len(p.Segments) == 0 {
		return p
	}
	return Path{Scope: p.Scope, Segments: p.Segments[: len(p.Segments)-1 : len(p.Segments)-1]}
}

// Leaf is the last segment; the zero Segment for an empty path.
func (p Path) Leaf() Segment {
	if len(p.Segments) == 0 {
		return Segment{}
	}
	return p.Segments[len(p.Segments)-1]
}

// Ancestors are the proper ancestors of p, outermost first.
func (p Path) Ancestors() []Path {
	if len(p.Segments) < 2 {
		return nil
	}
	out := make([]Path, 0, len(p.Segments)-1)
	for i := 1; i < len(p.Segments); i++ {
		out = append(out, Path{Scope: p.Scope, Segments: p.Segments[:i:i]})
	}
	return out
}

// Top is the canonical string of p's top-level export, scope included:
// "Stripe" for "Stripe.Customer#id".
func (p Path) Top() string {
	if len(p.Segments) == 0 {
		return ""
	}
	return Path{Scope: p.Scope, Segments: p.Segments[:1]}.String()
}

// IsAncestorOf reports whether p is a proper ancestor of q.
func (p Path) IsAncestorOf(q Path) bool {
	if p.Scope != q.Scope || len(p.Segments) >= len(q.Segments) || len(p.Segments) == 0 {
		return false
	}
	for i := range p.Segments {
		if p.Segments[i] != q.Segments[i] {
			return false
		}
	}
	return true
}

// WithRoot replaces the top-level name: "sharp#resize" → "default#resize".
func (p Path) WithRoot(name string) Path {
	if len(p.Segments) == 0 {
		return Root(name)
	}
	segs := append([]Segment(nil), p.Segments...)
	segs[0] = Segment{Kind: Name, Name: name}
	return Path{Scope: p.Scope, Segments: segs}
}

// DropRoot makes the second segment the top-level one, for a namespace
// member of an `export =` target that the other shape exports by name:
// "sharp.ResizeOptions#width" → "ResizeOptions#width". It returns false
// when p has no static child segment to promote.
func (p Path) DropRoot() (Path, bool) {
	if len(p.Segments) < 2 || p.Segments[1].Sep != SepStatic || p.Segments[1].Kind != Name {
		return Path{}, false
	}
	segs := append([]Segment(nil), p.Segments[1:]...)
	segs[0].Sep = 0
	return Path{Scope: p.Scope, Segments: segs}, true
}

// Nest makes p a static member of the top-level name root, the inverse of
// DropRoot: "ResizeOptions#width" → "sharp.ResizeOptions#width". It returns
// false for a path whose top segment is not a name.
func (p Path) Nest(root string) (Path, bool) {
	if len(p.Segments) == 0 || p.Segments[0].Kind != Name {
		return Path{}, false
	}
	segs := make([]Segment, 0, len(p.Segments)+1)
	segs = append(segs, Segment{Kind: Name, Name: root})
	segs = append(segs, p.Segments...)
	segs[1].Sep = SepStatic
	return Path{Scope: p.Scope, Segments: segs}, true
}

// Rebase replaces the ancestor from of p with to: members of a container
// renamed from Foo to Bar are looked for under Bar. It returns false when
// from is neither p nor an ancestor of p.
func (p Path) Rebase(from, to Path) (Path, bool) {
	if !from.Equal(p) && !from.IsAncestorOf(p) {
		return Path{}, false
	}
	segs := make([]Segment, 0, len(to.Segments)+len(p.Segments)-len(from.Segments))
	segs = append(segs, to.Segments...)
	segs = append(segs, p.Segments[len(from.Segments):]...)
	if len(segs) > 0 && segs[0].Kind != Element {
		segs[0].Sep = 0
	}
	return Path{Scope: to.Scope, Segments: segs}, true
}

// IsAncestor reports whether the canonical path a is a proper ancestor of
// the canonical path b. Both must be canonical (as printed by String); the
// check is a prefix test, which is why it lives here.
func IsAncestor(a, b string) bool {
	if len(a) == 0 || len(b) <= len(a) || !strings.HasPrefix(b, a) {
		return false
	}
	switch b[len(a)] {
	case '.', '#':
		return true
	case '[':
		// "[]" always follows a complete segment; "[key]" needs a separator
		// first, so a bare '[' after a prefix is only an element.
		return len(b) > len(a)+1 && b[len(a)+1] == ']'
	}
	return false
}

// Quote is name as a path segment: unchanged when it is an identifier,
// JSON-quoted otherwise ("content-type" → `"content-type"`).
func Quote(name string) string {
	if IsIdentifier(name) {
		return name
	}
	return jsonQuote(name)
}

func writeQuoted(b *strings.Builder, name string) {
	if IsIdentifier(name) {
		b.WriteString(name)
		return
	}
	b.WriteString(jsonQuote(name))
}

// IsIdentifier reports whether name is an ECMAScript IdentifierName, which
// is what a consumer can write after a dot. Reserved words are identifiers
// here: x.default and x.new are valid member accesses.
func IsIdentifier(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		if r == utf8.RuneError {
			return false
		}
		if i == 0 {
			if !isIDStart(r) {
				return false
			}
			continue
		}
		if !isIDContinue(r) {
			return false
		}
	}
	return true
}

func isIDStart(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '$' || r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
}

func isIDContinue(r rune) bool {
	if r < utf8.RuneSelf {
		return isIDStart(r) || ('0' <= r && r <= '9')
	}
	return isIDStart(r) || r == '\u200c' || r == '\u200d' ||
		unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc)
}

// jsonQuote quotes like JavaScript's JSON.stringify, which is what the
// paths of other implementations and fixtures were written with: only '"',
// '\' and control characters are escaped. Bytes that are not UTF-8 are
// kept as they are so that quoting never loses a name.
func jsonQuote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				const hex = "0123456789abcdef"
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
