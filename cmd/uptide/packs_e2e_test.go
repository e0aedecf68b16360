package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The migration packs end to end, on apps written the way the tutorials
// write them, installed by npm from the test registry's real-shaped zod
// and @types/react: check files every site under the pack rule that claims
// it (by rule where the transform takes it, by agent where only the
// assisted fixer can), and fix with no provider makes the rule edits as
// one commit after the upgrade, leaving tsc clean at every by-rule site.

// packCheck is the part of check --json the pack tests read.
type packCheck struct {
	Packages []struct {
		Package  string `json:"package"`
		Findings []struct {
			ID   string `json:"id"`
			File string `json:"file"`
			Line int    `json:"line"`
		} `json:"findings"`
		Plan struct {
			Pack  string `json:"pack"`
			Rules []struct {
				ID       string            `json:"id"`
				ByRule   int               `json:"byRule"`
				ByAgent  int               `json:"byAgent"`
				Manual   int               `json:"manual"`
				Fix      map[string]string `json:"fix"`
				Previews map[string]string `json:"previews"`
			} `json:"rules"`
		} `json:"plan"`
	} `json:"packages"`
}

// packFix is the part of fix --json beyond fixReport the pack tests read.
type packFix struct {
	Rules *struct {
		Pack   string `json:"pack"`
		Commit string `json:"commit"`
		Sites  []struct {
			File string `json:"file"`
			Line int    `json:"line"`
			Rule string `json:"rule"`
		} `json:"sites"`
	} `json:"rules"`
	Decisions []string `json:"decisions"`
	NotRun    []string `json:"notRun"`
	Types     struct {
		New []struct {
			File string `json:"file"`
			Line int    `json:"line"`
			Code int    `json:"code"`
		} `json:"new"`
	} `json:"types"`
}

