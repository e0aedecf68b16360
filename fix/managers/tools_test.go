package managers

import "testing"

func TestFetchTools(t *testing.T) {
	pinnedTool(t, "pnpm", pnpmVersion)
	pinnedTool(t, "yarn", yarnVersion)
	pinnedTool(t, "@yarnpkg/cli-dist", berryVersion)
}
