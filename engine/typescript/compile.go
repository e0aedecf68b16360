package typescript

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptide/uptide/engine/model"
)

// MaxOverlayRounds bounds how often the overlay asks for what the targets'
// declarations import before the compile judges with what it has.
const MaxOverlayRounds = 5

// CompileRequest is one Signal B compile of one workspace.
type CompileRequest struct {
	// RepoRoot: file names in the result are relative to it.
	RepoRoot string
	// Workspace is the directory whose tsconfig.json configures the compile
	// (without one, the nearest tsconfig above gives the options and the
	// workspace's own sources are the files); "" is RepoRoot.
	Workspace string
	// TSConfig overrides the workspace's tsconfig.json.
	TSConfig string
	// Files are the files in scope (the usage files and the files importing
	// them), absolute or relative to RepoRoot; nil means every file the
	// tsconfig lists. Only these are type-checked, on both sides.
	Files []string
	// Overlay sends the targets' names to their target versions; nil
	// compiles the baseline alone.
	Overlay *Overlay
	// Baseline, when set, is what the baseline resolves the packages to
	// instead of the installed copies (the @types release the installed
	// runtime should have).
	Baseline *Overlay
	// DeprecatedNames are the member names the targets' surfaces mark
	// @deprecated: only object-literal keys of these names are judged for
	// DeprecatedKeys (none: the judgment is skipped).
	DeprecatedNames []string
	// ShareBaseline asks a baseline-only compile (no Overlay) for its
	// baseline in the form SharedBaseline takes (CompileResult.Shared).
	ShareBaseline bool
	// SharedBaseline is the baseline a ShareBaseline compile of the same
	// workspace answered, by any driver of the same compiler: the files in
	// scope it covers are not compiled again on the baseline side, and the
	// errors of no file in scope (global ones, those in declaration files
	// with skipLibCheck off) are its, so every compile given it subtracts
	// the same ones.
	SharedBaseline *SharedBaseline
	// Runs, when set, are the run's drivers: a tsc -p they ran over
	// RepoRoot with SeedBaseline (fix's compile of the checkout before the
	// upgrade) is the baseline of a native judgment of the same tsconfig
	// (native_seed.go), which then runs its tsc on the overlay alone.
	Runs *Drivers

	// legacyHooks installs only TypeScript 4.x's resolver hooks (tests).
	legacyHooks bool
}

// CompileResult is what the repository's compiler says about the upgrade.
type CompileResult struct {
	// TypeScript is the version that judged; Compiler names it for people
	// ("the repo's TypeScript 5.4.5").
	TypeScript string
	Compiler   string
	// Config is the tsconfig read (repository-relative, "" for none);
	// ConfigKind is own, above (the nearest one up, for options only) or none.
	Config         string
	ConfigKind     string
	ConfigWarnings []model.Diagnostic
	// New are the errors the overlay has and the baseline lacks, as multisets
	// on file, code and message. Line and Column are 1-based, Start is the
	// 0-based character offset.
	New []model.Diagnostic
	// PreExisting counts the baseline's errors in the files in scope;
	// PreExistingErrors are those errors, sorted by file and position.
	PreExisting       int
	PreExistingErrors []model.Diagnostic
	// OverlaySkipped says why the overlay did not run (an invalid tsconfig, a
	// structurally broken baseline); New is empty then.
	OverlaySkipped string
	Coverage       CompileCoverage
	// UnresolvedInTarget: bare imports inside the targets (and what was
	// linked for them) nothing could serve after the rounds.
	UnresolvedInTarget []UnresolvedImport
	// SkipLibCheck: every project of the compile skips checking
	// declaration files.
	SkipLibCheck bool
	// NewerTypeScript holds the parse errors when the judging compiler
	// cannot read the targets' declarations: tsc would print those and check
	// nothing else, so New says nothing and this is the finding.
	NewerTypeScript []model.Diagnostic
	// DeprecatedKeys are the object-literal keys in scope whose property
	// the target declares @deprecated and the baseline did not: the
	// compiler reports no suggestion there, and the key's declaration
	// differs between the versions, so only the overlay program sees it.
	DeprecatedKeys []DeprecatedKey
	// Unchecked are the files in scope (repository-relative) the
	// repository does not type-check: JavaScript without checkJs or
	// // @ts-check, and files under @ts-nocheck. The compile checks them
	// anyway; what it says there is the arbiter's to weigh.
	Unchecked []string
	// Rounds counts the overlay's dependency rounds.
	Rounds   int
	Baseline time.Duration
	Overlay  time.Duration
	// BaselineShared counts the files whose baseline came from
	// SharedBaseline instead of a program of this compile's.
	BaselineShared int
	// BaselineCached counts the files whose baseline errors the driver
	// already had: an earlier compile's, or a seeding tsc -p run's
	// (TSC.SeedBaseline).
	BaselineCached int
	// Shared is the baseline a ShareBaseline compile answers.
	Shared *SharedBaseline
}

