package groups

import (
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

func awsRegistry() Packuments {
	return registry(
		pk("@aws-sdk/client-s3", v("3.500.0", dep("@aws-sdk/core", "3.496.0"), dep("@aws-sdk/types", "3.496.0"), dep("@smithy/types", "^2.9.1"))),
		pk("@aws-sdk/s3-request-presigner", v("3.500.0", dep("@aws-sdk/core", "3.496.0"), dep("@aws-sdk/types", "3.496.0"))),
		pk("@aws-sdk/client-dynamodb", v("3.500.0", dep("@aws-sdk/core", "3.496.0"))),
		pk("@smithy/node-http-handler", v("2.3.1", dep("@smithy/types", "^2.9.1"))),
	)
}

func TestReleaseGroups(t *testing.T) {
	cases := []struct {
		name string
		p    Packuments
		deps []Dep
		want []model.Group
	}{
		{
			name: "one scope on one major sharing a scope package that is not a direct dependency",
			p:    awsRegistry(),
			deps: []Dep{
				{Name: "@aws-sdk/client-s3", Installed: "3.500.0", Workspace: "."},
				{Name: "@aws-sdk/s3-request-presigner", Installed: "3.500.0", Workspace: "."},
				{Name: "@aws-sdk/client-dynamodb", Installed: "3.500.0", Workspace: "packages/api"},
				{Name: "@smithy/node-http-handler", Installed: "2.3.1", Workspace: "."},
			},
			want: []model.Group{{
				Title:      "@aws-sdk/* (3 packages)",
				Kind:       model.GroupFamily,
				Members:    []string{"@aws-sdk/client-dynamodb", "@aws-sdk/client-s3", "@aws-sdk/s3-request-presigner"},
				Versions:   []string{"3.500.0", "3.500.0", "3.500.0"},
				Workspaces: []string{".", "packages/api"},
				Why:        "same scope, major 3, share @aws-sdk/core",
			}},
		},
		{
			name: "one member in two workspaces at one version is one member",
			p:    awsRegistry(),
			deps: []Dep{
				{Name: "@aws-sdk/client-s3", Installed: "3.500.0", Workspace: "packages/api"},
				{Name: "@aws-sdk/client-s3", Installed: "3.500.0", Workspace: "packages/worker"},
				{Name: "@aws-sdk/s3-request-presigner", Installed: "3.500.0", Workspace: "packages/api"},
			},
			want: []model.Group{{
				Title:      "@aws-sdk/* (2 packages)",
				Kind:       model.GroupFamily,
				Members:    []string{"@aws-sdk/client-s3", "@aws-sdk/s3-request-presigner"},
				Versions:   []string{"3.500.0", "3.500.0"},
				Workspaces: []string{"packages/api", "packages/worker"},
				Why:        "same scope, major 3, share @aws-sdk/core",
			}},
		},
		{
			name: "one scope on one major, one depending on the other",
			p: registry(
				pk("@tanstack/react-query", v("5.62.0", dep("@tanstack/query-core", "5.62.0"))),
				pk("@tanstack/react-query-devtools", v("5.62.0", peer("@tanstack/react-query", "^5.62.0"), dep("@tanstack/query-devtools", "5.61.4"))),
			),
			deps: []Dep{
				{Name: "@tanstack/react-query", Installed: "5.62.0", Workspace: "."},
				{Name: "@tanstack/react-query-devtools", Installed: "5.62.0", Workspace: "."},
			},
			want: []model.Group{{
				Title:      "@tanstack/* (2 packages)",
				Kind:       model.GroupFamily,
				Members:    []string{"@tanstack/react-query", "@tanstack/react-query-devtools"},
				Versions:   []string{"5.62.0", "5.62.0"},
				Workspaces: []string{"."},
				Why:        "same scope, major 5, @tanstack/react-query-devtools peer-requires @tanstack/react-query",
			}},
		},
		{
			name: "different majors in one scope sharing a package are not a group",
			p: registry(
				pk("@acme/ui", v("1.4.0", dep("@acme/tokens", "^1.0.0"))),
				pk("@acme/charts", v("2.0.1", dep("@acme/tokens", "^1.0.0"))),
			),
			deps: []Dep{
				{Name: "@acme/ui", Installed: "1.4.0", Workspace: "."},
				{Name: "@acme/charts", Installed: "2.0.1", Workspace: "."},
			},
			want: []model.Group{},
		},
		{
			// ghostfolio: both accept any @nestjs/common 10 or 11; they
			// are released apart, whatever their majors.
			name: "one scope on one major accepting the same package with a range is not a group",
			p: registry(
				pk("@nestjs/schedule", v("6.0.1", peer("@nestjs/common", "^10.0.0 || ^11.0.0"), peer("@nestjs/core", "^10.0.0 || ^11.0.0"))),
				pk("@nestjs/throttler", v("6.4.0", peer("@nestjs/common", "^7.0.0 || ^8.0.0 || ^9.0.0 || ^10.0.0 || ^11.0.0"), peer("@nestjs/core", "^7.0.0 || ^8.0.0 || ^9.0.0 || ^10.0.0 || ^11.0.0"))),
			),
			deps: []Dep{
				{Name: "@nestjs/schedule", Installed: "6.0.1", Workspace: "."},
				{Name: "@nestjs/throttler", Installed: "6.4.0", Workspace: "."},
			},
			want: []model.Group{},
		},
		{
			name: "an explicit dependency joins one scope across majors",
			p: registry(
				pk("@bull-board/api", v("5.21.0"), v("6.0.0")),
				pk("@bull-board/express", v("5.21.0", dep("@bull-board/api", "5.21.0"), dep("@bull-board/ui", "5.21.0"))),
			),
			deps: []Dep{
				{Name: "@bull-board/express", Installed: "5.21.0", Workspace: "."},
				{Name: "@bull-board/api", Installed: "6.0.0", Workspace: "."},
			},
			want: []model.Group{{
				Title:      "@bull-board/* (2 packages)",
				Kind:       model.GroupExplicit,
				Members:    []string{"@bull-board/api", "@bull-board/express"},
				Versions:   []string{"6.0.0", "5.21.0"},
				Workspaces: []string{"."},
				Why:        "@bull-board/express 5.21.0 depends on @bull-board/api 5.21.0 (6.0.0 installed)",
			}},
		},
		{
			name: "ai and an @ai-sdk provider pin the same provider",
			p:    aiRegistry(),
			deps: []Dep{
				{Name: "ai", Installed: "3.4.0", Workspace: "."},
				{Name: "@ai-sdk/openai", Installed: "0.0.66", Workspace: "."},
				{Name: "zod", Installed: "3.23.8", Workspace: "."},
			},
			want: []model.Group{{
				Title:      "ai (2 packages)",
				Kind:       model.GroupSharedPin,
				Members:    []string{"ai", "@ai-sdk/openai"},
				Versions:   []string{"3.4.0", "0.0.66"},
				Workspaces: []string{"."},
				Why:        "both pin @ai-sdk/provider 0.0.26 exactly",
			}},
		},
		{
			name: "ai leads three packages, one of them linked by a shared pin only with ai",
			p:    aiRegistry(),
			deps: []Dep{
				{Name: "ai", Installed: "3.4.0", Workspace: "."},
				{Name: "@ai-sdk/openai", Installed: "0.0.66", Workspace: "."},
				{Name: "@ai-sdk/react", Installed: "0.0.70", Workspace: "."},
			},
			want: []model.Group{{
				Title:      "ai (3 packages)",
				Kind:       model.GroupSharedPin,
				Members:    []string{"ai", "@ai-sdk/openai", "@ai-sdk/react"},
				Versions:   []string{"3.4.0", "0.0.66", "0.0.70"},
				Workspaces: []string{"."},
				Why:        "all 3 pin @ai-sdk/provider-utils 1.0.20 exactly",
			}},
		},
		{
			name: "strangers pinning one utility are not a group",
			p: registry(
				pk("left", v("1.0.0", dep("lodash", "4.17.21"), dep("@babel/runtime", "7.24.0"))),
				pk("right", v("2.0.0", dep("lodash", "4.17.21"), dep("@babel/runtime", "7.24.0"))),
			),
			deps: []Dep{
				{Name: "left", Installed: "1.0.0", Workspace: "."},
				{Name: "right", Installed: "2.0.0", Workspace: "."},
			},
			want: []model.Group{},
		},
		{
			name: "a target's peer range that needs the other joins across scopes",
			p:    reactRegistry(),
			deps: []Dep{
				{Name: "react", Installed: "18.3.1", Workspace: "."},
				{Name: "react-dom", Installed: "18.3.1", Workspace: "."},
				{Name: "@testing-library/react", Installed: "16.1.0", Workspace: "."},
				{Name: "@types/react", Installed: "18.3.12", Workspace: "."},
				{Name: "@types/react-dom", Installed: "18.3.5", Workspace: "."},
			},
			want: []model.Group{{
				Title:      "react (2 packages)",
				Kind:       model.GroupPeer,
				Members:    []string{"react", "react-dom"},
				Versions:   []string{"18.3.1", "18.3.1"},
				Workspaces: []string{"."},
				Why:        "react-dom 19.1.0 peer-requires react ^19.1.0",
			}},
		},
		{
			name: "the peer link reads the target the caller gives",
			p:    reactRegistry(),
			deps: []Dep{
				{Name: "react", Installed: "18.3.1", Workspace: ".", Target: "19.0.0"},
				{Name: "react-dom", Installed: "18.3.1", Workspace: ".", Target: "19.0.0"},
			},
			want: []model.Group{{
				Title:      "react (2 packages)",
				Kind:       model.GroupPeer,
				Members:    []string{"react", "react-dom"},
				Versions:   []string{"18.3.1", "18.3.1"},
				Workspaces: []string{"."},
				Why:        "react-dom 19.0.0 peer-requires react ^19.0.0",
			}},
		},
		{
			name: "up to date, the peer range is met and nothing links",
			p:    reactRegistry(),
			deps: []Dep{
				{Name: "react", Installed: "19.1.0", Workspace: "."},
				{Name: "react-dom", Installed: "19.1.0", Workspace: "."},
			},
			want: []model.Group{},
		},
		{
			name: "packuments missing or versions unknown link nothing and do not fail",
			p:    registry(pk("@aws-sdk/client-s3", v("3.500.0", dep("@aws-sdk/core", "3.496.0")))),
			deps: []Dep{
				{Name: "@aws-sdk/client-s3", Installed: "3.499.0", Workspace: "."},
				{Name: "@aws-sdk/s3-request-presigner", Installed: "3.500.0", Workspace: "."},
				{Name: "mystery", Installed: "", Workspace: "."},
			},
			want: []model.Group{},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ReleaseGroups(c.deps, c.p)
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("groups (-want +got):\n%s", d)
			}
		})
	}
}

