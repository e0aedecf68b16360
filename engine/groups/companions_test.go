package groups

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

func TestCompanions(t *testing.T) {
	react := reactRegistry()
	ai := aiRegistry()
	cases := []struct {
		name       string
		p          Packuments
		target     Dep
		to         string
		candidates []Dep
		companions []model.Companion
		conflicts  []model.Conflict
	}{
		{
			name:   "react 18 → 19 moves react-dom, @types/react and @types/react-dom together",
			p:      react,
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "."},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "react", Installed: "18.3.1", Workspace: "."},
				{Name: "react-dom", Installed: "18.3.1", Workspace: "."},
				{Name: "@types/react", Installed: "18.3.12", Workspace: "."},
				{Name: "@types/react-dom", Installed: "18.3.5", Workspace: "."},
				{Name: "lodash", Installed: "4.17.21", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "@types/react", From: "18.3.12", To: "19.0.8", Why: "types of react, newest at 19.0"},
				// Its own manifest would pick 19.1.2 (peer @types/react ^19.0.0);
				// it waits for react-dom and types 19.0.
				{Name: "@types/react-dom", From: "18.3.5", To: "19.0.4", Why: "types of react-dom, newest at 19.0"},
				{Name: "react-dom", From: "18.3.1", To: "19.0.0", Why: "released in lockstep (19.0.0 peer-requires react ^19.0.0)"},
			},
		},
		{
			name:   "lockstep even when the installed range accepts the target",
			p:      merge(react, registry(pk("react-dom", v("18.3.1", peer("react", ">=18")), v("19.0.0", peer("react", "^19.0.0"))))),
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "."},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "react-dom", Installed: "18.3.1", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "react-dom", From: "18.3.1", To: "19.0.0", Why: "released in lockstep (19.0.0 peer-requires react ^19.0.0)"},
			},
		},
		{
			name:   "a candidate whose installed range accepts the target is not a companion",
			p:      react,
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "."},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "@testing-library/react", Installed: "16.1.0", Workspace: "."},
			},
		},
		{
			name:   "the newest release that accepts the target",
			p:      react,
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "."},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "@testing-library/react", Installed: "14.3.1", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "@testing-library/react", From: "14.3.1", To: "16.1.0", Why: "accepts react 19.0.0 (peer ^18.0.0 || ^19.0.0); crosses a major: no 14.x accepts react 19.0.0"},
			},
		},
		{
			name:   "no release accepts the target: a conflict",
			p:      react,
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "."},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "@ai-sdk/react", Installed: "0.0.70", Workspace: "."},
				{Name: "react-dom", Installed: "18.3.1", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "react-dom", From: "18.3.1", To: "19.0.0", Why: "released in lockstep (19.0.0 peer-requires react ^19.0.0)"},
			},
			conflicts: []model.Conflict{
				{Name: "@ai-sdk/react", From: "0.0.70", Why: "no release of @ai-sdk/react accepts react 19.0.0 (latest 0.0.70 peer-requires ^18.2.0)"},
			},
		},
		{
			// @radix-ui/react-dialog pins the react-slot of its own release
			// (1.3.1 pins 1.5.0), and react-slot itself moves to its newest
			// (1.5.1): no dialog release pins that one, but npm and pnpm
			// nest the dialog's own copy, so it moves along, no conflict.
			name: "a family dependency no release pins like its mover is the package's nested copy",
			p: merge(react, registry(
				pk("@radix-ui/react-slot",
					v("1.0.2", peer("react", "^16.8 || ^17.0 || ^18.0")),
					v("1.2.0", peer("react", "^16.8 || ^17.0 || ^18.0 || ^19.0")),
					v("1.2.1", peer("react", "^16.8 || ^17.0 || ^18.0 || ^19.0"))),
				pk("@radix-ui/react-dialog",
					v("1.0.5", dep("@radix-ui/react-slot", "1.0.2"), peer("react", "^16.8 || ^17.0 || ^18.0")),
					v("1.1.0", dep("@radix-ui/react-slot", "1.2.0"), peer("react", "^16.8 || ^17.0 || ^18.0 || ^19.0"))))),
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "."},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "@radix-ui/react-dialog", Installed: "1.0.5", Workspace: "."},
				{Name: "@radix-ui/react-slot", Installed: "1.0.2", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "@radix-ui/react-dialog", From: "1.0.5", To: "1.1.0", Why: "accepts react 19.0.0 (peer ^16.8 || ^17.0 || ^18.0 || ^19.0)"},
				{Name: "@radix-ui/react-slot", From: "1.0.2", To: "1.2.1", Why: "accepts react 19.0.0 (peer ^16.8 || ^17.0 || ^18.0 || ^19.0)"},
			},
		},
		{
			name:   "ai 3 → 4: a pinned member, a shared-pin member, an unrelated one",
			p:      ai,
			target: Dep{Name: "ai", Installed: "3.4.0", Workspace: "."},
			to:     "4.0.0",
			candidates: []Dep{
				{Name: "@ai-sdk/openai", Installed: "0.0.66", Workspace: "."},
				{Name: "@ai-sdk/react", Installed: "0.0.70", Workspace: "."},
				{Name: "zod", Installed: "3.23.8", Workspace: "."},
			},
			companions: []model.Companion{
				// 1.0.5 is newer but pins provider 1.0.1.
				{Name: "@ai-sdk/openai", From: "0.0.66", To: "1.0.0", Why: "pins @ai-sdk/provider 1.0.0 like ai 4.0.0; crosses a minor: no 0.0.x pins @ai-sdk/provider 1.0.0"},
				// ai 4.0.0's own dependency on @ai-sdk/react 1.0.0 is its
				// nested copy; the provider-utils both pin is what binds.
				{Name: "@ai-sdk/react", From: "0.0.70", To: "1.0.0", Why: "pins @ai-sdk/provider-utils 2.0.0 like ai 4.0.0; crosses a minor: no 0.0.x pins @ai-sdk/provider-utils 2.0.0"},
			},
		},
		{
			name:   "shared pin with no agreeing release: a conflict",
			p:      ai,
			target: Dep{Name: "ai", Installed: "3.4.0", Workspace: "."},
			to:     "4.0.0",
			candidates: []Dep{
				{Name: "@ai-sdk/anthropic", Installed: "0.0.50", Workspace: "."},
			},
			conflicts: []model.Conflict{
				{Name: "@ai-sdk/anthropic", From: "0.0.50", Why: "no release of @ai-sdk/anthropic pins @ai-sdk/provider 1.0.0 like ai 4.0.0"},
			},
		},
		{
			name: "the target pins below what is installed: a conflict, never a downgrade",
			p: registry(
				pk("@ai-sdk/openai", v("0.0.66"), v("1.0.0", dep("@ai-sdk/provider", "1.0.0"))),
				pk("@ai-sdk/provider", v("0.0.26"), v("1.0.0"), v("1.2.0"))),
			target: Dep{Name: "@ai-sdk/openai", Installed: "0.0.66", Workspace: "."},
			to:     "1.0.0",
			candidates: []Dep{
				{Name: "@ai-sdk/provider", Installed: "1.2.0", Workspace: "."},
			},
			conflicts: []model.Conflict{
				{Name: "@ai-sdk/provider", From: "1.2.0", Why: "@ai-sdk/openai 1.0.0 pins @ai-sdk/provider 1.0.0, below the installed 1.2.0"},
			},
		},
		{
			// next depends on postcss 8.4.31 exactly; npm nests that copy
			// under next and the repository keeps its own 8.4.38.
			name: "a plain dependency pinning another scope's package is its own copy, never a conflict",
			p: merge(react, registry(
				pk("next",
					v("14.2.3", dep("postcss", "8.4.31"), dep("@next/env", "14.2.3"), peer("react", "^18.2.0"), peer("react-dom", "^18.2.0")),
					v("15.5.29", dep("postcss", "8.4.31"), dep("@next/env", "15.5.29"), peer("react", "^18.2.0 || ^19.0.0"), peer("react-dom", "^18.2.0 || ^19.0.0")),
					v("16.0.0", dep("postcss", "8.5.6"), dep("@next/env", "16.0.0"), peer("react", "^18.2.0 || ^19.0.0"), peer("react-dom", "^18.2.0 || ^19.0.0"))),
				pk("postcss", v("8.4.31"), v("8.4.38"), v("8.5.6")))),
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "."},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "next", Installed: "14.2.3", Workspace: "."},
				{Name: "postcss", Installed: "8.4.38", Workspace: "."},
				{Name: "react-dom", Installed: "18.3.1", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "next", From: "14.2.3", To: "15.5.29", Why: "accepts react 19.0.0 (peer ^18.2.0 || ^19.0.0); crosses a major: no 14.x accepts react 19.0.0"},
				{Name: "react-dom", From: "18.3.1", To: "19.0.0", Why: "released in lockstep (19.0.0 peer-requires react ^19.0.0)"},
			},
		},
		{
			// The storybook 8 family: @storybook/react 8.6 pins the
			// manager-api it ships with; addon-essentials 8.0 pinned its
			// own, 8.6 no longer depends on it at all.
			name: "a release that stopped depending on a shared pin agrees with it",
			p: merge(react, registry(
				pk("@storybook/react",
					v("8.0.9", dep("@storybook/manager-api", "8.0.9"), dep("@storybook/preview-api", "8.0.9"), peer("react", "^16.8.0 || ^17.0.0 || ^18.0.0")),
					v("8.6.19", dep("@storybook/manager-api", "8.6.19"), dep("@storybook/preview-api", "8.6.19"), peer("react", "^16.8.0 || ^17.0.0 || ^18.0.0 || ^19.0.0-beta"), peer("storybook", "^8.6.19"))),
				pk("@storybook/addon-essentials",
					v("8.0.9", dep("@storybook/manager-api", "8.0.9"), dep("@storybook/preview-api", "8.0.9"), dep("@storybook/addon-actions", "8.0.9")),
					v("8.6.18", dep("@storybook/addon-actions", "8.6.18"), peer("storybook", "^8.6.18")),
					v("8.6.19", dep("@storybook/addon-actions", "8.6.19"), peer("storybook", "^8.6.19"))),
				pk("@storybook/addon-links",
					v("8.0.9", dep("@storybook/preview-api", "8.0.9")),
					v("8.6.19", dep("@storybook/preview-api", "^8.6.0"), peer("storybook", "^8.6.19"))),
				pk("storybook", v("8.0.9"), v("8.6.19")))),
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "."},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "@storybook/react", Installed: "8.0.9", Workspace: "."},
				{Name: "@storybook/addon-essentials", Installed: "8.0.9", Workspace: "."},
				{Name: "@storybook/addon-links", Installed: "8.0.9", Workspace: "."},
				{Name: "storybook", Installed: "8.0.9", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "@storybook/addon-essentials", From: "8.0.9", To: "8.6.19", Why: "no longer depends on @storybook/manager-api, which @storybook/react 8.6.19 pins at 8.6.19"},
				{Name: "@storybook/addon-links", From: "8.0.9", To: "8.6.19", Why: "accepts @storybook/preview-api 8.6.19 like @storybook/react 8.6.19 (dependency ^8.6.0)"},
				{Name: "@storybook/react", From: "8.0.9", To: "8.6.19", Why: "accepts react 19.0.0 (peer ^16.8.0 || ^17.0.0 || ^18.0.0 || ^19.0.0-beta)"},
				{Name: "storybook", From: "8.0.9", To: "8.6.19", Why: "@storybook/react 8.6.19 peer-requires storybook ^8.6.19"},
			},
		},
		{
			name: "an exact accepting range reads as a pin",
			p: registry(
				pk("@bull-board/api", v("5.21.0"), v("6.0.0"), v("6.3.0")),
				pk("@bull-board/express",
					v("5.21.0", dep("@bull-board/api", "5.21.0")),
					v("6.3.0", dep("@bull-board/api", "6.3.0")))),
			target: Dep{Name: "@bull-board/api", Installed: "6.0.0", Workspace: "."},
			to:     "6.3.0",
			candidates: []Dep{
				{Name: "@bull-board/express", Installed: "5.21.0", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "@bull-board/express", From: "5.21.0", To: "6.3.0", Why: "released in lockstep (6.3.0 depends on @bull-board/api 6.3.0)"},
			},
		},
		{
			name:   "the target's new peer range pulls the peer along",
			p:      react,
			target: Dep{Name: "react-dom", Installed: "18.3.1", Workspace: "."},
			to:     "19.1.0",
			candidates: []Dep{
				{Name: "react", Installed: "18.3.1", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "react", From: "18.3.1", To: "19.1.0", Why: "react-dom 19.1.0 peer-requires react ^19.1.0; crosses a major: no 18.x satisfies ^19.1.0"},
			},
		},
		{
			name: "releases above latest, deprecated ones and prereleases are passed over",
			p: merge(react, registry(tagged(pk("@testing-library/react",
				v("14.3.1", peer("react", "^18.0.0")),
				v("15.0.0", peer("react", "^18.0.0 || ^19.0.0")),
				v("15.0.1", peer("react", "^18.0.0 || ^19.0.0"), deprecated("broken build")),
				v("16.0.0-beta.1", peer("react", "^19.0.0")),
				v("16.0.0", peer("react", "^19.0.0"))), "latest", "15.0.1"))),
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "."},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "@testing-library/react", Installed: "14.3.1", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "@testing-library/react", From: "14.3.1", To: "15.0.0", Why: "accepts react 19.0.0 (peer ^18.0.0 || ^19.0.0); crosses a major: no 14.x accepts react 19.0.0"},
			},
		},
		{
			name: "a newer release that no longer depends on the target",
			p: merge(react, registry(pk("react-helmet",
				v("5.0.0", peer("react", "^16 || ^17 || ^18")),
				v("6.0.0")))),
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "."},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "react-helmet", Installed: "5.0.0", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "react-helmet", From: "5.0.0", To: "6.0.0", Why: "no longer peer-requires react; crosses a major: no 5.x accepts react 19.0.0"},
			},
		},
		{
			name:   "visibility: the root is visible from a workspace, a sibling is not",
			p:      react,
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "packages/web"},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "react", Installed: "18.3.1", Workspace: "packages/web"},
				{Name: "react-dom", Installed: "18.3.1", Workspace: "packages/web"},
				{Name: "@types/react", Installed: "18.3.12", Workspace: "."},
				{Name: "@types/react-dom", Installed: "18.3.5", Workspace: "packages/admin"},
				{Name: "@testing-library/react", Installed: "14.3.1", Workspace: "packages/web-tests"},
			},
			companions: []model.Companion{
				{Name: "@types/react", From: "18.3.12", To: "19.0.8", Why: "types of react, newest at 19.0"},
				{Name: "react-dom", From: "18.3.1", To: "19.0.0", Why: "released in lockstep (19.0.0 peer-requires react ^19.0.0)"},
			},
		},
		{
			name:   "visibility: the nearest declaration wins, one entry for many workspaces",
			p:      react,
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "apps/web"},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "react-dom", Installed: "18.2.0", Workspace: "."},
				{Name: "react-dom", Installed: "18.3.1", Workspace: "apps/web"},
				{Name: "@types/react", Installed: "18.3.12", Workspace: "."},
				{Name: "@types/react", Installed: "18.3.12", Workspace: "apps"},
			},
			companions: []model.Companion{
				{Name: "@types/react", From: "18.3.12", To: "19.0.8", Why: "types of react, newest at 19.0"},
				{Name: "react-dom", From: "18.3.1", To: "19.0.0", Why: "released in lockstep (19.0.0 peer-requires react ^19.0.0)"},
			},
		},
		{
			name:   "a types package follows the package it types only where it sees it",
			p:      react,
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "apps/web"},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "react-dom", Installed: "18.3.1", Workspace: "apps/web"},
				{Name: "@types/react-dom", Installed: "18.3.1", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "@types/react-dom", From: "18.3.1", To: "19.0.4", Why: "types of react-dom, newest at 19.0"},
				{Name: "react-dom", From: "18.3.1", To: "19.0.0", Why: "released in lockstep (19.0.0 peer-requires react ^19.0.0)"},
			},
		},
		{
			// c moves one level deeper (with b) than @types/a, which
			// @types/c's manifest names: on its own manifest @types/c would
			// take 2.1.0, but it waits for c and types 2.0.
			name: "a types package waits for the package it types",
			p: registry(
				pk("a", v("1.0.0"), v("2.0.0")),
				pk("@types/a", v("1.0.0"), v("2.0.0"), v("2.1.0")),
				pk("b", v("1.0.0", peer("a", "^1.0.0")), v("2.0.0", peer("a", "^2.0.0"))),
				pk("c", v("1.0.0", peer("b", "^1.0.0")), v("2.0.0", peer("b", "^2.0.0")), v("2.1.0", peer("b", "^2.0.0"))),
				pk("@types/c",
					v("1.0.0", peer("@types/a", "^1.0.0")),
					v("2.0.0", peer("@types/a", "^2.0.0")),
					v("2.1.0", peer("@types/a", "^2.0.0")))),
			target: Dep{Name: "a", Installed: "1.0.0", Workspace: "."},
			to:     "2.0.0",
			candidates: []Dep{
				{Name: "b", Installed: "1.0.0", Workspace: "."},
				{Name: "c", Installed: "1.0.0", Workspace: "."},
				{Name: "@types/a", Installed: "1.0.0", Workspace: "."},
				{Name: "@types/c", Installed: "1.0.0", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "@types/a", From: "1.0.0", To: "2.0.0", Why: "types of a, newest at 2.0"},
				{Name: "@types/c", From: "1.0.0", To: "2.0.0", Why: "types of c, newest at 2.0"},
				{Name: "b", From: "1.0.0", To: "2.0.0", Why: "released in lockstep (2.0.0 peer-requires a ^2.0.0)"},
				{Name: "c", From: "1.0.0", To: "2.0.0", Why: "released in lockstep (2.0.0 peer-requires b ^2.0.0)"},
			},
		},
		{
			name: "a types package whose package stays put follows its own manifest",
			p: merge(react, registry(
				pk("react-select", v("5.8.0", peer("react", "^16.8.0 || ^17.0.0 || ^18.0.0 || ^19.0.0"))),
				pk("@types/react-select",
					v("5.0.0", peer("@types/react", "^18.0.0")),
					v("5.0.3", peer("@types/react", "^18.0.0 || ^19.0.0"))))),
			target: Dep{Name: "react", Installed: "18.3.1", Workspace: "."},
			to:     "19.0.0",
			candidates: []Dep{
				{Name: "@types/react", Installed: "18.3.12", Workspace: "."},
				{Name: "@types/react-select", Installed: "5.0.0", Workspace: "."},
				{Name: "react-select", Installed: "5.8.0", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "@types/react", From: "18.3.12", To: "19.0.8", Why: "types of react, newest at 19.0"},
				{Name: "@types/react-select", From: "5.0.0", To: "5.0.3", Why: "accepts @types/react 19.0.8 (peer ^18.0.0 || ^19.0.0)"},
			},
		},
		{
			name:   "no packument for a candidate: only the target's own manifest speaks",
			p:      registry(pk("@ai-sdk/openai", v("0.0.66"), v("1.0.0", dep("@ai-sdk/provider", "1.0.0")))),
			target: Dep{Name: "@ai-sdk/openai", Installed: "0.0.66", Workspace: "."},
			to:     "1.0.0",
			candidates: []Dep{
				{Name: "@ai-sdk/provider", Installed: "0.0.26", Workspace: "."},
				{Name: "@ai-sdk/react", Installed: "0.0.70", Workspace: "."},
			},
			companions: []model.Companion{
				{Name: "@ai-sdk/provider", From: "0.0.26", To: "1.0.0", Why: "pinned by @ai-sdk/openai 1.0.0"},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Companions(c.target, c.to, c.candidates, c.p)
			want := model.CompanionPlan{Name: c.target.Name, From: c.target.Installed, To: c.to,
				Companions: orEmpty(c.companions), Conflicts: orEmpty(c.conflicts)}
			ruleReasons(t, got.Companions)
			if d := cmp.Diff(want, got, noReason); d != "" {
				t.Errorf("plan (-want +got):\n%s", d)
			}
		})
	}
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func TestCompanionsIsDeterministic(t *testing.T) {
	p := merge(reactRegistry(), aiRegistry())
	cands := []Dep{
		{Name: "react-dom", Installed: "18.3.1", Workspace: "."},
		{Name: "@types/react", Installed: "18.3.12", Workspace: "."},
		{Name: "@types/react-dom", Installed: "18.3.5", Workspace: "."},
		{Name: "@ai-sdk/react", Installed: "0.0.70", Workspace: "."},
		{Name: "@testing-library/react", Installed: "14.3.1", Workspace: "."},
	}
	first := Companions(Dep{Name: "react", Installed: "18.3.1", Workspace: "."}, "19.0.0", cands, p)
	for i := 0; i < 20; i++ {
		rev := make([]Dep, len(cands))
		for j := range cands {
			rev[len(cands)-1-j] = cands[(j+i)%len(cands)]
		}
		if d := cmp.Diff(first, Companions(Dep{Name: "react", Installed: "18.3.1", Workspace: "."}, "19.0.0", rev, p)); d != "" {
			t.Fatalf("input order changed the plan:\n%s", d)
		}
	}
}

