package discover

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/uptide/uptide/engine/model"
)

// Picking a target on a release group's lead moves its members to the
// release that goes with it, and the companions and commands follow.
func TestPlanTargetMovesTheGroup(t *testing.T) {
	rep, _, client := discoverDemoClient(t, false, nil)
	rowOf := func(pkg string) model.DependencyRow {
		for _, r := range rep.Rows {
			if r.Package == pkg {
				return r
			}
		}
		t.Fatalf("no row of %s in %+v", pkg, rep.Rows)
		return model.DependencyRow{}
	}
	for _, tc := range []struct {
		name, pkg, target string
		members           []string // name@to of each member
		companions        []string
		conflicts         []string
		check             string
	}{
		{
			// @ai-sdk/react 1.0.0 accepts react ~19.0.0: the conflict-free target.
			name: "react to 19.0.0 takes react-dom, the types and @ai-sdk/react 1.0.0",
			pkg:  "react", target: "19.0.0",
			members:    []string{"react-dom@19.0.0"},
			companions: []string{"@ai-sdk/react@1.0.0", "@types/react@19.0.0", "@types/react-dom@19.0.1"},
			check:      "uptide check react --target react@19.0.0 --target react-dom@19.0.0 --group --details",
		},
		{
			name: "react to 19.1.0 conflicts: no @ai-sdk/react accepts it",
			pkg:  "react", target: "19.1.0",
			members:    []string{"react-dom@19.1.0"},
			companions: []string{"@types/react@19.1.2", "@types/react-dom@19.1.1"},
			conflicts:  []string{"@ai-sdk/react"},
			check:      "uptide check react --target react@19.1.0 --target react-dom@19.1.0 --group --details",
		},
		{
			// zod, which ai 4.0.0 peer-requires ^3.23.8, is its companion.
			name: "ai to 4.0.0 moves the providers, and zod as a companion",
			pkg:  "ai", target: "4.0.0",
			members:    []string{"@ai-sdk/openai@1.0.0"},
			companions: []string{"zod@3.25.76"},
			check:      "uptide check ai --target ai@4.0.0 --target @ai-sdk/openai@1.0.0 --group --details",
		},
		{
			name: "@aws-sdk/client-s3 to 3.600.0 takes the presigner's same release",
			pkg:  "@aws-sdk/client-s3", target: "3.600.0",
			members:    []string{"@aws-sdk/s3-request-presigner@3.600.0"},
			companions: []string{},
			check:      "uptide check @aws-sdk/client-s3 --target @aws-sdk/client-s3@3.600.0 --target @aws-sdk/s3-request-presigner@3.600.0 --details",
		},
		{
			name: "a lead that stays keeps its group",
			pkg:  "react", target: rowOf("react").Installed,
			members:    []string{"react-dom@" + rowOf("react-dom").Installed},
			companions: []string{},
			check:      "uptide check react --target react@" + rowOf("react").Installed + " --details",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			row := rowOf(tc.pkg)
			if row.Group == "" {
				t.Fatalf("%s has no group in the demo: %+v", tc.pkg, rep.Groups)
			}
			tp, err := PlanTarget(context.Background(), PlanTargetOptions{Report: rep, Client: client}, row, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			var members, companions []string
			for _, m := range tp.Members {
				members = append(members, m.Name+"@"+m.To)
			}
			companions = []string{}
			for _, c := range tp.Companions.Companions {
				companions = append(companions, c.Name+"@"+c.To)
			}
			if diff := cmp.Diff(tc.members, members); diff != "" {
				t.Errorf("members (-want +got):\n%s\n%+v", diff, tp.Members)
			}
			if diff := cmp.Diff(tc.companions, companions); diff != "" {
				t.Errorf("companions (-want +got):\n%s\n%+v", diff, tp.Companions)
			}
			var conflicts []string
			for _, c := range append(append([]model.Conflict{}, tp.MemberConflicts...), tp.Companions.Conflicts...) {
				conflicts = append(conflicts, c.Name)
			}
			if diff := cmp.Diff(tc.conflicts, conflicts); diff != "" {
				t.Errorf("conflicts (-want +got):\n%s", diff)
			}
			// A conflict stops fix, so its command is offered only without one.
			want := []string{tc.check}
			if len(tc.conflicts) == 0 {
				want = append(want, strings.Replace(strings.Replace(tc.check, "uptide check", "uptide fix", 1), " --details", "", 1))
			}
			if diff := cmp.Diff(want, tp.Next); diff != "" {
				t.Errorf("next (-want +got):\n%s", diff)
			}
			if tp.Group != row.Group {
				t.Errorf("group %q, want %q", tp.Group, row.Group)
			}
		})
	}
}

func TestPlanTargetErrors(t *testing.T) {
	rep, _, client := discoverDemoClient(t, false, nil)
	if _, err := PlanTarget(context.Background(), PlanTargetOptions{Client: client}, model.DependencyRow{Name: "x"}, "1.0.0"); err == nil {
		t.Error("a plan without a discovery succeeded")
	}
	if _, err := PlanTarget(context.Background(), PlanTargetOptions{Report: rep, Client: client}, model.DependencyRow{Name: "x", Package: "x", Workspaces: []string{"."}}, "1.0.0"); err == nil {
		t.Error("a plan of a row with no installed version succeeded")
	}
}

func TestNextCommandsNameMovingMembersOnly(t *testing.T) {
	got := NextCommands("", "react", "19.0.0", []model.Companion{
		{Name: "react-dom", From: "18.2.0", To: "19.0.0"}, {Name: "scheduler", From: "0.23.0", To: "0.23.0"},
	}, false)
	want := []string{
		"uptide check react --target react@19.0.0 --target react-dom@19.0.0 --group --details",
		"uptide fix react --target react@19.0.0 --target react-dom@19.0.0 --group",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// fix refuses a companion plan with a conflict: only check is offered.
	got = NextCommands("", "react", "19.0.0", []model.Companion{{Name: "react-dom", From: "18.2.0", To: "19.0.0"}}, true)
	if diff := cmp.Diff(want[:1], got); diff != "" {
		t.Errorf("with a conflict (-want +got):\n%s", diff)
	}
}
