package packs

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/engine/packs/stripe"
	"github.com/uptide/uptide/engine/plan"
	"github.com/uptide/uptide/engine/typescript"
	"github.com/uptide/uptide/internal/testkit/realfetch"
)

// The transforms that need syntax ask the real parser: the TypeScript
// driver over the pinned compiler, fetched once into the shared cache.
var (
	syntaxOnce    sync.Once
	syntaxAdapter *typescript.Adapter
	syntaxErr     error
	// fetch gets the pinned compiler from the real registry when the
	// shared cache lacks it; removeFetched drops the extracted copies.
	fetch, removeFetched = realfetch.New()
)

func TestMain(m *testing.M) {
	code := m.Run()
	if syntaxAdapter != nil {
		syntaxAdapter.Close()
	}
	removeFetched()
	os.Exit(code)
}

func testSyntax(t testing.TB) Syntax {
	t.Helper()
	syntaxOnce.Do(func() {
		c, err := typescript.PinnedCompiler(context.Background(), fetch, nil)
		if err != nil {
			syntaxErr = err
			return
		}
		syntaxAdapter = typescript.New(c, typescript.Options{NoSurfaceCache: true})
	})
	if syntaxErr != nil {
		t.Fatalf("the pinned TypeScript compiler (node and the compiler, fetched once): %v", syntaxErr)
	}
	return func(file, text string, offset int) ([]Node, error) {
		chains, err := syntaxAdapter.Ancestors(context.Background(), file, text, []int{offset})
		if err != nil {
			return nil, err
		}
		out := make([]Node, 0, len(chains[0]))
		for _, n := range chains[0] {
			out = append(out, Node{Kind: n.Kind, Start: n.Start, End: n.End})
		}
		return out, nil
	}
}

