package typescript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/uptide/uptide/engine/model"
)

// compileNative is Compile when the repository's TypeScript is one the
// driver cannot load (a native one, or one older than OldestSupported):
// the driver (the pinned compiler) still runs the overlay's dependency
// rounds and says what the tsconfig is, what is in scope and what was
// covered, and the repository's own tsc (argv, at version) judges,
// baseline and overlay, on generated tsconfigs over materialized copies
// of the overlays.
func (a *Adapter) compileNative(ctx context.Context, req CompileRequest, params compileParams, root string, argv []string, version string) (*CompileResult, error) {
	subject := params.Workspace
	var ans compileAnswer
	rounds := 0
	var baselineMs, overlayMs int64
	if req.Overlay != nil {
		var err error
		if ans, rounds, baselineMs, overlayMs, err = a.linkRounds(ctx, params, req.Overlay, subject); err != nil {
			return nil, err
		}
		req.Overlay.setUnresolved(ans.Unresolved)
		ans.Unresolved = req.Overlay.Unresolved()
	} else if err := a.call(ctx, "compile", params, subject, &ans); err != nil {
		return nil, err
	}
	ws := ""
	if rel, err := filepath.Rel(root, params.Workspace); err == nil && rel != "." {
		ws = filepath.ToSlash(rel)
	}
	r := &CompileResult{
		TypeScript:         version,
		Compiler:           "the repo's TypeScript " + version,
		Config:             ans.Config,
		ConfigKind:         ans.ConfigKind,
		ConfigWarnings:     withWorkspace(ans.ConfigWarnings, ws),
		New:                []model.Diagnostic{},
		PreExisting:        ans.PreExisting,
		PreExistingErrors:  withWorkspace(nonNil(ans.PreExistingD), ws),
		OverlaySkipped:     ans.OverlaySkipped,
		Coverage:           ans.Coverage,
		UnresolvedInTarget: ans.Unresolved,
		SkipLibCheck:       ans.SkipLibCheck,
		Rounds:             rounds,
	}
	if r.Coverage.Skipped == nil {
		r.Coverage.Skipped = []SkippedFile{}
	}
	finish := func(base, over time.Duration) (*CompileResult, error) {
		r.Baseline = time.Duration(baselineMs)*time.Millisecond + base
		r.Overlay = time.Duration(overlayMs)*time.Millisecond + over
		return r, nil
	}
	if ans.OverlaySkipped != "" {
		return finish(0, 0)
	}

	tmp, err := os.MkdirTemp("", "uptide-native-")
	if err != nil {
		return nil, fmt.Errorf("native compile: %w", err)
	}
	defer os.RemoveAll(tmp)
	if real, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = real
	}
	var overSide, baseSide *nativeSide
	planParams := nativePlanParams{RepoRoot: params.RepoRoot, Workspace: params.Workspace, TSConfig: params.TSConfig, Files: params.Files, Sides: []nativeSideParam{}, SourcePaths: params.SourcePaths, Judge: version}
	if req.Overlay != nil {
		if overSide, err = materialize(req.Overlay, "overlay", filepath.Join(tmp, "overlay")); err != nil {
			return nil, err
		}
		planParams.Sides = append(planParams.Sides, nativeSideParam{Name: overSide.Name, Root: overSide.Root, Packages: overSide.Packages})
	}
	if req.Baseline != nil {
		if baseSide, err = materialize(req.Baseline, "baseline", filepath.Join(tmp, "baseline")); err != nil {
			return nil, err
		}
		planParams.Sides = append(planParams.Sides, nativeSideParam{Name: baseSide.Name, Root: baseSide.Root, Packages: baseSide.Packages})
	}
	var plan nativePlanAnswer
	if err := a.call(ctx, "native", planParams, subject, &plan); err != nil {
		return nil, err
	}

	j := newNativeJudgment(root, tmp, overSide, baseSide)
	var base, over judged
	var baseTook, overTook time.Duration
	// runSide runs tsc on every unit for one side; the installed side's
	// may be the checkout's compile a fix run made (native_seed.go).
	runSide := func(name string, side *nativeSide, into *judged, took *time.Duration) error {
		for i, u := range plan.Units {
			run, seeded := (*nativeRun)(nil), false
			if side == nil {
				run, seeded = seedFor(ctx, req.Runs, argv, root, u, len(params.SourcePaths) > 0)
			}
			if seeded {
				r.BaselineCached += len(u.Files)
			} else {
				var err error
				if run, err = a.runNativeSide(ctx, argv, root, tmp, name, i, u, side); err != nil {
					return err
				}
			}
			*took += run.took
			into.add(j.classify(run, u, side))
		}
		return nil
	}
	if err := runSide("baseline", baseSide, &base, &baseTook); err != nil {
		return nil, err
	}
	compiled := 0
	for _, u := range plan.Units {
		compiled += len(u.Files)
	}
	r.Coverage.Compiled = compiled
	skipAll := func(reason string) (*CompileResult, error) {
		r.OverlaySkipped = reason
		r.Coverage.Compiled = 0
		for _, u := range plan.Units {
			for _, f := range u.Files {
				r.Coverage.Skipped = append(r.Coverage.Skipped, SkippedFile{File: j.rel(f), Reason: reason})
			}
		}
		sort.Slice(r.Coverage.Skipped, func(i, k int) bool { return r.Coverage.Skipped[i].File < r.Coverage.Skipped[k].File })
		return finish(baseTook, overTook)
	}
	if len(base.gating) > 0 {
		// tsc stops at a configuration or global error and type-checks no
		// file: the baseline says nothing, so neither can the overlay.
		return skipAll(fmt.Sprintf("the repo's TypeScript %s type-checks no file: it stops at %s", version, describe(base.gating[0])))
	}
	baseAll := base.judged()
	r.PreExisting = len(baseAll)
	r.PreExistingErrors = withWorkspace(nonNil(append([]model.Diagnostic(nil), baseAll...)), ws)
	sortDiagnostics(r.PreExistingErrors)
	if overSide == nil {
		return finish(baseTook, overTook)
	}
	// The driver's dependency rounds leave the baseline to this judge
	// (resolveOnly): its own tsc says when most files cannot resolve their
	// imports, as the driver's baseline does.
	if unresolved := unresolvedFiles(base.inScope); compiled > 0 && unresolved*2 > compiled {
		// Nothing is judged: what the rounds found missing in the targets
		// says nothing either, as where the driver skips before them.
		req.Overlay.setUnresolved(nil)
		r.UnresolvedInTarget = req.Overlay.Unresolved()
		return skipAll(fmt.Sprintf("the baseline is structurally broken: %d of %d files cannot resolve their imports (are dependencies installed?)", unresolved, compiled))
	}
	if err := runSide("overlay", overSide, &over, &overTook); err != nil {
		return nil, err
	}
	if len(over.sideSyntax) > 0 && over.onlySyntax() {
		// What tsc prints when it cannot parse the targets' declarations:
		// those errors and nothing else. Never "no new errors".
		r.NewerTypeScript = withWorkspace(over.sideSyntax, ws)
		return finish(baseTook, overTook)
	}
	r.New = newOnlyDiags(baseAll, over.judged())
	keys, err := a.traceNative(ctx, params, req.Overlay, r.New)
	if err != nil {
		return nil, err
	}
	r.DeprecatedKeys = keys
	r.New = withRoots(withWorkspace(r.New, ws), ws)
	return finish(baseTook, overTook)
}

