package diff

import (
	"errors"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model/path"
)

// This file reads the printer's type text just far enough to compare it:
// where the top level is (outside brackets, strings and template holes),
// union members, and type parameter lists. It never tries to understand a
// type; what it cannot split it treats as one opaque member.

var errUnbalanced = errors.New("unbalanced brackets or quotes")

// walkTop calls fn with the offset of every byte of s that sits at nesting
// depth zero, outside string and template literals. fn returns false to
// stop. '>' closes an angle bracket unless it is the arrow of "=>".
func walkTop(s string, fn func(i int) bool) error {
	var stack []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"', '\'', '`':
			j, err := skipLiteral(s, i)
			if err != nil {
				return err
			}
			if len(stack) == 0 && !fn(i) {
				return nil
			}
			i = j - 1
			continue
		case '(', '[', '{', '<':
			if len(stack) == 0 && !fn(i) {
				return nil
			}
			stack = append(stack, c)
			continue
		case ')', ']', '}':
			if len(stack) == 0 || stack[len(stack)-1] != path.Opener(c) {
				return errUnbalanced
			}
			stack = stack[:len(stack)-1]
			continue
		case '>':
			if i > 0 && s[i-1] == '=' {
				break
			}
			if len(stack) > 0 && stack[len(stack)-1] == '<' {
				stack = stack[:len(stack)-1]
				continue
			}
			return errUnbalanced
		}
		if len(stack) == 0 && !fn(i) {
			return nil
		}
	}
	if len(stack) != 0 {
		return errUnbalanced
	}
	return nil
}

// skipLiteral returns the offset just past the string or template literal
// that opens at s[i].
func skipLiteral(s string, i int) (int, error) {
	q := s[i]
	for i++; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			i++
		case c == q:
			return i + 1, nil
		case q == '`' && c == '$' && i+1 < len(s) && s[i+1] == '{':
			end, err := closeScan(s, i+1)
			if err != nil {
				return 0, err
			}
			i = end - 1
		}
	}
	return 0, errUnbalanced
}

// closeScan returns the offset just past the bracket group that opens at
// s[i].
func closeScan(s string, i int) (int, error) {
	var stack []byte
	for j := i; j < len(s); j++ {
		c := s[j]
		switch c {
		case '"', '\'', '`':
			k, err := skipLiteral(s, j)
			if err != nil {
				return 0, err
			}
			j = k - 1
			continue
		case '(', '[', '{', '<':
			stack = append(stack, c)
		case ')', ']', '}':
			if len(stack) == 0 || stack[len(stack)-1] != path.Opener(c) {
				return 0, errUnbalanced
			}
			stack = stack[:len(stack)-1]
		case '>':
			if j > 0 && s[j-1] == '=' {
				continue
			}
			if len(stack) == 0 || stack[len(stack)-1] != '<' {
				return 0, errUnbalanced
			}
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			return j + 1, nil
		}
	}
	return 0, errUnbalanced
}

