package groups

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

// The fixture repositories' registry, trimmed: react on two majors, ai
// whose next major peer-requires a newer zod, the @ai-sdk packages pinning
// one another.
func fixtureRegistry() Packuments {
	return merge(reactRegistry(), aiRegistry(), registry(
		pk("ai",
			v("3.4.0", dep("@ai-sdk/provider", "0.0.26"), dep("@ai-sdk/provider-utils", "1.0.20"), peer("react", "^18 || ^19"), peer("zod", "^3.0.0")),
			v("4.0.0", dep("@ai-sdk/provider", "1.0.0"), dep("@ai-sdk/provider-utils", "2.0.0"), peer("react", "^18 || ^19"), peer("zod", "^3.23.8"))),
		pk("zod", v("3.22.4"), v("3.23.8"), v("3.25.76")),
		pk("@testing-library/react", v("16.1.0", peer("react", "^19.1.0"))),
		pk("react-markdown", v("9.0.0", peer("react", "^19.1.0"))),
		pk("react-select", v("5.0.0", peer("react", "^19.1.0"))),
		pk("react-window", v("2.0.0", peer("react", "^19.1.0"))),
		pk("react-art", v("19.0.0", peer("react", "^19.0.0")), v("19.1.0", peer("react", "^19.1.0"))),
		pk("react-server-dom-webpack", v("19.0.0", peer("react", "^19.0.0")), v("19.1.0", peer("react", "^19.1.0"))),
		pk("react-test-renderer", v("19.0.0", peer("react", "^19.0.0")), v("19.1.0", peer("react", "^19.1.0"))),
		pk("a", v("1.0.0"), v("2.0.0", peer("b", "^2.0.0"))),
		pk("b", v("1.0.0"), v("2.0.0", peer("a", "^2.0.0"))),
	))
}

