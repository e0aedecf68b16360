package check

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/modformat"
)

// A require() load decides only on the release line the repository names:
// require(esm) arrived in Node 20.19, so what the current Node gave says
// nothing of an unknown one; import() loads decide either way. A moving
// tag (node:alpine is "latest", lts/*) names no line, but every line it
// can name has require(esm): a probe on a Node with it decides
// (hagopj13/node-express-boilerplate, http-status 1 → 2, where require()
// of 2.1.0 has no NOT_FOUND and 138 sites were left unverified).
func TestJudgedRuntimeKeepsRequireToTheRepositorysNode(t *testing.T) {
	got := &model.RuntimeValue{}
	for _, tc := range []struct {
		node    modformat.NodeInfo
		ran     string
		require bool
	}{
		{modformat.NodeInfo{Version: "20", Source: ".nvmrc"}, "v20.20.2", true},
		{modformat.NodeInfo{Version: "20.20", Source: ".nvmrc"}, "v20.20.2", true},
		{modformat.NodeInfo{Version: "18", Source: ".nvmrc"}, "v20.20.2", false},
		{modformat.NodeInfo{}, "v20.20.2", false},
		{modformat.NodeInfo{Version: "lts", Source: ".nvmrc"}, "v20.20.2", true},
		{modformat.NodeInfo{Version: "latest", Source: "Dockerfile FROM node:alpine"}, "v20.20.2", true},
		{modformat.NodeInfo{Version: "latest", Source: "Dockerfile FROM node:alpine"}, "v22.11.0", false},
		{modformat.NodeInfo{Version: "lts", Source: ".nvmrc"}, "v18.20.4", false},
	} {
		res := model.RuntimeResult{Status: model.RuntimeCompared, Node: model.RuntimeNode{Version: tc.ran},
			Installed: model.RuntimeCopy{Require: model.RuntimeLoad{Value: got}, Import: model.RuntimeLoad{Value: got}}}
		done := make(chan struct{})
		close(done)
		run := &memberRun{runtime: &res, runtimeNode: tc.node, runtimeDone: done}
		j := run.judgedRuntime()
		if j.Installed.Require.Got() != tc.require || !j.Installed.Import.Got() {
			t.Errorf("Node %q, probed on %s: require decides %v, import %v; want require %v, import true", tc.node.Version, tc.ran, j.Installed.Require.Got(), j.Installed.Import.Got(), tc.require)
		}
		if !res.Installed.Require.Got() {
			t.Error("judgedRuntime changed the probe's own result")
		}
	}
}
