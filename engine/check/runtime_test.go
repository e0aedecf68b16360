package check

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/modformat"
)

// A require() load decides only on the release line the repository names:
// require(esm) arrived in Node 20.19, so what the current Node gave says
// nothing of an unknown one; import() loads decide either way.
func TestJudgedRuntimeKeepsRequireToTheRepositorysNode(t *testing.T) {
	got := &model.RuntimeValue{}
	res := model.RuntimeResult{Status: model.RuntimeCompared, Node: model.RuntimeNode{Version: "v20.20.2"},
		Installed: model.RuntimeCopy{Require: model.RuntimeLoad{Value: got}, Import: model.RuntimeLoad{Value: got}}}
	for _, tc := range []struct {
		node    modformat.NodeInfo
		require bool
	}{
		{modformat.NodeInfo{Version: "20", Source: ".nvmrc"}, true},
		{modformat.NodeInfo{Version: "20.20", Source: ".nvmrc"}, true},
		{modformat.NodeInfo{Version: "18", Source: ".nvmrc"}, false},
		{modformat.NodeInfo{}, false},
		{modformat.NodeInfo{Version: "lts", Source: ".nvmrc"}, false},
	} {
		done := make(chan struct{})
		close(done)
		run := &memberRun{runtime: &res, runtimeNode: tc.node, runtimeDone: done}
		j := run.judgedRuntime()
		if j.Installed.Require.Got() != tc.require || !j.Installed.Import.Got() {
			t.Errorf("Node %q: require decides %v, import %v; want require %v, import true", tc.node.Version, j.Installed.Require.Got(), j.Installed.Import.Got(), tc.require)
		}
	}
	if !res.Installed.Require.Got() {
		t.Error("judgedRuntime changed the probe's own result")
	}
}
