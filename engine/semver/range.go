package semver

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	mm "github.com/Masterminds/semver/v3"
)

// maxRangeLen bounds the work one range costs; real ranges are far shorter.
const maxRangeLen = 2048

type op uint8

const (
	opAny op = iota // matches every version (still subject to the prerelease rule)
	opEQ
	opLT
	opLE
	opGT
	opGE
)

var opText = [...]string{opAny: "", opEQ: "", opLT: "<", opLE: "<=", opGT: ">", opGE: ">="}

// comparator is one primitive test after npm's desugaring.
type comparator struct {
	op op
	v  *Version // nil for opAny
}

func (c comparator) test(v *Version) bool {
	if c.op == opAny {
		return true
	}
	d := v.Compare(c.v)
	switch c.op {
	case opEQ:
		return d == 0
	case opLT:
		return d < 0
	case opLE:
		return d <= 0
	case opGT:
		return d > 0
	default:
		return d >= 0
	}
}

func (c comparator) String() string {
	if c.op == opAny {
		return "*"
	}
	return opText[c.op] + c.v.String()
}

// Range is a parsed npm range: sets joined by "||", each a conjunction of
// comparators.
type Range struct {
	raw  string
	sets [][]comparator
}

// ParseRange parses an npm range as package.json and packuments write it:
// "||", hyphen ranges, x-ranges ("1.x", "1.2.*", "*", ""), "~", "~>", "^",
// primitive comparators with optional spaces after the operator, leading
// "v" or "=", prerelease and build suffixes. Dist-tags ("latest") and
// non-registry specifiers are not ranges and fail.
func ParseRange(s string) (*Range, error) {
	if len(s) > maxRangeLen {
		return nil, fmt.Errorf("invalid version range: %d bytes, longer than the %d a range can be", len(s), maxRangeLen)
	}
	r := &Range{raw: s}
	for _, part := range strings.Split(s, "||") {
		set, err := parseSet(part)
		if err != nil {
			return nil, fmt.Errorf("invalid version range %q: %w", s, err)
		}
		r.sets = append(r.sets, set)
	}
	return r, nil
}

// String returns the range as written.
func (r *Range) String() string { return r.raw }

// Normalized returns the desugared comparators, npm style: "||" between
// sets, spaces within ("^1.2.3" is ">=1.2.3 <2.0.0-0").
func (r *Range) Normalized() string {
	sets := make([]string, len(r.sets))
	for i, set := range r.sets {
		cs := make([]string, len(set))
		for j, c := range set {
			cs[j] = c.String()
		}
		sets[i] = strings.Join(cs, " ")
	}
	return strings.Join(sets, " || ")
}

// Satisfies reports whether the version string is valid and in the range.
func (r *Range) Satisfies(v string) bool {
	pv, err := Parse(v)
	if err != nil {
		return false
	}
	return r.SatisfiesVersion(pv)
}

// SatisfiesVersion reports whether v is in the range, with npm's
// prerelease rule: a prerelease only matches a set in which some comparator
// names a prerelease of the same major.minor.patch, so "^1.2.3-beta.1"
// admits 1.2.3-beta.2 but not 1.3.0-alpha.
func (r *Range) SatisfiesVersion(v *Version) bool {
	for _, set := range r.sets {
		if testSet(set, v) {
			return true
		}
	}
	return false
}

func testSet(set []comparator, v *Version) bool {
	for _, c := range set {
		if !c.test(v) {
			return false
		}
	}
	if !v.IsPrerelease() {
		return true
	}
	for _, c := range set {
		if c.op != opAny && c.v.IsPrerelease() && c.v.sameTuple(v) {
			return true
		}
	}
	return false
}

// Satisfies reports whether version v is in range r; false when either is invalid.
func Satisfies(v, r string) bool {
	rng, err := ParseRange(r)
	if err != nil {
		return false
	}
	return rng.Satisfies(v)
}

// MaxSatisfying returns the highest version in the range; false when the
// range is invalid or nothing matches.
func MaxSatisfying(versions []string, r string) (string, bool) {
	rng, err := ParseRange(r)
	if err != nil {
		return "", false
	}
	var best *Version
	bestRaw := ""
	for _, s := range versions {
		v, err := Parse(s)
		if err != nil || !rng.SatisfiesVersion(v) {
			continue
		}
		if best == nil || better(v, s, best, bestRaw) {
			best, bestRaw = v, s
		}
	}
	return bestRaw, best != nil
}

// parseSet parses one side of "||".
func parseSet(s string) ([]comparator, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return []comparator{{op: opAny}}, nil
	}
	if len(fields) == 3 && fields[1] == "-" {
		from, errF := parsePartial(trimPrefixes(fields[0]))
		to, errT := parsePartial(trimPrefixes(fields[2]))
		if errF == nil && errT == nil {
			return checkBounds(s, hyphen(from, to))
		}
	}
	var set []comparator
	for i := 0; i < len(fields); i++ {
		tok := fields[i]
		// npm strips the spaces after an operator: ">= 1.2", "^ 1.2", "~> 1".
		if isOperator(tok) && i+1 < len(fields) {
			tok += fields[i+1]
			i++
		}
		cs, err := parseComparator(tok)
		if err != nil {
			return nil, err
		}
		set = append(set, cs...)
	}
	return checkBounds(s, set)
}

