package match

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
)

var (
	jsxRoot   = model.Root{Kind: model.CauseConfig, Workspace: "web", File: "web/tsconfig.json", Line: 4, Column: 5, Name: "jsx"}
	paramRoot = model.Root{Kind: model.CauseParameter, Workspace: "editor", File: "packages/editor/src/hooks.ts", Line: 12, Column: 40, Name: "usePassThroughWheelEvents(ref)"}
	augRoot   = model.Root{Kind: model.CauseAugmentation, Workspace: ".", File: "test/setup.ts", Line: 3, Column: 3, Name: "jest.Matchers#toMatchImageSnapshot"}
	declRoot  = model.Root{Kind: model.CauseDeclaration, Workspace: ".", File: "src/make.ts", Line: 8, Column: 14, Name: "make", Detail: "whose type changed from Schema to unknown"}
)

type causeCase struct {
	rule  string
	name  string
	diags []model.Diagnostic
	want  []expect
	// changes and usages, when set, are matched first: the findings the
	// diagnostics may land on.
	changes []model.Change
	usages  []model.Usage
}

// r.error.errors.map((e) => e.message) after zod 4 removed ZodError#errors:
// the usage of errors at column 45, its own TS2339 there, and the TS7006 on
// e that the tracer followed back to it.
var (
	errorsUse     = col(use("src/a.ts", 6, "ZodError#errors", model.AccessRead), 45)
	errorsRemoved = change("ZodError#errors", model.ChangeRemoved, model.Breaking)
	usageRoot     = model.Root{Kind: model.CauseUsage, Workspace: ".", File: "src/a.ts", Line: 6, Column: 45, Name: "r.error.errors", Detail: "which the target no longer declares"}
	errorsTS2339  = atColumn(diag("src/a.ts", 645, 2339, "Property 'errors' does not exist on type 'ZodError<User>'."), 45)
	errorsTS7006  = rooted(diag("src/a.ts", 657, 7006, "Parameter 'e' implicitly has an 'any' type."), usageRoot)
)

