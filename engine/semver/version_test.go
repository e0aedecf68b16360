package semver

import (
	"sort"
	"testing"
)

func TestParse(t *testing.T) {
	valid := map[string]string{
		"1.2.3":                       "1.2.3",
		" 1.2.3 ":                     "1.2.3",
		"v1.2.3":                      "1.2.3",
		"=1.2.3":                      "1.2.3",
		"=v1.2.3":                     "1.2.3",
		"1.2.3-beta.1":                "1.2.3-beta.1",
		"1.2.3+build.7":               "1.2.3+build.7",
		"1.2.3-rc.0+sha.ab":           "1.2.3-rc.0+sha.ab",
		"0.0.0-0":                     "0.0.0-0",
		"19.0.0-rc-66855b96-20241106": "19.0.0-rc-66855b96-20241106",
	}
	for in, want := range valid {
		v, err := Parse(in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if v.String() != want {
			t.Errorf("Parse(%q).String() = %q, want %q", in, v.String(), want)
		}
	}
	for _, in := range []string{"", "1", "1.2", "1.2.x", "^1.2.3", "01.2.3", "1.2.3-01", "1.2.3.4", "a.b.c", "1.2.3-", "1.2.3+", "9007199254740992.0.0", "latest"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", in)
		}
	}
	v := MustParse("3.1141.0-beta.2+x")
	if v.Major() != 3 || v.Minor() != 1141 || v.Patch() != 0 || v.Prerelease() != "beta.2" || v.Build() != "x" || !v.IsPrerelease() {
		t.Errorf("components of %s read wrong", v)
	}
}

func TestCompareOrdersLikeNpm(t *testing.T) {
	// Ascending, from the semver spec's precedence example and npm's rules.
	ordered := []string{
		"not-a-version",
		"0.0.0-0",
		"0.0.0",
		"1.0.0-alpha",
		"1.0.0-alpha.1",
		"1.0.0-alpha.beta",
		"1.0.0-beta",
		"1.0.0-beta.2",
		"1.0.0-beta.11",
		"1.0.0-rc.1",
		"1.0.0",
		"1.0.1",
		"1.2.0",
		"1.10.0",
		"2.0.0",
		"10.0.0",
	}
	shuffled := append([]string(nil), ordered...)
	sort.Sort(sort.Reverse(sort.StringSlice(shuffled)))
	sort.SliceStable(shuffled, func(i, j int) bool { return Compare(shuffled[i], shuffled[j]) < 0 })
	for i := range ordered {
		if shuffled[i] != ordered[i] {
			t.Fatalf("sorted = %v, want %v", shuffled, ordered)
		}
	}
	if Compare("1.2.3+a", "1.2.3+b") != 0 || Compare("v1.2.3", "1.2.3") != 0 {
		t.Error("build metadata and a v prefix must not order versions")
	}
	if Compare("x", "y") >= 0 || Compare("y", "x") <= 0 {
		t.Error("invalid versions must still order among themselves")
	}
}

func TestIsExact(t *testing.T) {
	cases := map[string]bool{
		"1.2.3": true, "=1.2.3": true, "v1.2.3": true, "1.2.3-beta.1": true, " 1.2.3 ": true, "0.0.26": true,
		"1.2": false, "^1.2.3": false, "~1.2.3": false, ">=1.2.3": false, "1.x": false, "*": false,
		"latest": false, "": false, "1.2.3 || 1.2.4": false, "npm:a@1.2.3": false, "workspace:1.2.3": false,
	}
	for in, want := range cases {
		if got := IsExact(in); got != want {
			t.Errorf("IsExact(%q) = %v, want %v", in, got, want)
		}
	}
	if v, ok := Exact("=1.0.0"); !ok || v != "1.0.0" {
		t.Errorf("Exact(=1.0.0) = %q, %v", v, ok)
	}
}

func TestNewest(t *testing.T) {
	vs := []string{"1.0.0", "2.0.0-rc.1", "1.9.9", "junk", "1.10.0"}
	if got := Newest(vs, false); got != "1.10.0" {
		t.Errorf("Newest(releases) = %q", got)
	}
	if got := Newest(vs, true); got != "2.0.0-rc.1" {
		t.Errorf("Newest(with prereleases) = %q", got)
	}
	if got := Newest([]string{"1.0.0-beta"}, false); got != "" {
		t.Errorf("Newest of prereleases only = %q, want none", got)
	}
	if got := Newest(nil, true); got != "" {
		t.Errorf("Newest(nil) = %q", got)
	}
}

func TestUpdateKind(t *testing.T) {
	cases := []struct{ from, to, want string }{
		{"18.3.1", "19.0.0", "major"},
		{"3.0.0", "5.1.0", "major ×2"},
		{"14.25.0", "23.1.0", "major ×9"},
		{"1.2.3", "1.3.0", "minor"},
		{"1.2.3", "1.2.4", "patch"},
		{"1.2.3", "1.2.3", ""},
		{"1.2.3", "1.2.3+build", ""},
		{"2.0.0", "1.9.9", ""},
		{"1.2.3", "junk", ""},
		{"junk", "1.2.3", ""},
		{"2.0.0-rc.1", "2.0.0", "prerelease"},
		{"2.0.0-rc.1", "2.0.0-rc.2", "prerelease"},
		{"1.9.0", "2.0.0-rc.1", "major"},
		{"1.2.0-beta", "1.3.0", "minor"},
		// Below 1.0.0 the left-most non-zero component is the breaking line.
		{"0.1.4", "0.1.9", "patch"},
		{"0.1.4", "0.2.0", "major"},
		{"0.2.0", "0.5.1", "major ×3"},
		{"0.0.3", "0.0.4", "major"},
		{"0.0.3", "0.1.0", "major"},
		{"0.9.0", "1.0.0", "major"},
		{"0.9.0", "3.0.0", "major ×3"},
	}
	for _, c := range cases {
		if got := UpdateKind(c.from, c.to).String(); got != c.want {
			t.Errorf("UpdateKind(%q, %q) = %q, want %q", c.from, c.to, got, c.want)
		}
	}
}