func TestReleaseGroupsIsDeterministic(t *testing.T) {
	p := merge(awsRegistry(), aiRegistry(), reactRegistry())
	deps := []Dep{
		{Name: "@aws-sdk/client-s3", Installed: "3.500.0", Workspace: "."},
		{Name: "@aws-sdk/s3-request-presigner", Installed: "3.500.0", Workspace: "apps/api"},
		{Name: "@aws-sdk/client-dynamodb", Installed: "3.500.0", Workspace: "apps/api"},
		{Name: "ai", Installed: "3.4.0", Workspace: "apps/web"},
		{Name: "@ai-sdk/openai", Installed: "0.0.66", Workspace: "apps/web"},
		{Name: "@ai-sdk/react", Installed: "0.0.70", Workspace: "apps/web"},
		{Name: "react", Installed: "18.3.1", Workspace: "apps/web"},
		{Name: "react-dom", Installed: "18.3.1", Workspace: "apps/web"},
		{Name: "zod", Installed: "3.23.8", Workspace: "apps/web"},
	}
	want := ReleaseGroups(deps, p)
	if len(want) != 3 {
		t.Fatalf("want the aws, ai and react groups, got %+v", want)
	}
	rnd := rand.New(rand.NewSource(7))
	for i := 0; i < 50; i++ {
		shuffled := append([]Dep(nil), deps...)
		rnd.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		if d := cmp.Diff(want, ReleaseGroups(shuffled, p)); d != "" {
			t.Fatalf("input order changed the groups:\n%s", d)
		}
	}
}

