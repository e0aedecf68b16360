package repo

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// The importers scan honours .gitignore with a matcher of its own rather
// than asking `git check-ignore --stdin`: it works in repositories that are
// not git work trees (an unpacked tarball, a fresh scaffold), needs no
// subprocess and no git on PATH, and lets the walk prune an ignored
// directory before reading a single entry of it, which a per-path question
// to git cannot do. The global core.excludesFile is deliberately not read:
// it describes one developer's machine, not the repository.

type ignoreRule struct {
	g        glob
	negate   bool
	dirOnly  bool
	basename bool // no slash in the pattern: matches the last segment at any depth
}

// ignoreFile is one .gitignore (or .git/info/exclude) and the directory its
// patterns are relative to.
type ignoreFile struct {
	base  []string // directory segments relative to the scan's top
	rules []ignoreRule
}

// parseGitignore reads gitignore syntax: comments, blank lines, negation,
// directory-only patterns, anchoring by a slash, "**" and escapes.
func parseGitignore(data []byte) []ignoreRule {
	var rules []ignoreRule
	for _, line := range bytes.Split(data, []byte("\n")) {
		s := strings.TrimSuffix(string(line), "\r")
		s = trimTrailingSpaces(s)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		var r ignoreRule
		if strings.HasPrefix(s, "!") {
			r.negate = true
			s = s[1:]
		}
		if strings.HasSuffix(s, "/") {
			r.dirOnly = true
			s = strings.TrimRight(s, "/")
		}
		if s == "" {
			continue
		}
		if strings.Contains(s, "/") {
			s = strings.TrimPrefix(s, "/")
		} else {
			r.basename = true
		}
		var segs []string
		for _, seg := range strings.Split(s, "/") {
			if seg != "" {
				segs = append(segs, seg)
			}
		}
		if len(segs) == 0 {
			continue
		}
		// "abc/**" matches everything inside abc but not abc itself: one
		// segment at least, then any number.
		if n := len(segs); n > 1 && segs[n-1] == "**" {
			segs = append(segs[:n-1], "*", "**")
		}
		r.g = compileGlob(segs, true)
		rules = append(rules, r)
	}
	return rules
}

// trimTrailingSpaces drops unescaped trailing spaces ("a\ " keeps one).
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		if strings.HasSuffix(s, `\ `) {
			return s[:len(s)-2] + " "
		}
		s = s[:len(s)-1]
	}
	return s
}

// ignoreStack holds the ignore files that apply at one point of a walk,
// outermost first.
type ignoreStack []*ignoreFile

// ignored reports whether path (segments relative to the scan's top) is
// ignored. The deepest file with a matching pattern decides, and within a
// file the last matching pattern does, as in git. A directory that is
// ignored is never entered, which gives git's rule that nothing inside an
// excluded directory can be re-included.
func (st ignoreStack) ignored(path []string, isDir bool) bool {
	for i := len(st) - 1; i >= 0; i-- {
		f := st[i]
		if len(path) <= len(f.base) || !hasPrefix(path, f.base) {
			continue
		}
		rel := path[len(f.base):]
		for j := len(f.rules) - 1; j >= 0; j-- {
			r := f.rules[j]
			if r.dirOnly && !isDir {
				continue
			}
			var hit bool
			if r.basename {
				hit = r.g.match(rel[len(rel)-1:])
			} else {
				hit = r.g.match(rel)
			}
			if hit {
				return !r.negate
			}
		}
	}
	return false
}

func hasPrefix(path, prefix []string) bool {
	for i, p := range prefix {
		if path[i] != p {
			return false
		}
	}
	return true
}

// loadIgnoreFile reads dir/.gitignore (or any ignore file) if present.
func loadIgnoreFile(file string, base []string) *ignoreFile {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	rules := parseGitignore(data)
	if len(rules) == 0 {
		return nil
	}
	return &ignoreFile{base: base, rules: rules}
}

// gitTop returns the work tree top above (or at) dir: the nearest ancestor
// holding .git, else dir itself when there is none.
func gitTop(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
