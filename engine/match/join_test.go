package match

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
)

type joinCase struct {
	rule      string
	name      string
	changes   []model.Change
	usages    []model.Usage
	target    *model.Surface
	installed *model.Surface
	want      []expect
}

var joinCases = []joinCase{
	{rule: "join/usage-paths", name: "an alias usage reports the change once, under the name written",
		changes: []model.Change{
			withRule(change("createClient", model.ChangeSignature, model.Breaking), "sig/param/added-required"),
			aliasOf(withRule(change("makeClient", model.ChangeSignature, model.Breaking), "sig/param/added-required"), "createClient"),
		},
		usages: []model.Usage{canonical(use("src/a.ts", 3, "makeClient", model.AccessCall), "createClient")},
		want: []expect{{brief: brief{"createClient", "makeClient", "signature", model.Breaking, 1, "src/a.ts", 3},
			reason: "makeClient changed its signature: caller must now supply the argument", fix: model.Assisted}}},
	{rule: "join/usage-paths", name: "a change only on the canonical target reaches the name written",
		changes: []model.Change{change("createClient", model.ChangeType, model.Breaking)},
		usages:  []model.Usage{via(canonical(use("src/a.ts", 3, "makeClient", model.AccessRead), "createClient"), model.ViaAlias)},
		want: []expect{{brief: brief{"createClient", "makeClient", "type", model.Breaking, 0.95, "src/a.ts", 3},
			reason: "makeClient changed its type", fix: model.Assisted}}},
	{rule: "join/container-outermost", name: "sharp removed once, not also its members on the same line",
		changes: []model.Change{
			change("sharp", model.ChangeRemoved, model.Breaking),
			foldedInto(change("sharp.ResizeOptions", model.ChangeRemoved, model.Breaking), "sharp"),
			foldedInto(change("sharp.ResizeOptions#width", model.ChangeRemoved, model.Breaking), "sharp"),
		},
		usages: []model.Usage{use("src/img.ts", 7, "sharp.ResizeOptions#width", model.AccessWrite)},
		target: surface(),
		want: []expect{{brief: brief{"sharp", "sharp.ResizeOptions#width", "removed", model.Breaking, 1, "src/img.ts", 7},
			reason: "sharp was removed, and sharp.ResizeOptions#width with it: symbol or its container is gone", fix: model.Manual}}},
	{rule: "join/container-outermost", name: "a moved container reaches its members",
		changes: []model.Change{replacement(change("v3", model.ChangeMoved, model.Breaking), "./legacy")},
		usages:  []model.Usage{use("src/a.ts", 2, "v3.parse", model.AccessCall)},
		target:  surface(sym("v3", model.KindNamespace, "namespace")),
		want: []expect{{brief: brief{"v3", "v3.parse", "moved", model.Breaking, 1, "src/a.ts", 2},
			reason: "v3 moved to ./legacy, and v3.parse with it", fix: model.Mechanical}}},
	{rule: "join/container-survives", name: "a removed re-export container reached through the alias",
		changes: []model.Change{change("core", model.ChangeRemoved, model.Breaking), foldedInto(change("core.FileTypeResult", model.ChangeRemoved, model.Breaking), "core")},
		usages:  []model.Usage{canonical(use("src/a.ts", 1, "FileTypeResult", model.AccessTypeRef), "core.FileTypeResult")},
		target:  surface(sym("FileTypeResult", model.KindInterface, "interface")),
	},
	{rule: "join/container-survives", name: "a removed re-export container written through itself",
		changes: []model.Change{change("core", model.ChangeRemoved, model.Breaking), foldedInto(change("core.FileTypeResult", model.ChangeRemoved, model.Breaking), "core")},
		usages:  []model.Usage{use("src/a.ts", 1, "core.FileTypeResult", model.AccessTypeRef)},
		target:  surface(sym("FileTypeResult", model.KindInterface, "interface")),
	},
	{rule: "join/container-survives", name: "the container's removal stands when the symbol is gone everywhere",
		changes: []model.Change{change("core", model.ChangeRemoved, model.Breaking), foldedInto(change("core.FileTypeResult", model.ChangeRemoved, model.Breaking), "core")},
		usages:  []model.Usage{use("src/a.ts", 1, "core.FileTypeResult", model.AccessTypeRef)},
		target:  surface(sym("fileTypeFromBuffer", model.KindFunction, "(b: Buffer): Promise<Result>")),
		want: []expect{{brief: brief{"core", "core.FileTypeResult", "removed", model.Breaking, 1, "src/a.ts", 1},
			reason: "core was removed, and core.FileTypeResult with it", fix: model.Manual}}},
	{rule: "join/container-survives", name: "an instance member does not live on as a top-level export of its name",
		changes: []model.Change{change("Client", model.ChangeRemoved, model.Breaking)},
		usages:  []model.Usage{use("src/a.ts", 1, "Client#close", model.AccessCall)},
		target:  surface(sym("close", model.KindFunction, "(): void")),
		want: []expect{{brief: brief{"Client", "Client#close", "removed", model.Breaking, 1, "src/a.ts", 1},
			reason: "Client was removed, and Client#close with it", fix: model.Manual}}},
	{rule: "join/import-binding", name: "a signature change is reported at the call, not at the import",
		changes: []model.Change{withRule(change("parse", model.ChangeSignature, model.Breaking), "sig/param/added-required")},
		usages:  []model.Usage{use("src/a.ts", 1, "parse", model.AccessImport), use("src/a.ts", 5, "parse", model.AccessCall)},
		want: []expect{{brief: brief{"parse", "parse", "signature", model.Breaking, 1, "src/a.ts", 5},
			reason: "caller must now supply the argument", fix: model.Assisted}}},
	{rule: "join/import-binding", name: "a renamed binding is reported at the import with its replacement",
		changes: []model.Change{func() model.Change {
			c := replacement(change("safeParseOld", model.ChangeRemoved, model.Breaking), "safeParse")
			c.Note = "possibly renamed to safeParse (identical signature; hint confidence 0.8)"
			return c
		}()},
		usages: []model.Usage{use("src/a.ts", 1, "safeParseOld", model.AccessImport)},
		want: []expect{{brief: brief{"safeParseOld", "safeParseOld", "removed", model.Breaking, 1, "src/a.ts", 1},
			reason: "safeParseOld was removed: symbol or its container is gone; possibly renamed to safeParse", fix: model.Mechanical}}},
	{rule: "join/several-removed", name: "a destructuring import of names the package dropped is one finding",
		changes: []model.Change{change("a", model.ChangeRemoved, model.Breaking), change("b", model.ChangeRemoved, model.Breaking), replacement(change("c", model.ChangeMoved, model.Breaking), "./extra")},
		usages: []model.Usage{
			col(use("src/a.ts", 1, "a", model.AccessImport), 10), col(use("src/a.ts", 1, "b", model.AccessImport), 13),
			col(use("src/a.ts", 1, "keep", model.AccessImport), 16), col(use("src/a.ts", 2, "c", model.AccessImport), 3),
		},
		want: []expect{{brief: brief{"a", "a", "removed", model.Breaking, 1, "src/a.ts", 1},
			reason: "3 names this site uses are gone from the target: a, b, c (moved to ./extra)", fix: model.Manual, sites: 3}}},
	{rule: "join/several-removed", name: "names destructured from a require on one line",
		changes: []model.Change{change("a", model.ChangeRemoved, model.Breaking), change("b", model.ChangeRemoved, model.Breaking)},
		usages: []model.Usage{
			via(col(use("src/a.js", 4, "a", model.AccessRead), 9), model.ViaDestructure), via(col(use("src/a.js", 4, "b", model.AccessRead), 12), model.ViaDestructure),
			via(col(use("src/a.js", 9, "a", model.AccessRead), 1), model.ViaDirect),
		},
		want: []expect{
			{brief: brief{"a", "a", "removed", model.Breaking, 0.9, "src/a.js", 4}, reason: "2 names this site uses are gone from the target: a, b", fix: model.Manual, sites: 2},
			{brief: brief{"a", "a", "removed", model.Breaking, 1, "src/a.js", 9}, reason: "a was removed", fix: model.Manual},
		}},
	{rule: "join/deprecation-written", name: "z.infer does not inherit TypeOf's tag through the alias join",
		changes: []model.Change{change("TypeOf", model.ChangeDeprecated, model.Deprecated)},
		usages:  []model.Usage{canonical(use("src/a.ts", 1, "z.infer", model.AccessTypeRef), "TypeOf")},
	},
	{rule: "join/deprecation-written", name: "a deprecation on the name written is reported",
		changes: []model.Change{func() model.Change {
			c := replacement(change("z.infer", model.ChangeDeprecated, model.Deprecated), "z.output")
			c.Note = "use z.output instead"
			return c
		}()},
		usages: []model.Usage{canonical(use("src/a.ts", 1, "z.infer", model.AccessTypeRef), "TypeOf")},
		want: []expect{{brief: brief{"z.infer", "z.infer", "deprecated", model.Deprecated, 1, "src/a.ts", 1},
			reason: "z.infer is deprecated: still works, but is on its way out; use z.output instead", fix: model.Mechanical}}},
	{rule: "join/declared-type", name: "StripeConfig#apiVersion reached through LatestApiVersion",
		changes: []model.Change{change("Stripe.LatestApiVersion", model.ChangeNarrowed, model.Breaking)},
		usages:  []model.Usage{use("src/pay.ts", 4, "Stripe.StripeConfig#apiVersion", model.AccessWrite)},
		installed: surface(
			sym("Stripe", model.KindNamespace, "namespace"),
			sym("Stripe.LatestApiVersion", model.KindTypeAlias, `"2024-06-20"`),
			sym("Stripe.StripeConfig", model.KindInterface, "interface"),
			sym("Stripe.StripeConfig#apiVersion", model.KindProperty, "LatestApiVersion"),
		),
		want: []expect{{brief: brief{"Stripe.LatestApiVersion", "Stripe.StripeConfig#apiVersion", "narrowed", model.Breaking, 1, "src/pay.ts", 4},
			reason: "Stripe.LatestApiVersion, the type of Stripe.StripeConfig#apiVersion, was narrowed: consumer's values may no longer fit", fix: model.Assisted}}},
	{rule: "join/declared-type", name: "parameter names are not types, and one level only",
		changes: []model.Change{
			change("options", model.ChangeRemoved, model.Breaking),
			change("Options", model.ChangeType, model.Breaking),
			change("Inner", model.ChangeType, model.Breaking),
		},
		usages: []model.Usage{use("src/a.ts", 2, "connect", model.AccessCall)},
		installed: surface(
			sym("connect", model.KindFunction, "(options: Options, cb?: (err: Error) => void): Client"),
			sym("Options", model.KindInterface, "interface"),
			sym("Options#inner", model.KindProperty, "Inner"),
			sym("Inner", model.KindInterface, "interface"),
			sym("options", model.KindVariable, "Options"),
		),
		want: []expect{{brief: brief{"Options", "connect", "type", model.Breaking, 1, "src/a.ts", 2},
			reason: "Options, the type of connect, changed its type", fix: model.Assisted}}},
	{rule: "join/added-ignored", name: "an addition at a used path reaches nothing",
		changes: []model.Change{change("parse", model.ChangeAdded, model.Additive)},
		usages:  []model.Usage{use("src/a.ts", 1, "parse", model.AccessCall)},
	},
}

