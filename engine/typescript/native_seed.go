package typescript

import (
	"context"
	"strings"
)

// A fix run type-checks the user's checkout before the upgrade with its
// own tsc (tsc -p, TSC.SeedBaseline), and check, beside it, judges the
// same files with the same tsc when the driver cannot load that
// TypeScript (compileNative): its baseline side is that compile again,
// on a generated tsconfig extending the same one. The seed hands the
// first's diagnostics to the second, so a native judgment in a fix run
// runs its tsc on the overlay alone.

// seedKey names one tsc -p: the tsc (its script or executable), the
// directory it ran in and the tsconfig, as real paths.
type seedKey struct{ tsc, root, config string }

func newSeedKey(argv []string, root, config string) seedKey {
	tsc := ""
	if len(argv) > 0 {
		tsc = realOr(argv[len(argv)-1])
	}
	return seedKey{tsc: tsc, root: realOr(root), config: realOr(config)}
}

// seedRun is a tsc -p started over the checkout; done closes when it
// ends, ok when its diagnostics are read.
type seedRun struct {
	done  chan struct{}
	diags []nativeDiag
	ok    bool
}

// seeding records a tsc -p about to run over files that do not change
// while the drivers live; the function it returns gives its result.
func (s *Drivers) seeding(argv []string, root, config string) func([]nativeDiag, error) {
	run := &seedRun{done: make(chan struct{})}
	key := newSeedKey(argv, root, config)
	s.mu.Lock()
	if s.seeds == nil {
		s.seeds = map[seedKey]*seedRun{}
	}
	s.seeds[key] = run
	s.mu.Unlock()
	return func(diags []nativeDiag, err error) {
		run.diags, run.ok = diags, err == nil
		close(run.done)
	}
}

// seeded is what a tsc -p recorded by seeding printed, waiting for it to
// end; false when none ran or it failed (or ctx ended first).
func (s *Drivers) seeded(ctx context.Context, argv []string, root, config string) ([]nativeDiag, bool) {
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	run := s.seeds[newSeedKey(argv, root, config)]
	s.mu.Unlock()
	if run == nil {
		return nil, false
	}
	select {
	case <-run.done:
		return run.diags, run.ok
	case <-ctx.Done():
		return nil, false
	}
}

// seedFor is the baseline run of unit u from the drivers' seed, when the
// unit's generated tsconfig judges as its tsconfig does (Seedable, no
// workspace sources mapped) and tsc -p printed errors only in the
// project's own source files: a global, configuration or declaration
// file's error may belong to files outside the unit's program, so then
// the unit's own baseline runs.
func seedFor(ctx context.Context, runs *Drivers, argv []string, root string, u nativeUnit, sourcePaths bool) (*nativeRun, bool) {
	if runs == nil || !u.Seedable || sourcePaths {
		return nil, false
	}
	diags, ok := runs.seeded(ctx, argv, root, u.Config)
	if !ok {
		return nil, false
	}
	for _, d := range diags {
		if d.Category != "error" {
			continue
		}
		if d.File == "" || strings.HasSuffix(d.File, ".json") || declarationFile(d.File) {
			return nil, false
		}
	}
	return &nativeRun{diags: diags}, true
}
