package check

import (
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/uptide/uptide/engine/match"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/modformat"
)

// changeEnginesNode is the change of the finding that says the target's
// engines.node excludes the Node the repository runs.
const changeEnginesNode = "engines-node"

// enginesNode compares the target's engines.node with the Node each of the
// member's workspaces runs (read as the module-format check reads it:
// Dockerfile, .nvmrc, .node-version, .tool-versions, volta, CI, engines).
// A target that excludes it is a breaking finding of its own, in the
// workspace's package.json: installing it fails or warns there and its
// code may use what that Node lacks. When the installed version already
// excluded that Node nothing new breaks, and a note says so; an unknown
// Node or an unreadable range is a note too, never silence. A target with
// the installed release's own range changes nothing and says nothing.
func (c *checker) enginesNode(run *memberRun) {
	m := run.m
	if run.runtimeTgt == "" {
		return
	}
	tgt, err := modformat.LoadPackage(os.DirFS(run.runtimeTgt), m.name()+"@"+m.target)
	if err != nil {
		run.notes = append(run.notes, fmt.Sprintf("engines.node of %s@%s not read: %v", m.name(), m.target, err))
		return
	}
	want := tgt.Manifest.EnginesNode
	if want == "" {
		return
	}
	installed := ""
	if run.runtimeInst != "" {
		if inst, err := modformat.LoadPackage(os.DirFS(run.runtimeInst), m.name()+"@"+m.row.Installed); err == nil {
			installed = inst.Manifest.EnginesNode
		}
	}
	if installed == want {
		// The same range as the installed release: nothing new to judge.
		return
	}
	for _, ws := range m.row.Workspaces {
		node, err := modformat.NodeVersion(c.root, filepath.Join(c.root, filepath.FromSlash(ws)))
		if err != nil {
			run.notes = append(run.notes, fmt.Sprintf("%s@%s needs Node %s (engines.node); the Node %s runs was not read: %v", m.name(), m.target, want, wsLabel(ws), err))
			continue
		}
		admits, known := modformat.NodeAdmits(want, node.Version)
		if !known {
			run.notes = append(run.notes, fmt.Sprintf("%s@%s needs Node %s (engines.node); not judged against %s", m.name(), m.target, want, node))
			continue
		}
		if admits {
			continue
		}
		if ok, known := modformat.NodeAdmits(installed, node.Version); known && !ok {
			run.notes = append(run.notes, fmt.Sprintf("%s@%s needs Node %s (engines.node), which %s is not; %s@%s already needed %s", m.name(), m.target, want, node, m.name(), m.row.Installed, installed))
			continue
		}
		run.format[ws] = append(run.format[ws], enginesFinding(m.name(), m.target, ws, want, node))
	}
}

func enginesFinding(pkg, target, ws, want string, node modformat.NodeInfo) model.Finding {
	f := model.Finding{
		Package: pkg, Path: ".", Change: changeEnginesNode, Severity: model.Breaking, Confidence: 1,
		Workspace: ws, File: path.Join(ws, "package.json"), Rule: changeEnginesNode,
		Reason: fmt.Sprintf("%s@%s needs Node %s (engines.node), and this repository runs %s: upgrade Node with the package, or stay on the installed version", pkg, target, want, node),
	}
	f.Fixability, _ = match.FixabilityOf(match.FixInput{Change: f.Change, Severity: f.Severity})
	return f
}
