package discover

import (
	"errors"
	"slices"
	"testing"

	"github.com/uptide/uptide/engine/groups"
	"github.com/uptide/uptide/engine/model"
)

func pack(name string, latest string, tags map[string]string, versions ...string) *model.Packument {
	p := &model.Packument{Name: name, DistTags: map[string]string{"latest": latest}, Versions: map[string]model.Release{}}
	for k, v := range tags {
		p.DistTags[k] = v
	}
	for _, v := range versions {
		p.Versions[v] = model.Release{Name: name, Version: v}
	}
	return p
}

func d(ws, name, spec string, kind model.SpecKind, rng, catalog, version string) decl {
	return decl{ws: ws, d: model.Declaration{Name: name, Package: name, Type: model.Prod, Spec: spec, Kind: kind, Range: rng, Catalog: catalog},
		version: version, source: model.FromLockfile}
}

func TestBuildRowsMergesDecisions(t *testing.T) {
	packs := groups.Packuments{
		"zod":   pack("zod", "4.1.12", nil, "3.22.4", "3.25.76", "4.1.12"),
		"react": pack("react", "19.1.0", nil, "18.3.1", "19.1.0"),
		"chalk": pack("chalk", "5.4.1", map[string]string{"next": "6.0.0-beta.1"}, "5.4.1", "6.0.0-beta.1"),
		"pre":   pack("pre", "1.0.0", nil, "1.0.0", "2.0.0-rc.1"),
	}
	decls := []decl{
		d("packages/a", "zod", "^3.25.0", model.SpecRange, "^3.25.0", "", "3.25.76"),
		d("packages/b", "zod", "^3.25.1", model.SpecRange, "^3.25.1", "", "3.25.76"), // same decision
		d("packages/c", "zod", "3.22.4", model.SpecExact, "3.22.4", "", "3.22.4"),    // another version
		d("apps/x", "react", "catalog:", model.SpecRange, "^18", "default", "18.3.1"),
		d("apps/y", "react", "catalog:", model.SpecRange, "^18", "default", "18.3.1"),
		d(".", "chalk", "next", model.SpecTag, "next", "", "5.4.1"),
		d(".", "pre", "2.0.0-rc.1", model.SpecExact, "2.0.0-rc.1", "", "2.0.0-rc.1"),
		d(".", "gone", "^1", model.SpecRange, "^1", "", "1.0.0"),
	}
	rows := buildRows(decls, packs, map[string]error{"gone": errors.New("404 not found")})
	byKey := map[string]model.DependencyRow{}
	for _, r := range rows {
		byKey[r.Name+"@"+r.Installed] = r
	}
	if len(rows) != 6 {
		t.Fatalf("%d rows, want 6: %+v", len(rows), rows)
	}
	zod := byKey["zod@3.25.76"]
	if !zod.Shared || !slices.Equal(zod.Workspaces, []string{"packages/a", "packages/b"}) || !slices.Equal(zod.Specs, []string{"^3.25.0", "^3.25.1"}) || zod.Update.String() != "major" {
		t.Errorf("shared zod row: %+v", zod)
	}
	if z := byKey["zod@3.22.4"]; z.Shared || z.Target != "4.1.12" {
		t.Errorf("zod 3.22.4 row: %+v", z)
	}
	if r := byKey["react@18.3.1"]; r.Catalog != "default" || len(r.Workspaces) != 2 {
		t.Errorf("catalog row: %+v", r)
	}
	if c := byKey["chalk@5.4.1"]; c.Target != "6.0.0-beta.1" || c.Latest != "5.4.1" {
		t.Errorf("a dist-tag specifier targets its tag: %+v", c)
	}
	if p := byKey["pre@2.0.0-rc.1"]; p.Target != "2.0.0-rc.1" || !p.Update.IsZero() {
		t.Errorf("a version above latest is its own target: %+v", p)
	}
	if g := byKey["gone@1.0.0"]; g.Status != model.RowNotChecked || g.Reason == "" {
		t.Errorf("a registry failure marks the row: %+v", g)
	}

	sortRows(rows)
	var order []string
	for _, r := range rows {
		order = append(order, r.Name+"@"+r.Installed)
	}
	// Majors first (by importing files, then name), then the rest, then not checked.
	want := []string{"chalk@5.4.1", "react@18.3.1", "zod@3.22.4", "zod@3.25.76", "pre@2.0.0-rc.1", "gone@1.0.0"}
	if !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
}

func TestResolvesToWorkspace(t *testing.T) {
	ws := model.Workspace{Path: "packages/api", Name: "@acme/api", Version: "1.2.0"}
	for _, tc := range []struct {
		decl model.Declaration
		want bool
	}{
		{model.Declaration{Name: "@acme/api", Package: "@acme/api", Kind: model.SpecRange, Range: "*"}, true},
		{model.Declaration{Name: "@acme/api", Package: "@acme/api", Kind: model.SpecRange, Range: "^1.0.0"}, true},
		{model.Declaration{Name: "@acme/api", Package: "@acme/api", Kind: model.SpecRange, Range: "^2.0.0"}, false},
		{model.Declaration{Name: "@acme/api", Package: "other", Kind: model.SpecAlias, Range: "^1.0.0"}, false},
	} {
		if got := resolvesToWorkspace(tc.decl, ws); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.decl, got, tc.want)
		}
	}
}
