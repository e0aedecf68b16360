package typescript

import (
	"path"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// rootKinds are the roots the driver's tracer (driver/cause.js) may set.
var rootKinds = map[model.CauseKind]bool{
	model.CauseConfig:       true,
	model.CauseParameter:    true,
	model.CauseAugmentation: true,
	model.CauseDeclaration:  true,
	model.CauseUsage:        true,
}

// withRoots keeps the roots the driver traced when they name a place in
// the repository, with the compile's workspace; a root that does not (an
// unknown kind from another driver, a file outside the repository, no
// line) is dropped and the diagnostic stays on its own, as it would without
// a tracer. The diagnostics are ws's, already copied by withWorkspace.
func withRoots(ds []model.Diagnostic, ws string) []model.Diagnostic {
	for i := range ds {
		r := ds[i].Root
		if r == nil {
			continue
		}
		if !validRoot(*r) {
			ds[i].Root = nil
			continue
		}
		c := *r
		c.File = path.Clean(c.File)
		c.Workspace = ws
		ds[i].Root = &c
	}
	return ds
}

func validRoot(r model.Root) bool {
	if !rootKinds[r.Kind] || r.Line < 1 || r.Column < 1 || r.Name == "" || r.File == "" {
		return false
	}
	f := r.File
	if path.IsAbs(f) || strings.Contains(f, "\\") || len(f) > 1 && f[1] == ':' {
		return false
	}
	for _, seg := range strings.Split(path.Clean(f), "/") {
		if seg == ".." || seg == "node_modules" {
			return false
		}
	}
	return true
}
