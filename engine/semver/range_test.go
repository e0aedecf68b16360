package semver

import (
	"strings"
	"testing"

	mm "github.com/Masterminds/semver/v3"
)

// Ranges as package.json files and packuments write them; several are
// copied from real manifests (peer ranges of React libraries, eslint's
// engines field, iconv-lite's dependency on safer-buffer).
var satisfyCases = []struct {
	rng     string
	version string
	want    bool
}{
	// Real ranges.
	{"^16.8.0 || ^17.0.0 || ^18.0.0 || ^19.0.0", "19.1.0", true},
	{"^16.8.0 || ^17.0.0 || ^18.0.0", "19.0.0", false},
	{"^16.8.0 || ^17.0.0 || ^18.0.0", "17.0.2", true},
	{"^12.22.0 || ^14.17.0 || >=16.0.0", "14.16.9", false},
	{"^12.22.0 || ^14.17.0 || >=16.0.0", "22.3.0", true},
	{">= 2.1.2 < 3", "2.1.2", true},
	{">= 2.1.2 < 3", "3.0.0", false},
	{">= 2.1.2 < 3.0.0", "2.9.9", true},
	{">=4.8.4 <6.1.0", "6.0.3", true},
	{">=4.8.4 <6.1.0", "6.1.0-beta", false},
	{">=4.8.4 <6.1.0", "7.0.0", false},
	{"^8.57.0 || ^9.0.0 || ^10.0.0", "8.56.0", false},
	{"1.x || >=2.5.0 || 5.0.0 - 7.2.3", "1.2.3", true},
	{"1.x || >=2.5.0 || 5.0.0 - 7.2.3", "2.4.9", false},
	{"1.x || >=1.1.0-beta || >=1.2.0-beta", "1.1.0-beta.2", true},
	{"1.x || >=1.1.0-beta || >=1.2.0-beta", "1.3.0-beta", false},
	{"~5.9.2", "5.9.7", true},
	{"~5.9.2", "5.10.0", false},
	{"^0.21.0 || ^1.0.0", "0.22.0", false},
	{"*", "0.0.1", true},
	{"", "1.0.0", true},
	{">=16.8.0", "16.7.9", false},

	// Hyphen ranges: inclusive, a partial upper bound covers its line.
	{"1.0.0 - 2.0.0", "1.2.3", true},
	{"1.0.0 - 2.0.0", "2.0.0", true},
	{"1.0.0 - 2.0.0", "2.2.3", false},
	{"1.2 - 2.3.4", "1.2.0", true},
	{"1.2 - 2.3.4", "2.3.4", true},
	{"1.2 - 2.3.4", "2.3.5", false},
	{"1.2.3 - 2.3", "2.3.9", true},
	{"1.2.3 - 2.3", "2.4.0", false},
	{"1.2.3 - 2", "2.9.9", true},
	{"1.2.3 - 2", "3.0.0", false},
	{"x - 1.0.0", "0.9.7", true},
	{"1.x - x", "1.9.7", true},
	{"1.2.3-pre+asdf - 2.4.3-pre+asdf", "1.2.3-pre.2", true},
	{"1.2.3-pre+asdf - 2.4.3-pre+asdf", "2.4.3-alpha", true},
	{"1.2.3+asdf - 2.4.3+asdf", "1.2.3-pre.2", false},

	// X-ranges.
	{"1.x", "1.9.9", true},
	{"1.x", "2.0.0", false},
	{"1.2.*", "1.2.3", true},
	{"1.2.*", "1.3.0", false},
	{"2.*.*", "2.1.3", true},
	{"x", "1.2.3", true},
	{"X", "1.2.3", true},
	{"2", "2.1.2", true},
	{"2.3", "2.3.1", true},
	{"2.3", "2.4.1", false},
	{"=0.7.x", "0.7.2", true},
	{"=0.7.x", "0.8.2", false},
	{"<=0.7.x", "0.7.2", true},
	{">=0.7.x", "0.6.2", false},
	{"<0.7.x", "0.7.2", false},
	{">1.2", "1.2.8", false},
	{">1.2", "1.3.0", true},
	{">1", "1.9.9", false},
	{"<1", "1.0.0", false},
	{"<=7.x", "7.9.9", true},
	{">=*", "0.2.4", true},
	{">X", "1.0.0", false},
	{"<x <* || >* 2.x", "2.0.0", false},
	{">x 2.x || * || <x", "5.0.0", true},
	{"1.2.x-beta", "1.2.5", true},
	{"~x.1", "3.0.0", true},
	{"x.1 - 2", "2.5.0", true},

	// Tilde.
	{"~1.2.3", "1.2.9", true},
	{"~1.2.3", "1.3.0", false},
	{"~1.2", "1.2.9", true},
	{"~1", "1.9.0", true},
	{"~1", "2.0.0", false},
	{"~0.0.1", "0.0.2", true},
	{"~0.0.1", "0.1.0", false},
	{"~>3.2.1", "3.2.2", true},
	{"~>3.2.1", "3.3.2", false},
	{"~> 1", "1.2.3", true},
	{"~ 1.0.3", "1.0.12", true},
	{"~x", "0.0.9", true},
	{"~v0.5.4-pre", "0.5.4", true},
	{"~v0.5.4-beta", "0.5.4-alpha", false},

	// Caret, including the 0.x and 0.0.x lines.
	{"^1.2.3", "1.8.1", true},
	{"^1.2.3", "2.0.0", false},
	{"^1.2.3", "1.2.2", false},
	{"^1.2", "1.4.2", true},
	{"^1.2", "1.1.9", false},
	{"^0.2.3", "0.2.9", true},
	{"^0.2.3", "0.3.0", false},
	{"^0.1", "0.1.2", true},
	{"^0.1", "0.2.0", false},
	{"^0.0.3", "0.0.3", true},
	{"^0.0.3", "0.0.4", false},
	{"^0.0", "0.0.9", true},
	{"^0.0", "0.1.0", false},
	{"^0", "0.9.0", true},
	{"^0", "1.0.0", false},
	{"^0.0.26", "0.0.26", true},
	{"^0.0.26", "0.0.27", false},
	{"^x", "1.2.3", true},
	{"^1.2 ^1", "1.4.2", true},
	{"^ 1.2 ^ 1", "1.4.2", true},
	{"^1.2.3+build", "1.3.0", true},
	{"^1.2.3+build", "2.0.0", false},

	// Primitive comparators with spaces after the operator, v and = prefixes.
	{">= 1.0.0", "1.0.0", true},
	{">=   1.0.0", "1.1.0", true},
	{"> 1.0.0", "1.0.0", false},
	{"<    2.0.0", "1.9999.9999", true},
	{"<\t2.0.0", "0.2.9", true},
	{"<= 2.0.0", "2.0.0", true},
	{">=1.2.3 <2", "1.9.9", true},
	{">=1.2.3 <2", "2.0.0", false},
	{">=v1.2.3", "1.2.3", true},
	{"v1.2.3", "1.2.3", true},
	{"=1.2.3", "1.2.3", true},
	{"=1.2.3", "1.2.4", false},
	{"1.2.3", "v1.2.3", true},
	{"1.2.3", "1.2.3+build.5", true},
	{"1.2.3+build.1", "1.2.3", true},
	{"~1.2.1 >=1.2.3", "1.2.3", true},
	{"~1.2.1 =1.2.3", "1.2.3", true},
	{"0.1.20 || 1.2.4", "1.2.3", false},
	{">=0.2.3 || <0.0.1", "0.0.0", true},
	{"||", "1.3.4", true},

	// npm's prerelease rule: a prerelease needs a comparator with a
	// prerelease on the same major.minor.patch in the same set.
	{"^1.2.3-alpha", "1.2.3-pre", true},
	{"^1.2.3-beta.1", "1.2.3-beta.2", true},
	{"^1.2.3-beta.1", "1.3.0-alpha", false},
	{"^1.2.3-beta.1", "1.3.0", true},
	{"^1.2.3", "1.2.3-beta", false},
	{"^1.2.3", "1.5.0-beta", false},
	{"^1.0.0", "2.0.0-rc1", false},
	{">1.2", "1.3.0-beta", false},
	{"<=1.2.3", "1.2.3-beta", false},
	{"<1.2.3", "1.2.3-beta", false},
	{"=1.2.3", "1.2.3-beta", false},
	{"*", "1.0.0-rc.1", false},
	{"", "1.0.0-rc.1", false},
	{">=19.0.0-rc.0", "19.0.0-rc.1", true},
	{">=19.0.0-rc.0", "19.1.0-canary.3", false},
	{"^19.0.0-rc.0 || ^19.0.0", "19.0.0-rc.1", true},
	{"^18.0.0 || >=19.0.0-rc", "19.0.0-rc.1", true},
	{"^0.0.1-alpha", "0.0.1-beta", true},
	{"^0.0.1", "0.0.2-alpha", false},
	{"~0.0.1", "0.1.0-alpha", false},

	// Invalid versions satisfy nothing.
	{"*", "not a version", false},
	{">=2", "glorp", false},
	{"*", "1.2", false},
}

