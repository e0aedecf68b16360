package check

import (
	"context"
	"errors"
	"fmt"
	"github.com/uptide/uptide/engine/discover"
	"github.com/uptide/uptide/engine/event"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/uptide/uptide/engine/diff"
	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/registry"
	"github.com/uptide/uptide/engine/typescript"
)

// DiffOptions configures Diff.
type DiffOptions struct {
	Name, From, To string
	// Cwd locates the .npmrc files that name the registry.
	Cwd    string
	Env    []string
	Client *registry.Client
	Events event.Sink
	// CompareBudgets bound the checker's refinement; zero fields take the
	// adapter's defaults.
	CompareBudgets typescript.CompareBudgets
}

// Diff fetches two published versions of a package, extracts both public
// surfaces with the pinned compiler and classifies every change. Versions
// may be exact or dist-tags.
func Diff(ctx context.Context, opts DiffOptions) (*model.DiffReport, error) {
	client := opts.Client
	if client == nil {
		var err error
		if client, err = discover.NewClient(opts.Cwd, opts.Env); err != nil {
			return nil, err
		}
	}
	opts.Events.Emit(event.Event{Phase: event.PhaseFetch, Package: opts.Name})
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
		opts.Events.Emit(event.Event{Phase: event.PhaseSurface, Package: p.Name + "@" + p.Version, Done: i, Total: 2})
		if surfaces[i], err = ad.ExtractSurface(ctx, p.Dir, p.Name, p.Version); err != nil {
			return nil, err
		}
	}
	changes := diff.Diff(surfaces[0], surfaces[1], nil)
	refinement, notes := "text", []string{}
	budgets := opts.CompareBudgets.WithDefaults()
	comparison := model.TypeComparison{
		Skipped:       []model.SkippedComparison{},
		PerQuestionMs: int(budgets.PerQuestion / time.Millisecond),
		TotalMs:       int(budgets.Total / time.Millisecond),
	}
	if paths := diff.NeedsTypes(changes); len(paths) > 0 {
		comparison.Asked = len(paths)
		opts.Events.Emit(event.Event{Phase: event.PhaseCompare, Package: opts.Name, Total: len(paths)})
		res, err := ad.Compare(ctx, typescript.CompareRequest{
			PkgA: pkgs[0].Dir, PkgB: pkgs[1].Dir, Paths: paths, Budgets: budgets,
			Progress: func(p typescript.CompareProgress) {
				opts.Events.Emit(event.Event{Phase: event.PhaseCompare, Package: opts.Name, Done: p.Done, Total: p.Total})
			},
		})
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			// The text classification stands on its own; the checker only
			// refines the direction of type changes.
			refinement = "skipped"
			for _, p := range paths {
				comparison.Skipped = append(comparison.Skipped, model.SkippedComparison{Path: p, Reason: "error"})
			}
			notes = append(notes, fmt.Sprintf("the checker did not compare %d changed types (%v); their classification comes from the declarations' text", len(paths), err))
		default:
			comparison = accountFor(paths, res, comparison)
			refinement = "checker"
			if len(comparison.Skipped) > 0 {
				refinement = "partial"
				notes = append(notes, skippedNote(comparison))
			}
			changes = diff.Diff(surfaces[0], surfaces[1], relations(res.Relations))
		}
		opts.Events.Emit(event.Event{Phase: event.PhaseCompare, Package: opts.Name, Done: comparison.Asked, Total: comparison.Asked, Finished: true})
	}
	return &model.DiffReport{
		Refinement: refinement,
		Comparison: comparison,
		Notes:      notes,
		Package:    opts.Name,
		From:       pkgs[0].Version,
		To:         pkgs[1].Version,
		Compiler:   "TypeScript " + compilerVersion,
		Summary:    diffSummary(surfaces[0], surfaces[1], changes),
		Changes:    nonNil(changes),
	}, nil
}