func TestTypesRelease(t *testing.T) {
	types := pk("@types/node",
		v("18.19.0"), v("18.19.68"), v("20.11.0"), v("20.17.10"), v("22.10.2"),
		v("22.10.3", deprecated("stub")), v("23.0.0-beta.1"))
	cases := []struct {
		name, target, installed, want, how string
	}{
		{"newest at the target's major.minor", "20.11.1", "18.19.0", "20.11.0", "newest at 20.11"},
		{"else newest at its major", "20.5.0", "18.19.0", "20.17.10", "newest at 20"},
		{"else the newest there is, never a deprecated stub or a prerelease", "24.1.0", "18.19.0", "22.10.2", "newest release"},
		{"never below what is installed", "18.19.0", "20.17.10", "", ""},
		{"nothing to do when installed is the pick", "22.10.0", "22.10.2", "", ""},
		{"an invalid target picks nothing", "latest", "18.19.0", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, how := TypesRelease(types, c.target, c.installed)
			if got != c.want || how != c.how {
				t.Errorf("TypesRelease(%s, installed %s) = %q, %q; want %q, %q", c.target, c.installed, got, how, c.want, c.how)
			}
		})
	}
}

func TestTypesName(t *testing.T) {
	for pkg, types := range map[string]string{
		"react": "@types/react", "@babel/core": "@types/babel__core", "node": "@types/node",
	} {
		if got := TypesName(pkg); got != types {
			t.Errorf("TypesName(%q) = %q, want %q", pkg, got, types)
		}
		if got := TypedPackage(types); got != pkg {
			t.Errorf("TypedPackage(%q) = %q, want %q", types, got, pkg)
		}
	}
	for _, notTypes := range []string{"react", "@types/", "@typesx/y", "@babel/core"} {
		if got := TypedPackage(notTypes); got != "" {
			t.Errorf("TypedPackage(%q) = %q, want none", notTypes, got)
		}
	}
}

