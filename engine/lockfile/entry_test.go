package lockfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The version strings pnpm writes in importers, including forms the
// fixtures cannot show (another registry's host, git, tarballs).
func TestPnpmEntry(t *testing.T) {
	tests := []struct {
		format    Format
		name, raw string
		want      Entry
	}{
		{PnpmV5, "react", "18.3.1", Entry{Package: "react", Version: "18.3.1"}},
		{PnpmV5, "x", "1.7.0_react@18.3.1", Entry{Package: "x", Version: "1.7.0"}},
		{PnpmV5, "x", "4.10.0_fzn43tb6bdtdxy2s3aqevve2su", Entry{Package: "x", Version: "4.10.0"}},
		{PnpmV5, "x", "1.0.0_@types+react@18.0.0", Entry{Package: "x", Version: "1.0.0"}},
		{PnpmV5, "lp", "/left-pad/1.3.0", Entry{Package: "left-pad", Version: "1.3.0"}},
		{PnpmV5, "slc", "/@isaacs/string-locale-compare/1.0.1", Entry{Package: "@isaacs/string-locale-compare", Version: "1.0.1"}},
		{PnpmV5, "@babel/core", "registry.example.test/@babel/core/7.19.0", Entry{Package: "@babel/core", Version: "7.19.0"}},
		{PnpmV5, "semver", "registry.example.test/semver/6.3.0_x@1.0.0", Entry{Package: "semver", Version: "6.3.0"}},
		{PnpmV5, "a", "link:../a", Entry{Package: "a", Resolution: "link:../a", Local: true}},
		{PnpmV5, "g", "github.com/user/repo/0a1b2c3d", Entry{Package: "g", Resolution: "github.com/user/repo/0a1b2c3d"}},
		{PnpmV6, "x", "1.7.0(react@18.3.1)(react-dom@18.3.1(react@18.3.1))", Entry{Package: "x", Version: "1.7.0"}},
		{PnpmV6, "lp", "/left-pad@1.3.0", Entry{Package: "left-pad", Version: "1.3.0"}},
		{PnpmV6, "slc", "/@isaacs/string-locale-compare@1.0.1(react@18.3.1)", Entry{Package: "@isaacs/string-locale-compare", Version: "1.0.1"}},
		{PnpmV6, "foo", "registry.example.test/foo@1.0.0", Entry{Package: "foo", Version: "1.0.0"}},
		{PnpmV6, "@babel/core", "registry.example.test/@babel/core@7.19.0", Entry{Package: "@babel/core", Version: "7.19.0"}},
		{PnpmV6, "x", "1.0.0(patch_hash=abc123)", Entry{Package: "x", Version: "1.0.0"}},
		{PnpmV9, "lp", "left-pad@1.3.0", Entry{Package: "left-pad", Version: "1.3.0"}},
		{PnpmV9, "slc", "@isaacs/string-locale-compare@1.0.1", Entry{Package: "@isaacs/string-locale-compare", Version: "1.0.1"}},
		{PnpmV9, "x", "1.0.0-beta.1+build.5(react@19.0.0)", Entry{Package: "x", Version: "1.0.0-beta.1+build.5"}},
		{PnpmV9, "t", "https://codeload.github.com/u/r/tar.gz/0a1b2c", Entry{Package: "t", Resolution: "https://codeload.github.com/u/r/tar.gz/0a1b2c"}},
		{PnpmV9, "c", "file:packages/c", Entry{Package: "c", Resolution: "file:packages/c", Local: true}},
		{PnpmV9, "c", "link:../c", Entry{Package: "c", Resolution: "link:../c", Local: true}},
	}
	for _, tt := range tests {
		t.Run(string(tt.format)+"/"+tt.raw, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, pnpmEntry(tt.format, tt.name, tt.raw)); diff != "" {
				t.Errorf("pnpmEntry (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPnpmTableKey(t *testing.T) {
	tests := []struct {
		format    Format
		name, raw string
		want      string
		ok        bool
	}{
		{PnpmV5, "x", "1.7.0_react@18.3.1", "/x/1.7.0_react@18.3.1", true},
		{PnpmV5, "lp", "/left-pad/1.3.0", "/left-pad/1.3.0", true},
		{PnpmV5, "s", "registry.example.test/s/1.0.0", "", false},
		{PnpmV6, "x", "1.7.0(react@18.3.1)", "/x@1.7.0(react@18.3.1)", true},
		{PnpmV6, "lp", "/left-pad@1.3.0", "/left-pad@1.3.0", true},
		{PnpmV6, "f", "registry.example.test/f@1.0.0", "", false},
		{PnpmV9, "x", "1.7.0(react@18.3.1)", "x@1.7.0(react@18.3.1)", true},
		{PnpmV9, "@s/x", "2.0.0", "@s/x@2.0.0", true},
		{PnpmV9, "lp", "left-pad@1.3.0", "left-pad@1.3.0", true},
		{PnpmV9, "slc", "@isaacs/string-locale-compare@1.0.1", "@isaacs/string-locale-compare@1.0.1", true},
		{PnpmV9, "t", "https://h/t.tgz", "", false},
		{PnpmV9, "g", "github.com/u/r/0a1b2c", "", false},
	}
	for _, tt := range tests {
		got, ok := pnpmTableKey(tt.format, tt.name, tt.raw)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("pnpmTableKey(%s, %q, %q) = %q, %v; want %q, %v", tt.format, tt.name, tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBunEntry(t *testing.T) {
	tests := []struct {
		name, id string
		want     Entry
	}{
		{"react", "react@18.3.1", Entry{Package: "react", Version: "18.3.1"}},
		{"lp", "left-pad@1.3.0", Entry{Package: "left-pad", Version: "1.3.0"}},
		{"slc", "@isaacs/string-locale-compare@1.0.1", Entry{Package: "@isaacs/string-locale-compare", Version: "1.0.1"}},
		{"a", "a@workspace:packages/a", Entry{Package: "a", Resolution: "workspace:packages/a", Local: true}},
		{"c", "c@file:packages/c", Entry{Package: "c", Resolution: "file:packages/c", Local: true}},
		{"r", "r@root:", Entry{Package: "r", Resolution: "root:", Local: true}},
		{"g", "g@github:user/repo#0a1b2c", Entry{Package: "g", Resolution: "github:user/repo#0a1b2c"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, bunEntry(tt.name, tt.id)); diff != "" {
			t.Errorf("bunEntry(%q) (-want +got):\n%s", tt.id, diff)
		}
	}
}

func TestBerryRange(t *testing.T) {
	tests := map[string]string{
		"^4.17.21":            "npm:^4.17.21",
		">=1.0.0 <2":          "npm:>=1.0.0 <2",
		"latest":              "npm:latest",
		"npm:left-pad@^1.3.0": "npm:left-pad@^1.3.0",
		"workspace:*":         "workspace:*",
		"link:../c":           "link:../c",
		"portal:../p":         "portal:../p",
		"git+ssh://h/r.git":   "git+ssh://h/r.git",
		"https://h/x.tgz":     "https://h/x.tgz",
	}
	for spec, want := range tests {
		if got := berryRange(spec); got != want {
			t.Errorf("berryRange(%q) = %q, want %q", spec, got, want)
		}
	}
}

func TestIsVersion(t *testing.T) {
	tests := map[string]bool{
		"1.2.3": true, "18.3.1": true, "1.0.0-rc.1": true, "1.0.0+build.7": true, "0.0.0-use.local": true,
		"": false, "1.2": false, "v1.2.3": false, "link:../a": false, "1.2.3(react@18)": false, "latest": false,
	}
	for s, want := range tests {
		if got := isVersion(s); got != want {
			t.Errorf("isVersion(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestCleanWorkspace(t *testing.T) {
	tests := map[string]string{"": ".", ".": ".", "./": ".", "packages/a": "packages/a", "./packages/a/": "packages/a", `packages\a`: "packages/a"}
	for in, want := range tests {
		if got := cleanWorkspace(in); got != want {
			t.Errorf("cleanWorkspace(%q) = %q, want %q", in, got, want)
		}
	}
}
