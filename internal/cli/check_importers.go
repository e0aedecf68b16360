package cli

import (
	"fmt"
	"io"

	"github.com/uptide/uptide/engine/model"
)

// importerLines are the lines a package prints about the workspaces that
// import it beyond its declared, analyzed ones: each undeclared importer
// (analyzed against the copy it resolves to, or why not), and each declared
// one the report did not analyze for a reason of its own. A workspace is
// never dropped silently.
func importerLines(pr model.PackageReport) []string {
	var out []string
	for _, u := range pr.Undeclared {
		line := fmt.Sprintf("%s · imports %s without declaring it", where([]string{u.Workspace}), u.Package)
		switch {
		case u.Status == model.StatusAnalyzed && u.Via != "":
			line += fmt.Sprintf(" (resolved via %s)", u.Via)
		case u.Status == model.StatusAnalyzed:
		case u.Reason != "":
			line += fmt.Sprintf(": %s, %s", u.Status, u.Reason)
		default:
			line += ": " + u.Status
		}
		out = append(out, line)
	}
	for _, in := range pr.Importers {
		if !in.Declared || in.Status != model.StatusNotAnalyzed || in.Reason == pr.Reason {
			continue
		}
		out = append(out, fmt.Sprintf("%s · imports %s: not analyzed, %s", where([]string{in.Workspace}), in.Package, in.Reason))
	}
	return out
}

func renderImporters(w io.Writer, pr model.PackageReport, p palette) {
	for _, line := range importerLines(pr) {
		fmt.Fprintf(w, "  %s\n", p.yellow(line))
	}
}