func TestSatisfies(t *testing.T) {
	for _, c := range satisfyCases {
		r, err := ParseRange(c.rng)
		if err != nil {
			t.Errorf("ParseRange(%q): %v", c.rng, err)
			continue
		}
		if got := r.Satisfies(c.version); got != c.want {
			t.Errorf("%q satisfies %q = %v, want %v (normalized %q)", c.version, c.rng, got, c.want, r.Normalized())
		}
		if got := Satisfies(c.version, c.rng); got != c.want {
			t.Errorf("Satisfies(%q, %q) = %v, want %v", c.version, c.rng, got, c.want)
		}
	}
}

func TestNormalized(t *testing.T) {
	cases := []struct{ rng, want string }{
		{"1.0.0 - 2.0.0", ">=1.0.0 <=2.0.0"},
		{"1 - 2", ">=1.0.0 <3.0.0-0"},
		{"1.0 - 2.0", ">=1.0.0 <2.1.0-0"},
		{"1.2 - 3.4.5", ">=1.2.0 <=3.4.5"},
		{"1.2.3 - 3.4", ">=1.2.3 <3.5.0-0"},
		{"x - 1.0.0", "<=1.0.0"},
		{"x - x", "*"},
		{"", "*"},
		{"*", "*"},
		{">=*", "*"},
		{"||", "* || *"},
		{"1", ">=1.0.0 <2.0.0-0"},
		{"2.x.x", ">=2.0.0 <3.0.0-0"},
		{"1.2.x || 2.x", ">=1.2.0 <1.3.0-0 || >=2.0.0 <3.0.0-0"},
		{"~2.4", ">=2.4.0 <2.5.0-0"},
		{"~>3.2.1", ">=3.2.1 <3.3.0-0"},
		{"~ 1.0", ">=1.0.0 <1.1.0-0"},
		{"~1.2.3-beta.2", ">=1.2.3-beta.2 <1.3.0-0"},
		{"^0", ">=0.0.0 <1.0.0-0"},
		{"^ 1", ">=1.0.0 <2.0.0-0"},
		{"^0.1", ">=0.1.0 <0.2.0-0"},
		{"^0.0", ">=0.0.0 <0.1.0-0"},
		{"^0.0.1", ">=0.0.1 <0.0.2-0"},
		{"^0.0.1-beta", ">=0.0.1-beta <0.0.2-0"},
		{"^0.1.2", ">=0.1.2 <0.2.0-0"},
		{"^1.2.3-beta.4", ">=1.2.3-beta.4 <2.0.0-0"},
		{"<1", "<1.0.0-0"},
		{"< 1.2", "<1.2.0-0"},
		{"<=1.2", "<1.3.0-0"},
		{"<=1", "<2.0.0-0"},
		{">= 1", ">=1.0.0"},
		{">1", ">=2.0.0"},
		{">1.2", ">=1.3.0"},
		{">X", "<0.0.0-0"},
		{"<X", "<0.0.0-0"},
		{"^ 1.2 ^ 1", ">=1.2.0 <2.0.0-0 >=1.0.0 <2.0.0-0"},
		{"=1.2.3", "1.2.3"},
		{"v1.2.3+build", "1.2.3+build"},
		{">= 2.1.2 < 3", ">=2.1.2 <3.0.0-0"},
	}
	for _, c := range cases {
		r, err := ParseRange(c.rng)
		if err != nil {
			t.Errorf("ParseRange(%q): %v", c.rng, err)
			continue
		}
		if got := r.Normalized(); got != c.want {
			t.Errorf("ParseRange(%q).Normalized() = %q, want %q", c.rng, got, c.want)
		}
		if r.String() != c.rng {
			t.Errorf("String() = %q, want the range as written %q", r.String(), c.rng)
		}
	}
}

