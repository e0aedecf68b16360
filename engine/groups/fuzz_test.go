package groups

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/semver"
)

// FuzzCompanions feeds registry-shaped garbage (versions and ranges are
// whatever a registry sends) through both rules and checks what must hold
// for any input: no panic, no downgrade, sorted output, and no dependence
// on the order of the dependencies.
func FuzzCompanions(f *testing.F) {
	f.Add("18.3.1", "19.0.0", "^18.3.1", "^19.0.0", "18.3.12", "19.0.0", "*", "packages/web")
	f.Add("3.4.0", "4.0.0", "0.0.26", "1.0.0", "0.0.66", "1.0.0", "1.0.0", ".")
	f.Add("1.0.0", "2.0.0-rc.1", ">=1 <2 || 3.x", "latest", "v1", "=2", "npm:x@1", "a/../b")
	f.Fuzz(func(t *testing.T, from, to, specA, specB, otherFrom, otherTo, pinSpec, ws string) {
		p := registry(
			pk("t", v(from), v(to, dep("@s/pinned", pinSpec), peer("o", specB))),
			pk("o", v(otherFrom, peer("t", specA), dep("@s/pinned", pinSpec)), v(otherTo, peer("t", specB))),
			// A stub release: from its version on, t types itself.
			pk("@types/t", v(otherFrom), v(otherTo, deprecated("This is a stub types definition. t provides its own type definitions")), v(to)),
			pk("@s/pinned", v(pinSpec), v(otherTo)),
			pk("@s/x", v(otherFrom, dep("@s/pinned", specA), peer("o", specB)), v(to, peer("t", specA))),
		)
		deps := []Dep{
			{Name: "t", Installed: from, Workspace: ws},
			{Name: "o", Installed: otherFrom, Workspace: "."},
			{Name: "@types/t", Installed: otherFrom, Workspace: ws},
			{Name: "@s/pinned", Installed: pinSpec, Workspace: ws + "/x"},
			{Name: "@s/x", Installed: otherFrom, Workspace: "."},
			{Name: "o", Installed: otherTo, Workspace: "zz/" + ws},
		}
		plan := Companions(deps[0], to, deps, p)
		if !sort.SliceIsSorted(plan.Companions, func(i, j int) bool { return plan.Companions[i].Name < plan.Companions[j].Name }) {
			t.Fatalf("companions not sorted: %+v", plan.Companions)
		}
		for _, c := range plan.Companions {
			if c.Remove {
				if c.Name != "@types/t" || c.To != "" || !strings.Contains(c.Why, "ships its own types") {
					t.Fatalf("removes %+v, which nothing makes needless", c)
				}
				continue
			}
			if semver.IsExact(c.From) && semver.Compare(c.To, c.From) <= 0 {
				t.Fatalf("proposes %s %s → %s, not an upgrade", c.Name, c.From, c.To)
			}
			if c.Why == "" {
				t.Fatalf("companion %s without a why", c.Name)
			}
		}
		rev := append([]Dep(nil), deps...)
		for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
			rev[i], rev[j] = rev[j], rev[i]
		}
		if d := cmp.Diff(plan, Companions(deps[0], to, rev, p)); d != "" {
			t.Fatalf("order of the candidates changed the plan:\n%s", d)
		}
		gs := ReleaseGroups(deps, p)
		if d := cmp.Diff(gs, ReleaseGroups(rev, p)); d != "" {
			t.Fatalf("order of the dependencies changed the groups:\n%s", d)
		}
		held := map[string]string{}
		for _, g := range gs {
			if len(g.Members) < 2 || g.Why == "" || !strings.Contains(g.Title, fmt.Sprintf("(%d packages)", len(g.Members))) ||
				len(g.Versions) != len(g.Members) || len(g.Workspaces) == 0 || !sort.StringsAreSorted(g.Workspaces) {
				t.Fatalf("malformed group %+v", g)
			}
			for i, m := range g.Members {
				k := m + "@" + g.Versions[i]
				if other, ok := held[k]; ok {
					t.Fatalf("%s is in %q and %q", k, other, g.Title)
				}
				held[k] = g.Title
			}
		}
	})
}

// A repository with a few hundred direct dependencies, each with a long
// release history, like a large monorepo against the public registry.
func bigRepo(deps, versions int) ([]Dep, Packuments) {
	p := Packuments{}
	var ds []Dep
	for i := 0; i < deps; i++ {
		name := fmt.Sprintf("pkg-%03d", i)
		switch i % 4 {
		case 0:
			name = fmt.Sprintf("@fam%d/pkg-%03d", i%8, i)
		case 1:
			name = TypesName(fmt.Sprintf("pkg-%03d", i-1))
		}
		var rels []rel
		for k := 0; k < versions; k++ {
			ver := fmt.Sprintf("%d.%d.0", k/50+1, k%50)
			rels = append(rels, v(ver,
				peer("react", fmt.Sprintf("^%d.0.0", k/50+17)),
				dep(fmt.Sprintf("@fam%d/core", i%8), ver),
				dep("tslib", "^2.0.0")))
		}
		p[name] = pk(name, rels...)
		ds = append(ds, Dep{Name: name, Installed: "1.0.0", Workspace: []string{".", "apps/web", "apps/api"}[i%3]})
	}
	var rrels []rel
	for k := 0; k < versions; k++ {
		rrels = append(rrels, v(fmt.Sprintf("%d.%d.0", k/50+17, k%50)))
	}
	p["react"] = pk("react", rrels...)
	ds = append(ds, Dep{Name: "react", Installed: "17.0.0", Workspace: "apps/web"})
	return ds, p
}

func BenchmarkReleaseGroups(b *testing.B) {
	deps, p := bigRepo(300, 500)
	b.ReportAllocs()
	for b.Loop() {
		ReleaseGroups(deps, p)
	}
}

func BenchmarkCompanions(b *testing.B) {
	deps, p := bigRepo(300, 500)
	target := deps[len(deps)-1]
	b.ReportAllocs()
	for b.Loop() {
		Companions(target, "20.0.0", deps, p)
	}
}

// BenchmarkCompanionsIndexed plans every row over one Index, as a caller
// listing many major upgrades would.
func BenchmarkCompanionsIndexed(b *testing.B) {
	deps, p := bigRepo(300, 500)
	target := deps[len(deps)-1]
	ix := NewIndex(p)
	b.ReportAllocs()
	for b.Loop() {
		ix.Companions(target, "20.0.0", deps)
	}
}