func TestReleaseGroupsAcrossWorkspaces(t *testing.T) {
	cases := []struct {
		name string
		deps []Dep
		want []model.Group
	}{
		{
			// pnpm-v9: @ai-sdk/react (web) pins what ai (legacy) pins, and
			// admin's react 19 misses nothing web's react-dom asks; siblings
			// decide apart.
			name: "sibling workspaces link nothing, each keeps its own group",
			deps: []Dep{
				{Name: "react", Installed: "19.1.0", Workspace: "apps/admin"},
				{Name: "react-dom", Installed: "19.1.0", Workspace: "apps/admin"},
				{Name: "react", Installed: "18.3.1", Workspace: "apps/web"},
				{Name: "react-dom", Installed: "18.3.1", Workspace: "apps/web"},
				{Name: "@ai-sdk/react", Installed: "0.0.70", Workspace: "apps/web"},
				{Name: "ai", Installed: "3.4.0", Workspace: "packages/legacy"},
				{Name: "@ai-sdk/openai", Installed: "0.0.66", Workspace: "packages/legacy"},
				{Name: "zod", Installed: "3.22.4", Workspace: "packages/legacy"},
			},
			want: []model.Group{
				{
					// ai 4.0.0 peer-requires zod ^3.23.8: a companion of ai,
					// not a member of its release train.
					Title:      "ai (2 packages)",
					Kind:       model.GroupSharedPin,
					Members:    []string{"ai", "@ai-sdk/openai"},
					Versions:   []string{"3.4.0", "0.0.66"},
					Workspaces: []string{"packages/legacy"},
					Why:        "both pin @ai-sdk/provider 0.0.26 exactly",
				},
				{
					Title:      "react (2 packages)",
					Kind:       model.GroupPeer,
					Members:    []string{"react", "react-dom"},
					Versions:   []string{"18.3.1", "18.3.1"},
					Workspaces: []string{"apps/web"},
					Why:        "react-dom 19.1.0 peer-requires react ^19.1.0",
				},
			},
		},
		{
			name: "the root sees every workspace, and links siblings through itself",
			deps: []Dep{
				{Name: "ai", Installed: "3.4.0", Workspace: "."},
				{Name: "@ai-sdk/openai", Installed: "0.0.66", Workspace: "packages/a"},
				{Name: "@ai-sdk/react", Installed: "0.0.70", Workspace: "packages/b"},
			},
			want: []model.Group{{
				Title:      "ai (3 packages)",
				Kind:       model.GroupSharedPin,
				Members:    []string{"ai", "@ai-sdk/openai", "@ai-sdk/react"},
				Versions:   []string{"3.4.0", "0.0.66", "0.0.70"},
				Workspaces: []string{".", "packages/a", "packages/b"},
				Why:        "all 3 pin @ai-sdk/provider-utils 1.0.20 exactly",
			}},
		},
		{
			name: "a directory above sees the workspaces below it, not beside it",
			deps: []Dep{
				{Name: "ai", Installed: "3.4.0", Workspace: "packages"},
				{Name: "@ai-sdk/openai", Installed: "0.0.66", Workspace: "./packages/a/"},
				{Name: "@ai-sdk/react", Installed: "0.0.70", Workspace: "apps/b"},
			},
			want: []model.Group{{
				Title:      "ai (2 packages)",
				Kind:       model.GroupSharedPin,
				Members:    []string{"ai", "@ai-sdk/openai"},
				Versions:   []string{"3.4.0", "0.0.66"},
				Workspaces: []string{"packages", "packages/a"},
				Why:        "both pin @ai-sdk/provider 0.0.26 exactly",
			}},
		},
		{
			name: "one package at two versions leads two groups, one per version",
			deps: []Dep{
				{Name: "react", Installed: "18.3.1", Workspace: "apps/web"},
				{Name: "react-dom", Installed: "18.3.1", Workspace: "apps/web"},
				{Name: "react", Installed: "19.0.0", Workspace: "apps/next"},
				{Name: "react-dom", Installed: "19.0.0", Workspace: "apps/next"},
			},
			want: []model.Group{
				{
					Title: "react (2 packages)", Kind: model.GroupPeer,
					Members: []string{"react", "react-dom"}, Versions: []string{"18.3.1", "18.3.1"},
					Workspaces: []string{"apps/web"}, Why: "react-dom 19.1.0 peer-requires react ^19.1.0",
				},
				{
					Title: "react (2 packages)", Kind: model.GroupPeer,
					Members: []string{"react", "react-dom"}, Versions: []string{"19.0.0", "19.0.0"},
					Workspaces: []string{"apps/next"}, Why: "react-dom 19.1.0 peer-requires react ^19.1.0",
				},
			},
		},
		{
			// web resolves its own react 19.0.0, never the root's 18.3.1;
			// admin declares none and resolves the root's.
			name: "a workspace's own version hides the root's from it",
			deps: []Dep{
				{Name: "react", Installed: "18.3.1", Workspace: "."},
				{Name: "react", Installed: "19.0.0", Workspace: "apps/web"},
				{Name: "react-dom", Installed: "19.0.0", Workspace: "apps/web"},
				{Name: "react-dom", Installed: "18.3.1", Workspace: "apps/admin"},
			},
			want: []model.Group{
				{
					Title: "react (2 packages)", Kind: model.GroupPeer,
					Members: []string{"react", "react-dom"}, Versions: []string{"18.3.1", "18.3.1"},
					Workspaces: []string{".", "apps/admin"}, Why: "react-dom 19.1.0 peer-requires react ^19.1.0",
				},
				{
					Title: "react (2 packages)", Kind: model.GroupPeer,
					Members: []string{"react", "react-dom"}, Versions: []string{"19.0.0", "19.0.0"},
					Workspaces: []string{"apps/web"}, Why: "react-dom 19.1.0 peer-requires react ^19.1.0",
				},
			},
		},
		{
			name: "a version declared in between hides the upper one too",
			deps: []Dep{
				{Name: "react", Installed: "18.3.1", Workspace: "."},
				{Name: "react", Installed: "19.1.0", Workspace: "apps"},
				{Name: "react-dom", Installed: "19.1.0", Workspace: "apps/web"},
			},
			want: []model.Group{},
		},
		{
			// The root's package is one node: where both versions are
			// linked to it, both are in its group.
			name: "two sibling versions linked to one root package share its group",
			deps: []Dep{
				{Name: "react", Installed: "18.3.1", Workspace: "."},
				{Name: "react-dom", Installed: "18.3.1", Workspace: "apps/web"},
				{Name: "react-dom", Installed: "18.2.0", Workspace: "apps/admin"},
			},
			want: []model.Group{{
				Title: "react (3 packages)", Kind: model.GroupPeer,
				Members:    []string{"react", "react-dom", "react-dom"},
				Versions:   []string{"18.3.1", "18.2.0", "18.3.1"},
				Workspaces: []string{".", "apps/admin", "apps/web"},
				Why:        "react-dom 19.1.0 peer-requires react ^19.1.0",
			}},
		},
	}
	p := fixtureRegistry()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if d := cmp.Diff(c.want, ReleaseGroups(c.deps, p)); d != "" {
				t.Errorf("groups (-want +got):\n%s", d)
			}
		})
	}
}