func TestParseRangeRejects(t *testing.T) {
	for _, s := range []string{
		"latest", "next", "beta",
		"workspace:*", "npm:react@^18", "file:../x", "github:user/repo",
		"https://example.test/x.tgz", "git+ssh://git@example.test/x.git",
		"1.2.3.4", "1.2-beta", "~1.2.3beta", ">01.02.03", "01.2.3",
		">=", "^", "1 | 2", "1.2.3 -2.0.0", ">= ^1.2", "1.2.3-", "1.2.3-beta..1",
		"1.2.3-01", "1.2.3+", "1+build", "99999999999999999.0.0",
		"9007199254740992.0.0", "1.2.3 - ", "- 1.2.3",
		// node-semver 7.8 refuses a number after a wildcard in a plain comparator.
		"1.x.0", "x.1", "*.1", ">=2.x.1", "=X.3",
		// and a desugared bound past 2^53-1.
		"^9007199254740991", ">9007199254740991.x", "3 - 9007199254740991", "!1.2.3", "1.2.3 && 2",
		strings.Repeat("1.2.3 || ", 300),
	} {
		if r, err := ParseRange(s); err == nil {
			t.Errorf("ParseRange(%q) = %q, want an error", s, r.Normalized())
		}
	}
}

func TestParseRangeErrorNamesTheRange(t *testing.T) {
	_, err := ParseRange("^1.2 || nope")
	if err == nil || !strings.Contains(err.Error(), `"^1.2 || nope"`) || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("error %v should quote the range and the bad part", err)
	}
}