// CompileCoverage is what the compile covered.
type CompileCoverage struct {
	Asked    int           `json:"asked"`
	Compiled int           `json:"compiled"`
	Skipped  []SkippedFile `json:"skipped"`
}

// DeprecatedKey is one object-literal key the target deprecates: where
// it is written, and where its property is declared in the linked package
// (the place the package's surface records, to name it by its path).
type DeprecatedKey struct {
	// File is repository-relative; Line and Column are 1-based, Start and
	// End the key's character offsets.
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Name   string `json:"name"`
	// Access is write, or implement for a function value.
	Access string `json:"access"`
	// Package is the linked package declaring the property; DeclFile
	// (slash path inside it) and DeclPos (the name's offset) locate the
	// declaration as model.Symbol's File and Pos do.
	Package  string `json:"package"`
	DeclFile string `json:"declFile"`
	DeclPos  int    `json:"declPos"`
	// ContainerFile and ContainerPos locate the named type the key was
	// typed by ("" when anonymous, or declared outside the package): one
	// declaration can serve many types.
	ContainerFile string `json:"containerFile"`
	ContainerPos  int    `json:"containerPos"`
	// Message is the @deprecated text.
	Message string `json:"message"`
}

// SkippedFile is a file in scope the compile did not type-check, and why.
type SkippedFile struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
	// Outside: the workspace's tsconfig does not include the file (Reason
	// says which tsconfig).
	Outside bool `json:"outside,omitempty"`
}

// UnresolvedWarning is the one line that stands for every unresolved import
// inside the target ("" when there is none).
func (r *CompileResult) UnresolvedWarning(target string) string {
	n := len(r.UnresolvedInTarget)
	if n == 0 {
		return ""
	}
	noun := "modules"
	if n == 1 {
		noun = "module"
	}
	return fmt.Sprintf("%d unresolved %s inside %s, results may be incomplete", n, noun, target)
}

type compileAnswer struct {
	TypeScript     string             `json:"typescript"`
	Config         string             `json:"config"`
	ConfigKind     string             `json:"configKind"`
	ConfigWarnings []model.Diagnostic `json:"configWarnings"`
	NewDiagnostics []model.Diagnostic `json:"newDiagnostics"`
	PreExisting    int                `json:"preExisting"`
	PreExistingD   []model.Diagnostic `json:"preExistingDiagnostics"`
	OverlaySkipped string             `json:"overlaySkipped"`
	// Unjudged: a JudgeResolved compile stopped at what the overlay lacks.
	Unjudged       bool               `json:"unjudged"`
	Coverage       CompileCoverage    `json:"coverage"`
	Unresolved     []UnresolvedImport `json:"unresolvedInTarget"`
	DeprecatedKeys []DeprecatedKey    `json:"deprecatedKeys"`
	Unchecked      []string           `json:"unchecked"`
	SkipLibCheck   bool               `json:"skipLibCheck"`
	NewerTS        *struct {
		Diagnostics []model.Diagnostic `json:"diagnostics"`
	} `json:"newerTypeScript"`
	Timing struct {
		BaselineMs     int64 `json:"baselineMs"`
		OverlayMs      int64 `json:"overlayMs"`
		BaselineShared int   `json:"baselineShared"`
		BaselineCached int   `json:"baselineCached"`
	} `json:"timing"`
	Baseline json.RawMessage `json:"baseline"`
}

// SharedBaseline is one workspace's baseline as its driver answered it,
// passed back as it came (the driver's own form).
type SharedBaseline struct{ raw json.RawMessage }