func TestReleaseGroupsLeadAndWhy(t *testing.T) {
	cases := []struct {
		name string
		deps []Dep
		want model.Group
	}{
		{
			// npm-v3 as one workspace: zod is only peer-required by ai's
			// target with a range of its own line (^3.23.8), which makes it
			// ai's companion, not a member.
			name: "the unscoped member leads, a package it merely peer-requires is no member",
			deps: []Dep{
				{Name: "zod", Installed: "3.22.4", Workspace: "."},
				{Name: "@ai-sdk/react", Installed: "0.0.70", Workspace: "."},
				{Name: "@ai-sdk/openai", Installed: "0.0.66", Workspace: "."},
				{Name: "ai", Installed: "3.4.0", Workspace: "."},
			},
			want: model.Group{
				Title:      "ai (3 packages)",
				Kind:       model.GroupSharedPin,
				Members:    []string{"ai", "@ai-sdk/openai", "@ai-sdk/react"},
				Versions:   []string{"3.4.0", "0.0.66", "0.0.70"},
				Workspaces: []string{"."},
				Why:        "all 3 pin @ai-sdk/provider-utils 1.0.20 exactly",
			},
		},
		{
			name: "equal links: the one most members depend on leads",
			deps: []Dep{
				{Name: "react-dom", Installed: "18.3.1", Workspace: "."},
				{Name: "react", Installed: "18.3.1", Workspace: "."},
			},
			want: model.Group{
				Title: "react (2 packages)", Kind: model.GroupPeer,
				Members: []string{"react", "react-dom"}, Versions: []string{"18.3.1", "18.3.1"},
				Workspaces: []string{"."}, Why: "react-dom 19.1.0 peer-requires react ^19.1.0",
			},
		},
		{
			name: "all else equal, the first by name leads",
			deps: []Dep{
				{Name: "b", Installed: "1.0.0", Workspace: "."},
				{Name: "a", Installed: "1.0.0", Workspace: "."},
			},
			want: model.Group{
				Title: "a (2 packages)", Kind: model.GroupPeer,
				Members: []string{"a", "b"}, Versions: []string{"1.0.0", "1.0.0"},
				Workspaces: []string{"."}, Why: "a 2.0.0 peer-requires b ^2.0.0",
			},
		},
		{
			name: "more links than a line holds are counted",
			deps: []Dep{
				{Name: "react", Installed: "19.0.0", Workspace: "."},
				{Name: "react-art", Installed: "19.0.0", Workspace: "."},
				{Name: "react-dom", Installed: "19.0.0", Workspace: "."},
				{Name: "react-server-dom-webpack", Installed: "19.0.0", Workspace: "."},
				{Name: "react-test-renderer", Installed: "19.0.0", Workspace: "."},
			},
			want: model.Group{
				Title: "react (5 packages)", Kind: model.GroupPeer,
				Members:    []string{"react", "react-art", "react-dom", "react-server-dom-webpack", "react-test-renderer"},
				Versions:   []string{"19.0.0", "19.0.0", "19.0.0", "19.0.0", "19.0.0"},
				Workspaces: []string{"."},
				Why: "react-art 19.1.0 peer-requires react ^19.1.0; react-dom 19.1.0 peer-requires react ^19.1.0; " +
					"react-server-dom-webpack 19.1.0 peer-requires react ^19.1.0; +1 more link",
			},
		},
		{
			// A React library whose target needs react 19.1 is react's
			// companion: react is released on its own.
			name: "a library peer-requiring a newer react is no member of react's group",
			deps: []Dep{
				{Name: "react", Installed: "19.0.0", Workspace: "."},
				{Name: "react-dom", Installed: "19.0.0", Workspace: "."},
				{Name: "react-window", Installed: "2.0.0", Workspace: "."},
				{Name: "react-select", Installed: "5.0.0", Workspace: "."},
				{Name: "@testing-library/react", Installed: "16.1.0", Workspace: "."},
			},
			want: model.Group{
				Title: "react (2 packages)", Kind: model.GroupPeer,
				Members: []string{"react", "react-dom"}, Versions: []string{"19.0.0", "19.0.0"},
				Workspaces: []string{"."}, Why: "react-dom 19.1.0 peer-requires react ^19.1.0",
			},
		},
	}
	p := fixtureRegistry()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if d := cmp.Diff([]model.Group{c.want}, ReleaseGroups(c.deps, p)); d != "" {
				t.Errorf("groups (-want +got):\n%s", d)
			}
		})
	}
}

func TestAbove(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{".", "packages/web", true},
		{"packages", "packages/web", true},
		{"packages/web", "packages/web", false},
		{"packages/web", ".", false},
		{"packages/we", "packages/web", false},
		{"packages/admin", "packages/web", false},
	}
	for _, c := range cases {
		if got := above(c.a, c.b); got != c.want {
			t.Errorf("above(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
