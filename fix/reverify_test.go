package fix

import (
	"reflect"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// verify compiles the workspaces holding a file the branch changes, the
// deepest one a file is in; a changed lockfile can move any workspace's
// dependencies, so then every workspace.
func TestChangedWorkspaces(t *testing.T) {
	repository := &model.Repository{Workspaces: []model.Workspace{{Path: "."}, {Path: "packages/web"}, {Path: "packages/api"}, {Path: "packages/web-kit"}}}
	for _, c := range []struct {
		changed []string
		want    []string
	}{
		{[]string{"packages/web/src/a.ts"}, []string{"packages/web"}},
		{[]string{"packages/web-kit/index.ts", "packages/api/package.json"}, []string{"packages/api", "packages/web-kit"}},
		{[]string{"README.md"}, []string{"."}},
		{[]string{"packages/web/src/a.ts", "pnpm-lock.yaml"}, []string{".", "packages/api", "packages/web", "packages/web-kit"}},
		{nil, []string{}},
	} {
		if got := changedWorkspaces(repository, c.changed); !reflect.DeepEqual(got, c.want) {
			t.Errorf("changedWorkspaces(%q) = %q, want %q", c.changed, got, c.want)
		}
	}
}
