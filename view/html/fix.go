package html

import (
	"errors"
	"io"
	"path/filepath"
	"strings"

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
func PageName(runFile string) string {
	dir, base := filepath.Split(runFile)
	if base == "run.json" {
		return filepath.Join(dir, "report.html")
	}
	return filepath.Join(dir, strings.TrimSuffix(base, ".json")+".html")
}

// StoreFixPage writes the page of a stored run beside its record and
// returns its path; "" when the run stored no record.
func StoreFixPage(r *fix.Report) (string, error) {
	if r == nil || r.Checkout.RunFile == "" {
		return "", nil
	}
	if filepath.Ext(r.Checkout.RunFile) != ".json" {
		return "", errors.New("the stored run " + r.Checkout.RunFile + " is not a .json record")
	}
	page := PageName(r.Checkout.RunFile)
	return page, WriteFile(page, func(w io.Writer) error { return Fix(w, r) })
}