// traceParams is a dependency round that also traces diagnostics and
// names the deprecated keys.
type traceParams struct {
	compileParams
	Trace          []model.Diagnostic `json:"trace"`
	DeprecatedKeys bool               `json:"deprecatedKeys"`
}

// traceNative gives the new diagnostics the lengths and roots the driver's
// tracer finds on its overlay programs, as the driver's own judgment has
// them, and returns the deprecated keys those programs see (which no tsc
// reports). A driver that cannot trace leaves the diagnostics as they are;
// only a cancelled run is an error.
func (a *Adapter) traceNative(ctx context.Context, params compileParams, ov *Overlay, ds []model.Diagnostic) ([]DeprecatedKey, error) {
	if ov == nil || len(ds) == 0 && len(params.DeprecatedNames) == 0 {
		return nil, nil
	}
	p := traceParams{compileParams: params, Trace: ds, DeprecatedKeys: len(params.DeprecatedNames) > 0}
	if p.Trace == nil {
		p.Trace = []model.Diagnostic{}
	}
	p.Overlay = ov.driverMapping()
	p.ResolveOnly = true
	var ans compileAnswer
	if err := a.call(ctx, "compile", p, params.Workspace, &ans); err != nil {
		return nil, ctx.Err()
	}
	keys := ans.DeprecatedKeys
	if len(ans.NewDiagnostics) != len(ds) {
		return keys, nil
	}
	for i, t := range ans.NewDiagnostics {
		if t.File != ds[i].File || t.Start != ds[i].Start || t.Code != ds[i].Code {
			return keys, nil
		}
	}
	for i, t := range ans.NewDiagnostics {
		if t.Length > 0 {
			ds[i].Length = t.Length
		}
		ds[i].Root = t.Root
	}
	return keys, nil
}

