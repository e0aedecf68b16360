package repo

import (
	"path"
	"strings"
	"unicode/utf8"
)

// glob is a slash-separated pattern compiled into segments; a "**" segment
// matches any number of path segments. Two dialects share it: workspace
// globs (fast-glob as pnpm, npm, yarn and bun use it: wildcards skip names
// starting with a dot) and .gitignore patterns (wildcards match dot names).
type glob struct {
	segs []string
	dot  bool
}

func compileGlob(segs []string, dot bool) glob {
	// Runs of "**" mean the same as one; collapsing them keeps matching linear.
	out := make([]string, 0, len(segs))
	for _, s := range segs {
		if s == "**" && len(out) > 0 && out[len(out)-1] == "**" {
			continue
		}
		out = append(out, s)
	}
	return glob{segs: out, dot: dot}
}

// states runs the pattern as an automaton over the path segments and returns
// the set of pattern positions reachable after consuming all of them.
// Position len(segs) reached means the whole pattern matched.
func (g glob) states(path []string) []bool {
	cur := make([]bool, len(g.segs)+1)
	cur[0] = true
	g.closure(cur)
	next := make([]bool, len(g.segs)+1)
	for _, seg := range path {
		clear(next)
		alive := false
		for i, on := range cur {
			if !on || i == len(g.segs) {
				continue
			}
			p := g.segs[i]
			if p == "**" {
				if g.dot || !strings.HasPrefix(seg, ".") {
					next[i] = true
					alive = true
				}
				continue
			}
			if matchSegment(p, seg, g.dot) {
				next[i+1] = true
				alive = true
			}
		}
		cur, next = next, cur
		if !alive {
			return cur
		}
		g.closure(cur)
	}
	return cur
}

func (g glob) closure(states []bool) {
	for i := 0; i < len(g.segs); i++ {
		if states[i] && g.segs[i] == "**" {
			states[i+1] = true
		}
	}
}

// match reports whether the whole path matches the pattern.
func (g glob) match(path []string) bool {
	return g.states(path)[len(g.segs)]
}

// mayMatchBelow reports whether some path strictly below path could match,
// so a directory walk knows whether descending is worth it.
func (g glob) mayMatchBelow(path []string) bool {
	st := g.states(path)
	for i := 0; i < len(g.segs); i++ {
		if st[i] {
			return true
		}
	}
	return false
}

// coversBelow reports whether every path below a matching directory matches
// too (the pattern ends in "**"), so an exclusion can prune the whole subtree.
func (g glob) coversBelow() bool {
	return len(g.segs) > 0 && g.segs[len(g.segs)-1] == "**"
}

// matchSegment matches one path segment against one pattern segment:
// *, ?, [a-z], [!a-z] / [^a-z] and backslash escapes. Without dot, a leading
// '.' in name must be matched by a literal '.' in the pattern.
func matchSegment(pattern, name string, dot bool) bool {
	if !dot && strings.HasPrefix(name, ".") && !strings.HasPrefix(pattern, ".") && !strings.HasPrefix(pattern, `\.`) {
		return false
	}
	return wildmatch(pattern, name)
}

// wildmatch is the classic single-backtrack-point wildcard matcher: linear
// in practice, quadratic at worst, never exponential.
func wildmatch(p, s string) bool {
	px, sx := 0, 0
	starPx, starSx := -1, -1
	for px < len(p) || sx < len(s) {
		if px < len(p) {
			switch c := p[px]; c {
			case '*':
				starPx, starSx = px, sx
				px++
				continue
			case '?':
				if sx < len(s) {
					_, w := utf8.DecodeRuneInString(s[sx:])
					px++
					sx += w
					continue
				}
			case '[':
				if sx < len(s) {
					r, w := utf8.DecodeRuneInString(s[sx:])
					if ok, end, valid := matchClass(p, px, r); valid {
						if ok {
							px = end
							sx += w
							continue
						}
						break
					}
					if s[sx] == '[' {
						px++
						sx++
						continue
					}
				}
			case '\\':
				lit := byte('\\')
				step := 1
				if px+1 < len(p) {
					lit = p[px+1]
					step = 2
				}
				if sx < len(s) && s[sx] == lit {
					px += step
					sx++
					continue
				}
			default:
				if sx < len(s) && s[sx] == c {
					px++
					sx++
					continue
				}
			}
		}
		if starPx >= 0 && starSx < len(s) {
			_, w := utf8.DecodeRuneInString(s[starSx:])
			starSx += w
			px, sx = starPx+1, starSx
			continue
		}
		return false
	}
	return true
}

