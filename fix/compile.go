package fix

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/typescript"
)

// compileRun is one fresh type-check of the affected projects.
type compileRun struct {
	// Compiler is "TypeScript 5.8.3" (several when workspaces differ).
	Compiler    string
	Projects    []string // tsconfig (or jsconfig) files, slash, relative to the root
	Files       int
	Diagnostics []model.Diagnostic
	// Untyped are affected workspaces with no tsconfig.json or
	// jsconfig.json: nothing to type-check there.
	Untyped []string
}

// compileTimeout bounds one tsc -p.
const compileTimeout = 10 * time.Minute

// compileWorkspaces type-checks every tsconfig project of the workspaces
// (solution tsconfigs through their references) with the compiler each
// workspace resolves (its node_modules/typescript or the nearest above, the
// pinned one when the repository installs none), emit off. drivers run the
// compilers with a JavaScript API, so the run's compiles (and check) share
// a loaded compiler and the files no upgrade or edit changed.
func compileWorkspaces(ctx context.Context, root string, workspaces []string, fetch typescript.FetchFunc, drivers *typescript.Drivers) (*compileRun, error) {
	return compileIn(ctx, root, workspaces, fetch, drivers, false)
}

// compileIn is compileWorkspaces; seed: root is the user's checkout, whose
// files do not change during the run, so its errors are the baseline of
// check's compiles in the same drivers too (typescript.TSC.SeedBaseline).
func compileIn(ctx context.Context, root string, workspaces []string, fetch typescript.FetchFunc, drivers *typescript.Drivers, seed bool) (*compileRun, error) {
	run := &compileRun{Diagnostics: []model.Diagnostic{}}
	seen := map[string]bool{}
	labels := map[string]bool{}
	for _, ws := range workspaces {
		dir := filepath.Join(root, filepath.FromSlash(ws))
		config := typescript.ProgramConfig(dir)
		if config == "" {
			run.Untyped = append(run.Untyped, ws)
			continue
		}
		tsc, err := compilerFor(ctx, root, dir, fetch)
		if err != nil {
			return nil, err
		}
		tsc = drivers.Serve(tsc)
		tsc.SeedBaseline = seed
		labels[tsc.Label()] = true
		for _, project := range typescript.Projects(config) {
			if seen[project] {
				continue
			}
			seen[project] = true
			pr, err := tsc.RunProject(ctx, root, project, compileTimeout)
			if err != nil {
				return nil, err
			}
			rel, _ := filepath.Rel(root, project)
			run.Projects = append(run.Projects, filepath.ToSlash(rel))
			run.Files += pr.Files
			run.Diagnostics = append(run.Diagnostics, pr.Diagnostics...)
		}
	}
	var names []string
	for l := range labels {
		names = append(names, l)
	}
	sort.Strings(names)
	for i, n := range names {
		if i > 0 {
			run.Compiler += ", "
		}
		run.Compiler += n
	}
	sort.Strings(run.Projects)
	return run, nil
}

// compilerFor is the tsc of the nearest node_modules/typescript from dir up
// to root, else the pinned compiler.
func compilerFor(ctx context.Context, root, dir string, fetch typescript.FetchFunc) (typescript.TSC, error) {
	for d := dir; ; d = filepath.Dir(d) {
		candidate := filepath.Join(d, "node_modules", "typescript")
		if _, err := os.Stat(filepath.Join(candidate, "package.json")); err == nil {
			tsc, err := typescript.TSCAt(ctx, candidate)
			if err != nil {
				return typescript.TSC{}, fmt.Errorf("the repository's TypeScript (%s): %w", candidate, err)
			}
			return tsc, nil
		}
		if d == root || len(d) <= len(root) || d == filepath.Dir(d) {
			break
		}
	}
	if fetch == nil {
		return typescript.TSC{}, fmt.Errorf("%s installs no TypeScript and no registry client was given for the pinned one", dir)
	}
	return typescript.FetchTSC(ctx, fetch, nil, typescript.PinnedVersion)
}

// newDiagnostics is after minus before (model.Without).
func newDiagnostics(before, after []model.Diagnostic) []model.Diagnostic {
	return model.Without(after, before)
}
