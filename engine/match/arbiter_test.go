package match

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
)

type arbiterCase struct {
	rule      string
	name      string
	changes   []model.Change
	usages    []model.Usage
	target    *model.Surface
	installed *model.Surface
	diags     []model.Diagnostic
	compile   Compile
	// extra findings handed to the arbiter besides Match's.
	extra []model.Finding
	// withoutUsages hands the arbiter Match's findings but not the usages.
	withoutUsages bool
	// runtime is the runtime probe's result, when it ran.
	runtime *model.RuntimeResult
	want    []expect
}

var (
	ran          = Compile{Ran: true}
	addedParam   = withRule(change("parse", model.ChangeSignature, model.Breaking), "sig/param/added-required")
	parseCall    = use("src/a.ts", 3, "parse", model.AccessCall)
	ts2554       = diag("src/a.ts", 310, 2554, "Expected 2 arguments, but got 1.")
	moduleFormat = model.Finding{Package: pkg, Change: "module-format", Severity: model.Breaking, Confidence: 1,
		Reason: "pkg is ESM-only and this file require()s it", Fixability: model.Manual, Workspace: ".", File: "src/b.js", Line: 1, Column: 1,
		Sites: []model.Usage{use("src/b.js", 1, "default", model.AccessCall)}}
)

// A chalk-4-shaped package: module.exports (export =) is a builder typed
// by the Tint interface; its 5 is ESM only, and require() of it returns a
// namespace whose red lives on default.
var (
	tintInstalled = surface(
		model.Symbol{Path: "default", Kind: model.KindVariable, ExportEquals: true, ExportedFrom: []string{"."}},
		sym("default.Tint", model.KindInterface, "interface Tint"),
		sym("default.Tint#red", model.KindProperty, "red: Tint"))
	tintRed     = unchecked(require(canonical(use("src/a.js", 3, "default.Tint#red", model.AccessCall), "default.Tint#red")))
	tintRemoved = change("default.Tint", model.ChangeRemoved, model.Breaking)
	tintLoads   = model.RuntimeCopy{Version: "4.1.2", Require: model.RuntimeLoad{Value: &model.RuntimeValue{}}}
	redGone     = model.RuntimeChange{Kind: model.RuntimeKeyRemoved, Loader: model.LoaderRequire, Key: "red", OnDefault: true,
		Detail: "require() of 5.3.0 has no red (it is on its default export)"}
	tintRuntime = func(status model.RuntimeStatus, changes ...model.RuntimeChange) *model.RuntimeResult {
		return &model.RuntimeResult{Package: pkg, Status: status, Installed: tintLoads, Target: tintLoads, Changes: changes}
	}
)

func require(u model.Usage) model.Usage { u.Loader = model.LoaderRequire; return u }

