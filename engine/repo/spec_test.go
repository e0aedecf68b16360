package repo

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func TestClassifySpec(t *testing.T) {
	tests := []struct {
		spec    string
		kind    model.SpecKind
		pkg     string // "" means the declared name, "x"
		rng     string
		catalog string
		problem bool
	}{
		// registry: ranges, exact versions, tags
		{spec: "^1.2.3", kind: model.SpecRange, rng: "^1.2.3"},
		{spec: "~1.2", kind: model.SpecRange, rng: "~1.2"},
		{spec: ">=2 <3", kind: model.SpecRange, rng: ">=2 <3"},
		{spec: ">= 2.1.0 < 3", kind: model.SpecRange, rng: ">= 2.1.0 < 3"},
		{spec: "1.x", kind: model.SpecRange, rng: "1.x"},
		{spec: "1.2.X", kind: model.SpecRange, rng: "1.2.X"},
		{spec: "*", kind: model.SpecRange, rng: "*"},
		{spec: "x", kind: model.SpecRange, rng: "x"},
		{spec: "", kind: model.SpecRange, rng: "*"},
		{spec: "^1.0.0 || ^2.0.0", kind: model.SpecRange, rng: "^1.0.0 || ^2.0.0"},
		{spec: "1.2.3 - 2.3.4", kind: model.SpecRange, rng: "1.2.3 - 2.3.4"},
		{spec: "^1.0.0-beta.2", kind: model.SpecRange, rng: "^1.0.0-beta.2"},
		{spec: "~>1.2.3", kind: model.SpecRange, rng: "~>1.2.3"},
		{spec: "<1.0.0-0", kind: model.SpecRange, rng: "<1.0.0-0"},
		{spec: "v2", kind: model.SpecRange, rng: "v2"},
		{spec: "1.2.3", kind: model.SpecExact, rng: "1.2.3"},
		{spec: "=1.2.3", kind: model.SpecExact, rng: "=1.2.3"},
		{spec: "v1.2.3", kind: model.SpecExact, rng: "v1.2.3"},
		{spec: " 1.2.3 ", kind: model.SpecExact, rng: "1.2.3"},
		{spec: "1.2.3-rc.1+build.5", kind: model.SpecExact, rng: "1.2.3-rc.1+build.5"},
		{spec: "latest", kind: model.SpecTag, rng: "latest"},
		{spec: "next", kind: model.SpecTag, rng: "next"},
		{spec: "canary-2024", kind: model.SpecTag, rng: "canary-2024"},
		{spec: "not a range!", kind: model.SpecTag, rng: "not a range!", problem: true},
		// npm: aliases
		{spec: "npm:real@^2.0.0", kind: model.SpecAlias, pkg: "real", rng: "^2.0.0"},
		{spec: "npm:@scope/real@1.0.0", kind: model.SpecAlias, pkg: "@scope/real", rng: "1.0.0"},
		{spec: "npm:@scope/real", kind: model.SpecAlias, pkg: "@scope/real", rng: "latest"},
		{spec: "npm:real", kind: model.SpecAlias, pkg: "real", rng: "latest"},
		{spec: "npm:real@beta", kind: model.SpecAlias, pkg: "real", rng: "beta"},
		{spec: "npm:^1.2.3", kind: model.SpecRange, rng: "^1.2.3"}, // yarn's explicit registry protocol
		{spec: "npm:@@bad", kind: model.SpecAlias, pkg: "@", rng: "bad", problem: true},
		// catalogs (resolved by Load)
		{spec: "catalog:", kind: model.SpecCatalog, catalog: "default"},
		{spec: "catalog:react19", kind: model.SpecCatalog, catalog: "react19"},
		// workspace:
		{spec: "workspace:*", kind: model.SpecWorkspace, rng: "*"},
		{spec: "workspace:^", kind: model.SpecWorkspace, rng: "^"},
		{spec: "workspace:~", kind: model.SpecWorkspace, rng: "~"},
		{spec: "workspace:^1.2.0", kind: model.SpecWorkspace, rng: "^1.2.0"},
		{spec: "workspace:../path", kind: model.SpecWorkspace},
		{spec: "workspace:./packages/x", kind: model.SpecWorkspace},
		{spec: "workspace:other@*", kind: model.SpecWorkspace, pkg: "other", rng: "*"},
		// local
		{spec: "link:../x", kind: model.SpecLink},
		{spec: "portal:../x", kind: model.SpecLink},
		{spec: "file:../x", kind: model.SpecFile},
		{spec: "file:vendor/x-1.0.0.tgz", kind: model.SpecFile},
		{spec: "./x", kind: model.SpecFile},
		{spec: "../x", kind: model.SpecFile},
		{spec: "/abs/x", kind: model.SpecFile},
		{spec: "~/x", kind: model.SpecFile},
		{spec: `C:\pkgs\x`, kind: model.SpecFile},
		{spec: "x-1.0.0.tgz", kind: model.SpecFile},
		{spec: "vendor/x.tar.gz", kind: model.SpecFile},
		// git
		{spec: "git+ssh://git@github.com/u/r.git#v1", kind: model.SpecGit},
		{spec: "git+https://github.com/u/r.git", kind: model.SpecGit},
		{spec: "git+http://example.com/r.git", kind: model.SpecGit},
		{spec: "git+file:///srv/r.git", kind: model.SpecGit},
		{spec: "git://github.com/u/r.git#main", kind: model.SpecGit},
		{spec: "ssh://git@example.com/r.git", kind: model.SpecGit},
		{spec: "git@github.com:u/r.git", kind: model.SpecGit},
		{spec: "github:u/r", kind: model.SpecGit},
		{spec: "github:u/r#semver:^1.0.0", kind: model.SpecGit},
		{spec: "gitlab:u/r#v2", kind: model.SpecGit},
		{spec: "bitbucket:u/r", kind: model.SpecGit},
		{spec: "gist:11081aaa281", kind: model.SpecGit},
		{spec: "u/r", kind: model.SpecGit},
		{spec: "u/r#feature/x", kind: model.SpecGit},
		{spec: "https://github.com/u/r", kind: model.SpecGit},
		{spec: "https://github.com/u/r#v1", kind: model.SpecGit},
		{spec: "https://example.com/r.git", kind: model.SpecGit},
		// urls
		{spec: "https://example.com/x-1.0.0.tgz", kind: model.SpecURL},
		{spec: "http://example.com/x.tgz", kind: model.SpecURL},
		{spec: "https://github.com/u/r/archive/v1.tar.gz", kind: model.SpecURL},
		{spec: "https://codeload.github.com/u/r/tar.gz/main", kind: model.SpecURL},
		{spec: "weird:thing", kind: model.SpecURL, problem: true},
		// yarn patch: classified by what it patches
		{spec: "patch:x@npm%3A1.0.0#./.yarn/patches/x.patch", kind: model.SpecExact, rng: "1.0.0"},
		{spec: "patch:other@npm%3A^2.0.0#~/p.patch", kind: model.SpecAlias, pkg: "other", rng: "^2.0.0"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got := ClassifySpec("x", tt.spec)
			pkg := tt.pkg
			if pkg == "" {
				pkg = "x"
			}
			if got.Kind != tt.kind || got.Package != pkg || got.Range != tt.rng || got.Catalog != tt.catalog {
				t.Errorf("ClassifySpec(x, %q) = %+v, want kind %s package %s range %q catalog %q",
					tt.spec, got, tt.kind, pkg, tt.rng, tt.catalog)
			}
			if (got.Problem != "") != tt.problem {
				t.Errorf("ClassifySpec(x, %q).Problem = %q, want problem: %v", tt.spec, got.Problem, tt.problem)
			}
		})
	}
}