// runNativeSide writes unit i's tsconfig for one side and runs tsc on it.
func (a *Adapter) runNativeSide(ctx context.Context, argv []string, root, tmp, name string, i int, u nativeUnit, side *nativeSide) (*nativeRun, error) {
	b, err := nativeTSConfig(u, side)
	if err != nil {
		return nil, err
	}
	config := filepath.Join(tmp, "tsconfig."+name+"."+strconv.Itoa(i)+".json")
	if err := os.WriteFile(config, b, 0o644); err != nil {
		return nil, fmt.Errorf("native compile: %w", err)
	}
	return runNativeTSC(ctx, argv, config, root, a.opts.RequestTimeout)
}

// judged is one side's diagnostics, sorted out.
type judged struct {
	// inScope: errors in the files in scope; global: errors without a
	// location; gating: those and errors in a tsconfig, after which tsc
	// type-checks nothing; sideSyntax: syntax errors inside the overlay's
	// copies; lib: the other errors in declaration files, which tsc
	// reports with skipLibCheck off (the driver's libErrors).
	inScope, global, config, sideSyntax, lib []model.Diagnostic
	gating                                   []model.Diagnostic
	all                                      int
	syntax                                   int
}

func (s *judged) add(o judged) {
	s.inScope = append(s.inScope, o.inScope...)
	s.global = append(s.global, o.global...)
	s.config = append(s.config, o.config...)
	s.sideSyntax = append(s.sideSyntax, o.sideSyntax...)
	s.lib = append(s.lib, o.lib...)
	s.gating = append(s.gating, o.gating...)
	s.all += o.all
	s.syntax += o.syntax
}

// judged is what counts, as the driver counts: errors in the files in
// scope, global ones, errors in declaration files (skipLibCheck off), and
// (on the overlay) a tsconfig's, which stand for everything tsc then
// leaves unchecked. Syntax-coded errors inside the copies count too: when
// tsc prints anything else beside them it parsed every file, and they are
// its checker's grammar errors in declaration files (TypeScript 4.1's
// TS1337 on a union index signature), which the real upgrade prints.
func (s *judged) judged() []model.Diagnostic {
	out := make([]model.Diagnostic, 0, len(s.inScope)+len(s.global)+len(s.config)+len(s.lib)+len(s.sideSyntax))
	out = append(out, s.inScope...)
	out = append(out, s.lib...)
	out = append(out, s.sideSyntax...)
	out = append(out, s.global...)
	out = append(out, s.config...)
	sortDiagnostics(out)
	return out
}

// onlySyntax: every error tsc printed is a syntax error (TS1xxx), as when
// it could not parse a file and checked nothing.
func (s *judged) onlySyntax() bool { return s.all > 0 && s.syntax == s.all }

// nativeJudgment turns tsc's diagnostics into the driver's vocabulary:
// repository-relative files (node_modules/<name>/… inside an overlay),
// UTF-16 offsets, messages without temporary directories.
type nativeJudgment struct {
	roots    []string // the repository root, and its real path
	gen      string   // where the generated tsconfigs are
	sides    []*nativeSide
	prefixes [][2]string
	lines    map[string][]int
}

func newNativeJudgment(root, gen string, sides ...*nativeSide) *nativeJudgment {
	j := &nativeJudgment{roots: repoRoots(root), gen: gen, lines: map[string][]int{}}
	for _, s := range sides {
		if s == nil {
			continue
		}
		j.sides = append(j.sides, s)
		j.prefixes = append(j.prefixes, [2]string{filepath.Join(s.Root, "node_modules") + string(filepath.Separator), "node_modules/"})
		for dir, name := range s.dirs {
			j.prefixes = append(j.prefixes, [2]string{dir + string(filepath.Separator), name + "/"})
		}
	}
	for _, r := range j.roots {
		j.prefixes = append(j.prefixes, [2]string{r + string(filepath.Separator), ""})
	}
	sort.SliceStable(j.prefixes, func(a, b int) bool { return len(j.prefixes[a][0]) > len(j.prefixes[b][0]) })
	return j
}

// msg takes the temporary and repository directories out of a message
// (import("/tmp/…/node_modules/zod/v4/core").ZodType), so a message does
// not change with where a side was laid out.
func (j *nativeJudgment) msg(m string) string {
	for _, p := range j.prefixes {
		if strings.Contains(m, p[0]) {
			m = strings.ReplaceAll(m, p[0], p[1])
		}
	}
	return m
}

