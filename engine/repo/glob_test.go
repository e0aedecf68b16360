package repo

import (
	"strings"
	"testing"
)

func split(p string) []string {
	if p == "" || p == "." {
		return nil
	}
	return strings.Split(p, "/")
}

func TestWorkspaceGlobs(t *testing.T) {
	tests := []struct {
		patterns []string
		dir      string
		want     bool
	}{
		{[]string{"packages/*"}, "packages/a", true},
		{[]string{"packages/*"}, "packages/a/b", false},
		{[]string{"packages/*"}, "packages", false},
		{[]string{"packages/*"}, "packages/.cache", false}, // wildcards skip dot names
		{[]string{"packages/*/"}, "packages/a", true},
		{[]string{"./packages/*"}, "packages/a", true},
		{[]string{"packages//*"}, "packages/a", true},
		{[]string{"apps/**"}, "apps/web", true},
		{[]string{"apps/**"}, "apps/tools/cli", true},
		{[]string{"apps/**"}, "apps", true},
		{[]string{"apps/**"}, "apps/.hidden", false},
		{[]string{"apps/**"}, "other/web", false},
		{[]string{"**"}, "a/b/c", true},
		{[]string{"apps/**", "!**/test/**"}, "apps/web/test", false},
		{[]string{"apps/**", "!**/test/**"}, "apps/web/test/e2e", false},
		{[]string{"apps/**", "!**/test/**"}, "apps/web/testing", true},
		{[]string{"packages/*", "!packages/legacy"}, "packages/legacy", false},
		{[]string{"packages/*", "!packages/legacy"}, "packages/legacy2", true},
		{[]string{"tools/cli"}, "tools/cli", true},
		{[]string{"tools/cli"}, "tools/other", false},
		{[]string{"packages/{a,b}"}, "packages/b", true},
		{[]string{"packages/{a,b}"}, "packages/c", false},
		{[]string{"packages/app-?"}, "packages/app-1", true},
		{[]string{"packages/[ab]*"}, "packages/beta", true},
		{[]string{"packages/[!ab]*"}, "packages/beta", false},
		{[]string{"packages/*-ui"}, "packages/web-ui", true},
		{[]string{"../outside/*"}, "outside/a", false},
		{[]string{"."}, ".", true},
		{[]string{"", "  "}, "a", false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.patterns, ",")+"~"+tt.dir, func(t *testing.T) {
			if got := newWorkspaceGlobs(tt.patterns).matches(split(tt.dir)); got != tt.want {
				t.Errorf("%v matches %q = %v, want %v", tt.patterns, tt.dir, got, tt.want)
			}
		})
	}
}

func TestWorkspaceGlobsDescend(t *testing.T) {
	tests := []struct {
		patterns []string
		dir      string
		want     bool
	}{
		{[]string{"packages/*"}, "packages", true},
		{[]string{"packages/*"}, "packages/a", false},
		{[]string{"packages/*"}, "docs", false},
		{[]string{"apps/**"}, "apps/web/deep", true},
		{[]string{"apps/**", "!apps/legacy/**"}, "apps/legacy", false},
		{[]string{"**"}, ".git", false},
	}
	for _, tt := range tests {
		if got := newWorkspaceGlobs(tt.patterns).descend(split(tt.dir)); got != tt.want {
			t.Errorf("%v descend %q = %v, want %v", tt.patterns, tt.dir, got, tt.want)
		}
	}
}

func TestWildmatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"*", "", true},
		{"*", "abc", true},
		{"a*c", "abbbc", true},
		{"a*c", "abbbd", false},
		{"*.ts", "index.ts", true},
		{"*.ts", "index.tsx", false},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"?", "é", true},
		{"[a-c]x", "bx", true},
		{"[a-c]x", "dx", false},
		{"[^a-c]x", "dx", true},
		{"[]]", "]", true},
		{"[", "[", true},
		{"a[", "a[", true},
		{`\*`, "*", true},
		{`\*`, "a", false},
		{"a*b*c*d", "aXbYcZd", true},
		{"*a*a*a*a*a*a*b", strings.Repeat("a", 60), false},
	}
	for _, tt := range tests {
		if got := wildmatch(tt.pattern, tt.name); got != tt.want {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

func TestExpandBraces(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a", []string{"a"}},
		{"{a,b}/x", []string{"a/x", "b/x"}},
		{"p/{a,{b,c}}", []string{"p/a", "p/b", "p/c"}},
		{"{a}", []string{"{a}"}},
		{"{a,b", []string{"{a,b"}},
	}
	for _, tt := range tests {
		got := expandBraces(tt.in)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("expandBraces(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if n := len(expandBraces(strings.Repeat("{a,b}", 30))); n > 256 {
		t.Errorf("expansion not capped: %d", n)
	}
}

func FuzzGlobMatch(f *testing.F) {
	for _, s := range [][2]string{{"packages/*", "packages/a"}, {"apps/**", "apps/x/y"}, {"!**/test/**", "a/test/b"},
		{"p/{a,b}/[!x]?", "p/a/yz"}, {`\[*`, "[x"}, {"**/**/a", "a"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, dir string) {
		w := newWorkspaceGlobs([]string{pattern})
		segs := split(dir)
		m := w.matches(segs)
		w.descend(segs)
		// An exact directory pattern (no metacharacters) matches itself.
		if !strings.ContainsAny(pattern, `*?[]{}\!`) && !strings.HasPrefix(strings.TrimSpace(pattern), "!") {
			if s, ok := workspaceGlobSegments(strings.TrimSpace(pattern)); ok && len(s) > 0 && strings.Join(s, "/") == dir && !m {
				t.Fatalf("%q does not match itself", pattern)
			}
		}
		for _, ig := range parseGitignore([]byte(pattern)) {
			ig.g.match(segs)
		}
		wildmatch(pattern, dir)
	})
}