// Issue 23 item 10: a target that ships its own declarations makes its
// @types package a removal, not a move to a stub or to a release typing
// an older major. DefinitelyTyped marks it with a stub: a deprecated one
// (@types/bcryptjs 3.0.0, @types/config 4.4.0) or, before deprecations,
// one depending on the package it types (@types/pino 7.0.5).
func TestCompanionsRemoveTypesATargetShipsItself(t *testing.T) {
	stub := func(pkg string) opt {
		return deprecated("This is a stub types definition. " + pkg + " provides its own type definitions, so you do not need this installed.")
	}
	p := registry(
		pk("bcryptjs", v("2.4.3"), v("3.0.3")),
		pk("@types/bcryptjs", v("2.4.2"), v("2.4.6"), v("3.0.0", stub("bcryptjs"))),
		pk("config", v("3.3.12"), v("4.3.0"), v("5.0.1")),
		pk("@types/config", v("0.0.39"), v("3.3.5"), v("4.4.0", stub("config"))),
		pk("pino", v("6.14.0"), v("10.4.0")),
		pk("@types/pino", v("6.3.12"), v("7.0.5", dep("pino", "*"))),
	)
	for _, tc := range []struct {
		name, pkg, from, to, types, installed string
		want                                  model.Companion
	}{
		{"a deprecated stub", "bcryptjs", "2.4.3", "3.0.3", "@types/bcryptjs", "2.4.6",
			model.Companion{Name: "@types/bcryptjs", From: "2.4.6", Why: "bcryptjs 3.0.3 ships its own types", Remove: true}},
		{"a stub below the target's major", "config", "3.3.12", "5.0.1", "@types/config", "0.0.39",
			model.Companion{Name: "@types/config", From: "0.0.39", Why: "config 5.0.1 ships its own types", Remove: true}},
		{"an old stub that depends on its package", "pino", "6.14.0", "10.4.0", "@types/pino", "6.3.12",
			model.Companion{Name: "@types/pino", From: "6.3.12", Why: "pino 10.4.0 ships its own types", Remove: true}},
		{"below the stub's version the types move", "config", "3.3.12", "4.3.0", "@types/config", "0.0.39",
			model.Companion{Name: "@types/config", From: "0.0.39", To: "3.3.5", Why: "types of config, newest release"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Companions(Dep{Name: tc.pkg, Installed: tc.from, Workspace: "."}, tc.to,
				[]Dep{{Name: tc.types, Installed: tc.installed, Workspace: "."}}, p)
			ruleReasons(t, got.Companions)
			if d := cmp.Diff([]model.Companion{tc.want}, got.Companions, noReason); d != "" || len(got.Conflicts) > 0 {
				t.Errorf("companions (-want +got):\n%s\nconflicts %+v", d, got.Conflicts)
			}
		})
	}
	if from := OwnTypesFrom(p["@types/pino"]); from != "7.0.5" {
		t.Errorf("OwnTypesFrom(@types/pino) = %q, want 7.0.5", from)
	}
	if v, _ := TypesRelease(p["@types/pino"], "10.4.0", "6.3.12"); v != "" {
		t.Errorf("TypesRelease picked the stub %s", v)
	}
}
