package plan

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNext(t *testing.T) {
	tests := []struct {
		name     string
		repo     Repo
		pkg, tgt string
		members  []Target
		want     []string
	}{
		{
			name: "one package", pkg: "react", tgt: "19.3.1",
			want: []string{
				"uptide check react --target react@19.3.1 --details",
				"uptide fix react --target react@19.3.1",
			},
		},
		{
			name: "group members sorted, lead first, duplicates dropped",
			pkg:  "@aws-sdk/client-s3", tgt: "3.1175.0",
			members: []Target{
				{"@aws-sdk/s3-request-presigner", "3.1175.0"},
				{"@aws-sdk/client-s3", "3.1175.0"},
				{"@aws-sdk/lib-storage", "3.1175.0"},
				{"@aws-sdk/lib-storage", "3.1175.0"},
				{"", "1.0.0"},
			},
			want: []string{
				"uptide check @aws-sdk/client-s3 --target @aws-sdk/client-s3@3.1175.0 --target @aws-sdk/lib-storage@3.1175.0 --target @aws-sdk/s3-request-presigner@3.1175.0 --details",
				"uptide fix @aws-sdk/client-s3 --target @aws-sdk/client-s3@3.1175.0 --target @aws-sdk/lib-storage@3.1175.0 --target @aws-sdk/s3-request-presigner@3.1175.0",
			},
		},
		{
			name: "cwd quoted when needed",
			repo: Repo{Cwd: "../my app's repo"}, pkg: "zod", tgt: "4.1.12",
			want: []string{
				`uptide check --cwd '../my app'\''s repo' zod --target zod@4.1.12 --details`,
				`uptide fix --cwd '../my app'\''s repo' zod --target zod@4.1.12`,
			},
		},
		{
			name: "plain cwd", repo: Repo{Cwd: "apps/web"}, pkg: "zod", tgt: "4.1.12",
			want: []string{
				"uptide check --cwd apps/web zod --target zod@4.1.12 --details",
				"uptide fix --cwd apps/web zod --target zod@4.1.12",
			},
		},
		{
			name: "a companion conflict: fix would refuse, only check", repo: Repo{Conflict: true}, pkg: "react", tgt: "19.3.1",
			want: []string{"uptide check react --target react@19.3.1 --details"},
		},
		{name: "no target", pkg: "zod", want: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Next(tt.repo, tt.pkg, tt.tgt, tt.members)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
