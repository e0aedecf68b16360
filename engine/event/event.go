// Package event is the progress of an engine call: its phases, the events
// a sink receives while it runs, and the time each phase took.
package event

import "github.com/uptide/uptide/engine/model"

// Phase names a step of an engine call, for progress lines and --verbose.
type Phase string

// The phases of Discover.
const (
	PhaseRepository Phase = "repository"
	PhaseLockfile   Phase = "lockfile"
	PhaseRegistry   Phase = "registry"
	PhaseGroups     Phase = "groups"
	PhaseImporters  Phase = "importers"
)

// The phases of Check, after Discover's.
const (
	PhaseInstall Phase = "install"
	PhaseUsages  Phase = "usages"
	PhaseDiff    Phase = "diff"
	PhaseCompile Phase = "compile"
	PhaseMatch   Phase = "match"
)

// The phases of Diff.
const (
	PhaseFetch    Phase = "fetch"
	PhaseCompiler Phase = "compiler"
	PhaseSurface  Phase = "surface"
	PhaseCompare  Phase = "compare"
)

// Event is one piece of progress. Done/Total count units of the phase
// (registry answers received / asked) when the phase has units.
type Event struct {
	Phase   Phase
	Done    int
	Total   int
	Package string
	// Finished marks the end of the phase.
	Finished bool
	// Rows, when set, are dependency rows known before the report: a
	// planner shows them at once instead of waiting for every registry
	// answer. Unlike the rest of an event they are not a snapshot of
	// progress but data, so a consumer that keeps only the latest event
	// must keep these apart.
	Rows *PartialRows
}

// PartialRows are dependency rows as far as Discover knows them.
//
// Discover sends one with Package empty once the repository and the
// lockfile are read: every row, with its installed version and no target
// (Target, Latest and Update empty). Then, as each registry answer arrives,
// one with Package set: the rows of that package, which replace every
// earlier row of that package (an answer can split a row, when workspaces
// ask for different dist-tags). Rows sent here have no release group and
// nil ImportingFiles (not yet scanned, as opposed to an empty list); groups,
// companions and importing files come with the report, whose rows are these
// rows with those added.
type PartialRows struct {
	// Repository is set on the first: what the title line needs.
	Repository *model.RepoSummary
	// Package is the registry package the rows replace; empty for all rows.
	Package string
	Rows    []model.DependencyRow
}

// Sink receives events. It is called from engine goroutines and must not
// block for long; nil discards events. Events carrying rows are sent one at
// a time, in order (never concurrently), so a sink sees every package's
// rows after the first set of all rows.
type Sink func(Event)

func (s Sink) Emit(e Event) {
	if s != nil {
		s(e)
	}
}