type fixtureSite struct {
	Change string `json:"change"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

func packByDir(t *testing.T, dir string) *Pack {
	t.Helper()
	for _, p := range Packs() {
		if packDir(p) == dir {
			return p
		}
	}
	t.Fatalf("testdata/%s names no pack", dir)
	return nil
}

// packDir is the fixture folder of a pack: its package without the scope.
func packDir(p *Pack) string { return strings.TrimPrefix(p.Package, "@types/") }

func ruleByID(p *Pack, id string) (Rule, bool) {
	for _, r := range p.Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// readFacts is a fixture's facts.json: what its pack would read from the
// two versions' declarations; nil without one.
func readFacts(t *testing.T, dir string) Facts {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "facts.json"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var f Facts
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("%s/facts.json: %v", dir, err)
	}
	return f
}

func readFixture(t *testing.T, dir string) (before, after string, sites []fixtureSite) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "before.ts"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := os.ReadFile(filepath.Join(dir, "after.ts"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "sites.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &sites); err != nil {
		t.Fatalf("%s/sites.json: %v", dir, err)
	}
	return string(b), string(a), sites
}

// TestFixtures: each rule's transform turns before.ts into after.ts at the
// listed sites, the site is claimed by that rule, and the transform is
// idempotent: at no position of after.ts does it change anything.
func TestFixtures(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/*/*")
	if len(dirs) == 0 {
		t.Fatal("no fixtures under testdata")
	}
	for _, dir := range dirs {
		pack := packByDir(t, filepath.Base(filepath.Dir(dir)))
		id := filepath.Base(dir)
		t.Run(pack.Package+"/"+id, func(t *testing.T) {
			r, ok := ruleByID(pack, id)
			if !ok {
				t.Fatalf("%s names no rule of the %s pack", dir, pack.Package)
			}
			if r.Transform == nil {
				t.Fatalf("rule %s has a fixture but no transform", id)
			}
			before, after, sites := readFixture(t, dir)
			syntax := testSyntax(t)
			facts := readFacts(t, dir)
			var edits []Edit
			for _, s := range sites {
				f := model.Finding{Change: s.Change, Path: s.Path, File: "a.ts", Line: s.Line, Column: s.Column}
				got, ok := pack.Rule(f, before)
				if !ok || got.ID != id {
					t.Fatalf("site %+v is claimed by %q, want %s", s, got.ID, id)
				}
				es, ok := r.Edits(Site{Finding: f, Content: before, Syntax: syntax, Facts: facts})
				if !ok {
					t.Fatalf("transform does not take site %+v", s)
				}
				// Two sites of one edit (two keys of one object) make it
				// once, as Planner.Edits does.
				for _, e := range es {
					if !slices.Contains(edits, e) {
						edits = append(edits, e)
					}
				}
			}
			out, err := Apply(edits, before)
			if err != nil {
				t.Fatal(err)
			}
			if out != after {
				t.Fatalf("after the edits:\n%s\nwant:\n%s", out, after)
			}
			lines := strings.Split(after, "\n")
			for _, s := range sites {
				for l := range lines {
					for c := 1; c <= len(lines[l])+1; c++ {
						f := model.Finding{Change: s.Change, Path: s.Path, File: "a.ts", Line: l + 1, Column: c}
						es, ok := r.Transform(Site{Finding: f, Content: after, Syntax: syntax, Facts: facts})
						if !ok {
							continue
						}
						if again, err := Apply(es, after); err != nil || again != after {
							t.Fatalf("not idempotent: at %d:%d of after.ts it edits %+v", l+1, c, es)
						}
					}
				}
			}
		})
	}
}

// TestRegistry: every rule has an id, a title and a guide, ids are unique,
// and every rule with a transform has a fixture.
func TestRegistry(t *testing.T) {
	for _, p := range Packs() {
		seen := map[string]bool{}
		for _, r := range p.Rules {
			if r.ID == "" || r.Title == "" || r.Guide == "" {
				t.Errorf("%s: rule %+v lacks an id, title or guide", p.Package, r.ID)
			}
			if seen[r.ID] {
				t.Errorf("%s: rule id %s twice", p.Package, r.ID)
			}
			seen[r.ID] = true
			if p.Guide(r.ID) != r.Guide {
				t.Errorf("Guide(%s) is not the rule's guide", r.ID)
			}
			if r.Transform != nil {
				if _, err := os.Stat(filepath.Join("testdata", packDir(p), r.ID, "before.ts")); err != nil {
					t.Errorf("%s: rule %s has a transform and no fixture", p.Package, r.ID)
				}
			}
			for _, k := range r.Keys() {
				if k.On == (On{}) {
					t.Errorf("%s: rule %s has a key that claims nothing: give it an On", p.Package, r.ID)
				}
				if k.On.Code() != 0 && k.Path == "" && k.Token == "" {
					t.Errorf("%s: rule %s claims every %s", p.Package, r.ID, k.On)
				}
			}
		}
	}
}

func TestFor(t *testing.T) {
	cases := []struct {
		pkg, from, to string
		want          string
	}{
		{"zod", "3.22.4", "4.1.0", "zod"},
		{"zod", "3.25.76", "3.25.76", ""},
		{"zod", "4.0.0", "5.0.0", ""},
		{"@types/react", "18.3.12", "19.1.2", "@types/react"},
		{"react", "18.3.1", "19.0.0", ""},
		{"zod", "not-a-version", "4.0.0", ""},
		{"stripe", "14.25.0", "15.0.0", "stripe"},
	}
	for _, c := range cases {
		got := ""
		if p := For(c.pkg, c.from, c.to); p != nil {
			got = p.Package
		}
		if got != c.want {
			t.Errorf("For(%s, %s, %s) = %q, want %q", c.pkg, c.from, c.to, got, c.want)
		}
	}
}

func TestApply(t *testing.T) {
	content := "abcdef"
	out, err := Apply([]Edit{{Start: 4, End: 5, New: "E"}, {Start: 0, End: 0, New: ">"}, {Start: 1, End: 3, New: ""}}, content)
	if err != nil || out != ">adEf" {
		t.Fatalf("Apply = %q, %v", out, err)
	}
	if _, err := Apply([]Edit{{File: "x.ts", Start: 1, End: 3}, {File: "x.ts", Start: 2, End: 4}}, content); err == nil || !strings.Contains(err.Error(), "overlap") || !strings.Contains(err.Error(), "x.ts") {
		t.Fatalf("overlapping edits: err = %v", err)
	}
	if _, err := Apply([]Edit{{File: "x.ts", Start: 3, End: 9}}, content); err == nil {
		t.Fatal("an edit past the end was applied")
	}
	// Two insertions at one offset are ambiguous in order: refused.
	if _, err := Apply([]Edit{{Start: 2, End: 2, New: "a"}, {Start: 2, End: 2, New: "b"}}, content); err != nil {
		// Insertions at one point do not overlap a range; both apply in
		// the order given.
		t.Fatalf("two insertions: %v", err)
	}
}

// TestPlannerPlan: the plan's split comes from the dry run over the real
// files: a site the transform takes is by rule, a pack site it does not
// take is by agent; Edits makes exactly the by-rule edits.
func TestPlannerPlan(t *testing.T) {
	root := t.TempDir()
	src := "import { z } from 'zod';\n" +
		"export const e = z.string().email();\n" +
		"export const t = z.string().trim().email();\n" +
		"export const r = z.record(z.number());\n"
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src/a.ts"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := []model.Finding{
		{ID: "1", Change: "deprecated", Path: "ZodString#email", File: "src/a.ts", Line: 2, Column: 29, Severity: model.Breaking},
		{ID: "2", Change: "deprecated", Path: "ZodString#email", File: "src/a.ts", Line: 3, Column: 36, Severity: model.Breaking},
		{ID: "3", Change: "TS2554", File: "src/a.ts", Line: 4, Column: 18, Severity: model.Breaking},
	}
	pl := For("zod", "3.23.8", "4.1.5").Planner(root)
	p := plan.Build(fs, plan.Options{Package: "zod", Pack: pl})
	if p.Pack != "zod" || p.Totals.ByRule != 2 || p.Totals.ByAgent != 1 || p.Totals.Manual != 0 {
		t.Fatalf("plan totals %+v (pack %q), want 2 by rule, 1 by agent", p.Totals, p.Pack)
	}
	edits, err := pl.Edits(fs)
	if err != nil {
		t.Fatal(err)
	}
	if len(edits) != 1 || edits[0].File != "src/a.ts" || len(edits[0].Edits) != 2 {
		t.Fatalf("edits %+v", edits)
	}
	out, err := Apply(edits[0].Edits, src)
	if err != nil {
		t.Fatal(err)
	}
	want := "import { z } from 'zod';\n" +
		"export const e = z.email();\n" +
		"export const t = z.string().trim().email();\n" +
		"export const r = z.record(z.string(), z.number());\n"
	if out != want {
		t.Fatalf("edited:\n%s", out)
	}
	if _, err := For("zod", "3.23.8", "4.1.5").Planner(root).Edits([]model.Finding{{Change: "TS2554", File: "src/missing.ts", Line: 1, Column: 1}}); err == nil || !strings.Contains(err.Error(), "src/missing.ts") {
		t.Fatalf("missing file: err = %v", err)
	}
}

// FuzzTransforms: repository files are outside input; no transform may
// panic on them, and every edit a transform returns must apply.
func FuzzTransforms(f *testing.F) {
	dirs, _ := filepath.Glob("testdata/*/*/before.ts")
	for _, d := range dirs {
		b, _ := os.ReadFile(d)
		f.Add(string(b), 2, 17)
	}
	f.Fuzz(func(t *testing.T, content string, line, col int) {
		for _, p := range Packs() {
			for _, r := range p.Rules {
				if r.Transform == nil {
					continue
				}
				fd := model.Finding{Change: r.On.String(), Path: strings.ReplaceAll(r.Path, "*", "email"), File: "a.ts", Line: line, Column: col}
				p.Rule(fd, content)
				facts := Facts{"apiVersion.from": "2023-10-16", "apiVersion.to": "2024-04-10"}
				if es, ok := r.Transform(Site{Finding: fd, Content: content, Facts: facts}); ok {
					if _, err := Apply(es, content); err != nil {
						t.Fatalf("%s: %v", r.ID, err)
					}
				}
			}
		}
	})
}

// TestEditsSimilar: a compiler-code finding stands for its similar
// diagnostics (check folds them into it): the rule edits each of them, and
// takes the site only when it takes every one.
func TestEditsSimilar(t *testing.T) {
	content := "import * as React from 'react';\n" +
		"export function f(): JSX.Element { return null as unknown as JSX.Element; }\n"
	pack := For("@types/react", "18.3.3", "19.1.2")
	f := model.Finding{Change: "TS2503", File: "a.tsx", Line: 2, Column: 22, Evidence: []model.Diagnostic{
		{File: "a.tsx", Line: 2, Column: 22, Code: 2503},
		{File: "a.tsx", Line: 2, Column: 62, Code: 2503},
		{File: "a.tsx", Line: 1, Column: 1, Code: 7006}, // another code: a consequence, not a site
	}}
	r, ok := pack.Rule(f, content)
	if !ok || r.ID != "react-global-jsx" {
		t.Fatalf("rule %q", r.ID)
	}
	es, ok := r.Edits(Site{Finding: f, Content: content})
	if !ok {
		t.Fatal("the site is not taken")
	}
	out, err := Apply(es, content)
	if err != nil {
		t.Fatal(err)
	}
	if want := "export function f(): React.JSX.Element { return null as unknown as React.JSX.Element; }\n"; !strings.HasSuffix(out, want) {
		t.Fatalf("edited:\n%s", out)
	}
	f.Evidence = append(f.Evidence, model.Diagnostic{File: "a.tsx", Line: 1, Column: 1, Code: 2503})
	if _, ok := r.Edits(Site{Finding: f, Content: content}); ok {
		t.Fatal("a similar diagnostic the transform cannot take: the site was taken anyway")
	}
}

// TestObjectFactoryRefuses: strict() on anything but the z.object call
// itself, with a message, or without a parser goes to the assisted fixer.
func TestObjectFactoryRefuses(t *testing.T) {
	before, _, _ := readFixture(t, "testdata/zod/zod-strict-passthrough")
	r, _ := ruleByID(For("zod", "3.23.8", "4.0.17"), "zod-strict-passthrough")
	lines := strings.Split(before, "\n")
	site := func(line int, syntax Syntax) Site {
		col := strings.Index(lines[line-1], ".strict(") + 2
		return Site{Finding: model.Finding{Change: "deprecated", Path: "ZodObject#strict", File: "a.ts", Line: line, Column: col}, Content: before, Syntax: syntax}
	}
	syntax := testSyntax(t)
	for _, line := range []int{11, 12} {
		if es, ok := r.Edits(site(line, syntax)); ok {
			t.Errorf("line %d (%s): edits %+v", line, lines[line-1], es)
		}
	}
	if es, ok := r.Edits(site(6, nil)); ok {
		t.Errorf("without a parser: edits %+v", es)
	}
	if _, ok := r.Edits(site(6, syntax)); !ok {
		t.Error("line 6 with a parser is not taken")
	}
}

// TestStripeFacts: the pins are read from the SDKs' own declarations (the
// test registry's stripe 14 and 15), and the changelog between them is
// listed from the snapshot in the tree, with its source; a pin the
// snapshot does not know is said, not passed over.
func TestStripeFacts(t *testing.T) {
	p := For("stripe", "14.25.0", "15.0.0")
	if p == nil {
		t.Fatal("no stripe pack for 14 → 15")
	}
	f, err := p.Facts("../../fixtures/registry/stripe/14.25.0", "../../fixtures/registry/stripe/15.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if f["apiVersion.from"] != "2023-10-16" || f["apiVersion.to"] != "2024-04-10" {
		t.Fatalf("facts %v", f)
	}
	review := p.Review([]string{"stripe-api-version"}, f)
	if len(review) < 3 || !strings.Contains(review[0], "Webhook endpoints") {
		t.Fatalf("review %q: want the rule's note first", review)
	}
	head := review[1]
	if !strings.HasPrefix(head, "Stripe API 2023-10-16 → 2024-04-10: 15 changelog entries") || !strings.Contains(head, "(source: stripe@") || !strings.Contains(head, " CHANGELOG.md):") {
		t.Errorf("decision head %q", head)
	}
	if !strings.Contains(strings.Join(review, "\n"), "  2024-04-10 · breaking · Product: Rename `features` to `marketing_features` on `ProductCreateOptions`, `ProductUpdateOptions`, and `Product`.") {
		t.Errorf("review lacks the product rename:\n%s", strings.Join(review, "\n"))
	}
	// 2019-12-03 (stripe 8.1 to 8.24) is a pin the CHANGELOG never names.
	if r := p.Review(nil, Facts{"apiVersion.from": "2019-12-03", "apiVersion.to": "2024-06-20"}); len(r) != 1 || !strings.Contains(r[0], "not 2019-12-03: review the API changelog between the two versions yourself") {
		t.Errorf("a pin the snapshot does not know: %q", r)
	}
	if _, err := p.Facts("../../fixtures/registry/stripe/14.25.0", t.TempDir()); err == nil || !strings.Contains(err.Error(), "pin 0 API versions") {
		t.Errorf("no declarations: %v", err)
	}
	// pnpm installs node_modules/stripe as a link into its store: the pins
	// are read through it.
	links := t.TempDir()
	for _, v := range []string{"14.25.0", "15.0.0"} {
		abs, err := filepath.Abs("../../fixtures/registry/stripe/" + v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(links, v)); err != nil {
			t.Fatal(err)
		}
	}
	if linked, err := p.Facts(filepath.Join(links, "14.25.0"), filepath.Join(links, "15.0.0")); err != nil || linked["apiVersion.from"] != "2023-10-16" || linked["apiVersion.to"] != "2024-04-10" {
		t.Errorf("facts through links: %v %v", linked, err)
	}
	// From stripe 19 the pin is a constant LatestApiVersion is the type of
	// (types/apiVersion.d.ts; from 20 one per cjs/ and esm/): the lines as
	// the SDKs ship them, beside the webhook endpoints' union of every
	// version, which pins nothing.
	for _, c := range []struct{ dir, pin string }{{"19.0.0", "2025-09-30.clover"}, {"23.2.0", "2026-11-18.endive"}} {
		got, err := p.Facts("../../fixtures/registry/stripe/14.25.0", filepath.Join("stripe", "testdata", "pins", c.dir))
		if err != nil || got["apiVersion.to"] != c.pin {
			t.Errorf("stripe %s pins %v %v, want %s", c.dir, got, err, c.pin)
		}
	}
	pl := p.Planner(t.TempDir()).WithFacts(f)
	if n := pl.Note("stripe-api-version"); n != "API 2023-10-16 → 2024-04-10: 15 changelog entries between the pins, listed by fix under Decisions for you" {
		t.Errorf("plan note %q", n)
	}
	if n := pl.Note("stripe-product-marketing-features"); n != "" {
		t.Errorf("a note under another rule: %q", n)
	}
	// Two pins the snapshot covers with no breaking entry between them are
	// covered, with nothing listed, not "not covered".
	if n := pl.WithFacts(Facts{"apiVersion.from": "2025-10-29.clover", "apiVersion.to": "2025-12-15.clover"}).Note("stripe-api-version"); !strings.HasPrefix(n, "API 2025-10-29.clover → 2025-12-15.clover: ") || strings.Contains(n, "covers") {
		t.Errorf("plan note between covered pins %q", n)
	}
}

// TestStripeSnapshotUnusable: a snapshot changed after it was generated
// (here one summary, as a hand edit would) fails its checksum, and the
// pack says the snapshot is unusable and why, in the review and the plan
// note alike, instead of listing nothing.
func TestStripeSnapshotUnusable(t *testing.T) {
	b, err := os.ReadFile("stripe/changelog.json")
	if err != nil {
		t.Fatal(err)
	}
	const old = "Rename `features` to `marketing_features`"
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("stripe/changelog.json lacks %q", old)
	}
	snap, err := stripe.Decode(bytes.Replace(b, []byte(old), []byte("Rename `features` to `product_features`"), 1))
	if err == nil {
		t.Fatal("a hand-edited snapshot decodes")
	}
	f := Facts{"apiVersion.from": "2023-10-16", "apiVersion.to": "2024-04-10"}
	r := stripeReview(f, snap, err)
	if len(r) != 1 || !strings.Contains(r[0], "the changelog snapshot shipped with Uptide is unusable (its checksum") || !strings.Contains(r[0], "review the API changelog between the two versions yourself") {
		t.Errorf("review of an unusable snapshot: %q", r)
	}
	if n := stripeNote("stripe-api-version", f, snap, err); !strings.Contains(n, "is unusable (its checksum") {
		t.Errorf("plan note of an unusable snapshot: %q", n)
	}
}

// TestPreview: the plan carries, per by-rule site, the dry run's diff of
// the lines it changes; similar diagnostics on other lines are hunks of
// their own; a site no transform takes has none.
func TestPreview(t *testing.T) {
	root := t.TempDir()
	src := "import { z } from 'zod';\n" +
		"export const a = z.string({ required_error: 'A' });\n" +
		"export const keep = 1;\n" +
		"export const b = z.number({ invalid_type_error: 'B' });\n" +
		"export const t = z.string().trim().email();\n"
	if err := os.WriteFile(filepath.Join(root, "a.ts"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := []model.Finding{
		{ID: "p", Change: "TS2353", File: "a.ts", Line: 2, Column: 29, Severity: model.Breaking, Similar: 1, Evidence: []model.Diagnostic{
			{File: "a.ts", Line: 2, Column: 29, Code: 2353}, {File: "a.ts", Line: 4, Column: 29, Code: 2353}}},
		{ID: "e", Change: "deprecated", Path: "ZodString#email", File: "a.ts", Line: 5, Column: 36, Severity: model.Breaking},
	}
	p := plan.Build(fs, plan.Options{Package: "zod", Pack: For("zod", "3.23.8", "4.0.17").Planner(root)})
	var previews map[string]string
	for _, r := range p.Rules {
		if r.ID == "zod-error-params" {
			previews = r.Previews
		}
		if r.ID == "zod-string-formats" && len(r.Previews) != 0 {
			t.Errorf("a site no transform takes has a preview: %v", r.Previews)
		}
	}
	want := "@@ a.ts:2 @@\n" +
		"-export const a = z.string({ required_error: 'A' });\n" +
		"+export const a = z.string({ error: (iss) => iss.input === undefined ? 'A' : undefined });\n" +
		"@@ a.ts:4 @@\n" +
		"-export const b = z.number({ invalid_type_error: 'B' });\n" +
		"+export const b = z.number({ error: (iss) => iss.input === undefined ? undefined : 'B' });\n"
	if previews["p"] != want {
		t.Fatalf("preview:\n%s\nwant:\n%s", previews["p"], want)
	}
}

// TestJSXConfig: the one edit at the tsconfig's jsx line, whether the
// option is the last of its object or not; a jsx mode it does not know
// goes to the assisted fixer.
func TestJSXConfig(t *testing.T) {
	r, _ := ruleByID(For("@types/react", "18.3.3", "19.1.2"), "react-jsx-config")
	site := func(content string) Site {
		return Site{Finding: model.Finding{Change: "cause", File: "tsconfig.json", Line: 2, Column: 5, AnchorOnly: true}, Content: content}
	}
	last := "{ \"compilerOptions\": {\n    \"jsx\": \"preserve\"\n  }\n}\n"
	es, ok := r.Edits(site(last))
	if !ok {
		t.Fatal("the last property is not taken")
	}
	if out, _ := Apply(es, last); out != "{ \"compilerOptions\": {\n    \"jsx\": \"preserve\",\n    \"jsxImportSource\": \"react\"\n  }\n}\n" {
		t.Errorf("edited:\n%s", out)
	}
	for _, c := range []string{
		"{ \"compilerOptions\": {\n    \"jsx\": \"react\"\n  }\n}\n",
		"{ \"compilerOptions\": {\n    \"jsx\": \"react-jsx\"\n  }\n}\n",
		"{ \"compilerOptions\": {\n    \"jsx\": \"preserve\", \"jsxImportSource\": \"preact\"\n  }\n}\n",
	} {
		if es, ok := r.Edits(site(c)); ok {
			t.Errorf("%q: edits %+v", c, es)
		}
	}
}

// zod 4.1 and later give z.string two overloads: a required_error there is
// TS2769 (no overload matches), not TS2353, and the same rule takes it.
func TestZodErrorParamsUnderOverloads(t *testing.T) {
	src := "import { z } from 'zod';\nexport const n = z.string({ required_error: 'name is required' });\n"
	f := model.Finding{ID: "1", Change: "TS2769", File: "a.ts", Line: 2, Column: 29, Severity: model.Breaking}
	r, ok := For("zod", "3.25.76", "4.6.7").Rule(f, src)
	if !ok || r.ID != "zod-error-params" {
		t.Fatalf("rule %q (%v), want zod-error-params", r.ID, ok)
	}
	f.Change = "TS2769"
	f.Column = 18 // at z.string, not at the param: another cause
	if r, ok := For("zod", "3.25.76", "4.6.7").Rule(f, src); ok {
		t.Errorf("a TS2769 away from the params took rule %q", r.ID)
	}
}
