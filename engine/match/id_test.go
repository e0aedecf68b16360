package match

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// scenario is a package check in miniature: every kind of finding the
// arbiter makes, from changes, usages and diagnostics.
func scenario() ([]model.Change, []model.Usage, []model.Diagnostic, *model.Surface, *model.Surface) {
	changes := []model.Change{
		addedParam,
		change("parse", model.ChangeDeprecated, model.Deprecated),
		change("sharp", model.ChangeRemoved, model.Breaking),
		foldedInto(change("sharp.ResizeOptions", model.ChangeRemoved, model.Breaking), "sharp"),
		change("a", model.ChangeRemoved, model.Breaking),
		change("b", model.ChangeRemoved, model.Breaking),
		change("Options#mode", model.ChangeWidened, model.Additive),
		change("Stripe.LatestApiVersion", model.ChangeNarrowed, model.Breaking),
	}
	usages := []model.Usage{
		use("src/a.ts", 3, "parse", model.AccessCall),
		use("src/a.ts", 5, "parse", model.AccessCall),
		use("src/a.ts", 7, "parse", model.AccessCall),
		use("src/img.ts", 2, "sharp.ResizeOptions", model.AccessTypeRef),
		col(use("src/b.ts", 1, "a", model.AccessImport), 10),
		col(use("src/b.ts", 1, "b", model.AccessImport), 13),
		use("src/b.ts", 4, "Options#mode", model.AccessRead),
		unchecked(use("src/c.js", 2, "parse", model.AccessCall)),
		use("src/pay.ts", 6, "Stripe.StripeConfig#apiVersion", model.AccessWrite),
	}
	diags := []model.Diagnostic{
		diag("src/a.ts", 310, 2554, "Expected 2 arguments, but got 1."),
		diag("src/a.ts", 710, 2554, "Expected 2 arguments, but got 1."),
		diag("src/b.ts", 112, 2305, "Module '\"pkg\"' has no exported member 'b'."),
		diag("src/d.ts", 410, 2322, "Type 'string' is not assignable to type 'number'."),
		diag("src/e.ts", 410, 2322, "Type 'Foo' is not assignable to type 'Bar'."),
		rooted(diag("src/f.tsx", 210, 7026, "JSX element implicitly has type 'any'."), jsxRoot),
	}
	installed := surface(
		sym("parse", model.KindFunction, "(input: string): Item"),
		sym("Stripe.LatestApiVersion", model.KindTypeAlias, `"2024-06-20"`),
		sym("Stripe.StripeConfig#apiVersion", model.KindProperty, "LatestApiVersion"),
	)
	target := surface(sym("parse", model.KindFunction, "(input: string, opts: Opts): Item"))
	return changes, usages, diags, installed, target
}