type compileParams struct {
	RepoRoot    string   `json:"repoRoot"`
	Workspace   string   `json:"workspace"`
	TSConfig    string   `json:"tsconfig,omitempty"`
	Files       []string `json:"files"` // null: every file the tsconfig lists
	Overlay     *mapping `json:"overlay,omitempty"`
	Baseline    *mapping `json:"baseline,omitempty"`
	ResolveOnly bool     `json:"resolveOnly,omitempty"`
	// JudgeResolved compiles only when the targets import nothing the
	// overlay lacks, else answers as ResolveOnly does (Unjudged).
	JudgeResolved bool `json:"judgeResolved,omitempty"`
	// DeprecatedNames: see CompileRequest.
	DeprecatedNames []string `json:"deprecatedNames,omitempty"`
	// SourcePaths send the workspace's dependencies on other workspaces
	// to their sources (FindWorkspaceSources).
	SourcePaths map[string][]string `json:"sourcePaths,omitempty"`
	LegacyHooks bool                `json:"legacyHooks,omitempty"`
	// ShareBaseline, KnownBaseline: see CompileRequest's ShareBaseline
	// and SharedBaseline.
	ShareBaseline bool            `json:"shareBaseline,omitempty"`
	KnownBaseline json.RawMessage `json:"knownBaseline,omitempty"`
}

// Compile type-checks the files in scope against the installed packages and
// against the overlay, with the adapter's compiler, which for a judging
// compile must be the repository's own (ResolveCompiler). When the targets'
// declarations import what the overlay lacks, up to MaxOverlayRounds
// rounds link it before the judging compile.
func (a *Adapter) Compile(ctx context.Context, req CompileRequest) (*CompileResult, error) {
	if req.RepoRoot == "" {
		return nil, errors.New("compile: no repository root")
	}
	root, err := filepath.Abs(req.RepoRoot)
	if err != nil {
		return nil, err
	}
	params := compileParams{RepoRoot: root, Workspace: root, LegacyHooks: req.legacyHooks, DeprecatedNames: req.DeprecatedNames}
	if req.Workspace != "" {
		params.Workspace = absUnder(root, req.Workspace)
	}
	if req.TSConfig != "" {
		params.TSConfig = absUnder(root, req.TSConfig)
	}
	if req.Files != nil {
		params.Files = make([]string, 0, len(req.Files))
		for _, f := range req.Files {
			params.Files = append(params.Files, absUnder(root, f))
		}
	}
	if req.Baseline != nil {
		params.Baseline = req.Baseline.driverMapping()
	}
	params.ShareBaseline = req.ShareBaseline && req.Overlay == nil
	if req.SharedBaseline != nil {
		params.KnownBaseline = req.SharedBaseline.raw
	}
	if src := FindWorkspaceSources(root, params.Workspace); len(src.Paths) > 0 {
		params.SourcePaths = src.Paths
	}
	argv, version, err := a.tscJudge(ctx)
	if err != nil {
		return nil, err
	}
	if argv != nil {
		// The repository's own tsc judges; the driver still scopes.
		return a.compileNative(ctx, req, params, root, argv, version)
	}
	subject := params.Workspace

	rounds := 0
	var baselineMs, overlayMs int64
	var ans compileAnswer
	// cached is the first request's: a dependency round's baseline is the
	// one the first request cached.
	cached := -1
	if req.Overlay == nil {
		if err := a.call(ctx, "compile", params, subject, &ans); err != nil {
			return nil, err
		}
	}
	for req.Overlay != nil {
		// Each request judges unless the targets' declarations import what
		// the overlay lacks; then it was a dependency round. A round of its
		// own before every compile cost as much CPU as the compile (2.3 s
		// against 1.3 s on stripe 14 → 23), which then built the same
		// programs again, and most upgrades need no round.
		p := params
		p.Overlay = req.Overlay.driverMapping()
		p.JudgeResolved = rounds < MaxOverlayRounds
		ans = compileAnswer{}
		if err := a.call(ctx, "compile", p, subject, &ans); err != nil {
			return nil, err
		}
		if cached < 0 {
			cached = ans.Timing.BaselineCached
		}
		if !ans.Unjudged {
			break
		}
		baselineMs += ans.Timing.BaselineMs
		overlayMs += ans.Timing.OverlayMs
		rounds++
		progress, err := req.Overlay.Resolve(ctx, ans.Unresolved)
		if err != nil {
			return nil, err
		}
		if !progress {
			// Nothing more can be served: judge the overlay as it is.
			p.JudgeResolved = false
			ans = compileAnswer{}
			if err := a.call(ctx, "compile", p, subject, &ans); err != nil {
				return nil, err
			}
			break
		}
	}
	if req.Overlay != nil {
		req.Overlay.setUnresolved(ans.Unresolved)
		ans.Unresolved = req.Overlay.Unresolved()
		ans.Timing.BaselineCached = cached
	}
	ws := ""
	if rel, err := filepath.Rel(root, params.Workspace); err == nil && rel != "." {
		ws = filepath.ToSlash(rel)
	}
	r := &CompileResult{
		TypeScript:         ans.TypeScript,
		Compiler:           a.compilerLabel(ans.TypeScript),
		Config:             ans.Config,
		ConfigKind:         ans.ConfigKind,
		ConfigWarnings:     withWorkspace(ans.ConfigWarnings, ws),
		New:                withRoots(withWorkspace(ans.NewDiagnostics, ws), ws),
		PreExisting:        ans.PreExisting,
		PreExistingErrors:  withWorkspace(nonNil(ans.PreExistingD), ws),
		OverlaySkipped:     ans.OverlaySkipped,
		Coverage:           ans.Coverage,
		UnresolvedInTarget: ans.Unresolved,
		DeprecatedKeys:     ans.DeprecatedKeys,
		Unchecked:          ans.Unchecked,
		SkipLibCheck:       ans.SkipLibCheck,
		Rounds:             rounds,
		Baseline:           time.Duration(baselineMs+ans.Timing.BaselineMs) * time.Millisecond,
		BaselineShared:     ans.Timing.BaselineShared,
		BaselineCached:     ans.Timing.BaselineCached,
		Overlay:            time.Duration(overlayMs+ans.Timing.OverlayMs) * time.Millisecond,
	}
	if ans.NewerTS != nil {
		r.NewerTypeScript = withWorkspace(ans.NewerTS.Diagnostics, ws)
		if r.NewerTypeScript == nil {
			r.NewerTypeScript = []model.Diagnostic{}
		}
	}
	if len(ans.Baseline) > 0 && string(ans.Baseline) != "null" {
		r.Shared = &SharedBaseline{raw: ans.Baseline}
	}
	if r.Coverage.Skipped == nil {
		r.Coverage.Skipped = []SkippedFile{}
	}
	return r, nil
}

