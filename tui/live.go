package tui

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/groups"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/repo"
)

// ErrCheckUnavailable is what Live.Check answers until the check engine
// exists; the row shows it as "not analyzed: …", never as a result.
var ErrCheckUnavailable = errors.New("check is not available yet (issue 4)")

// Live is the Engine over the real analysis: one registry client for the
// run, so the documents Discover fetched answer the companion re-plans
// from memory.
type Live struct {
	Cwd string
	Env []string
	// Client is the registry client; nil builds one from the repository's
	// .npmrc files and Env, as `uptide list` does.
	Client *registry.Client

	mu     sync.Mutex
	report *model.DiscoverReport
}

var _ Engine = (*Live)(nil)

// Discover runs engine.Discover and keeps the report for Companions.
func (l *Live) Discover(ctx context.Context, events func(engine.Event)) (*model.DiscoverReport, error) {
	client, err := l.client()
	if err != nil {
		return nil, err
	}
	rep, err := engine.Discover(ctx, engine.DiscoverOptions{Cwd: l.Cwd, Env: l.Env, Client: client, Events: events})
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.report = rep
	l.mu.Unlock()
	return rep, nil
}

func (l *Live) client() (*registry.Client, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Client != nil {
		return l.Client, nil
	}
	r, err := repo.Load(l.Cwd)
	if err != nil {
		return nil, err
	}
	cfg, err := registry.LoadConfig(r.Root, l.Env)
	if err != nil {
		return nil, err
	}
	l.Client = registry.New(registry.Options{Config: cfg})
	return l.Client, nil
}

// Versions fetches the full document, which alone carries publish times.
func (l *Live) Versions(ctx context.Context, pkg string) (*model.Packument, error) {
	client, err := l.client()
	if err != nil {
		return nil, err
	}
	return client.Packument(ctx, pkg, true)
}

// Companions re-plans row's upgrade to target over the discovered
// dependencies, as Discover plans the latest target of each major.
func (l *Live) Companions(ctx context.Context, row model.DependencyRow, target string) (model.CompanionPlan, error) {
	l.mu.Lock()
	rep := l.report
	l.mu.Unlock()
	if rep == nil {
		return model.CompanionPlan{}, errors.New("companions: discovery has not finished")
	}
	if row.Installed == "" || len(row.Workspaces) == 0 {
		return model.CompanionPlan{}, fmt.Errorf("companions of %s: its installed version is unknown", row.Name)
	}
	client, err := l.client()
	if err != nil {
		return model.CompanionPlan{}, err
	}
	// The candidates are what Discover planned with: every registry
	// dependency with a known installed version and registry document.
	packs := groups.Packuments{}
	var deps []groups.Dep
	for _, r := range rep.Rows {
		if r.Installed == "" || r.Status != engine.StatusOK {
			continue
		}
		if _, ok := packs[r.Package]; !ok {
			p, err := client.Packument(ctx, r.Package, false)
			if err != nil {
				return model.CompanionPlan{}, fmt.Errorf("companions of %s: %w", row.Name, err)
			}
			packs[r.Package] = p
		}
		for _, ws := range r.Workspaces {
			deps = append(deps, groups.Dep{Name: r.Package, Installed: r.Installed, Workspace: ws})
		}
	}
	if _, ok := packs[row.Package]; !ok {
		return model.CompanionPlan{}, fmt.Errorf("companions of %s: the registry did not answer for it", row.Name)
	}
	t := groups.Dep{Name: row.Package, Installed: row.Installed, Workspace: row.Workspaces[0], Target: target}
	return groups.Companions(t, target, deps, packs), nil
}

// Check is not there yet: the check engine is issue 4.
func (l *Live) Check(ctx context.Context, req CheckRequest, events func(CheckEvent)) (*CheckResult, error) {
	return nil, ErrCheckUnavailable
}