func check(changes []model.Change, usages []model.Usage, diags []model.Diagnostic, installed, target *model.Surface) []model.Finding {
	fs := Match(changes, usages, target, Options{Package: pkg, Installed: installed})
	return Arbitrate(fs, usages, diags, ArbiterOptions{Package: pkg, Installed: installed, Target: target, Compile: ran})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDeterministicWhateverTheInputOrder(t *testing.T) {
	changes, usages, diags, installed, target := scenario()
	want := mustJSON(t, check(changes, usages, diags, installed, target))
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20; i++ {
		c, u, d := slices.Clone(changes), slices.Clone(usages), slices.Clone(diags)
		r.Shuffle(len(c), func(a, b int) { c[a], c[b] = c[b], c[a] })
		r.Shuffle(len(u), func(a, b int) { u[a], u[b] = u[b], u[a] })
		r.Shuffle(len(d), func(a, b int) { d[a], d[b] = d[b], d[a] })
		if got := mustJSON(t, check(c, u, d, installed, target)); got != want {
			t.Fatalf("shuffle %d changed the output:\n got %s\nwant %s", i, got, want)
		}
	}
}

func TestIDsAreUniqueAndIgnoreLines(t *testing.T) {
	changes, usages, diags, installed, target := scenario()
	before := check(changes, usages, diags, installed, target)
	ids := map[string]bool{}
	for _, f := range before {
		if ids[f.ID] {
			t.Errorf("id %s used twice", f.ID)
		}
		ids[f.ID] = true
	}
	// Ten lines inserted at the top of every file move every site and
	// every diagnostic; no id may change.
	for i := range usages {
		usages[i].Line += 10
		usages[i].Start += 1000
		usages[i].End += 1000
	}
	for i := range diags {
		diags[i].Line += 10
		diags[i].Start += 1000
	}
	after := check(changes, usages, diags, installed, target)
	if len(after) != len(before) {
		t.Fatalf("moving code changed the findings: %v → %v", briefs(before), briefs(after))
	}
	for i := range before {
		if before[i].ID != after[i].ID {
			t.Errorf("%s: id %s became %s when its line moved", briefOf(before[i]), before[i].ID, after[i].ID)
		}
	}
}

func TestIDsSurviveConfirmation(t *testing.T) {
	changes, usages, diags, installed, target := scenario()
	confirmed := check(changes, usages, diags, installed, target)
	fs := Match(changes, usages, target, Options{Package: pkg, Installed: installed})
	skipped := Arbitrate(fs, usages, nil, ArbiterOptions{Package: pkg, Installed: installed, Target: target})
	idsOf := func(fs []model.Finding) map[string]string {
		m := map[string]string{}
		for _, f := range fs {
			if f.Path != "" {
				m[fmt.Sprintf("%s %s %s:%d", f.Change, f.Path, f.File, f.Line)] = f.ID
			}
		}
		return m
	}
	a, b := idsOf(confirmed), idsOf(skipped)
	for k, id := range a {
		if b[k] != "" && b[k] != id {
			t.Errorf("%s: id %s with a compile, %s without", k, id, b[k])
		}
	}
}

func TestIDInputs(t *testing.T) {
	base := model.Finding{Package: pkg, Path: "parse", File: "src/a.ts", Change: "signature", Line: 3}
	for _, tc := range []struct {
		name string
		edit func(*model.Finding)
		same bool
	}{
		{"line", func(f *model.Finding) { f.Line = 90; f.Column = 7 }, true},
		{"reason and severity", func(f *model.Finding) { f.Reason = "x"; f.Severity = model.Info }, true},
		{"package", func(f *model.Finding) { f.Package = "other" }, false},
		{"path", func(f *model.Finding) { f.Path = "format" }, false},
		{"file", func(f *model.Finding) { f.File = "src/b.ts" }, false},
		{"change", func(f *model.Finding) { f.Change = "type" }, false},
	} {
		g := base
		tc.edit(&g)
		if (baseID(g) == baseID(base)) != tc.same {
			t.Errorf("%s: same id = %v, want %v", tc.name, baseID(g) == baseID(base), tc.same)
		}
	}
	ts := func(code int, msg string) model.Finding {
		return model.Finding{Package: pkg, Change: fmt.Sprintf("TS%d", code), Rule: fmt.Sprintf("TS%d %s", code, msg)}
	}
	if baseID(ts(2322, "a")) == baseID(ts(2345, "a")) || baseID(ts(2322, "a")) == baseID(ts(2322, "b")) {
		t.Error("unattributed ids must depend on the code and the message shape")
	}
}

func BenchmarkMatchArbitrate(b *testing.B) {
	var changes []model.Change
	var syms []model.Symbol
	for i := 0; i < 2000; i++ {
		p := fmt.Sprintf("Api.Resource%d#method%d", i/10, i%10)
		syms = append(syms, sym(p, model.KindMethod, fmt.Sprintf("(params: Params%d): Result%d", i/10, i/10)))
		if i%3 == 0 {
			changes = append(changes, withRule(change(p, model.ChangeSignature, model.Breaking), "sig/param/added-required"))
		}
	}
	installed := surface(syms...)
	var usages []model.Usage
	var diags []model.Diagnostic
	for i := 0; i < 200; i++ {
		u := use(fmt.Sprintf("src/f%d.ts", i%40), i+1, fmt.Sprintf("Api.Resource%d#method%d", (i*7)%200, i%10), model.AccessCall)
		usages = append(usages, u)
		if i%2 == 0 {
			diags = append(diags, diag(u.File, u.Start+2, 2554, "Expected 2 arguments, but got 1."))
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		fs := Match(changes, usages, installed, Options{Package: pkg, Installed: installed})
		Arbitrate(fs, usages, diags, ArbiterOptions{Package: pkg, Installed: installed, Target: installed, Compile: ran})
	}
}