var causeCases = []causeCase{
	{rule: "cause/config", name: "every JSX element errors with one fix at the jsx line",
		diags: []model.Diagnostic{
			rooted(diag("web/src/a.tsx", 310, 7026, "JSX element implicitly has type 'any' because no interface 'JSX.IntrinsicElements' exists."), jsxRoot),
			rooted(diag("web/src/a.tsx", 410, 7026, "JSX element implicitly has type 'any' because no interface 'JSX.IntrinsicElements' exists."), jsxRoot),
			rooted(diag("web/src/b.tsx", 110, 2602, "JSX element implicitly has type 'any' because the global type 'JSX.Element' does not exist."), jsxRoot),
		},
		want: []expect{{brief: brief{"", "jsx", "cause", model.Breaking, 1, "web/tsconfig.json", 4},
			reason: "3 errors trace to the jsx option at web/tsconfig.json:4", fix: model.Manual, downstream: 3, root: "web/tsconfig.json:4", anchor: true}}},
	{rule: "cause/parameter", name: "a repository parameter two call sites trip is the one edit",
		diags: []model.Diagnostic{
			rooted(diag("packages/tldraw/src/a.tsx", 310, 2345, "Argument of type 'RefObject<HTMLElement | null>' is not assignable to parameter of type 'RefObject<HTMLElement>'."), paramRoot),
			rooted(diag("packages/tldraw/src/b.tsx", 510, 2345, "Argument of type 'RefObject<HTMLDivElement | null>' is not assignable to parameter of type 'RefObject<HTMLElement>'."), paramRoot),
		},
		want: []expect{{brief: brief{"", "usePassThroughWheelEvents(ref)", "cause", model.Breaking, 1, "packages/editor/src/hooks.ts", 12},
			reason: "2 call sites reject what they pass to usePassThroughWheelEvents(ref), declared at packages/editor/src/hooks.ts:12", fix: model.Manual, downstream: 2, root: "packages/editor/src/hooks.ts:12", anchor: true}}},
	{rule: "cause/single-site", name: "a parameter one site trips stays at the site, its root kept",
		diags: []model.Diagnostic{
			rooted(diag("packages/tldraw/src/a.tsx", 310, 2345, "Argument of type 'RefObject<HTMLElement | null>' is not assignable to parameter of type 'RefObject<HTMLElement>'."), paramRoot),
		},
		want: []expect{{brief: brief{"", "", "TS2345", model.Breaking, 1, "packages/tldraw/src/a.tsx", 3},
			reason: "compile error not attributed", fix: model.UnknownFix, evidence: 1, root: "packages/editor/src/hooks.ts:12"}}},
	{rule: "cause/augmentation", name: "one site is enough for an augmentation",
		diags: []model.Diagnostic{
			rooted(diag("test/img.test.ts", 710, 2339, "Property 'toMatchImageSnapshot' does not exist on type 'JestMatchers<Buffer>'."), augRoot),
		},
		want: []expect{{brief: brief{"", "jest.Matchers#toMatchImageSnapshot", "cause", model.Breaking, 1, "test/setup.ts", 3},
			reason: "1 error at sites using jest.Matchers#toMatchImageSnapshot, which the repository's augmentation at test/setup.ts:3 declares", fix: model.Manual, downstream: 1, root: "test/setup.ts:3", anchor: true}}},
	{rule: "cause/declaration", name: "errors sharing a traced declaration collapse at it",
		diags: []model.Diagnostic{
			rooted(diag("src/a.ts", 310, 18046, "'schema' is of type 'unknown'."), declRoot),
			rooted(diag("src/b.ts", 310, 18046, "'schema' is of type 'unknown'."), declRoot),
			diag("src/c.ts", 310, 2304, "Cannot find name 'x'."),
		},
		want: []expect{
			{brief: brief{"", "", "TS2304", model.Breaking, 1, "src/c.ts", 3}, reason: "Cannot find name 'x'.", fix: model.UnknownFix, evidence: 1},
			{brief: brief{"", "make", "cause", model.Breaking, 1, "src/make.ts", 8},
				reason: "2 errors caused by make (src/make.ts:8), whose type changed from Schema to unknown. Fix here first.", fix: model.Manual, downstream: 2, root: "src/make.ts:8", anchor: true},
		}},
	{rule: "cause/usage", name: "the error downstream of a removed member is evidence of the finding at its usage, counted once",
		changes: []model.Change{errorsRemoved}, usages: []model.Usage{errorsUse},
		diags: []model.Diagnostic{errorsTS2339, errorsTS7006},
		want: []expect{{brief: brief{"ZodError#errors", "ZodError#errors", "removed", model.Breaking, 1, "src/a.ts", 6},
			reason: "ZodError#errors was removed", evidence: 1, downstream: 1}}},
	{rule: "cause/usage", name: "the downstream error alone confirms the change at the usage",
		changes: []model.Change{errorsRemoved}, usages: []model.Usage{errorsUse},
		diags: []model.Diagnostic{errorsTS7006},
		want: []expect{{brief: brief{"ZodError#errors", "ZodError#errors", "removed", model.Breaking, 1, "src/a.ts", 6},
			reason: "ZodError#errors was removed", downstream: 1}}},
	{rule: "cause/usage", name: "a low-confidence change the downstream error confirms is listed",
		changes: []model.Change{withConf(errorsRemoved, 0.4)}, usages: []model.Usage{errorsUse},
		diags: []model.Diagnostic{errorsTS7006},
		want: []expect{{brief: brief{"ZodError#errors", "ZodError#errors", "removed", model.Breaking, 0.4, "src/a.ts", 6},
			reason: "ZodError#errors was removed", downstream: 1}}},
	{rule: "cause/usage-unattributed", name: "no change at the usage: downstream of the unattributed error standing at the reference",
		usages: []model.Usage{errorsUse},
		diags:  []model.Diagnostic{errorsTS2339, errorsTS7006},
		want: []expect{{brief: brief{"", "", "TS2339", model.Breaking, 1, "src/a.ts", 6},
			reason: "compile error not attributed", fix: model.UnknownFix, evidence: 1, downstream: 1}}},
	{rule: "cause/usage-unattributed", name: "nothing stands at the reference: the errors traced to it are anchored there",
		diags: []model.Diagnostic{errorsTS7006, rooted(diag("src/a.ts", 670, 7006, "Parameter 'f' implicitly has an 'any' type."), usageRoot)},
		want: []expect{{brief: brief{"", "r.error.errors", "cause", model.Breaking, 1, "src/a.ts", 6},
			reason: "2 errors caused by r.error.errors (src/a.ts:6), which the target no longer declares. Fix here first.", fix: model.Manual, downstream: 2, root: "src/a.ts:6", anchor: true}}},
}

