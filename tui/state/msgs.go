package state

import (
	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
)

// Messages from the engine, through tea.Cmds. Each carries its Err.

// DiscoveredMsg: Discover returned.
type DiscoveredMsg struct {
	Report *model.DiscoverReport
	Err    error
	// Plans are the release groups planned at their leads' targets
	// before the report is shown, by lead ID; PlanErrs the failures.
	Plans    map[int]*engine.TargetPlan
	PlanErrs map[int]error
	// Upgrades is the plan of every outdated dependency, made before the
	// report is shown, so the rows come with their advisory and
	// unsupported-line marks and in their urgency order at once;
	// UpgradesErr why there is none.
	Upgrades    *model.UpgradePlanReport
	UpgradesErr error
}

// VersionsMsg: the full packument of a dependency, for the target picker.
type VersionsMsg struct {
	ID        int
	Packument *model.Packument
	Err       error
	// Checked are the verdicts of the checks already made of the
	// dependency's releases (this session's and the ones kept for this
	// state of the repository), by version; Ceiling the safe ceiling
	// they decide, nil while they do not.
	Checked map[string]model.Verdict
	Ceiling *model.Ceiling
}

// CompanionsMsg: the plan of a newly picked target (group members,
// companions, commands).
type CompanionsMsg struct {
	ID     int
	Target string
	Plan   *engine.TargetPlan
	Err    error
}

// CheckDoneMsg: a check returned.
type CheckDoneMsg struct {
	ID int
	// Seq tells this check from an earlier one of the same dependency
	// that was withdrawn.
	Seq    int
	Target string
	Result *CheckResult
	Err    error
}

// Intents: what a screen asks the root model to do. Screens never push
// screens or start engine work themselves, so the stack and the work queue
// have one owner.

// OpenDetailsMsg opens the details of a dependency.
type OpenDetailsMsg struct{ ID int }

// OpenPickerMsg opens the target picker of a dependency.
type OpenPickerMsg struct{ ID int }

// OpenHelpMsg opens the full key help.
type OpenHelpMsg struct{}

// BackMsg closes the top screen.
type BackMsg struct{}

// CheckMsg queues checks of the given dependencies.
type CheckMsg struct{ IDs []int }

// ChooseTargetMsg sets a dependency's target.
type ChooseTargetMsg struct {
	ID      int
	Version string
}

// ChangedMsg tells every screen the Store changed.
type ChangedMsg struct{}

// RowsChangedMsg tells every screen that the rows of these dependencies
// changed in place (discovery's answers arriving) while the rest of the
// store kept its shape: a screen may redo only what these rows touch.
type RowsChangedMsg struct{ IDs []int }

// TickMsg tells every screen that running work moved (a check's phase, the
// spinner's frame) while the store's shape stayed: only live parts need
// drawing again, nothing needs rebuilding.
type TickMsg struct{}

// OpenReviewMsg opens the patch review of a checked dependency: fix runs
// in a private clone and the queue fills once the upgrade is installed.
type OpenReviewMsg struct{ ID int }