func TestJoinCases(t *testing.T) {
	for _, tc := range joinCases {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			got := Match(tc.changes, tc.usages, tc.target, Options{Package: pkg, Installed: tc.installed})
			checkAll(t, got, tc.want)
		})
	}
}

func TestConfidenceIsChangeTimesCertainty(t *testing.T) {
	changes := []model.Change{withConf(change("Options#mode", model.ChangeType, model.Breaking), 0.6)}
	for _, tc := range []struct {
		via    model.Via
		want   float64
		hidden bool
	}{
		{model.ViaDirect, 0.6, false},
		{model.ViaReexport, 0.57, false},
		{model.ViaDestructure, 0.54, false},
		{model.ViaRequire, 0.51, false},
		{model.ViaInferred, 0.48, true},
	} {
		got := Match(changes, []model.Usage{via(use("src/a.ts", 1, "Options#mode", model.AccessRead), tc.via)}, nil, Options{Package: pkg})
		if len(got) != 1 || got[0].Confidence != tc.want || got[0].Hidden != tc.hidden {
			t.Errorf("via %s: %v hidden %v, want confidence %.2f hidden %v", tc.via, briefs(got), len(got) == 1 && got[0].Hidden, tc.want, tc.hidden)
		}
		if tc.via == model.ViaInferred && got[0].Fixability != model.UnknownFix {
			t.Errorf("an inferred usage's fixability = %q, want unknown", got[0].Fixability)
		}
	}
}

func TestEachKindOncePerUsage(t *testing.T) {
	changes := []model.Change{
		withRule(change("parse", model.ChangeSignature, model.Breaking), "sig/param/added-required"),
		aliasOf(withRule(change("default.parse", model.ChangeSignature, model.Breaking), "sig/param/added-required"), "parse"),
		change("parse", model.ChangeDeprecated, model.Deprecated),
		change("Input", model.ChangeSignature, model.Breaking),
	}
	u := canonical(use("src/a.ts", 1, "default.parse", model.AccessCall), "parse")
	installed := surface(sym("parse", model.KindFunction, "(input: Input): Item"), sym("Input", model.KindInterface, "interface"))
	got := Match(changes, []model.Usage{u}, nil, Options{Package: pkg, Installed: installed})
	if len(got) != 1 || got[0].Change != "signature" || got[0].Path != "parse" {
		t.Fatalf("want the one signature finding under the name written, got %v", briefs(got))
	}
}
