package discover

import (
	"slices"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
)

// Index is what one discovery read, kept so that the checker starts from
// it instead of reading the repository, the lockfile, the registry and the
// sources again: the loaded repository, the registry client (which holds
// the documents discovery fetched) and the report.
type Index struct {
	repository *model.Repository
	client     *registry.Client
	report     *model.DiscoverReport
}

func newIndex(r *model.Repository, client *registry.Client, rep *model.DiscoverReport) *Index {
	// A copy: the caller goes on with its report (the planner updates it).
	return &Index{repository: r, client: client, report: copyReport(rep)}
}

// Repository is the repository as discovery loaded it; its readers do not
// change it.
func (ix *Index) Repository() *model.Repository { return ix.repository }

// Client is the registry client discovery asked.
func (ix *Index) Client() *registry.Client { return ix.client }

// Report is discovery's report, a copy of its own for each caller: the
// checker adds the workspaces that import a row's package without
// declaring it to the row, and checks run side by side.
func (ix *Index) Report() *model.DiscoverReport { return copyReport(ix.report) }

func copyReport(rep *model.DiscoverReport) *model.DiscoverReport {
	c := *rep
	c.Rows = slices.Clone(rep.Rows)
	for i, r := range c.Rows {
		c.Rows[i].Workspaces = slices.Clone(r.Workspaces)
		c.Rows[i].Specs = slices.Clone(r.Specs)
		c.Rows[i].Types = slices.Clone(r.Types)
		c.Rows[i].ImportingFiles = slices.Clone(r.ImportingFiles)
	}
	c.Groups = slices.Clone(rep.Groups)
	c.Problems = slices.Clone(rep.Problems)
	return &c
}
