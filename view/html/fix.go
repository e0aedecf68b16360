package html

import (
	"io"
	"path/filepath"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/view"
)

// fixPage is fix's report as view.Fix words it: the page and the terminal
// show the same lines.
type fixPage struct {
	head
	view.FixReport
}

// Fix writes a fix run's report as a page.
func Fix(w io.Writer, r *fix.Report) error {
	return render(w, "fix", fixPage{head: head{Command: "fix", Title: "uptide fix · " + r.Package}, FixReport: view.Fix(r)})
}

// PageName is the stored page of a run record: report.html beside
// run.json (the run behind the branch), runs/<run-id>.html beside a
// run's own record.
func PageName(runFile string) string { return fix.BesideRecord(runFile, "report.html", ".html") }

// StoreFixPage writes the page of a stored run beside its record (see
// PageName); a run that stored no record has none. A page that cannot be
// written is said in the report's NotRun, as a record that cannot be
// stored is: the run itself is not undone for it.
func StoreFixPage(r *fix.Report) {
	if r == nil || filepath.Ext(r.Checkout.RunFile) != ".json" {
		return
	}
	// The page holds what the record holds: it is as private.
	if err := WriteFile(PageName(r.Checkout.RunFile), 0o600, func(w io.Writer) error { return Fix(w, r) }); err != nil {
		r.NotRun = append(r.NotRun, "storing the run's page: "+err.Error())
	}
}