// linkRounds asks the driver (resolveOnly) what the targets' declarations
// import and the overlay lacks, and links it, until nothing is missing,
// nothing more can be served, or MaxOverlayRounds rounds have linked; the
// last answer is about the overlay as it is then. The driver computes the
// baseline on the first call and caches it, so dependency rounds count as
// overlay time. The native judge needs it: its own tsc judges, and the
// driver's last answer is the traced one (Compile folds the rounds into
// its judging requests instead).
func (a *Adapter) linkRounds(ctx context.Context, params compileParams, o *Overlay, subject string) (ans compileAnswer, rounds int, baselineMs, overlayMs int64, err error) {
	for {
		p := params
		p.Overlay = o.driverMapping()
		p.ResolveOnly = true
		ans = compileAnswer{}
		if err = a.call(ctx, "compile", p, subject, &ans); err != nil {
			return ans, rounds, baselineMs, overlayMs, err
		}
		baselineMs += ans.Timing.BaselineMs
		overlayMs += ans.Timing.OverlayMs
		if ans.OverlaySkipped != "" || len(ans.Unresolved) == 0 || rounds >= MaxOverlayRounds {
			return ans, rounds, baselineMs, overlayMs, nil
		}
		rounds++
		progress, rerr := o.Resolve(ctx, ans.Unresolved)
		if rerr != nil {
			return ans, rounds, baselineMs, overlayMs, rerr
		}
		if !progress {
			return ans, rounds, baselineMs, overlayMs, nil
		}
	}
}

// compilerLabel names the judge the way the coverage line prints it.
func (a *Adapter) compilerLabel(version string) string {
	switch {
	case a.compiler.FromRepo:
		return "the repo's TypeScript " + version
	case a.compiler.RepoNative != "":
		return fmt.Sprintf("the bundled TypeScript %s (the repo's TypeScript %s has no JavaScript API)", version, a.compiler.RepoNative)
	default:
		return "the bundled TypeScript " + version
	}
}

func withWorkspace(ds []model.Diagnostic, ws string) []model.Diagnostic {
	if len(ds) == 0 {
		return ds
	}
	out := make([]model.Diagnostic, len(ds))
	for i, d := range ds {
		d.Workspace = ws
		out[i] = d
	}
	return out
}

// absUnder makes a repository-relative (or absolute) path absolute.
func absUnder(root, p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(root, strings.TrimPrefix(p, "./"))
}
