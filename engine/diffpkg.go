package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/uptide/uptide/engine/diff"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/typescript"
)

// The phases of Diff.
const (
	PhaseFetch    Phase = "fetch"
	PhaseCompiler Phase = "compiler"
	PhaseSurface  Phase = "surface"
	PhaseCompare  Phase = "compare"
)

// DiffOptions configures Diff.
type DiffOptions struct {
	Name, From, To string
	// Cwd locates the .npmrc files that name the registry.
	Cwd    string
	Env    []string
	Client *registry.Client
	Events Sink
}

// Diff fetches two published versions of a package, extracts both public
// surfaces with the pinned compiler and classifies every change. Versions
// may be exact or dist-tags.
func Diff(ctx context.Context, opts DiffOptions) (*model.DiffReport, error) {
	client := opts.Client
	if client == nil {
		var err error
		if client, err = newClient(opts.Cwd, opts.Env); err != nil {
			return nil, err
		}
	}
	opts.Events.emit(Event{Phase: PhaseFetch, Package: opts.Name})
	pkgs, err := fetchBoth(ctx, client, opts.Name, opts.From, opts.To)
	if err != nil {
		return nil, err
	}
	defer pkgs[0].Remove()
	defer pkgs[1].Remove()

	ad, err := pinnedAdapter(ctx, client, opts.Events)
	if err != nil {
		return nil, err
	}
	defer ad.Close()
	compilerVersion, err := ad.CompilerVersion(ctx)
	if err != nil {
		return nil, err
	}

	var surfaces [2]*model.Surface
	for i, p := range pkgs {
		opts.Events.emit(Event{Phase: PhaseSurface, Package: p.Name + "@" + p.Version, Done: i, Total: 2})
		if surfaces[i], err = ad.ExtractSurface(ctx, p.Dir, p.Name, p.Version); err != nil {
			return nil, err
		}
	}
	changes := diff.Diff(surfaces[0], surfaces[1], nil)
	refinement, notes := "text", []string{}
	if paths := diff.NeedsTypes(changes); len(paths) > 0 {
		opts.Events.emit(Event{Phase: PhaseCompare, Package: opts.Name, Total: len(paths)})
		rel, err := ad.CompareTypes(ctx, pkgs[0].Dir, pkgs[1].Dir, paths)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			// The text classification stands on its own; the checker only
			// refines the direction of type changes.
			refinement = "skipped"
			notes = append(notes, fmt.Sprintf("the checker did not compare %d changed types (%v); their classification comes from the declarations' text", len(paths), err))
		default:
			refinement = "checker"
			changes = diff.Diff(surfaces[0], surfaces[1], relations(rel))
		}
	}
	return &model.DiffReport{
		Refinement: refinement,
		Notes:      notes,
		Package:    opts.Name,
		From:       pkgs[0].Version,
		To:         pkgs[1].Version,
		Compiler:   "TypeScript " + compilerVersion,
		Summary:    summarize2(surfaces[0], surfaces[1], changes),
		Changes:    nonNil(changes),
	}, nil
}

func nonNil(c []model.Change) []model.Change {
	if c == nil {
		return []model.Change{}
	}
	return c
}

func summarize2(a, b *model.Surface, changes []model.Change) model.DiffSummary {
	s := model.DiffSummary{
		SymbolsFrom: len(a.Symbols), SymbolsTo: len(b.Symbols),
		BySeverity: map[model.Severity]int{}, ByKind: map[model.ChangeKind]int{},
		PublicBreaking: len(diff.GenuinelyPublic(changes)),
	}
	for _, c := range changes {
		s.BySeverity[c.Severity]++
		s.ByKind[c.Kind]++
	}
	return s
}

// fetchBoth fetches the two versions at once.
func fetchBoth(ctx context.Context, c *registry.Client, name, from, to string) ([2]*registry.Package, error) {
	var out [2]*registry.Package
	var errs [2]error
	var wg sync.WaitGroup
	for i, v := range []string{from, to} {
		wg.Add(1)
		go func(i int, v string) {
			defer wg.Done()
			out[i], errs[i] = c.Fetch(ctx, name, v)
		}(i, v)
	}
	wg.Wait()
	if err := errors.Join(errs[0], errs[1]); err != nil {
		for _, p := range out {
			if p != nil {
				p.Remove()
			}
		}
		return out, err
	}
	return out, nil
}

// pinnedAdapter starts the TypeScript adapter on the pinned compiler,
// fetching it through the registry client the first time.
func pinnedAdapter(ctx context.Context, c *registry.Client, events Sink) (*typescript.Adapter, error) {
	// The compiler is copied into the cache; the extracted tarball goes.
	var fetched []*registry.Package
	defer func() {
		for _, p := range fetched {
			p.Remove()
		}
	}()
	fetch := func(ctx context.Context, name, version string) (string, error) {
		p, err := c.Fetch(ctx, name, version)
		if err != nil {
			return "", err
		}
		fetched = append(fetched, p)
		return p.Dir, nil
	}
	progress := func(msg string, done bool) {
		events.emit(Event{Phase: PhaseCompiler, Package: msg, Finished: done})
	}
	compiler, err := typescript.PinnedCompiler(ctx, fetch, progress)
	if err != nil {
		return nil, fmt.Errorf("the TypeScript compiler Uptide reads declarations with: %w", err)
	}
	return typescript.New(compiler, typescript.Options{}), nil
}

// relations converts the checker's answers into the diff's vocabulary.
func relations(in map[string]typescript.Relation) map[string]diff.Relation {
	out := make(map[string]diff.Relation, len(in))
	for p, r := range in {
		d := diff.Relation{Assignability: diff.Assignability{AToB: r.AToB, BToA: r.BToA}}
		for _, o := range r.Overloads {
			sr := diff.SignatureRelation{Return: &diff.Assignability{AToB: o.Return.AToB, BToA: o.Return.BToA}}
			for _, prm := range o.Params {
				sr.Params = append(sr.Params, diff.Assignability{AToB: prm.AToB, BToA: prm.BToA})
			}
			d.Signatures = append(d.Signatures, sr)
		}
		out[p] = d
	}
	return out
}
