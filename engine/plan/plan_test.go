package plan

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

func fnd(id, change string, sev model.Severity, file string, opts ...func(*model.Finding)) model.Finding {
	f := model.Finding{ID: id, Package: "zod", Change: change, Severity: sev, Confidence: 1, Workspace: ".", File: file, Line: 1}
	for _, o := range opts {
		o(&f)
	}
	return f
}

func at(p string) func(*model.Finding) { return func(f *model.Finding) { f.Path = p } }
func similar(n int) func(*model.Finding) {
	return func(f *model.Finding) { f.Similar = n }
}
func anchor(n int) func(*model.Finding) {
	return func(f *model.Finding) {
		f.AnchorOnly = true
		f.Downstream = make([]model.Diagnostic, n)
	}
}
func sites(n int) func(*model.Finding) {
	return func(f *model.Finding) { f.Sites = make([]model.Usage, n) }
}
func conf(c float64) func(*model.Finding) { return func(f *model.Finding) { f.Confidence = c } }
func ws(w string) func(*model.Finding)    { return func(f *model.Finding) { f.Workspace = w } }
func repl(r string) func(*model.Finding)  { return func(f *model.Finding) { f.Replacement = r } }

// testPack is a pack as data: rules keyed by change kind and path.
type testPack struct {
	rules map[string]packRule
}

type packRule struct {
	id, title string
	takes     func(model.Finding) bool
	perFile   bool
}

func (p testPack) Name() string { return "zod" }

func (p testPack) RuleFor(f model.Finding) (string, string, bool, bool) {
	r, ok := p.rules[f.Change+" "+f.Path]
	if !ok {
		r, ok = p.rules[f.Change]
	}
	if !ok {
		return "", "", false, false
	}
	takes := r.takes == nil || r.takes(f)
	return r.id, r.title, takes, r.perFile
}

var zodPack = testPack{rules: map[string]packRule{
	"removed z.string#email": {id: "zod/string-formats", title: "z.string().email() is now z.email()"},
	"type z.infer":           {id: "zod/types", title: "type helpers changed", perFile: true, takes: func(f model.Finding) bool { return f.File != "src/hard.ts" }},
	"signature":              {id: "zod/error-param", title: "message params become error", takes: func(f model.Finding) bool { return f.Line < 100 }},
}}