// rel names an absolute file as the driver does.
func (j *nativeJudgment) rel(abs string) string {
	abs = filepath.Clean(abs)
	for _, p := range j.prefixes {
		if rest, ok := strings.CutPrefix(abs, p[0]); ok {
			return filepath.ToSlash(p[1] + rest)
		}
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
		for _, r := range j.roots {
			if rest, ok := strings.CutPrefix(real, r+string(filepath.Separator)); ok {
				return filepath.ToSlash(rest)
			}
		}
	}
	return filepath.ToSlash(abs)
}

// offset is the UTF-16 offset of line:column in file, read once.
func (j *nativeJudgment) offset(file string, line, column int) int {
	starts, ok := j.lines[file]
	if !ok {
		text, err := os.ReadFile(file)
		if err == nil {
			starts = lineStarts(text)
		}
		j.lines[file] = starts
	}
	return offsetOf(starts, line, column)
}

// inSide says whether abs lies inside one of the sides' copies.
func (j *nativeJudgment) inSide(abs string) bool {
	for _, s := range j.sides {
		if inside(s.Root, abs) {
			return true
		}
	}
	return false
}

func inside(root, p string) bool {
	return p == root || strings.HasPrefix(p, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

// classify sorts one run's errors (warnings and messages are not judged,
// as in the driver) by where they are.
func (j *nativeJudgment) classify(run *nativeRun, u nativeUnit, side *nativeSide) judged {
	scope := map[string]bool{}
	for _, f := range u.Files {
		scope[filepath.Clean(f)] = true
		if real, err := filepath.EvalSymlinks(f); err == nil {
			scope[real] = true
		}
	}
	cwd := j.roots[0]
	var out judged
	for _, d := range run.diags {
		if d.Category != "error" {
			continue
		}
		out.all++
		if d.Code >= 1000 && d.Code < 2000 {
			out.syntax++
		}
		md := model.Diagnostic{Code: d.Code, Message: j.msg(d.Message)}
		if d.File == "" {
			out.global = append(out.global, md)
			out.gating = append(out.gating, md)
			continue
		}
		abs := filepath.FromSlash(d.File)
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, abs)
		}
		abs = filepath.Clean(abs)
		md.File, md.Line, md.Column = j.rel(abs), d.Line, d.Column
		md.Start = j.offset(abs, d.Line, d.Column)
		switch {
		case strings.HasSuffix(abs, ".json"):
			// A tsconfig's. tsc puts what it finds wrong in an extended
			// tsconfig at the generated one's "extends": that names the
			// workspace's tsconfig, without a position.
			if j.gen != "" && inside(j.gen, abs) {
				md.File, md.Line, md.Column, md.Start = "", 0, 0, 0
				if u.Config != "" {
					md.File = j.rel(u.Config)
				}
			}
			out.config = append(out.config, md)
			out.gating = append(out.gating, md)
		case scope[abs] || scope[realOr(abs)]:
			out.inScope = append(out.inScope, md)
		case side != nil && inside(side.Root, abs) && d.Code >= 1000 && d.Code < 2000:
			out.sideSyntax = append(out.sideSyntax, md)
		case declarationFile(abs) && !(side != nil && inside(side.Root, abs) && unresolvedCode(d.Code)):
			// An import the overlay could not link inside a copy is the
			// overlay's gap (the compile says so), not the upgrade's.
			out.lib = append(out.lib, md)
		}
	}
	return out
}

// unresolvedFiles counts the files with an import that does not resolve.
func unresolvedFiles(ds []model.Diagnostic) int {
	files := map[string]bool{}
	for _, d := range ds {
		if unresolvedCode(d.Code) {
			files[d.File] = true
		}
	}
	return len(files)
}

func declarationFile(p string) bool {
	return strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts")
}

// unresolvedCode: "Cannot find module" (the driver's UNRESOLVED_CODES).
func unresolvedCode(code int) bool { return code == 2307 || code == 2792 }

func realOr(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

// describe names a diagnostic in a reason line.
func describe(d model.Diagnostic) string {
	where := ""
	switch {
	case d.File != "" && d.Line > 0:
		where = fmt.Sprintf(" in %s:%d", d.File, d.Line)
	case d.File != "":
		where = " in " + d.File
	}
	first, _, _ := strings.Cut(d.Message, "\n")
	return fmt.Sprintf("TS%d%s: %s", d.Code, where, first)
}