// matchClass matches r against the bracket expression starting at p[start]
// ('['). valid is false when the bracket is never closed, in which case the
// '[' is an ordinary character.
func matchClass(p string, start int, r rune) (ok bool, end int, valid bool) {
	i := start + 1
	negate := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negate = true
		i++
	}
	first := true
	for i < len(p) {
		if p[i] == ']' && !first {
			return ok != negate, i + 1, true
		}
		first = false
		lo, w := classChar(p, i)
		i += w
		hi := lo
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			hi, w = classChar(p, i+1)
			i += 1 + w
		}
		if lo <= r && r <= hi {
			ok = true
		}
	}
	return false, 0, false
}

func classChar(p string, i int) (rune, int) {
	if p[i] == '\\' && i+1 < len(p) {
		r, w := utf8.DecodeRuneInString(p[i+1:])
		return r, w + 1
	}
	return utf8.DecodeRuneInString(p[i:])
}

// expandBraces expands {a,b} alternatives (nested allowed), as fast-glob
// does for workspace globs. The expansion is capped so that a hostile
// pattern cannot multiply without bound.
func expandBraces(p string) []string {
	const maxExpansions = 256
	out := []string{}
	var expand func(s string)
	expand = func(s string) {
		if len(out) >= maxExpansions {
			return
		}
		open, close, commas := findBraces(s)
		if open < 0 {
			out = append(out, s)
			return
		}
		prefix, suffix := s[:open], s[close+1:]
		prev := open + 1
		for _, c := range append(commas, close) {
			expand(prefix + s[prev:c] + suffix)
			prev = c + 1
		}
	}
	expand(p)
	return out
}

// findBraces finds the first brace group with a top-level comma.
func findBraces(s string) (open, close int, commas []int) {
	for start := 0; start < len(s); start++ {
		if s[start] == '\\' {
			start++
			continue
		}
		if s[start] != '{' {
			continue
		}
		depth := 0
		commas = commas[:0]
		for i := start; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					if len(commas) > 0 {
						return start, i, commas
					}
					i = len(s)
				}
			case ',':
				if depth == 1 {
					commas = append(commas, i)
				}
			}
		}
	}
	return -1, -1, nil
}

// workspaceGlobs is the include/exclude pattern list of a workspace config.
// Exclusions ("!…") apply to the whole list, as fast-glob's ignore option
// does for pnpm and as the usual "includes first, then exclusions" order
// gives for npm, yarn and bun.
type workspaceGlobs struct {
	include, exclude []glob
}

func newWorkspaceGlobs(patterns []string) workspaceGlobs {
	var w workspaceGlobs
	for _, raw := range patterns {
		raw = strings.TrimSpace(raw)
		negate := false
		for strings.HasPrefix(raw, "!") {
			negate = !negate
			raw = raw[1:]
		}
		for _, p := range expandBraces(raw) {
			segs, ok := workspaceGlobSegments(p)
			if !ok {
				continue
			}
			g := compileGlob(segs, false)
			if negate {
				w.exclude = append(w.exclude, g)
			} else {
				w.include = append(w.include, g)
			}
		}
	}
	return w
}

// workspaceGlobSegments normalises a workspace pattern the way the managers
// do ("./apps/", "apps//web" and "apps/web/" are all "apps/web"). A pattern
// that leaves the root (or is empty) matches nothing.
func workspaceGlobSegments(p string) ([]string, bool) {
	p = strings.ReplaceAll(p, `\`, "/")
	if p == "" {
		return nil, false
	}
	p = path.Clean(p)
	if p == "." || p == "/" {
		return []string{}, true
	}
	if strings.HasPrefix(p, "../") || p == ".." || strings.HasPrefix(p, "/") {
		return nil, false
	}
	return strings.Split(p, "/"), true
}

// matches reports whether a directory (root-relative segments; none for the
// root) is a workspace under these globs.
func (w workspaceGlobs) matches(dir []string) bool {
	if w.excluded(dir) {
		return false
	}
	for _, g := range w.include {
		if g.match(dir) {
			return true
		}
	}
	return false
}

func (w workspaceGlobs) excluded(dir []string) bool {
	for _, g := range w.exclude {
		if g.match(dir) {
			return true
		}
	}
	return false
}

// descend reports whether a walk should look below dir.
func (w workspaceGlobs) descend(dir []string) bool {
	for _, g := range w.exclude {
		if g.coversBelow() && g.match(dir) {
			return false
		}
	}
	for _, g := range w.include {
		if g.mayMatchBelow(dir) {
			return true
		}
	}
	return false
}