func checkBounds(s string, set []comparator) ([]comparator, error) {
	// Desugaring adds one to a component (^9007199254740991 has an upper
	// bound of 2^53); npm rejects such a bound, so do we.
	for _, c := range set {
		if c.v != nil && (c.v.Major() > maxSafeInteger || c.v.Minor() > maxSafeInteger || c.v.Patch() > maxSafeInteger) {
			return nil, fmt.Errorf("%q: a bound exceeds 2^53-1", s)
		}
	}
	return set, nil
}

func isOperator(s string) bool {
	switch s {
	case "<", ">", "<=", ">=", "=", "~", "~>", "^":
		return true
	}
	return false
}

// trimPrefixes drops the "v" and "=" npm tolerates before a version.
func trimPrefixes(s string) string { return strings.TrimLeft(s, "v=") }

func parseComparator(tok string) ([]comparator, error) {
	var kind string
	for _, p := range []string{"~>", ">=", "<=", ">", "<", "=", "~", "^"} {
		if strings.HasPrefix(tok, p) {
			kind, tok = p, tok[len(p):]
			break
		}
	}
	p, err := parsePartial(trimPrefixes(tok))
	if err != nil {
		return nil, err
	}
	switch kind {
	case "~", "~>":
		return tilde(p), nil
	case "^":
		return caret(p), nil
	}
	// node-semver refuses a number after a wildcard in a plain comparator
	// ("1.x.0", "x.1") though it lets "~x.1" and "x.1 - 2" through.
	if (p.xMajor && !p.xMinor) || (p.xMinor && p.parts == 3 && !p.xPatch) {
		return nil, fmt.Errorf("%q: a number cannot follow a wildcard", tok)
	}
	return xrange(kind, p), nil
}

// partial is a possibly incomplete version: "1", "1.2", "1.x", "1.2.3-rc.1".
type partial struct {
	major, minor, patch    uint64
	xMajor, xMinor, xPatch bool // missing, "x", "X" or "*"
	pre, build             string
	parts                  int // components written, 1 to 3
}

func (p partial) anyX() bool { return p.xMajor || p.xMinor || p.xPatch }

var errEmpty = errors.New("empty version")

func parsePartial(s string) (partial, error) {
	var p partial
	if s == "" {
		return p, errEmpty
	}
	rest := s
	if i := strings.IndexByte(rest, '+'); i >= 0 {
		p.build, rest = rest[i+1:], rest[:i]
		if !validIdents(p.build, false) {
			return p, fmt.Errorf("invalid build metadata in %q", s)
		}
	}
	// A prerelease follows the third component only, so cut at the first
	// "-" after two dots.
	parts := strings.SplitN(rest, ".", 3)
	if len(parts) == 3 {
		if i := strings.IndexByte(parts[2], '-'); i >= 0 {
			p.pre, parts[2] = parts[2][i+1:], parts[2][:i]
			if !validIdents(p.pre, true) {
				return p, fmt.Errorf("invalid prerelease in %q", s)
			}
		}
	} else if p.build != "" {
		return p, fmt.Errorf("build metadata needs a full version in %q", s)
	}
	p.parts = len(parts)
	nums := []*uint64{&p.major, &p.minor, &p.patch}
	xs := []*bool{&p.xMajor, &p.xMinor, &p.xPatch}
	for i := range 3 {
		if i >= len(parts) {
			*xs[i] = true
			continue
		}
		part := parts[i]
		switch part {
		case "x", "X", "*":
			*xs[i] = true
			continue
		}
		n, err := parseNumber(part)
		if err != nil {
			return p, fmt.Errorf("%q: %w", s, err)
		}
		*nums[i] = n
	}
	return p, nil
}