var arbiterCases = []arbiterCase{
	{rule: "arbiter/runtime-hit", name: "in plain JavaScript, a member the target no longer has where require() reads it",
		changes: []model.Change{tintRemoved}, usages: []model.Usage{tintRed}, installed: tintInstalled, compile: ran,
		runtime: tintRuntime(model.RuntimeCompared, redGone),
		want: []expect{{brief: brief{"default.Tint", "default.Tint#red", "removed", model.Breaking, 1, "src/a.js", 3},
			reason: "(the target loads differently: require() of 5.3.0 has no red", fix: model.Manual}}},
	{rule: "arbiter/runtime-hit", name: "in plain JavaScript, calling what require() returns where `export = fetch` typed it and the target returns a namespace",
		changes: []model.Change{change("fetch", model.ChangeSignature, model.Breaking)},
		usages:  []model.Usage{unchecked(require(use("lib/http.js", 5, "fetch", model.AccessCall)))},
		installed: surface(
			model.Symbol{Path: "fetch", Kind: model.KindFunction, ExportEquals: true, ExportedFrom: []string{"."}},
			sym("fetch.Response", model.KindClass, "class Response")),
		compile: ran,
		runtime: tintRuntime(model.RuntimeCompared,
			model.RuntimeChange{Kind: model.RuntimeKeyRemoved, Loader: model.LoaderRequire, Key: "Promise"},
			model.RuntimeChange{Kind: model.RuntimeNamespaceInstead, Loader: model.LoaderRequire,
				Detail: "require() of 3.3.2 returns a module namespace; the function is its default export"}),
		want: []expect{{brief: brief{"fetch", "fetch", "signature", model.Breaking, 1, "lib/http.js", 5},
			reason: "(the target loads differently: require() of 3.3.2 returns a module namespace", fix: model.Manual}}},
	{rule: "arbiter/runtime-same-shape", name: "in plain JavaScript, the target loads with the same shape where the site reads it",
		changes: []model.Change{tintRemoved}, usages: []model.Usage{tintRed}, installed: tintInstalled, compile: ran,
		runtime: tintRuntime(model.RuntimeCompared, model.RuntimeChange{Kind: model.RuntimeKeyRemoved, Loader: model.LoaderRequire, Key: "blue"}),
		want: []expect{{brief: brief{"default.Tint", "default.Tint#red", "removed", model.Info, 0.3, "src/a.js", 3}, hidden: true,
			reason: "the compiler says this would not type-check, but this file is not type-checked and the target loads with the same shape", fix: model.Manual}}},
	{rule: "arbiter/unchecked-file", name: "in plain JavaScript, a require() that throws on the target says nothing of the member",
		changes: []model.Change{tintRemoved}, usages: []model.Usage{tintRed}, installed: tintInstalled, compile: ran,
		runtime: tintRuntime(model.RuntimeCompared, model.RuntimeChange{Kind: model.RuntimeRequireThrows, Loader: model.LoaderRequire, Code: "ERR_REQUIRE_ESM"}),
		want: []expect{{brief: brief{"default.Tint", "default.Tint#red", "removed", model.Unverified, 1, "src/a.js", 3},
			reason: "(unverified: the repository does not type-check this file)", fix: model.Manual}}},
	{rule: "arbiter/unchecked-file", name: "in plain JavaScript, a probe that could not decide proves nothing",
		changes: []model.Change{tintRemoved}, usages: []model.Usage{tintRed}, installed: tintInstalled, compile: ran,
		runtime: tintRuntime(model.RuntimeInconclusive),
		want: []expect{{brief: brief{"default.Tint", "default.Tint#red", "removed", model.Unverified, 1, "src/a.js", 3},
			reason: "(unverified: the repository does not type-check this file)", fix: model.Manual}}},
	{rule: "arbiter/confirmed", name: "a diagnostic inside the usage's span confirms it",
		changes: []model.Change{addedParam}, usages: []model.Usage{parseCall}, diags: []model.Diagnostic{ts2554}, compile: ran,
		want: []expect{{brief: brief{"parse", "parse", "signature", model.Breaking, 1, "src/a.ts", 3}, reason: "caller must now supply the argument", fix: model.Assisted, evidence: 1}}},
	{rule: "arbiter/confirmed", name: "a confirmed finding under 0.5 is listed",
		changes: []model.Change{withConf(addedParam, 0.5)}, usages: []model.Usage{via(parseCall, model.ViaRequire)}, diags: []model.Diagnostic{ts2554}, compile: ran,
		want: []expect{{brief: brief{"parse", "parse", "signature", model.Breaking, 0.425, "src/a.ts", 3}, reason: "caller must", fix: model.Assisted, evidence: 1}}},
	{rule: "arbiter/confirmed", name: "one diagnostic confirms only the innermost usage: an error under url says nothing about trim",
		changes: []model.Change{change("ZodString#trim", model.ChangeSignature, model.Breaking), change("ZodString#url", model.ChangeSignature, model.Breaking)},
		usages: []model.Usage{
			span(use("src/a.ts", 3, "ZodString#trim", model.AccessCall), 300, 317),
			span(use("src/a.ts", 3, "ZodString#url", model.AccessCall), 300, 323),
		},
		diags: []model.Diagnostic{diag("src/a.ts", 318, 2554, "Expected 1 arguments, but got 0.")}, compile: ran,
		want: []expect{
			{brief: brief{"ZodString#trim", "ZodString#trim", "signature", model.Info, 0.3, "src/a.ts", 3}, reason: "diff says ZodString#trim changed its signature, but your code compiles against the target", fix: model.Manual, hidden: true},
			{brief: brief{"ZodString#url", "ZodString#url", "signature", model.Breaking, 1, "src/a.ts", 3}, reason: "ZodString#url changed", fix: model.Manual, evidence: 1},
		}},
	{rule: "arbiter/best-explanation", name: "removed before signature before type: one diagnostic, one finding",
		changes: []model.Change{withRule(change("connect", model.ChangeSignature, model.Breaking), "sig/param/changed"), change("Options", model.ChangeType, model.Breaking)},
		usages:  []model.Usage{use("src/a.ts", 3, "connect", model.AccessCall)},
		installed: surface(
			sym("connect", model.KindFunction, "(options: Options): void"),
			sym("Options", model.KindInterface, "interface"),
		),
		diags: []model.Diagnostic{diag("src/a.ts", 305, 2345, "Argument of type '{}' is not assignable to parameter of type 'Options'.")}, compile: ran,
		want: []expect{{brief: brief{"connect", "connect", "signature", model.Breaking, 1, "src/a.ts", 3}, reason: "connect changed its signature", fix: model.Manual, evidence: 1}}},
	{rule: "arbiter/best-explanation", name: "the most confident change explains the line",
		changes: []model.Change{withConf(withRule(change("connect", model.ChangeSignature, model.Breaking), "sig/param/changed"), 0.5), change("Options", model.ChangeType, model.Breaking)},
		usages:  []model.Usage{use("src/a.ts", 3, "connect", model.AccessCall)},
		installed: surface(
			sym("connect", model.KindFunction, "(options: Options): void"),
			sym("Options", model.KindInterface, "interface"),
		),
		diags: []model.Diagnostic{diag("src/a.ts", 305, 2345, "Argument of type '{}' is not assignable to parameter of type 'Options'.")}, compile: ran,
		want: []expect{{brief: brief{"Options", "connect", "type", model.Breaking, 1, "src/a.ts", 3}, reason: "Options, the type of connect, changed its type", fix: model.Assisted, evidence: 1}}},
	{rule: "arbiter/best-explanation", name: "a site whose error an anchor took is not told it compiles",
		changes: []model.Change{change("useRef", model.ChangeSignature, model.Breaking)},
		usages: []model.Usage{
			use("src/a.tsx", 3, "useRef", model.AccessCall),
			use("src/b.tsx", 3, "useRef", model.AccessCall),
			use("src/c.tsx", 3, "useRef", model.AccessCall),
		},
		diags: []model.Diagnostic{
			rooted(diag("src/a.tsx", 305, 2345, "Argument of type 'RefObject<HTMLElement | null>' is not assignable to parameter of type 'RefObject<HTMLElement>'."), paramRoot),
			rooted(diag("src/b.tsx", 305, 2345, "Argument of type 'RefObject<HTMLElement | null>' is not assignable to parameter of type 'RefObject<HTMLElement>'."), paramRoot),
		}, compile: ran,
		want: []expect{
			{brief: brief{"", "usePassThroughWheelEvents(ref)", "cause", model.Breaking, 1, "packages/editor/src/hooks.ts", 12}, reason: "2 call sites reject", fix: model.Manual, downstream: 2, root: "packages/editor/src/hooks.ts:12", anchor: true},
			{brief: brief{"useRef", "useRef", "signature", model.Info, 0.3, "src/c.tsx", 3}, reason: "but your code compiles against the target", fix: model.Manual, hidden: true},
		}},
	{rule: "arbiter/compiles", name: "a finding at a usage the arbiter was not given is judged, never confirmed",
		changes: []model.Change{addedParam}, usages: []model.Usage{parseCall}, compile: ran, withoutUsages: true,
		want: []expect{{brief: brief{"parse", "parse", "signature", model.Info, 0.3, "src/a.ts", 3}, reason: "but your code compiles", fix: model.Assisted, hidden: true}}},
	{rule: "arbiter/deprecation-kept", name: "a deprecation on a rejected line keeps its own severity",
		changes: []model.Change{addedParam, change("parse", model.ChangeDeprecated, model.Deprecated)},
		usages:  []model.Usage{parseCall}, diags: []model.Diagnostic{ts2554}, compile: ran,
		want: []expect{
			{brief: brief{"parse", "parse", "deprecated", model.Deprecated, 1, "src/a.ts", 3}, reason: "parse is deprecated", fix: model.Manual},
			{brief: brief{"parse", "parse", "signature", model.Breaking, 1, "src/a.ts", 3}, reason: "caller must", fix: model.Assisted, evidence: 1},
		}},
	{rule: "arbiter/additive-kept", name: "a widened property written stays additive and hidden",
		changes: []model.Change{change("Options#mode", model.ChangeWidened, model.Additive)},
		usages:  []model.Usage{use("src/a.ts", 3, "Options#mode", model.AccessWrite)}, compile: ran,
		want: []expect{{brief: brief{"Options#mode", "Options#mode", "widened", model.Additive, 1, "src/a.ts", 3}, reason: "widened type only receives values", fix: model.NoFix, hidden: true}}},
	{rule: "arbiter/load-time-exempt", name: "a module-format finding is judged per site by the join, not by the compiler",
		extra: []model.Finding{moduleFormat}, compile: ran,
		want: []expect{{brief: brief{"", "", "module-format", model.Breaking, 1, "src/b.js", 1}, reason: "ESM-only", fix: model.Manual, sites: 1}}},
	{rule: "arbiter/load-time-exempt", name: "a module-format finding survives a skipped compile",
		extra: []model.Finding{moduleFormat},
		want:  []expect{{brief: brief{"", "", "module-format", model.Breaking, 1, "src/b.js", 1}, reason: "ESM-only", fix: model.Manual, sites: 1}}},
	{rule: "arbiter/compiles", name: "a compile-time change the compiler did not object to",
		changes: []model.Change{addedParam}, usages: []model.Usage{parseCall}, compile: ran,
		want: []expect{{brief: brief{"parse", "parse", "signature", model.Info, 0.3, "src/a.ts", 3},
			reason: "diff says parse changed its signature: caller must now supply the argument, but your code compiles against the target", fix: model.Assisted, hidden: true}}},
	{rule: "arbiter/unresolved-target", name: "the target's declaration file has unresolved imports",
		changes: []model.Change{addedParam}, usages: []model.Usage{parseCall},
		target:  surface(inFile(sym("parse", model.KindFunction, "(a: string, b: Opts): void"), "dist/parse.d.ts")),
		compile: Compile{Ran: true, UnresolvedTargetFiles: map[string]bool{"dist/parse.d.ts": true}},
		want: []expect{{brief: brief{"parse", "parse", "signature", model.Unverified, 1, "src/a.ts", 3},
			reason: "possible impact: parse changed its signature: caller must now supply the argument (unverified: dist/parse.d.ts in the target has unresolved imports", fix: model.Assisted}}},
	{rule: "arbiter/unresolved-target", name: "a removed member is looked for under its container's file",
		changes: []model.Change{change("Client#close", model.ChangeRemoved, model.Breaking)}, usages: []model.Usage{use("src/a.ts", 3, "Client#close", model.AccessCall)},
		target:  surface(inFile(sym("Client", model.KindClass, "class"), "dist/client.d.ts")),
		compile: Compile{Ran: true, UnresolvedTargetFiles: map[string]bool{"dist/client.d.ts": true}},
		want: []expect{{brief: brief{"Client#close", "Client#close", "removed", model.Unverified, 1, "src/a.ts", 3},
			reason: "(unverified: dist/client.d.ts in the target", fix: model.Manual}}},
	{rule: "arbiter/not-compiled", name: "a site in a file the compile did not reach",
		changes: []model.Change{addedParam}, usages: []model.Usage{parseCall},
		compile: Compile{Ran: true, NotCompiled: map[string]bool{"src/a.ts": true}},
		want: []expect{{brief: brief{"parse", "parse", "signature", model.Unverified, 1, "src/a.ts", 3},
			reason: "(unverified: the compile did not reach this file)", fix: model.Assisted}}},
	{rule: "arbiter/unchecked-file", name: "a confirmed claim in a @ts-nocheck file is not breaking",
		changes: []model.Change{addedParam}, usages: []model.Usage{unchecked(parseCall)}, diags: []model.Diagnostic{ts2554}, compile: ran,
		want: []expect{{brief: brief{"parse", "parse", "signature", model.Unverified, 1, "src/a.ts", 3},
			reason: "(unverified: the repository does not type-check this file)", fix: model.Assisted, evidence: 1}}},
	{rule: "arbiter/unchecked-file", name: "an unconfirmed claim in a plain JavaScript file",
		changes: []model.Change{addedParam}, usages: []model.Usage{unchecked(parseCall)}, compile: ran,
		want: []expect{{brief: brief{"parse", "parse", "signature", model.Unverified, 1, "src/a.ts", 3},
			reason: "(unverified: the repository does not type-check this file)", fix: model.Assisted}}},
	{rule: "arbiter/compile-skipped", name: "without a compile nothing is confirmed, diagnostics or not",
		changes: []model.Change{addedParam, change("parse", model.ChangeDeprecated, model.Deprecated), change("Options#mode", model.ChangeWidened, model.Additive)},
		usages:  []model.Usage{parseCall, use("src/a.ts", 5, "Options#mode", model.AccessWrite)}, diags: []model.Diagnostic{ts2554},
		want: []expect{
			{brief: brief{"parse", "parse", "deprecated", model.Deprecated, 1, "src/a.ts", 3}, reason: "parse is deprecated", fix: model.Manual},
			{brief: brief{"parse", "parse", "signature", model.Unverified, 1, "src/a.ts", 3}, reason: "possible impact: parse changed its signature: caller must now supply the argument (unverified: compile check skipped)", fix: model.Assisted},
			{brief: brief{"Options#mode", "Options#mode", "widened", model.Additive, 1, "src/a.ts", 5}, reason: "widened type only receives", fix: model.NoFix, hidden: true},
		}},
	{rule: "arbiter/unattributed", name: "errors no change explains group by code and message shape, per file",
		usages: []model.Usage{parseCall},
		diags: []model.Diagnostic{
			diag("src/a.ts", 310, 2322, "Type 'string' is not assignable to type 'number'."),
			diag("src/a.ts", 820, 2322, "Type 'Foo' is not assignable to type 'Bar'.\n  Property 'x' is missing."),
			diag("src/z.ts", 120, 2322, "Type 'Foo' is not assignable to type 'Bar'.\n  Property 'x' is missing."),
			diag("src/b.ts", 50, 2339, "Property 'foo' does not exist on type 'Client'."),
		}, compile: ran,
		want: []expect{
			{brief: brief{"", "", "TS2322", model.Breaking, 1, "src/a.ts", 3}, reason: "compile error not attributed to a known API change: Type 'string' is not assignable to type 'number'. (1 similar)", fix: model.UnknownFix, evidence: 2, similar: 1},
			{brief: brief{"", "", "TS2339", model.Breaking, 1, "src/b.ts", 0}, reason: "compile error not attributed to a known API change: Property 'foo' does not exist on type 'Client'.", fix: model.UnknownFix, evidence: 1},
			{brief: brief{"", "", "TS2322", model.Breaking, 1, "src/z.ts", 1}, reason: "compile error not attributed to a known API change: Type 'Foo' is not assignable to type 'Bar'.", fix: model.UnknownFix, evidence: 1},
		}},
	{rule: "arbiter/unattributed-unresolved", name: "a message naming a type declared in a target file with unresolved imports",
		target: surface(inFile(sym("z.ZodType", model.KindClass, "class"), "v4/core.d.ts"), sym("Other", model.KindInterface, "interface")),
		diags: []model.Diagnostic{
			diag("src/a.ts", 310, 2322, "Type 'ZodType<string>' is not assignable to type 'Schema'."),
			diag("src/a.ts", 410, 2322, "Type 'Other' is not assignable to type 'Schema'."),
		},
		compile: Compile{Ran: true, UnresolvedTargetFiles: map[string]bool{"v4/core.d.ts": true}},
		want: []expect{
			{brief: brief{"", "", "TS2322", model.Unverified, 1, "src/a.ts", 3}, reason: "(unverified: it names ZodType, declared in v4/core.d.ts of the target, which has unresolved imports)", fix: model.UnknownFix, evidence: 1},
			{brief: brief{"", "", "TS2322", model.Breaking, 1, "src/a.ts", 4}, reason: "compile error not attributed to a known API change: Type 'Other'", fix: model.UnknownFix, evidence: 1},
		}},
	{rule: "arbiter/unattributed-unchecked", name: "an unattributed error in a file the repository does not type-check",
		usages: []model.Usage{unchecked(use("src/a.js", 1, "parse", model.AccessCall))},
		diags:  []model.Diagnostic{diag("src/a.js", 900, 2339, "Property 'x' does not exist on type 'Y'.")}, compile: ran,
		want: []expect{{brief: brief{"", "", "TS2339", model.Unverified, 1, "src/a.js", 9}, reason: "(unverified: the repository does not type-check this file)", fix: model.UnknownFix, evidence: 1}}},
}