func TestVisible(t *testing.T) {
	cases := []struct {
		w, from string
		want    bool
	}{
		{".", "packages/web", true},
		{"", "packages/web", true},
		{"packages/web", "packages/web", true},
		{"./packages/web", "packages/web/", true},
		{"packages", "packages/web", true},
		{"packages/admin", "packages/web", false},
		{"packages/web", ".", false},
		{"packages/we", "packages/web", false},
	}
	for _, c := range cases {
		if got := visible(c.w, c.from); got != c.want {
			t.Errorf("visible(%q from %q) = %v, want %v", c.w, c.from, got, c.want)
		}
	}
}

// An nx monorepo with prisma, swc, eslint and tailwind, shaped after the
// real manifests (nx 19.8.4 → 24, @nx/* 19.8.4 → 23.3.1, prisma 5 → 7):
// every tool's next major peer-requires a newer typescript, eslint or swc,
// and @nx/* depend on one another and on nx at their own version.
func nxRegistry() Packuments {
	return registry(
		pk("nx",
			v("19.8.4", dep("@nx/nx-linux-x64-gnu", "19.8.4"), peer("@swc-node/register", "^1.8.0"), peer("@swc/core", "^1.3.85")),
			v("23.3.1", dep("@nx/nx-linux-x64-gnu", "23.3.1"), peer("@swc-node/register", "^1.8.0"), peer("@swc/core", "^1.3.85"), peer("typescript", "^5.8.0 || ^6.0.0")),
			v("24.0.7", dep("@nx/nx-linux-x64-gnu", "24.0.7"), peer("@swc-node/register", "^1.11.1"), peer("@swc/core", "^1.15.8"), peer("typescript", "^5.8.0 || ^6.0.0"))),
		pk("@nx/devkit", v("19.8.4", peer("nx", ">= 19 <= 21")), v("23.3.1", peer("nx", ">= 23 <= 25 || ^24.0.0-0"))),
		pk("@nx/workspace", v("19.8.4", dep("@nx/devkit", "19.8.4"), dep("nx", "19.8.4")), v("23.3.1", dep("@nx/devkit", "23.3.1"), dep("nx", "23.3.1"))),
		pk("@nx/js",
			v("19.8.4", dep("@nx/devkit", "19.8.4"), dep("@nx/workspace", "19.8.4")),
			v("23.3.1", dep("@nx/devkit", "23.3.1"), dep("@nx/workspace", "23.3.1"), peer("@swc/cli", ">=0.6.0 <0.9.0"))),
		pk("@nx/eslint",
			v("19.8.4", dep("@nx/devkit", "19.8.4"), dep("@nx/js", "19.8.4"), peer("eslint", "^8.0.0 || ^9.0.0")),
			v("23.3.1", dep("@nx/devkit", "23.3.1"), dep("@nx/js", "23.3.1"), dep("typescript", "~6.0.3"), peer("eslint", "^9.0.0 || ^10.0.0"))),
		pk("@nx/eslint-plugin",
			v("19.8.4", dep("@nx/devkit", "19.8.4"), dep("@nx/js", "19.8.4"), peer("@typescript-eslint/parser", "^6.13.2 || ^7.0.0 || ^8.0.0"), peer("eslint-config-prettier", "^9.0.0")),
			v("23.3.1", dep("@nx/devkit", "23.3.1"), dep("@nx/js", "23.3.1"), peer("@typescript-eslint/parser", "^8.0.0"), peer("eslint-config-prettier", "^10.0.0"))),
		pk("typescript", v("5.3.3"), v("5.9.3"), v("6.0.3")),
		pk("eslint", v("8.57.1"), v("9.39.1"), v("10.16.0")),
		pk("eslint-config-prettier", v("9.1.0", peer("eslint", ">=7.0.0")), v("10.1.9", peer("eslint", ">=7.0.0"))),
		pk("@typescript-eslint/parser", v("7.18.0", peer("eslint", "^8.56.0")), v("8.46.0", peer("eslint", "^8.57.0 || ^9.0.0"), peer("typescript", ">=4.8.4 <6.0.0"))),
		pk("prisma", v("5.14.0", dep("@prisma/engines", "5.14.0")), v("7.10.1", dep("@prisma/engines", "7.10.1"), peer("typescript", ">=5.4.0"))),
		pk("@prisma/client", v("5.14.0", peer("prisma", "*")), v("7.10.1", peer("prisma", "*"), peer("typescript", ">=5.4.0"))),
		pk("@swc-node/register", v("1.9.2", peer("@swc/core", ">=1.4.13"), peer("typescript", ">=4.3")), v("1.12.1", peer("@swc/core", ">=1.4.13"), peer("typescript", ">=4.3 <7"))),
		pk("@swc/core", v("1.5.29", peer("@swc/helpers", "*")), v("1.16.22", peer("@swc/helpers", ">=0.5.17"))),
		pk("@swc/cli", v("0.3.14", peer("@swc/core", "^1.2.66")), v("0.8.2", peer("@swc/core", "^1.2.66"))),
		pk("@swc/helpers", v("0.5.24"), v("0.5.25")),
		pk("tailwindcss", v("3.4.3"), v("4.1.16")),
		pk("eslint-plugin-tailwindcss", v("3.18.2", peer("tailwindcss", "^3.4.0")), v("4.4.0", peer("eslint", "^9.0.0 || ^10.0.0"), peer("tailwindcss", "^4.0.0"))),
	)
}

