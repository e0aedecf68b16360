package groups

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/uptide/uptide/engine/model"
)

func TestMemberTargets(t *testing.T) {
	aws := registry(
		pk("@aws-sdk/client-s3", v("3.500.0", dep("@aws-sdk/core", "3.500.0")), v("3.600.0", dep("@aws-sdk/core", "3.600.0")), v("3.700.0", dep("@aws-sdk/core", "3.700.0"))),
		pk("@aws-sdk/s3-request-presigner", v("3.500.0", dep("@aws-sdk/core", "3.500.0")), v("3.600.0", dep("@aws-sdk/core", "3.600.0")), v("3.700.0", dep("@aws-sdk/core", "3.700.0"))),
		pk("@aws-sdk/core", v("3.500.0"), v("3.600.0"), v("3.700.0")),
	)
	radix := registry(
		pk("@radix-ui/react-dialog", v("1.0.0", dep("@radix-ui/primitive", "^1.0.0")), v("1.1.2", dep("@radix-ui/primitive", "^1.1.0")), v("2.0.0", dep("@radix-ui/primitive", "^2.0.0"))),
		pk("@radix-ui/react-popover", v("1.0.0", dep("@radix-ui/primitive", "^1.0.0")), v("1.0.5"), v("2.0.1", dep("@radix-ui/primitive", "^2.0.0")),
			v("2.1.0", dep("@radix-ui/primitive", "^2.0.0")), v("2.2.0-rc.1"), v("2.1.5", deprecated("broken"))),
		pk("@radix-ui/primitive", v("1.0.0"), v("1.1.0"), v("2.0.0")),
	)
	family := func(members, versions []string) model.Group {
		return model.Group{Kind: model.GroupFamily, Members: members, Versions: versions}
	}
	deps := func(pairs ...string) []Dep {
		var out []Dep
		for i := 0; i+1 < len(pairs); i += 2 {
			out = append(out, Dep{Name: pairs[i], Installed: pairs[i+1], Workspace: "."})
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		p         Packuments
		g         model.Group
		lead      Dep
		to        string
		deps      []Dep
		want      []model.Companion
		conflicts []model.Conflict
	}{
		{
			name: "a family moves to the same release as its lead",
			p:    aws,
			g:    family([]string{"@aws-sdk/client-s3", "@aws-sdk/s3-request-presigner"}, []string{"3.500.0", "3.500.0"}),
			lead: Dep{Name: "@aws-sdk/client-s3", Installed: "3.500.0", Workspace: "."}, to: "3.600.0",
			deps: deps("@aws-sdk/client-s3", "3.500.0", "@aws-sdk/s3-request-presigner", "3.500.0"),
			want: []model.Companion{{Name: "@aws-sdk/s3-request-presigner", From: "3.500.0", To: "3.600.0", Why: "the same release as @aws-sdk/client-s3 3.600.0"}},
		},
		{
			name: "a lead that stays keeps its members",
			p:    aws,
			g:    family([]string{"@aws-sdk/client-s3", "@aws-sdk/s3-request-presigner"}, []string{"3.500.0", "3.500.0"}),
			lead: Dep{Name: "@aws-sdk/client-s3", Installed: "3.500.0", Workspace: "."}, to: "3.500.0",
			deps: deps("@aws-sdk/client-s3", "3.500.0", "@aws-sdk/s3-request-presigner", "3.500.0"),
			want: []model.Companion{{Name: "@aws-sdk/s3-request-presigner", From: "3.500.0", To: "3.500.0", Why: "stays with @aws-sdk/client-s3 3.500.0"}},
		},
		{
			name: "a member already past the target stays",
			p:    aws,
			g:    family([]string{"@aws-sdk/client-s3", "@aws-sdk/s3-request-presigner"}, []string{"3.500.0", "3.700.0"}),
			lead: Dep{Name: "@aws-sdk/client-s3", Installed: "3.500.0", Workspace: "."}, to: "3.600.0",
			deps: deps("@aws-sdk/client-s3", "3.500.0", "@aws-sdk/s3-request-presigner", "3.700.0"),
			want: []model.Companion{{Name: "@aws-sdk/s3-request-presigner", From: "3.700.0", To: "3.700.0", Why: "stays: @aws-sdk/s3-request-presigner 3.600.0 is not above its installed 3.700.0"}},
		},
		{
			name: "a family without the same release takes its newest in the target's major",
			p:    radix,
			g:    family([]string{"@radix-ui/react-dialog", "@radix-ui/react-popover"}, []string{"1.0.0", "1.0.0"}),
			lead: Dep{Name: "@radix-ui/react-dialog", Installed: "1.0.0", Workspace: "."}, to: "2.0.0",
			deps: deps("@radix-ui/react-dialog", "1.0.0", "@radix-ui/react-popover", "1.0.0"),
			want: []model.Companion{{Name: "@radix-ui/react-popover", From: "1.0.0", To: "2.1.0", Why: "its newest 2.x: no release at 2.0.0, the family moves to 2"}},
		},
		{
			name: "a cross-scope group follows the lockstep release, not a mere equal version",
			p:    reactRegistry(),
			g:    model.Group{Kind: model.GroupPeer, Members: []string{"react", "react-dom"}, Versions: []string{"18.2.0", "18.2.0"}},
			lead: Dep{Name: "react", Installed: "18.2.0", Workspace: "."}, to: "19.0.0",
			deps: deps("react", "18.2.0", "react-dom", "18.2.0"),
			want: []model.Companion{{Name: "react-dom", From: "18.2.0", To: "19.0.0", Why: "released in lockstep (19.0.0 peer-requires react ^19.0.0)"}},
		},
		{
			name: "an older target of a peer group moves the member to that older release",
			p:    reactRegistry(),
			g:    model.Group{Kind: model.GroupPeer, Members: []string{"react", "react-dom"}, Versions: []string{"18.2.0", "18.2.0"}},
			lead: Dep{Name: "react", Installed: "18.2.0", Workspace: "."}, to: "18.3.1",
			deps: deps("react", "18.2.0", "react-dom", "18.2.0"),
			want: []model.Companion{{Name: "react-dom", From: "18.2.0", To: "18.3.1", Why: "released in lockstep (18.3.1 peer-requires react ^18.3.1)"}},
		},
		{
			name: "a shared-pin group moves to the release pinning alike, and a member none agrees with is a conflict",
			p:    aiRegistry(),
			g: model.Group{Kind: model.GroupSharedPin, Members: []string{"ai", "@ai-sdk/anthropic", "@ai-sdk/openai"},
				Versions: []string{"3.4.0", "0.0.50", "0.0.66"}},
			lead: Dep{Name: "ai", Installed: "3.4.0", Workspace: "."}, to: "4.0.0",
			deps: deps("ai", "3.4.0", "@ai-sdk/anthropic", "0.0.50", "@ai-sdk/openai", "0.0.66"),
			want: []model.Companion{{Name: "@ai-sdk/openai", From: "0.0.66", To: "1.0.0", Why: "pins @ai-sdk/provider 1.0.0 like ai 4.0.0; crosses a minor: no 0.0.x pins @ai-sdk/provider 1.0.0"}},
			conflicts: []model.Conflict{{Name: "@ai-sdk/anthropic", From: "0.0.50",
				Why: "no release of @ai-sdk/anthropic pins @ai-sdk/provider 1.0.0 like ai 4.0.0"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, conflicts := NewIndex(tc.p).MemberTargets(tc.g, tc.lead, tc.to, tc.deps)
			memberReasons(t, got, tc.lead.Name)
			if diff := cmp.Diff(tc.want, got, noReason); diff != "" {
				t.Errorf("moves (-want +got):\n%s", diff)
			}
			if tc.conflicts == nil {
				tc.conflicts = []model.Conflict{}
			}
			if diff := cmp.Diff(tc.conflicts, conflicts); diff != "" {
				t.Errorf("conflicts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSharedTarget(t *testing.T) {
	sb := registry(
		pk("storybook", v("8.0.9"), v("8.6.18"), v("8.6.19"), v("10.0.0")),
		pk("@storybook/react", v("8.0.9"), v("8.6.18"), v("8.6.19"), v("10.0.0")),
		// Its last release is 8.6.19: storybook 9 took it in.
		pk("@storybook/addon-essentials", v("8.0.9"), v("8.6.18"), v("8.6.19")),
		pk("@storybook/blocks", v("8.0.9"), v("8.6.18"), v("8.6.19", deprecated("broken")), v("8.6.20-rc.0")),
	)
	group := func(members ...string) model.Group {
		g := model.Group{Kind: model.GroupPeer, Members: members}
		for range members {
			g.Versions = append(g.Versions, "8.0.9")
		}
		return g
	}
	lead := Dep{Name: "storybook", Installed: "8.0.9", Workspace: "."}
	for _, tc := range []struct {
		name     string
		g        model.Group
		lead     Dep
		to, want string
		wantWhy  string
	}{
		{"every member has the target", group("storybook", "@storybook/react"), lead, "10.0.0", "10.0.0", ""},
		{"a member that tops out below the target holds the group at the newest shared release",
			group("storybook", "@storybook/addon-essentials", "@storybook/react"), lead, "10.0.0", "8.6.19",
			"@storybook/addon-essentials stops at 8.6.19: 8.6.19 is the newest release every member of the group has"},
		{"a deprecated release is not shared, a prerelease is not a top",
			group("storybook", "@storybook/blocks", "@storybook/react"), lead, "10.0.0", "8.6.18",
			"@storybook/blocks stops at 8.6.18: 8.6.18 is the newest release every member of the group has"},
		{"members on different versions are no lockstep group",
			model.Group{Kind: model.GroupPeer, Members: []string{"storybook", "@storybook/addon-essentials"}, Versions: []string{"8.0.9", "8.6.18"}},
			lead, "10.0.0", "10.0.0", ""},
		{"nothing shared above what is installed keeps the target",
			group("storybook", "@storybook/addon-essentials"), Dep{Name: "storybook", Installed: "8.6.19", Workspace: "."}, "10.0.0", "10.0.0", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why := NewIndex(sb).SharedTarget(tc.g, tc.lead, tc.to)
			if got != tc.want || why != tc.wantWhy {
				t.Errorf("SharedTarget = %q, %q; want %q, %q", got, why, tc.want, tc.wantWhy)
			}
		})
	}
}