func TestArbiterCases(t *testing.T) {
	for _, tc := range arbiterCases {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			fs := Match(tc.changes, tc.usages, tc.target, Options{Package: pkg, Installed: tc.installed})
			fs = append(fs, tc.extra...)
			usages := tc.usages
			if tc.withoutUsages {
				usages = nil
			}
			got := Arbitrate(fs, usages, tc.diags, ArbiterOptions{Package: pkg, Installed: tc.installed, Target: tc.target, Compile: tc.compile, Runtime: tc.runtime})
			checkAll(t, got, tc.want)
		})
	}
}

func TestArbitrateLeavesItsInputAlone(t *testing.T) {
	fs := Match([]model.Change{addedParam}, []model.Usage{parseCall}, nil, Options{Package: pkg})
	before := fs[0]
	Arbitrate(fs, []model.Usage{parseCall}, []model.Diagnostic{ts2554}, ArbiterOptions{Package: pkg, Compile: ran})
	if len(fs[0].Evidence) != 0 || fs[0].Severity != before.Severity || fs[0].Reason != before.Reason {
		t.Fatalf("Arbitrate changed its input: %+v", fs[0])
	}
}

func TestAGroupedRemovalIsConfirmedThroughAnyOfItsSites(t *testing.T) {
	usages := []model.Usage{col(use("src/a.ts", 1, "a", model.AccessImport), 10), col(use("src/a.ts", 1, "b", model.AccessImport), 13)}
	changes := []model.Change{change("a", model.ChangeRemoved, model.Breaking), change("b", model.ChangeRemoved, model.Breaking)}
	fs := Match(changes, usages, nil, Options{Package: pkg})
	d := diag("src/a.ts", usages[1].Start+1, 2305, "Module '\"pkg\"' has no exported member 'b'.")
	got := Arbitrate(fs, usages, []model.Diagnostic{d}, ArbiterOptions{Package: pkg, Compile: ran})
	if len(got) != 1 || got[0].Severity != model.Breaking || len(got[0].Evidence) != 1 || len(got[0].Sites) != 2 {
		t.Fatalf("want one confirmed finding for both names, got %v", briefs(got))
	}
}
