package tui

import (
	"context"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/tui/review"
	"github.com/uptide/uptide/tui/state"
)

// The check types, named here for the Engine's implementers.
type (
	CheckRequest = state.CheckRequest
	CheckEvent   = state.CheckEvent
	CheckResult  = state.CheckResult
	PlanRule     = state.PlanRule
)

// Engine is everything the planner asks of the analysis. Each method is
// called from a tea.Cmd goroutine, never from the UI goroutine; the event
// callbacks may be called from any goroutine and must not be retained
// after the method returns.
type Engine interface {
	// Discover reads the repository and the registry.
	Discover(ctx context.Context, events func(engine.Event)) (*model.DiscoverReport, error)
	// Versions returns the full registry document of pkg (publish times
	// included) for the target picker.
	Versions(ctx context.Context, pkg string) (*model.Packument, error)
	// Plan re-plans row's upgrade for a picked target: where its release
	// group's members go, the companions, the commands.
	Plan(ctx context.Context, row model.DependencyRow, target string) (*engine.TargetPlan, error)
	// Check finds what the upgrade breaks in the repository.
	Check(ctx context.Context, req CheckRequest, events func(CheckEvent)) (*CheckResult, error)
	// Fix runs the fix runner on the upgrade of req in a private clone.
	// Once the upgrade is installed there, review is given the queue of
	// its sites (and how many patches a saved accepted set brought back)
	// and blocks until the user hands off the accepted patches, which fix
	// then applies and verifies. Progress lines go to progress.
	Fix(ctx context.Context, req CheckRequest, progress func(phase model.Phase, line string), review Review) (*fix.Report, error)
	// Upgrades plans the upgrades of the named packages (every outdated
	// one when none is named) as `uptide plan` does: the order, the
	// priorities with the registry's advisories, and the effort of the
	// checks made so far (this session's, and those kept for this state
	// of the repository).
	Upgrades(ctx context.Context, only []string) (*model.UpgradePlanReport, error)
	// Checked returns the verdicts of the checks already made of row's
	// package at any of versions, by version, and the safe ceiling when
	// those checks decide it (nil otherwise): no check is run.
	Checked(ctx context.Context, row model.DependencyRow, versions []string) (map[string]model.Verdict, *model.Ceiling, error)
	// FixBatch runs fix on packages as one verified batch, in order, each
	// at its target (`uptide fix a b c`): one commit per package,
	// verified once, bisected when that fails. Progress lines go to
	// progress.
	FixBatch(ctx context.Context, packages []string, targets map[string]string, progress func(phase model.Phase, line string)) (*fix.Report, error)
}

// Review is the planner's side of a fix run: it returns the patches the
// user accepted, or an error when the user left.
type Review func(ctx context.Context, src review.Source, resumed int) ([]fix.Patch, error)
