package engine

import (
	"context"
	"github.com/uptide/uptide/engine/triage"

	"github.com/uptide/uptide/engine/check"
	"github.com/uptide/uptide/engine/discover"
	"github.com/uptide/uptide/engine/event"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/packs"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/typescript"
)

// The options and results of the entry points, named here so that callers
// need no import of the packages behind them.
type (
	DiscoverOptions   = discover.Options
	CheckOptions      = check.Options
	DiffOptions       = check.DiffOptions
	PlanTargetOptions = discover.PlanTargetOptions
	PlanOptions       = discover.UpgradePlanOptions
	Index             = discover.Index
	TargetPlan        = discover.TargetPlan
	TargetError       = discover.TargetError
	Client            = registry.Client
	Event             = event.Event
	PartialRows       = event.PartialRows
	Sink              = event.Sink
	Phase             = event.Phase
)

// The phases of Discover, Check and Diff, in the order they run.
const (
	PhaseRepository = event.PhaseRepository
	PhaseLockfile   = event.PhaseLockfile
	PhaseRegistry   = event.PhaseRegistry
	PhaseGroups     = event.PhaseGroups
	PhaseImporters  = event.PhaseImporters
	PhaseInstall    = event.PhaseInstall
	PhaseUsages     = event.PhaseUsages
	PhaseDiff       = event.PhaseDiff
	PhaseCompile    = event.PhaseCompile
	PhaseMatch      = event.PhaseMatch
	PhaseFetch      = event.PhaseFetch
	PhaseCompiler   = event.PhaseCompiler
	PhaseSurface    = event.PhaseSurface
	PhaseCompare    = event.PhaseCompare
)

// Discover reads the repository as its package manager sees it, asks the
// registry what is available, and works out release groups and companions
// (discover.Discover). The Index is what it read, for a Check of the same
// repository to start from (CheckOptions.Index).
func Discover(ctx context.Context, opts DiscoverOptions) (*model.DiscoverReport, *Index, error) {
	return discover.Discover(ctx, opts)
}

// Check answers what upgrading each asked package breaks in the repository,
// confirmed by its own compiler, with the per-rule plan (check.Check).
func Check(ctx context.Context, opts CheckOptions) (*model.CheckReport, error) {
	return check.Check(ctx, opts)
}

// Diff is the contract diff of two published versions of a package
// (check.Diff).
func Diff(ctx context.Context, opts DiffOptions) (*model.DiffReport, error) {
	return check.Diff(ctx, opts)
}

// PlanTarget re-plans a row's upgrade for a chosen target: its release
// group's members, its companions, the commands (discover.PlanTarget).
func PlanTarget(ctx context.Context, opts PlanTargetOptions, row model.DependencyRow, target string) (*TargetPlan, error) {
	return discover.PlanTarget(ctx, opts, row, target)
}

// PlanUpgrades plans the repository's upgrades: discovery's rows, the
// registry's publish times and advisories, and the checks given, triaged
// (discover.PlanUpgrades).
func PlanUpgrades(ctx context.Context, opts PlanOptions) (*model.UpgradePlanReport, error) {
	return discover.PlanUpgrades(ctx, opts)
}

// Releases are the published versions of a package, from the registry
// the repository's .npmrc names for it (discover.Releases).
func Releases(ctx context.Context, cwd string, env []string, name string) ([]string, error) {
	return discover.Releases(ctx, cwd, env, name)
}

// NextCommands are the `uptide check` and `uptide fix` commands of a move
// (discover.NextCommands).
func NextCommands(cwdArg, name, target string, members []model.Companion, conflict bool) []string {
	return discover.NextCommands(cwdArg, name, target, members, conflict)
}

// NewClient is the registry client of the repository at root, as check
// makes it: its .npmrc files and env's npm_config_*.
func NewClient(root string, env []string) (*registry.Client, error) {
	return discover.NewClient(root, env)
}

// ClientFor is the registry client of the repository cwd is in, as
// Discover and Check make it when they are given none.
func ClientFor(cwd string, env []string) (*Client, error) {
	return discover.ClientFor(cwd, env)
}

// ResolveTargets resolves every --target of a package the repository
// declares, before anything is written (discover.ResolveTargets).
func ResolveTargets(ctx context.Context, client *registry.Client, r *model.Repository, targets map[string]string) error {
	return discover.ResolveTargets(ctx, client, r, targets)
}

// SyntaxOf is a migration pack's parser over a TypeScript adapter, for
// fix's rule edits (check.SyntaxOf).
func SyntaxOf(ctx context.Context, a *typescript.Adapter) packs.Syntax {
	return check.SyntaxOf(ctx, a)
}

// Judge is one check of a ceiling's bisection (triage.Judge).
type Judge = triage.Judge

// Ceiling bisects a package's releases above installed for the newest one
// judge finds ✓ no impact (triage.Ceiling): what `plan --ceiling` runs,
// and what the planner's target picker asks of the checks already made.
func Ceiling(pkg, installed string, versions []string, judge Judge) (model.Ceiling, error) {
	return triage.Ceiling(pkg, installed, versions, judge)
}

// VerdictOf is a check report's verdict in the plan's words
// (triage.VerdictOf).
func VerdictOf(rep *model.PackageReport) model.Verdict { return triage.VerdictOf(rep) }