// Masterminds' constraints answer differently from npm on these; the
// package exists because of them.
func TestDiffersFromMasterminds(t *testing.T) {
	cases := []struct {
		rng, version string
		npm          bool
	}{
		// Masterminds admits any prerelease once the set mentions one.
		{"^1.2.3-beta.1", "1.3.0-alpha", false},
		{">=19.0.0-rc.0", "19.1.0-canary.3", false},
		{">=1.0.0-0 <2.0.0", "1.5.0-beta", false},
	}
	for _, c := range cases {
		mc, err := mm.NewConstraint(c.rng)
		if err != nil {
			t.Fatalf("Masterminds cannot parse %q: %v", c.rng, err)
		}
		theirs := mc.Check(mm.MustParse(c.version))
		ours := Satisfies(c.version, c.rng)
		if ours != c.npm {
			t.Errorf("Satisfies(%q, %q) = %v, npm says %v", c.version, c.rng, ours, c.npm)
		}
		if theirs == c.npm {
			t.Errorf("Masterminds now agrees with npm on %q ∋ %q; the translation may be simplified", c.rng, c.version)
		}
	}
}

func TestMaxSatisfying(t *testing.T) {
	versions := []string{"18.2.0", "18.3.1", "19.0.0-rc.1", "19.0.0", "19.1.0", "17.0.2", "bogus", "20.0.0-canary.1"}
	cases := []struct {
		rng, want string
		ok        bool
	}{
		{"^18.0.0", "18.3.1", true},
		{"^18.0.0 || ^19.0.0", "19.1.0", true},
		{"~19.0.0", "19.0.0", true},
		{">=19.0.0-rc.0 <19.0.0", "19.0.0-rc.1", true},
		{"*", "19.1.0", true},
		{"^21", "", false},
		{"latest", "", false},
	}
	for _, c := range cases {
		got, ok := MaxSatisfying(versions, c.rng)
		if got != c.want || ok != c.ok {
			t.Errorf("MaxSatisfying(%q) = %q, %v; want %q, %v", c.rng, got, ok, c.want, c.ok)
		}
	}
	// Equal versions differing in build metadata resolve the same way in any order.
	a, _ := MaxSatisfying([]string{"1.0.0+b", "1.0.0+a"}, "1")
	b, _ := MaxSatisfying([]string{"1.0.0+a", "1.0.0+b"}, "1")
	if a != b {
		t.Errorf("tie depends on order: %q vs %q", a, b)
	}
}

func FuzzParseRange(f *testing.F) {
	for _, c := range satisfyCases {
		f.Add(c.rng, c.version)
	}
	f.Add("1.2.3 - 2.3.4", "2.3.4-0")
	f.Add("^0.0.x", "0.0.0")
	probes := []string{"0.0.0", "0.0.1", "0.1.0", "1.0.0-0", "1.0.0", "1.2.3", "1.2.3-beta", "2.0.0", "2.0.0-rc.1", "10.20.30"}
	f.Fuzz(func(t *testing.T, rng, version string) {
		r, err := ParseRange(rng)
		if err != nil {
			return
		}
		norm := r.Normalized()
		again, err := ParseRange(norm)
		if err != nil {
			t.Fatalf("normalized form %q of %q does not parse: %v", norm, rng, err)
		}
		if again.Normalized() != norm {
			t.Fatalf("normalizing %q is not stable: %q then %q", rng, norm, again.Normalized())
		}
		for _, v := range append(probes, version) {
			if r.Satisfies(v) != again.Satisfies(v) {
				t.Fatalf("%q and its normalized form %q disagree on %q", rng, norm, v)
			}
		}
	})
}