func TestBuildWithoutPack(t *testing.T) {
	findings := []model.Finding{
		fnd("a1", "removed", model.Breaking, "src/a.ts", at("Foo")),
		fnd("a2", "removed", model.Breaking, "src/b.ts", at("Foo")),
		fnd("a3", "removed", model.Breaking, "src/b.ts", at("Bar"), repl("Baz")),
		fnd("s1", "signature", model.Breaking, "src/a.ts", at("parse")),
		fnd("s2", "signature", model.Breaking, "src/c.ts", at("create")),
		fnd("t1", "TS2345", model.Breaking, "src/a.ts", similar(2)),
		fnd("t2", "TS9999", model.Breaking, "src/a.ts"),
		fnd("c1", "cause", model.Breaking, "tsconfig.json", at("JSX"), anchor(12)),
		fnd("m1", "module-format", model.Breaking, "scripts/a.js", sites(3)),
		fnd("m2", "module-format", model.Breaking, "scripts/b.js", sites(1)),
		fnd("u1", "type", model.Unverified, "src/a.ts", at("Schema")),
		fnd("u2", "removed", model.Unverified, "src/d.ts", at("Qux")),
		fnd("i1", "signature", model.Info, "src/a.ts"),
		fnd("d1", "deprecated", model.Deprecated, "src/a.ts"),
		fnd("x1", "added", model.Additive, "src/a.ts"),
	}
	got := Build(findings, Options{Package: "zod"})
	want := model.Plan{
		Package: "zod",
		Rules: []model.PlanRule{
			{ID: "TS2345", Title: "argument not assignable (TS2345)", Sites: 3, Manual: 3, Findings: []string{"t1"}, Fix: map[string]string{"t1": "manual"}},
			{ID: "module-format", Title: "ESM only: require() of the package must become import()", Sites: 2, Manual: 2, PerFile: true, Errors: 4, Findings: []string{"m1", "m2"}, Fix: map[string]string{"m1": "manual", "m2": "manual"}},
			{ID: "removed:Foo", Title: "Foo removed", Sites: 2, Manual: 2, Findings: []string{"a1", "a2"}, Fix: map[string]string{"a1": "manual", "a2": "manual"}},
			{ID: "signature", Title: "call signature changed", Sites: 2, Manual: 2, Findings: []string{"s1", "s2"}, Fix: map[string]string{"s1": "manual", "s2": "manual"}},
			{ID: "TS9999", Title: "compile error TS9999", Sites: 1, Manual: 1, Findings: []string{"t2"}, Fix: map[string]string{"t2": "manual"}},
			{ID: "cause:tsconfig.json:JSX", Title: "JSX changed: one edit at tsconfig.json", Sites: 1, Manual: 1, Errors: 12, Findings: []string{"c1"}, Fix: map[string]string{"c1": "manual"}},
			{ID: "removed:Bar", Title: "Bar removed, use Baz", Sites: 1, Manual: 1, Findings: []string{"a3"}, Fix: map[string]string{"a3": "manual"}},
		},
		Unverified: []model.PlanRule{
			{ID: "removed:Qux", Title: "Qux removed", Sites: 1, Manual: 1, Findings: []string{"u2"}, Fix: map[string]string{"u2": "manual"}},
			{ID: "type", Title: "type changed", Sites: 1, Manual: 1, Findings: []string{"u1"}, Fix: map[string]string{"u1": "manual"}},
		},
		// Without a pack no deprecated use is moved by rule.
		Deprecations: []model.PlanRule{},
		Noted:        []model.PlanRule{},
		Totals:       model.PlanTotals{Sites: 12, Manual: 12, Errors: 16},
		Next:         []string{},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestBuildWithPack(t *testing.T) {
	findings := []model.Finding{
		// Taken by the transform.
		fnd("e1", "removed", model.Breaking, "src/a.ts", at("z.string#email")),
		fnd("e2", "removed", model.Breaking, "src/b.ts", at("z.string#email")),
		// A per-file rule: two findings in a.ts, one in hard.ts the
		// transform cannot take; compiler-only errors of a.ts fold in.
		fnd("i1", "type", model.Breaking, "src/a.ts", at("z.infer")),
		fnd("i2", "type", model.Breaking, "src/a.ts", at("z.infer")),
		// An implicit any traced to i3 is one more error its fix removes.
		fnd("i3", "type", model.Breaking, "src/hard.ts", at("z.infer"), func(f *model.Finding) {
			f.Downstream = []model.Diagnostic{{File: "src/hard.ts", Line: 9, Code: 7006, Message: "Parameter 'e' implicitly has an 'any' type."}}
		}),
		fnd("f1", "TS2322", model.Breaking, "src/a.ts", similar(1)),
		// Same file name in another workspace: not folded.
		fnd("f2", "TS2322", model.Breaking, "src/a.ts", ws("packages/api")),
		// Pack rule, transform takes one of two.
		fnd("p1", "signature", model.Breaking, "src/c.ts", func(f *model.Finding) { f.Line = 10 }),
		fnd("p2", "signature", model.Breaking, "src/c.ts", func(f *model.Finding) { f.Line = 200 }),
		// No pack rule: by agent.
		fnd("o1", "removed", model.Breaking, "src/d.ts", at("z.ZodEffects")),
		// Hidden under MinConfidence.
		fnd("h1", "removed", model.Breaking, "src/e.ts", at("z.ZodEffects"), conf(0.4)),
		// Deprecated uses: a rule whose transform takes one (its other
		// site is manual, never the agent's), and one no transform takes
		// (left out).
		fnd("d1", "signature", model.Deprecated, "src/g.ts", func(f *model.Finding) { f.Line = 10 }),
		fnd("d2", "signature", model.Deprecated, "src/g.ts", func(f *model.Finding) { f.Line = 300 }),
		fnd("d3", "removed", model.Deprecated, "src/h.ts", at("z.ZodEffects")),
	}
	got := Build(findings, Options{Package: "zod", Target: "4.1.12", Pack: zodPack, MinConfidence: 0.5})
	want := model.Plan{
		Package: "zod", Target: "4.1.12", Pack: "zod",
		Rules: []model.PlanRule{
			{ID: "zod/error-param", Title: "message params become error", Sites: 2, ByRule: 1, ByAgent: 1, Findings: []string{"p1", "p2"}, Fix: map[string]string{"p1": "rule", "p2": "agent"}},
			{ID: "zod/string-formats", Title: "z.string().email() is now z.email()", Sites: 2, ByRule: 2, Findings: []string{"e1", "e2"}, Fix: map[string]string{"e1": "rule", "e2": "rule"}},
			{ID: "zod/types", Title: "type helpers changed", Sites: 2, ByRule: 1, ByAgent: 1, PerFile: true, Errors: 6, Findings: []string{"f1", "i1", "i2", "i3"},
				// a.ts is taken whole (f1 folded into it), hard.ts is not.
				Fix: map[string]string{"f1": "rule", "i1": "rule", "i2": "rule", "i3": "agent"}},
			{ID: "TS2322", Title: "value not assignable (TS2322)", Sites: 1, ByAgent: 1, Findings: []string{"f2"}, Fix: map[string]string{"f2": "agent"}},
			{ID: "removed:z.ZodEffects", Title: "z.ZodEffects removed", Sites: 1, ByAgent: 1, Findings: []string{"o1"}, Fix: map[string]string{"o1": "agent"}},
		},
		Unverified: []model.PlanRule{},
		Deprecations: []model.PlanRule{
			{ID: "zod/error-param", Title: "message params become error", Sites: 2, ByRule: 1, Manual: 1, Findings: []string{"d1", "d2"}, Fix: map[string]string{"d1": "rule", "d2": "manual"}},
		},
		Noted:  []model.PlanRule{},
		Totals: model.PlanTotals{Sites: 8, ByRule: 4, ByAgent: 4, Errors: 6},
		Next: []string{
			"uptide check zod --target zod@4.1.12 --details",
			"uptide fix zod --target zod@4.1.12",
		},
		Fix: "uptide fix zod --target zod@4.1.12",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, r := range got.Rules {
		if r.ByRule+r.ByAgent+r.Manual != r.Sites {
			t.Errorf("%s: split %d+%d+%d != %d sites", r.ID, r.ByRule, r.ByAgent, r.Manual, r.Sites)
		}
	}
}

func TestBuildIsOrderIndependent(t *testing.T) {
	findings := []model.Finding{
		fnd("i1", "type", model.Breaking, "src/a.ts", at("z.infer")),
		fnd("f1", "TS2322", model.Breaking, "src/a.ts", similar(1)),
		fnd("f0", "TS2322", model.Breaking, "src/a.ts"),
		fnd("e1", "removed", model.Breaking, "src/a.ts", at("z.string#email")),
		fnd("m1", "module-format", model.Breaking, "src/a.ts", sites(2)),
		fnd("c1", "cause", model.Breaking, "tsconfig.json", anchor(3)),
		fnd("u1", "type", model.Unverified, "src/a.ts", at("X")),
	}
	for _, pack := range []Pack{nil, zodPack} {
		first := Build(findings, Options{Package: "zod", Target: "4.0.0", Pack: pack})
		r := rand.New(rand.NewPCG(1, 2))
		for range 20 {
			shuffled := append([]model.Finding(nil), findings...)
			r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			if d := cmp.Diff(first, Build(shuffled, Options{Package: "zod", Target: "4.0.0", Pack: pack})); d != "" {
				t.Fatalf("pack %v: order changed the plan (-first +shuffled):\n%s", pack != nil, d)
			}
		}
	}
}

func TestBuildEmpty(t *testing.T) {
	got := Build(nil, Options{Package: "zod"})
	want := model.Plan{Package: "zod", Rules: []model.PlanRule{}, Unverified: []model.PlanRule{}, Deprecations: []model.PlanRule{}, Noted: []model.PlanRule{}, Next: []string{}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestRuleKey(t *testing.T) {
	tests := []struct {
		f         model.Finding
		id, title string
	}{
		{model.Finding{Change: "removed", Path: "Foo"}, "removed:Foo", "Foo removed"},
		{model.Finding{Change: "removed", SymbolPath: "foo"}, "removed:foo", "foo removed"},
		{model.Finding{Change: "removed", Path: "a", Replacement: "b"}, "removed:a", "a removed, use b"},
		{model.Finding{Change: "moved", Path: "X", Replacement: "pkg/sub"}, "moved:X", "X moved to pkg/sub"},
		{model.Finding{Change: "moved", Path: "X"}, "moved:X", "X moved"},
		{model.Finding{Change: "deprecated", Path: "X"}, "deprecated:X", "X deprecated"},
		{model.Finding{Change: "signature", Path: "X"}, "signature", "call signature changed"},
		{model.Finding{Change: "required"}, "required", "member now required"},
		{model.Finding{Change: "narrowed"}, "narrowed", "type narrowed: your values may no longer fit"},
		{model.Finding{Change: "TS2345"}, "TS2345", "argument not assignable (TS2345)"},
		{model.Finding{Change: "TS7026"}, "TS7026", "JSX element implicitly has type any (TS7026)"},
		{model.Finding{Change: "TS1"}, "TS1", "compile error TS1"},
		{model.Finding{Change: "TSx"}, "TSx", "TSx"},
		{model.Finding{Change: "cause", File: "src/hooks.ts", Root: "src/hooks.ts"}, "cause:src/hooks.ts", "one edit at src/hooks.ts"},
		{model.Finding{Change: "module-format"}, "module-format", "ESM only: require() of the package must become import()"},
		{model.Finding{}, "unknown", "unclassified change"},
	}
	for _, tt := range tests {
		id, title := RuleKey(tt.f)
		if id != tt.id || title != tt.title {
			t.Errorf("RuleKey(%+v) = %q, %q; want %q, %q", tt.f, id, title, tt.id, tt.title)
		}
	}
}

func TestBuildEnginesNodeKeepsOnlyCheck(t *testing.T) {
	f := fnd("n1", "engines-node", model.Breaking, "package.json")
	f.Fixability = model.Manual
	got := Build([]model.Finding{f}, Options{Package: "jotai", Target: "3.0.0"})
	if want := []string{"uptide check jotai --target jotai@3.0.0 --details"}; !slices.Equal(got.Next, want) {
		t.Errorf("next %q, want %q: no command Uptide has moves the repository's Node", got.Next, want)
	}
	if got.Fix != "" {
		t.Errorf("fix %q, want none: the plan offers no fix", got.Fix)
	}
	conflict := Build([]model.Finding{fnd("r1", "removed", model.Breaking, "src/a.ts")}, Options{Package: "jotai", Target: "3.0.0", Repo: Repo{Conflict: true}})
	if conflict.Fix != "" || len(conflict.Next) != 1 {
		t.Errorf("under a conflict: next %q, fix %q; want the check alone and no fix", conflict.Next, conflict.Fix)
	}
	if len(got.Rules) != 1 || got.Rules[0].ID != "engines-node" || got.Rules[0].Manual != 1 ||
		got.Rules[0].Title != "needs a newer Node: the target's engines.node excludes the repository's" {
		t.Errorf("rules %+v", got.Rules)
	}
}

// reviewPack is testPack with review notes per rule.
type reviewPack struct {
	testPack
	notes map[string][]string
}

func (p reviewPack) Review(id string) []string { return p.notes[id] }

// Uses that keep compiling are noted under the pack's rule when a pack rule
// claims a deprecated use no transform takes, or an info finding of a rule
// with review notes; the plain-English groups and the info findings of a
// rule without notes stay out. Noted rules are never counted, their sites
// never the agent's.
func TestBuildNoted(t *testing.T) {
	pack := reviewPack{
		testPack: testPack{rules: map[string]packRule{
			"use React.forwardRef":                         {id: "react-forwardref", title: "forwardRef no longer needed", takes: func(model.Finding) bool { return false }},
			"deprecated React.forwardRef":                  {id: "react-forwardref", title: "forwardRef no longer needed", takes: func(model.Finding) bool { return false }},
			"deprecated React.FunctionComponent#propTypes": {id: "react-proptypes", title: "propTypes ignored", takes: func(model.Finding) bool { return false }},
			"signature React.useRef":                       {id: "react-useref", title: "useRef needs an argument"},
		}},
		notes: map[string][]string{
			"react-forwardref": {"forwardRef still works in 19."},
			"react-proptypes":  {"propTypes checks are gone."},
		},
	}
	findings := []model.Finding{
		fnd("n1", "use", model.Info, "src/input.ts", at("React.forwardRef")),
		// The same use filed as deprecated too is one site.
		fnd("n1d", "deprecated", model.Deprecated, "src/input.ts", at("React.forwardRef")),
		// Hidden (info always is) and still noted.
		fnd("n2", "use", model.Info, "src/other.ts", at("React.forwardRef"), func(f *model.Finding) { f.Hidden = true }),
		fnd("n3", "deprecated", model.Deprecated, "src/greeting.ts", at("React.FunctionComponent#propTypes")),
		// An info finding that is not a use (a changed signature that
		// compiles) of a rule with a transform, one no rule claims, and a
		// deprecated use no rule claims: none is noted.
		fnd("x1", "signature", model.Info, "src/ref.ts", at("React.useRef")),
		fnd("x2", "type", model.Info, "src/ref.ts", at("React.ReactNode")),
		fnd("x3", "deprecated", model.Deprecated, "src/ref.ts", at("React.ReactFragment")),
		// A breaking site of a rule with notes carries them.
		fnd("b1", "deprecated", model.Breaking, "src/b.ts", at("React.FunctionComponent#propTypes")),
		// A hidden breaking finding is not counted.
		fnd("h1", "deprecated", model.Breaking, "src/h.ts", at("React.FunctionComponent#propTypes"), func(f *model.Finding) { f.Hidden = true }),
	}
	got := Build(findings, Options{Package: "@types/react", Pack: pack})
	want := []model.PlanRule{
		{ID: "react-forwardref", Title: "forwardRef no longer needed", Sites: 2, Manual: 2, Findings: []string{"n1", "n2"},
			Fix: map[string]string{"n1": "manual", "n2": "manual"}, Review: []string{"forwardRef still works in 19."}},
		{ID: "react-proptypes", Title: "propTypes ignored", Sites: 1, Manual: 1, Findings: []string{"n3"},
			Fix: map[string]string{"n3": "manual"}, Review: []string{"propTypes checks are gone."}},
	}
	if d := cmp.Diff(want, got.Noted); d != "" {
		t.Errorf("noted (-want +got):\n%s", d)
	}
	if len(got.Deprecations) != 0 || got.Totals.Sites != 1 {
		t.Errorf("deprecations %+v, totals %+v: want none moved and only the breaking site counted", got.Deprecations, got.Totals)
	}
	if len(got.Rules) != 1 || !slices.Equal(got.Rules[0].Review, []string{"propTypes checks are gone."}) {
		t.Errorf("rules %+v, want the breaking propTypes rule with its review note", got.Rules)
	}
	// Without review notes the same uses are noted, with nothing to read.
	bare := Build(findings, Options{Package: "@types/react", Pack: pack.testPack})
	if len(bare.Noted) != 2 || bare.Noted[0].Review != nil {
		t.Errorf("a pack without review notes noted %+v", bare.Noted)
	}
}