// Issue 23 item 11: on that repository list drew "typescript (6 packages)"
// and "eslint (11 packages)" holding every @nx/* package. A group holds the
// packages that must move together: nx with @nx/*, prisma with
// @prisma/client; a tool that merely peer-requires typescript, eslint or
// tailwindcss is their companion, in no group of theirs, and packages of
// one scope on different majors whose ranges accept each other (@swc/cli,
// @swc/core, @swc/helpers) are released apart.
func TestReleaseGroupsAreReleaseTrains(t *testing.T) {
	var deps []Dep
	for _, d := range [][2]string{
		{"nx", "19.8.4"}, {"@nx/devkit", "19.8.4"}, {"@nx/workspace", "19.8.4"}, {"@nx/js", "19.8.4"},
		{"@nx/eslint", "19.8.4"}, {"@nx/eslint-plugin", "19.8.4"},
		{"typescript", "5.3.3"}, {"eslint", "8.57.1"}, {"eslint-config-prettier", "9.1.0"}, {"@typescript-eslint/parser", "7.18.0"},
		{"prisma", "5.14.0"}, {"@prisma/client", "5.14.0"}, {"@swc-node/register", "1.9.2"}, {"@swc/core", "1.5.29"},
		{"@swc/cli", "0.3.14"}, {"@swc/helpers", "0.5.24"},
		{"tailwindcss", "3.4.3"}, {"eslint-plugin-tailwindcss", "3.18.2"},
	} {
		deps = append(deps, Dep{Name: d[0], Installed: d[1], Workspace: "."})
	}
	want := []model.Group{
		{
			Title:      "nx (6 packages)",
			Kind:       model.GroupFamily,
			Members:    []string{"nx", "@nx/devkit", "@nx/eslint", "@nx/eslint-plugin", "@nx/js", "@nx/workspace"},
			Versions:   []string{"19.8.4", "19.8.4", "19.8.4", "19.8.4", "19.8.4", "19.8.4"},
			Workspaces: []string{"."},
			Why:        "same scope, major 19, share @nx/devkit; one family, major 19, @nx/devkit peer-requires nx; one family, major 19, @nx/workspace depends on nx",
		},
		{
			Title:      "prisma (2 packages)",
			Kind:       model.GroupFamily,
			Members:    []string{"prisma", "@prisma/client"},
			Versions:   []string{"5.14.0", "5.14.0"},
			Workspaces: []string{"."},
			Why:        "one family, major 5, @prisma/client peer-requires prisma",
		},
	}
	if d := cmp.Diff(want, ReleaseGroups(deps, nxRegistry())); d != "" {
		t.Errorf("groups (-want +got):\n%s", d)
	}
}

