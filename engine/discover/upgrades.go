package discover

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/uptide/uptide/engine/event"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/triage"
	"github.com/uptide/uptide/internal/lists"
)

// UpgradePlanOptions configure PlanUpgrades.
type UpgradePlanOptions struct {
	Cwd string
	Env []string
	// Client overrides the registry client (tests, the demo).
	Client *registry.Client
	// Only names the packages to plan; empty plans every outdated one.
	Only []string
	// NoAdvisories skips the registry's security advisories.
	NoAdvisories bool
	// Checks are the check results the plan may use, by package.
	Checks map[string]*model.PackageReport
	// Discovered is a discovery already made of the same repository.
	Discovered *model.DiscoverReport
	Now        time.Time
	Events     event.Sink
}

// PlanUpgrades plans the repository's upgrades: discovery's rows, each
// planned package's full registry document (publish times), the
// registry's advisories for the installed versions, and the checks given.
func PlanUpgrades(ctx context.Context, opts UpgradePlanOptions) (*model.UpgradePlanReport, error) {
	client := opts.Client
	disc := opts.Discovered
	if client == nil {
		var err error
		if client, err = ClientFor(opts.Cwd, opts.Env); err != nil {
			return nil, err
		}
	}
	if disc == nil {
		var err error
		if disc, _, err = Discover(ctx, Options{Cwd: opts.Cwd, Env: opts.Env, Client: client, Events: opts.Events}); err != nil {
			return nil, err
		}
	}
	in := triage.Input{Rows: disc.Rows, Only: opts.Only, Checks: opts.Checks, Now: opts.Now, Releases: map[string]*model.Packument{}}
	installed := map[string][]string{}
	for _, r := range disc.Rows {
		if r.Status != model.RowOK || r.Update.IsZero() {
			continue
		}
		if !slices.Contains(installed[r.Package], r.Installed) {
			installed[r.Package] = append(installed[r.Package], r.Installed)
		}
	}
	// Only the planned packages' documents are read: with Only, a
	// repository's every other dependency is no full document to fetch.
	names := triage.Planned(in)
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for _, n := range names {
		wg.Add(1)
		go func(n string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			// The full document carries the publish times the
			// unsupported-line rule reads; a failure only leaves it out.
			if p, err := client.Packument(ctx, n, true); err == nil {
				mu.Lock()
				in.Releases[n] = p
				mu.Unlock()
			}
		}(n)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch {
	case opts.NoAdvisories:
		in.AdvisoryStatus = model.AdvisoryStatus{Reason: "--no-advisories"}
	default:
		adv, err := client.Advisories(ctx, installed)
		if err != nil {
			in.AdvisoryStatus = model.AdvisoryStatus{Reason: err.Error()}
			break
		}
		in.Advisories, in.AdvisoryStatus = adv, model.AdvisoryStatus{Asked: true}
	}
	// A row names its alias; the registry answers by package.
	for _, r := range disc.Rows {
		if r.Package != r.Name {
			if p := in.Releases[r.Package]; p != nil {
				in.Releases[r.Name] = p
			}
			if a := in.Advisories[r.Package]; a != nil {
				in.Advisories[r.Name] = a
			}
		}
	}
	return &model.UpgradePlanReport{Repository: disc.Repository, Plan: triage.Plan(in),
		Problems: append([]model.Problem{}, disc.Problems...), Notes: []string{}}, nil
}

// Releases are the published versions of a package, from the registry
// the repository's .npmrc names for it.
func Releases(ctx context.Context, cwd string, env []string, name string) ([]string, error) {
	client, err := ClientFor(cwd, env)
	if err != nil {
		return nil, err
	}
	p, err := client.Packument(ctx, name, false)
	if err != nil {
		return nil, err
	}
	return lists.SortedKeys(p.Versions), nil
}
