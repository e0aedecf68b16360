package view

import (
	"fmt"

	"github.com/uptide/uptide/engine/model"
)

// ImporterLines are the lines a check report says about the workspaces
// importing its package beyond the declared, analyzed ones, for `uptide
// check` and the planner alike: each undeclared importer (analyzed against
// the copy it resolves to, or why not), and each declared one left
// unanalyzed for a reason of its own. A workspace is never dropped
// silently.
func ImporterLines(pr *model.PackageReport) []string {
	var out []string
	for _, u := range pr.Undeclared {
		line := fmt.Sprintf("%s · imports %s without declaring it", model.Where([]string{u.Workspace}), u.Package)
		switch {
		case u.Status == model.StatusAnalyzed && u.Via != "":
			line += fmt.Sprintf(" (resolved via %s)", u.Via)
		case u.Status == model.StatusAnalyzed:
		case u.Reason != "":
			line += fmt.Sprintf(": %s, %s", u.Status, u.Reason)
		default:
			line += ": " + string(u.Status)
		}
		out = append(out, line)
	}
	for _, in := range pr.Importers {
		if !in.Declared || in.Status != model.StatusNotAnalyzed || in.Reason == pr.Reason {
			continue
		}
		out = append(out, fmt.Sprintf("%s · imports %s: not analyzed, %s", model.Where([]string{in.Workspace}), in.Package, in.Reason))
	}
	return out
}