// planSites are "file:line rule-id by" for every finding of the plan.
func planSites(t *testing.T, rep packCheck, pkg, pack string) []string {
	t.Helper()
	for _, p := range rep.Packages {
		if p.Package != pkg {
			continue
		}
		if p.Plan.Pack != pack {
			t.Fatalf("%s's plan has pack %q, want %s", pkg, p.Plan.Pack, pack)
		}
		where := map[string]string{}
		for _, f := range p.Findings {
			where[f.ID] = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		var out []string
		for _, r := range p.Plan.Rules {
			for id, by := range r.Fix {
				out = append(out, where[id]+" "+r.ID+" "+by)
			}
		}
		sort.Strings(out)
		return out
	}
	t.Fatalf("check reported no %s", pkg)
	return nil
}

func packApp(t *testing.T, fe fixEnv, fixture string) string {
	t.Helper()
	dir := copyDir(t, "../../fixtures/fix/"+fixture)
	npmManager().install(t, fe.env, dir)
	commitAll(t, dir)
	return dir
}

// fixPack runs fix --json on a pack's upgrade and fails unless it exits
// with code and status and commits wantSubjects (unchecked when nil).
func fixPack(t *testing.T, fe fixEnv, dir, pkg, target string, code int, status string, wantSubjects []string) (fixReport, packFix) {
	t.Helper()
	res, out := runFix(t, fe, dir, pkg, "--target", target)
	var pf packFix
	decode(t, out, &pf)
	if out.code != code || res.Status != status {
		t.Fatalf("exit %d status %s (%s), want %d %s\n%s", out.code, res.Status, res.Reason, code, status, out.stderr)
	}
	if s := subjects(res); wantSubjects != nil && strings.Join(s, "\n") != strings.Join(wantSubjects, "\n") {
		t.Errorf("commits %q, want %q", s, wantSubjects)
	}
	return res, pf
}

// tscCleanAt fails when a new error of the branch lies at a by-rule site.
func tscCleanAt(t *testing.T, pf packFix, sites []string) {
	t.Helper()
	for _, d := range pf.Types.New {
		at := fmt.Sprintf("%s:%d", d.File, d.Line)
		for _, s := range sites {
			if strings.HasPrefix(s, at+" ") {
				t.Errorf("TS%d at %s, a by-rule site, after the rule edits", d.Code, at)
			}
		}
	}
}

func TestPacksZodTutorial(t *testing.T) {
	fe := newFixEnv(t)
	dir := packApp(t, fe, "zod-tutorial")
	const target = "zod@4.0.17"

	r := run(t, fe.env, dir, "check", "zod", "--target", target, "--json")
	var rep packCheck
	decode(t, r, &rep)
	// Every expected site lands on its rule: the keys are what check
	// really reports on zod's declarations. deepPartial has no transform.
	got := planSites(t, rep, "zod", "zod")
	want := []string{
		"src/errors.ts:5 zod-error-issues rule",
		"src/schemas.ts:13 zod-record-key rule",
		"src/schemas.ts:18 zod-deep-partial agent",
		"src/schemas.ts:9 zod-error-params rule",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("plan sites:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The plan carries what each by-rule edit will do: the planner's
	// preview, the same dry run fix commits.
	for _, rule := range rep.Packages[0].Plan.Rules {
		if rule.ID != "zod-record-key" {
			continue
		}
		want := "@@ src/schemas.ts:13 @@\n-  labels: z.record(z.string()),\n+  labels: z.record(z.string(), z.string()),\n"
		if len(rule.Previews) != 1 {
			t.Errorf("zod-record-key previews %v, want one", rule.Previews)
		}
		for _, p := range rule.Previews {
			if p != want {
				t.Errorf("zod-record-key preview:\n%s\nwant:\n%s", p, want)
			}
		}
	}
	text := run(t, fe.env, dir, "check", "zod", "--target", target)
	// The deprecated uses a transform takes are listed apart, not counted.
	for _, line := range []string{`✗ required_error / invalid_type_error / errorMap become error +2 +2 `, `✗ z.record needs a key schema +1 +1 `,
		`Deprecated \(still works; fix moves the by-rule ones, not counted\)`, `! z.nativeEnum is z.enum +1 +1 `, `! string formats are top-level +1 +1 `,
		`! message param becomes error +2 +2 `} {
		if !regexp.MustCompile(line).MatchString(text.stdout) {
			t.Errorf("check's plan lacks %q:\n%s", line, text.stdout)
		}
	}

	before := checkoutDigest(t, dir)
	// deepPartial is left for you (no provider): not verified, the branch
	// is still made.
	res, pf := fixPack(t, fe, dir, "zod", target, 1, "failed", []string{"upgrade zod 3.23.8 → 4.0.17",
		"apply zod rules: 8 sites (zod-error-issues, zod-error-params, zod-message-param, zod-native-enum, zod-record-key, zod-string-formats)"})
	if pf.Rules == nil || pf.Rules.Pack != "zod" || len(pf.Rules.Sites) != 7 || pf.Rules.Commit == "" {
		t.Fatalf("rules %+v, want the zod pack's 7 findings (3 breaking, 4 deprecated) in one commit", pf.Rules)
	}
	tscCleanAt(t, pf, want[:2])
	tscCleanAt(t, pf, want[3:])
	if len(pf.Types.New) == 0 {
		t.Error("no new error at all: the deepPartial site should still be one")
	}
	for _, s := range res.Sites {
		if s.File != "src/schemas.ts" || s.Line != 18 {
			t.Errorf("left for you: %s:%d (%s), want only the deepPartial site", s.File, s.Line, s.Rule)
		}
	}
	branch := "uptide/zod-4.0.17"
	schemas := git(t, dir, "show", branch+":src/schemas.ts")
	for _, s := range []string{
		`z.string({ error: (iss) => iss.input === undefined ? "Name is required" : undefined })`,
		`z.number({ error: (iss) => iss.input === undefined ? undefined : "Age must be a number" })`,
		`z.record(z.string(), z.string())`,
		// The deprecated uses, moved by rule in the same commit.
		`.min(1, { error: "Name cannot be empty" })`,
		`z.email({ error: "Invalid email address" })`,
		`role: z.enum(Role),`,
	} {
		if !strings.Contains(schemas, s) {
			t.Errorf("src/schemas.ts on the branch lacks %s:\n%s", s, schemas)
		}
	}
	if errs := git(t, dir, "show", branch+":src/errors.ts"); !strings.Contains(errs, "err.issues.map") {
		t.Errorf("src/errors.ts on the branch:\n%s", errs)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
}

func TestPacksReactApp(t *testing.T) {
	fe := newFixEnv(t)
	dir := packApp(t, fe, "react-app")
	const target = "react@19.1.0"

	r := run(t, fe.env, dir, "check", "react", "--target", target, "--json")
	var rep packCheck
	decode(t, r, &rep)
	got := planSites(t, rep, "react", "@types/react")
	want := []string{
		"src/counter.ts:4 react-useref-argument rule",
		"src/counter.ts:5 react-useref-argument rule",
		"src/label.ts:3 react-global-jsx rule",
		"src/label.ts:3 react-reactchild rule",
		"src/types.ts:3 react-reacttext rule",
		"src/types.ts:4 react-reactfragment rule",
		"src/types.ts:6 react-vfc rule",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("plan sites:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	before := checkoutDigest(t, dir)
	res, pf := fixPack(t, fe, dir, "react", target, 0, "verified", nil)
	s := subjects(res)
	if len(s) != 2 || !strings.HasPrefix(s[0], "upgrade react") || s[1] != "apply @types/react rules: 8 sites (react-global-jsx, react-reactchild, react-reactfragment, react-reacttext, react-useref-argument, react-vfc)" {
		t.Errorf("commits %q, want the upgrade then the rules' one commit", s)
	}
	if len(pf.Types.New) != 0 || len(res.Sites) != 0 {
		t.Errorf("new errors %+v, sites left %+v: want none", pf.Types.New, res.Sites)
	}
	branch := "uptide/react-19.1.0"
	counter := git(t, dir, "show", branch+":src/counter.ts")
	label := git(t, dir, "show", branch+":src/label.ts")
	types := git(t, dir, "show", branch+":src/types.ts")
	for _, c := range []struct{ text, want string }{
		{counter, "React.useRef<number | undefined>(undefined)"},
		{counter, "React.useRef(undefined)"},
		{label, "text: React.ReactElement | number | string): React.JSX.Element"},
		{label, "as React.JSX.Element"},
		{types, "export type Id = string | number;"},
		{types, "export type Slot = Iterable<React.ReactNode>;"},
		{types, "export const Badge: React.FC<{ id: Id; children?: Slot }> = () => null;"},
	} {
		if !strings.Contains(c.text, c.want) {
			t.Errorf("the branch lacks %s:\n%s", c.want, c.text)
		}
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
}

func TestPacksStripeApp(t *testing.T) {
	fe := newFixEnv(t)
	dir := packApp(t, fe, "stripe-app")
	const target = "stripe@15.0.0"

	r := run(t, fe.env, dir, "check", "stripe", "--target", target, "--json")
	var rep packCheck
	decode(t, r, &rep)
	got := planSites(t, rep, "stripe", "stripe")
	want := []string{
		"src/billing.ts:10 stripe-product-marketing-features rule",
		"src/billing.ts:4 stripe-api-version rule",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("plan sites:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	text := run(t, fe.env, dir, "check", "stripe", "--target", target)
	if note := "the pinned API version moves: API 2023-10-16 → 2024-04-10: 15 changelog entries between the pins"; !strings.Contains(text.stdout, note) {
		t.Errorf("check's plan lacks the pins' note %q:\n%s", note, text.stdout)
	}

	_, pf := fixPack(t, fe, dir, "stripe", target, 0, "verified",
		[]string{"upgrade stripe 14.25.0 → 15.0.0", "apply stripe rules: 2 sites (stripe-api-version, stripe-product-marketing-features)"})
	billing := git(t, dir, "show", "uptide/stripe-15.0.0:src/billing.ts")
	for _, s := range []string{`apiVersion: "2024-04-10"`, `marketing_features: [{ name: "Unlimited projects" }`} {
		if !strings.Contains(billing, s) {
			t.Errorf("src/billing.ts on the branch lacks %s:\n%s", s, billing)
		}
	}
	// The pins were read from both SDKs' declarations, and the changelog
	// between them is the user's to review.
	decisions := strings.Join(pf.Decisions, "\n")
	for _, s := range []string{"Stripe API 2023-10-16 → 2024-04-10: 15 changelog entries", "Product: Rename `features` to `marketing_features`", "Webhook endpoints keep the API version"} {
		if !strings.Contains(decisions, s) {
			t.Errorf("decisions lack %q:\n%s", s, decisions)
		}
	}
}

// Under pnpm node_modules/stripe is a link into the store, in the checkout
// and in fix's clone alike: both SDKs' pins are read through it, so the
// apiVersion rule edits its site and the changelog between the pins is
// listed, as under npm.
func TestPacksStripeAppPnpm(t *testing.T) {
	fe := newFixEnv(t)
	dir := copyDir(t, "../../fixtures/fix/stripe-app")
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	manager2(fe, "pnpm").run(t, fe.env, dir, "install", "--no-frozen-lockfile")
	commitAll(t, dir)
	if fi, err := os.Lstat(filepath.Join(dir, "node_modules", "stripe")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("pnpm should install node_modules/stripe as a link: %v", err)
	}
	_, pf := fixPack(t, fe, dir, "stripe", "stripe@15.0.0", 0, "verified",
		[]string{"upgrade stripe 14.25.0 → 15.0.0", "apply stripe rules: 2 sites (stripe-api-version, stripe-product-marketing-features)"})
	if billing := git(t, dir, "show", "uptide/stripe-15.0.0:src/billing.ts"); !strings.Contains(billing, `apiVersion: "2024-04-10"`) {
		t.Errorf("src/billing.ts on the branch keeps the old pin:\n%s", billing)
	}
	if d := strings.Join(pf.Decisions, "\n"); !strings.Contains(d, "Stripe API 2023-10-16 → 2024-04-10: 15 changelog entries") {
		t.Errorf("decisions lack the changelog between the pins:\n%s", d)
	}
	for _, n := range pf.NotRun {
		if strings.Contains(n, "stripe pack") {
			t.Errorf("not run: %s", n)
		}
	}
}