func parseNumber(s string) (uint64, error) {
	if s == "" {
		return 0, errors.New("empty version component")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("version component %q is not a number", s)
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, fmt.Errorf("version component %q has a leading zero", s)
	}
	if len(s) > 16 {
		return 0, fmt.Errorf("version component %q exceeds 2^53-1", s)
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > maxSafeInteger {
		return 0, fmt.Errorf("version component %q exceeds 2^53-1", s)
	}
	return n, nil
}

// validIdents checks dot-separated identifiers; prerelease numeric
// identifiers may not have leading zeros.
func validIdents(s string, pre bool) bool {
	for _, id := range strings.Split(s, ".") {
		if id == "" {
			return false
		}
		numeric := true
		for i := 0; i < len(id); i++ {
			c := id[i]
			switch {
			case c >= '0' && c <= '9':
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '-':
				numeric = false
			default:
				return false
			}
		}
		if pre && numeric && len(id) > 1 && id[0] == '0' {
			return false
		}
	}
	return true
}

func ver(major, minor, patch uint64, pre string) *Version {
	return &Version{v: mm.New(major, minor, patch, pre, "")}
}

func (p partial) version() *Version {
	return &Version{v: mm.New(p.major, p.minor, p.patch, p.pre, p.build)}
}

var (
	anyComparator = comparator{op: opAny}
	// nothing is npm's "<0.0.0-0": no version is below it.
	nothing = comparator{op: opLT, v: ver(0, 0, 0, "0")}
)

func between(lo, hi *Version) []comparator {
	return []comparator{{op: opGE, v: lo}, {op: opLT, v: hi}}
}

// tilde: patch-level changes, or minor-level when no minor is given.
func tilde(p partial) []comparator {
	switch {
	case p.xMajor:
		return []comparator{anyComparator}
	case p.xMinor:
		return between(ver(p.major, 0, 0, ""), ver(p.major+1, 0, 0, "0"))
	case p.xPatch:
		return between(ver(p.major, p.minor, 0, ""), ver(p.major, p.minor+1, 0, "0"))
	}
	return between(ver(p.major, p.minor, p.patch, p.pre), ver(p.major, p.minor+1, 0, "0"))
}

// caret: changes that do not modify the left-most non-zero component, so
// ^0.2.3 stops before 0.3.0 and ^0.0.3 admits 0.0.3 only.
func caret(p partial) []comparator {
	switch {
	case p.xMajor, p.xMinor:
		// ^1 and ~1 are the same range: the major's line.
		return tilde(p)
	case p.xPatch:
		if p.major == 0 {
			return between(ver(0, p.minor, 0, ""), ver(0, p.minor+1, 0, "0"))
		}
		return between(ver(p.major, p.minor, 0, ""), ver(p.major+1, 0, 0, "0"))
	}
	lo := ver(p.major, p.minor, p.patch, p.pre)
	switch {
	case p.major == 0 && p.minor == 0:
		return between(lo, ver(0, 0, p.patch+1, "0"))
	case p.major == 0:
		return between(lo, ver(0, p.minor+1, 0, "0"))
	}
	return between(lo, ver(p.major+1, 0, 0, "0"))
}

// xrange desugars a primitive comparator whose version may be partial.
func xrange(kind string, p partial) []comparator {
	if !p.anyX() {
		v := p.version()
		switch kind {
		case "<":
			return []comparator{{op: opLT, v: v}}
		case "<=":
			return []comparator{{op: opLE, v: v}}
		case ">":
			return []comparator{{op: opGT, v: v}}
		case ">=":
			return []comparator{{op: opGE, v: v}}
		}
		return []comparator{{op: opEQ, v: v}}
	}
	if kind == "=" {
		kind = ""
	}
	if p.xMajor {
		if kind == "<" || kind == ">" {
			return []comparator{nothing}
		}
		return []comparator{anyComparator}
	}
	xMinor := p.xMinor
	major, minor := p.major, p.minor
	if xMinor {
		minor = 0
	}
	switch kind {
	case "":
		if xMinor {
			return between(ver(major, 0, 0, ""), ver(major+1, 0, 0, "0"))
		}
		return between(ver(major, minor, 0, ""), ver(major, minor+1, 0, "0"))
	case ">": // >1.2.x is >=1.3.0, >1.x is >=2.0.0
		if xMinor {
			return []comparator{{op: opGE, v: ver(major+1, 0, 0, "")}}
		}
		return []comparator{{op: opGE, v: ver(major, minor+1, 0, "")}}
	case "<=": // <=1.2.x is <1.3.0-0
		if xMinor {
			return []comparator{{op: opLT, v: ver(major+1, 0, 0, "0")}}
		}
		return []comparator{{op: opLT, v: ver(major, minor+1, 0, "0")}}
	case "<":
		return []comparator{{op: opLT, v: ver(major, minor, 0, "0")}}
	}
	return []comparator{{op: opGE, v: ver(major, minor, 0, "")}}
}

// hyphen desugars "a - b": inclusive, with a partial upper bound meaning
// "anything that starts with it" (1.2 - 2.3 is >=1.2.0 <2.4.0-0).
func hyphen(from, to partial) []comparator {
	var set []comparator
	switch {
	case from.xMajor:
	case from.xMinor:
		set = append(set, comparator{op: opGE, v: ver(from.major, 0, 0, "")})
	case from.xPatch:
		set = append(set, comparator{op: opGE, v: ver(from.major, from.minor, 0, "")})
	default:
		set = append(set, comparator{op: opGE, v: from.version()})
	}
	switch {
	case to.xMajor:
	case to.xMinor:
		set = append(set, comparator{op: opLT, v: ver(to.major+1, 0, 0, "0")})
	case to.xPatch:
		set = append(set, comparator{op: opLT, v: ver(to.major, to.minor+1, 0, "0")})
	default:
		set = append(set, comparator{op: opLE, v: to.version()})
	}
	if len(set) == 0 {
		return []comparator{anyComparator}
	}
	return set
}