// splitTop splits s at top-level occurrences of sep and trims the parts.
func splitTop(s, sep string) ([]string, error) {
	var cuts []int
	err := walkTop(s, func(i int) bool {
		if strings.HasPrefix(s[i:], sep) {
			cuts = append(cuts, i)
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	parts := make([]string, 0, len(cuts)+1)
	prev := 0
	for _, c := range cuts {
		if c < prev {
			continue // overlapping match of a multi-byte separator
		}
		parts = append(parts, strings.TrimSpace(s[prev:c]))
		prev = c + len(sep)
	}
	return append(parts, strings.TrimSpace(s[prev:])), nil
}

// indexTop is the offset of the first top-level occurrence of sub, or -1.
func indexTop(s, sub string) (int, error) {
	at := -1
	err := walkTop(s, func(i int) bool {
		if strings.HasPrefix(s[i:], sub) {
			at = i
			return false
		}
		return true
	})
	return at, err
}

// unionMembers splits a type into its union members, sorted. A type whose
// top level is a function type, a conditional type or a type predicate is
// one member: the '|' inside it belongs to a part, not to the whole.
func unionMembers(t string) ([]string, error) {
	t = strings.TrimSpace(t)
	t = strings.TrimSpace(strings.TrimPrefix(t, "|"))
	if t == "" {
		return nil, errUnbalanced
	}
	opaque := false
	err := walkTop(t, func(i int) bool {
		switch {
		case strings.HasPrefix(t[i:], "=>"), t[i] == '?',
			strings.HasPrefix(t[i:], " extends "), strings.HasPrefix(t[i:], " is "):
			opaque = true
			return false
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	if opaque {
		return []string{t}, nil
	}
	parts, err := splitTop(t, "|")
	if err != nil {
		return nil, err
	}
	out := parts[:0]
	for _, p := range parts {
		if p == "" {
			return nil, errUnbalanced
		}
		if p != "never" {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return dedupe(out), nil
}

func dedupe(s []string) []string {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, v := range s[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// direction is how a type changed between A and B.
type direction uint8

const (
	same direction = iota
	widened
	narrowed
	changed
)

func (d direction) String() string {
	return [...]string{"same", "widened", "narrowed", "changed"}[d]
}

// textDirection compares two types by their union member sets: a strict
// superset is widened, a strict subset narrowed; any or unknown after
// anything else is widened, and anything after them narrowed.
func textDirection(a, b string) (direction, error) {
	if a == b {
		return same, nil
	}
	ma, err := unionMembers(a)
	if err != nil {
		return changed, err
	}
	mb, err := unionMembers(b)
	if err != nil {
		return changed, err
	}
	topA, topB := hasTopType(ma), hasTopType(mb)
	switch {
	case topA && topB:
		if equalStrings(ma, mb) {
			return same, nil
		}
		return changed, nil
	case topB:
		return widened, nil
	case topA:
		return narrowed, nil
	}
	subAB, subBA := subset(ma, mb), subset(mb, ma)
	switch {
	case subAB && subBA:
		return same, nil
	case subAB:
		return widened, nil
	case subBA:
		return narrowed, nil
	}
	return changed, nil
}

func hasTopType(members []string) bool {
	for _, m := range members {
		if m == "any" || m == "unknown" {
			return true
		}
	}
	return false
}

// subset reports whether sorted a ⊆ sorted b.
func subset(a, b []string) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
		j++
	}
	return true
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// typeParamList reads a leading "<…>" from s, returning its items and the
// rest of s. Without one it returns s unchanged.
func typeParamList(s string) (params []string, rest string, err error) {
	if !strings.HasPrefix(s, "<") {
		return nil, s, nil
	}
	end, err := closeScan(s, 0)
	if err != nil {
		return nil, "", err
	}
	items, err := splitTop(s[1:end-1], ",")
	if err != nil {
		return nil, "", err
	}
	for _, it := range items {
		if it == "" {
			return nil, "", errUnbalanced
		}
	}
	return items, s[end:], nil
}

// hasDefault reports whether a type parameter declaration has "= Default".
func hasDefault(tp string) bool {
	found := false
	_ = walkTop(tp, func(i int) bool {
		if tp[i] == '=' && !strings.HasPrefix(tp[i:], "=>") {
			found = true
			return false
		}
		return true
	})
	return found
}

// isTypeReference reports whether t is a bare named type, possibly with
// type arguments or qualified: Options, Stripe.Params<T>.
func isTypeReference(t string) bool {
	if t == "" {
		return false
	}
	name := t
	if i := strings.IndexByte(t, '<'); i > 0 {
		if !strings.HasSuffix(t, ">") {
			return false
		}
		name = t[:i]
	}
	for _, part := range strings.Split(name, ".") {
		if !isIdent(part) {
			return false
		}
	}
	return true
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r == '_' || r == '$' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || r > 0x7f || (i > 0 && '0' <= r && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}

func dropQualifiers(s string, qs []string) string {
	for _, q := range qs {
		s = dropQualifier(s, q)
	}
	return s
}

// dropQualifier removes "q." where q is a whole identifier, so that
// sharp.ResizeOptions under export = compares equal to ResizeOptions
// exported by name.
func dropQualifier(s, q string) string {
	if q == "" || !strings.Contains(s, q+".") {
		return s
	}
	var b strings.Builder
	pat := q + "."
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], pat) && (i == 0 || !identByte(s[i-1])) &&
			i+len(pat) < len(s) && identStartByte(s[i+len(pat)]) {
			i += len(pat)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

func identByte(c byte) bool {
	return identStartByte(c) || ('0' <= c && c <= '9') || c == '.'
}

func identStartByte(c byte) bool {
	return c == '_' || c == '$' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c >= 0x80
}