// eslint 8 → 10 on that repository: @nx/eslint 19 refuses eslint 10, so it
// moves to 23, which pins its whole train, nx included (a dependency within
// one family binds like a peer), and nx 23's peer range takes typescript
// along; typescript is not pinned by @nx/eslint 23's own dependency on
// ~6.0.3 (its nested copy), and the tools beside them stay.
func TestCompanionsFollowAReleaseTrain(t *testing.T) {
	var deps []Dep
	for _, d := range [][2]string{
		{"nx", "19.8.4"}, {"@nx/devkit", "19.8.4"}, {"@nx/workspace", "19.8.4"}, {"@nx/js", "19.8.4"}, {"@nx/eslint", "19.8.4"},
		{"typescript", "5.3.3"}, {"eslint-config-prettier", "9.1.0"}, {"tailwindcss", "3.4.3"},
	} {
		deps = append(deps, Dep{Name: d[0], Installed: d[1], Workspace: "."})
	}
	got := Companions(Dep{Name: "eslint", Installed: "8.57.1", Workspace: "."}, "10.16.0", deps, nxRegistry())
	want := []model.Companion{
		{Name: "@nx/devkit", From: "19.8.4", To: "23.3.1", Why: "pinned by @nx/eslint 23.3.1"},
		{Name: "@nx/eslint", From: "19.8.4", To: "23.3.1", Why: "accepts eslint 10.16.0 (peer ^9.0.0 || ^10.0.0); crosses a major: no 19.x accepts eslint 10.16.0"},
		{Name: "@nx/js", From: "19.8.4", To: "23.3.1", Why: "pinned by @nx/eslint 23.3.1"},
		{Name: "@nx/workspace", From: "19.8.4", To: "23.3.1", Why: "pins @nx/devkit 23.3.1 like @nx/eslint 23.3.1; crosses a major: no 19.x pins @nx/devkit 23.3.1"},
		{Name: "nx", From: "19.8.4", To: "23.3.1", Why: "@nx/devkit 23.3.1 peer-requires nx >= 23 <= 25 || ^24.0.0-0; crosses a major: no 19.x satisfies >= 23 <= 25 || ^24.0.0-0"},
		{Name: "typescript", From: "5.3.3", To: "5.9.3", Why: "nx 23.3.1 peer-requires typescript ^5.8.0 || ^6.0.0"},
	}
	ruleReasons(t, got.Companions)
	if d := cmp.Diff(want, got.Companions, noReason); d != "" || len(got.Conflicts) > 0 {
		t.Errorf("companions (-want +got):\n%s\nconflicts %+v", d, got.Conflicts)
	}
}

// Without @nx/devkit among the dependencies, only @nx/workspace's own
// dependency on nx ties nx to the train: one family, so it binds.
func TestCompanionsPinTheFamilyNamesake(t *testing.T) {
	deps := []Dep{
		{Name: "nx", Installed: "19.8.4", Workspace: "."},
		{Name: "@nx/workspace", Installed: "19.8.4", Workspace: "."},
	}
	got := Companions(Dep{Name: "@nx/js", Installed: "19.8.4", Workspace: "."}, "23.3.1", deps, nxRegistry())
	want := []model.Companion{
		{Name: "@nx/workspace", From: "19.8.4", To: "23.3.1", Why: "pinned by @nx/js 23.3.1"},
		{Name: "nx", From: "19.8.4", To: "23.3.1", Why: "pinned by @nx/workspace 23.3.1"},
	}
	ruleReasons(t, got.Companions)
	if d := cmp.Diff(want, got.Companions, noReason); d != "" || len(got.Conflicts) > 0 {
		t.Errorf("companions (-want +got):\n%s\nconflicts %+v", d, got.Conflicts)
	}
}