func nonNil(c []model.Change) []model.Change {
	if c == nil {
		return []model.Change{}
	}
	return c
}

func diffSummary(a, b *model.Surface, changes []model.Change) model.DiffSummary {
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

// fetchBoth fetches the two versions at once, to be read only.
func fetchBoth(ctx context.Context, c *registry.Client, name, from, to string) ([2]*registry.Package, error) {
	var out [2]*registry.Package
	var errs [2]error
	var wg sync.WaitGroup
	for i, v := range []string{from, to} {
		wg.Add(1)
		go func(i int, v string) {
			defer wg.Done()
			out[i], errs[i] = c.Shared(ctx, name, v)
		}(i, v)
	}
	wg.Wait()
	// Both versions come from one packument, so a missing package fails
	// both fetches with the same error: say it once.
	if errs[0] != nil && errs[1] != nil && errs[0].Error() == errs[1].Error() {
		errs[1] = nil
	}
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
func pinnedAdapter(ctx context.Context, c *registry.Client, events event.Sink) (*typescript.Adapter, error) {
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
		events.Emit(event.Event{Phase: event.PhaseCompiler, Package: msg, Finished: done})
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

// accountFor sorts every asked path into compared, skipped (with the
// checker's reason) or untyped.
func accountFor(paths []string, res *typescript.Comparison, c model.TypeComparison) model.TypeComparison {
	for _, p := range paths {
		if _, ok := res.Relations[p]; ok {
			c.Compared++
		} else if r, ok := res.Skipped[p]; ok {
			c.Skipped = append(c.Skipped, model.SkippedComparison{Path: p, Reason: string(r)})
		} else {
			c.Untyped++
		}
	}
	// paths come sorted from diff.NeedsTypes; sorting again keeps the JSON
	// stable whatever a caller passes.
	sort.Slice(c.Skipped, func(i, j int) bool { return c.Skipped[i].Path < c.Skipped[j].Path })
	return c
}

// skipReasons orders and words the reasons a note names.
var skipReasons = []struct {
	reason string
	text   string
}{
	{string(typescript.SkipBudget), "ran over the time budget of one question (%s)"},
	{string(typescript.SkipBudgetFamily), "share their declarations with one that ran over, through another container"},
	{string(typescript.SkipLimit), "made the checker give up (instantiation or comparison limit)"},
	{string(typescript.SkipMemory), "ran out of the comparison worker's memory"},
	{string(typescript.SkipDeadline), "were not reached before the comparison's time budget (%s) ran out"},
	{string(typescript.SkipCrash), "stopped a comparison worker"},
	{string(typescript.SkipUnresolved), "name a type from a dependency that is not installed, which the checker reads as any"},
}

// skippedNote says how many paths keep their text verdict, and why, with a
// few of them named.
func skippedNote(c model.TypeComparison) string {
	byReason := map[string][]string{}
	for _, s := range c.Skipped {
		byReason[s.Reason] = append(byReason[s.Reason], s.Path)
	}
	var parts []string
	for _, r := range skipReasons {
		ps := byReason[r.reason]
		if len(ps) == 0 {
			continue
		}
		text := r.text
		switch r.reason {
		case string(typescript.SkipBudget):
			text = fmt.Sprintf(text, time.Duration(c.PerQuestionMs)*time.Millisecond)
		case string(typescript.SkipDeadline):
			text = fmt.Sprintf(text, time.Duration(c.TotalMs)*time.Millisecond)
		}
		parts = append(parts, fmt.Sprintf("%d %s: %s", len(ps), text, examples(ps, 3)))
	}
	return fmt.Sprintf("the checker compared %d of %d changed types; %d keep the verdict their declarations' text gives — %s",
		c.Compared, c.Asked, len(c.Skipped), strings.Join(parts, "; "))
}

func examples(paths []string, n int) string {
	if len(paths) <= n {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:n], ", ") + fmt.Sprintf(" and %d more", len(paths)-n)
}