func TestCauseCases(t *testing.T) {
	for _, tc := range causeCases {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			fs := Match(tc.changes, tc.usages, nil, Options{Package: pkg})
			got := Arbitrate(fs, tc.usages, tc.diags, ArbiterOptions{Package: pkg, Compile: ran})
			checkAll(t, got, tc.want)
			for _, f := range got {
				for _, d := range f.Downstream {
					if d.Root != nil {
						t.Errorf("downstream %s:%d repeats the anchor's root", d.File, d.Line)
					}
				}
			}
		})
	}
}

// TestRootedDiagnosticConfirmsUsageKeepsRoot: a root left to its site rides
// on the usage finding the diagnostic confirms.
func TestRootedDiagnosticConfirmsUsageKeepsRoot(t *testing.T) {
	d := rooted(ts2554, paramRoot)
	fs := Match([]model.Change{addedParam}, []model.Usage{parseCall}, nil, Options{Package: pkg})
	got := Arbitrate(fs, []model.Usage{parseCall}, []model.Diagnostic{d}, ArbiterOptions{Package: pkg, Compile: ran})
	if len(got) != 1 || got[0].Root != "packages/editor/src/hooks.ts:12" || got[0].Severity != model.Breaking {
		t.Fatalf("want the confirmed finding carrying its root, got %+v", got)
	}
}

type foldCase struct {
	rule string
	name string
	// per workspace: the diagnostics one Arbitrate call sees
	workspaces [][]model.Diagnostic
	want       []expect
}

var foldCases = []foldCase{
	{rule: "cause/shared-root", name: "one site in each of two workspaces is one anchored finding",
		workspaces: [][]model.Diagnostic{
			{rooted(diag("apps/a/src/x.tsx", 310, 2345, "Argument of type 'A' is not assignable to parameter of type 'B'."), paramRoot)},
			{rooted(diag("apps/b/src/y.tsx", 510, 2345, "Argument of type 'A' is not assignable to parameter of type 'B'."), paramRoot)},
		},
		want: []expect{{brief: brief{"", "usePassThroughWheelEvents(ref)", "cause", model.Breaking, 1, "packages/editor/src/hooks.ts", 12},
			reason: "2 call sites in 2 workspaces reject what they pass to usePassThroughWheelEvents(ref)", fix: model.Manual, downstream: 2, root: "packages/editor/src/hooks.ts:12", anchor: true}}},
	{rule: "cause/shared-root", name: "a site folds into the anchor another workspace made",
		workspaces: [][]model.Diagnostic{
			{
				rooted(diag("apps/a/src/x.tsx", 310, 2345, "Argument of type 'A' is not assignable to parameter of type 'B'."), paramRoot),
				rooted(diag("apps/a/src/z.tsx", 310, 2345, "Argument of type 'A' is not assignable to parameter of type 'B'."), paramRoot),
			},
			{rooted(diag("apps/b/src/y.tsx", 510, 2345, "Argument of type 'A' is not assignable to parameter of type 'B'."), paramRoot)},
		},
		want: []expect{{brief: brief{"", "usePassThroughWheelEvents(ref)", "cause", model.Breaking, 1, "packages/editor/src/hooks.ts", 12},
			reason: "3 call sites in 2 workspaces reject", fix: model.Manual, downstream: 3, root: "packages/editor/src/hooks.ts:12", anchor: true}}},
	{rule: "cause/single-site", name: "one site and no anchor anywhere stays at the site",
		workspaces: [][]model.Diagnostic{
			{rooted(diag("apps/a/src/x.tsx", 310, 2345, "Argument of type 'A' is not assignable to parameter of type 'B'."), paramRoot)},
			{diag("apps/b/src/y.tsx", 510, 2304, "Cannot find name 'q'.")},
		},
		want: []expect{
			{brief: brief{"", "", "TS2345", model.Breaking, 1, "apps/a/src/x.tsx", 3}, reason: "not attributed", fix: model.UnknownFix, evidence: 1, root: "packages/editor/src/hooks.ts:12"},
			{brief: brief{"", "", "TS2304", model.Breaking, 1, "apps/b/src/y.tsx", 5}, reason: "not attributed", fix: model.UnknownFix, evidence: 1},
		}},
}

func TestFoldSharedRoots(t *testing.T) {
	for _, tc := range foldCases {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			var all []model.Finding
			for i, ds := range tc.workspaces {
				for j := range ds {
					ds[j].Workspace = []string{"apps/a", "apps/b"}[i]
				}
				all = append(all, Arbitrate(nil, nil, ds, ArbiterOptions{Package: pkg, Compile: ran})...)
			}
			checkAll(t, FoldSharedRoots(all), tc.want)
		})
	}
}

func atColumn(d model.Diagnostic, c int) model.Diagnostic { d.Column = c; return d }