func FuzzClassifySpec(f *testing.F) {
	for _, s := range []string{"^1.2.3", "npm:a@1", "workspace:^", "catalog:x", "github:u/r#v1", "u/r", "./x.tgz",
		"patch:x@npm%3A1.0.0#p", "1.2.3 - 2", ">= 1 <2 || 3.x", "git@h:u/r.git", "https://github.com/u/r"} {
		f.Add("x", s)
	}
	known := map[model.SpecKind]bool{model.SpecRange: true, model.SpecExact: true, model.SpecTag: true,
		model.SpecAlias: true, model.SpecWorkspace: true, model.SpecLink: true, model.SpecFile: true,
		model.SpecGit: true, model.SpecURL: true, model.SpecCatalog: true}
	f.Fuzz(func(t *testing.T, name, spec string) {
		got := ClassifySpec(name, spec)
		if !known[got.Kind] {
			t.Fatalf("ClassifySpec(%q, %q): unknown kind %q", name, spec, got.Kind)
		}
		if got.Kind.FromRegistry() && got.Problem == "" && got.Range == "" {
			t.Fatalf("ClassifySpec(%q, %q) = %+v: a registry kind with no range", name, spec, got)
		}
		if got.Kind == model.SpecCatalog && got.Catalog == "" {
			t.Fatalf("ClassifySpec(%q, %q) = %+v: a catalog with no name", name, spec, got)
		}
	})
}
