package main

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The react pack's rules that only fixture pairs covered, end to end on
// the test registry's real-shaped @types/react 18.3.3 → 19.1.0 (19.1.2, what
// react 19.1.0 takes along, declares neither ComponentRef nor a JSX
// runtime): ElementRef → ComponentRef by rule, what the plan and fix's
// decisions say about forwardRef, propTypes and defaultProps, and the
// tsconfig root cause of every JSX element's error, one edit by rule.

// reactTypesTarget is the real-shaped @types/react 19 release.
const reactTypesTarget = "@types/react@19.1.0"

// reactCheck is the part of check --json these tests read beyond packCheck.
type reactCheck struct {
	Packages []struct {
		Package  string `json:"package"`
		Findings []struct {
			ID       string `json:"id"`
			Path     string `json:"path"`
			Change   string `json:"change"`
			Severity string `json:"severity"`
			File     string `json:"file"`
			Line     int    `json:"line"`
			Errors   []struct {
				Code int `json:"code"`
			} `json:"downstream"`
		} `json:"findings"`
		Plan struct {
			Pack         string     `json:"pack"`
			Rules        []planRule `json:"rules"`
			Unverified   []planRule `json:"unverified"`
			Deprecations []planRule `json:"deprecations"`
			Noted        []planRule `json:"noted"`
		} `json:"plan"`
	} `json:"packages"`
}

type planRule struct {
	ID       string            `json:"id"`
	Sites    int               `json:"sites"`
	Errors   int               `json:"errors"`
	ByRule   int               `json:"byRule"`
	ByAgent  int               `json:"byAgent"`
	Manual   int               `json:"manual"`
	Fix      map[string]string `json:"fix"`
	Previews map[string]string `json:"previews"`
	Review   []string          `json:"review"`
}

// reactPlan checks @types/react and returns its report, with every plan
// rule as "group id sites/byRule/byAgent/manual file:line…".
func reactPlan(t *testing.T, fe fixEnv, dir string) (rep reactCheck, rules []string) {
	t.Helper()
	r := run(t, fe.env, dir, "check", "@types/react", "--target", reactTypesTarget, "--json")
	decode(t, r, &rep)
	if len(rep.Packages) != 1 || rep.Packages[0].Package != "@types/react" || rep.Packages[0].Plan.Pack != "@types/react" {
		t.Fatalf("check reported %+v, want @types/react planned by its pack", rep.Packages)
	}
	p := rep.Packages[0]
	where := map[string]string{}
	for _, f := range p.Findings {
		where[f.ID] = f.File + ":" + strconv.Itoa(f.Line)
	}
	for _, g := range []struct {
		name  string
		rules []planRule
	}{{"rules", p.Plan.Rules}, {"unverified", p.Plan.Unverified}, {"deprecations", p.Plan.Deprecations}, {"noted", p.Plan.Noted}} {
		for _, r := range g.rules {
			var at []string
			for id, by := range r.Fix {
				at = append(at, where[id]+" "+by)
			}
			sort.Strings(at)
			rules = append(rules, g.name+" "+r.ID+" "+strconv.Itoa(r.Sites)+"/"+strconv.Itoa(r.ByRule)+"/"+strconv.Itoa(r.ByAgent)+"/"+strconv.Itoa(r.Manual)+" "+strings.Join(at, ", "))
		}
	}
	return rep, rules
}

// TestPacksReactRefs: a react 18 app with React.ElementRef<typeof X> over a
// forwardRef component and a function component carrying propTypes and
// defaultProps. ElementRef is a deprecated use the pack moves by rule;
// defaultProps is gone from FunctionComponent (a breaking site only the
// assisted fixer can take, and the pack's review note); propTypes is
// deprecated on it and forwardRef still works: both are noted, with the
// pack's notes, nothing to edit.
func TestPacksReactRefs(t *testing.T) {
	fe := newFixEnv(t)
	dir := packApp(t, fe, "react-refs-app")

	rep, rules := reactPlan(t, fe, dir)
	want := []string{
		"rules react-proptypes-defaultprops 1/0/1/0 src/greeting.ts:14 agent",
		"deprecations react-elementref 1/1/0/0 src/input.ts:11 rule",
		"noted react-forwardref 1/0/0/1 src/input.ts:7 manual",
		"noted react-proptypes-defaultprops 1/0/0/1 src/greeting.ts:10 manual",
	}
	if strings.Join(rules, "\n") != strings.Join(want, "\n") {
		t.Fatalf("plan:\n%s\nwant:\n%s", strings.Join(rules, "\n"), strings.Join(want, "\n"))
	}
	p := rep.Packages[0]
	for _, r := range p.Plan.Deprecations {
		wantPreview := "@@ src/input.ts:11 @@\n-export type InputHandle = React.ElementRef<typeof Input>;\n+export type InputHandle = React.ComponentRef<typeof Input>;\n"
		for _, pv := range r.Previews {
			if pv != wantPreview {
				t.Errorf("%s preview:\n%s\nwant:\n%s", r.ID, pv, wantPreview)
			}
		}
		if len(r.Previews) != 1 {
			t.Errorf("%s previews %v, want one", r.ID, r.Previews)
		}
	}
	for _, r := range p.Plan.Noted {
		if len(r.Review) == 0 {
			t.Errorf("noted %s carries no review note", r.ID)
		}
	}
	// What check saw at the noted sites: propTypes is a deprecated use no
	// transform takes, forwardRef's changed signature is information only
	// (the code compiles against 19).
	seen := map[string]string{}
	for _, f := range p.Findings {
		seen[f.File+":"+strconv.Itoa(f.Line)+" "+f.Path+" "+f.Change] = f.Severity
	}
	for at, sev := range map[string]string{
		"src/greeting.ts:10 React.FunctionComponent#propTypes deprecated": "deprecated",
		"src/greeting.ts:14 React.FunctionComponent#defaultProps removed": "breaking",
		"src/input.ts:7 React.forwardRef signature":                       "info",
		"src/input.ts:11 React.ElementRef deprecated":                     "deprecated",
	} {
		if seen[at] != sev {
			t.Errorf("finding %s: severity %q, want %s (findings: %v)", at, seen[at], sev, seen)
		}
	}

	text := run(t, fe.env, dir, "check", "@types/react", "--target", reactTypesTarget)
	for _, line := range []string{
		`✗ propTypes and defaultProps on function components ignored +1 +– +1 +–`,
		`Deprecated \(still works; fix moves the by-rule ones, not counted\)`,
		`! ElementRef deprecated for ComponentRef +1 +1 +– +–`,
		`Noted \(still compiles; nothing to edit, read the note\)`,
		`· forwardRef no longer needed +1`,
		`· propTypes and defaultProps on function components ignored +1`,
		`forwardRef no longer needed: forwardRef still works in 19; moving ref into props is a refactor to schedule`,
	} {
		if !regexp.MustCompile(line).MatchString(text.stdout) {
			t.Errorf("check's plan lacks %q:\n%s", line, text.stdout)
		}
	}

	before := checkoutDigest(t, dir)
	// The defaultProps site is left for you (no provider): the branch is
	// made, not verified.
	res, pf := fixPack(t, fe, dir, "@types/react", reactTypesTarget, 1, "failed",
		[]string{"upgrade @types/react 18.3.3 → 19.1.0", "apply @types/react rules: 1 site (react-elementref)"})
	if pf.Rules == nil || len(pf.Rules.Sites) != 1 || pf.Rules.Sites[0].Rule != "react-elementref" || pf.Rules.Sites[0].File != "src/input.ts" {
		t.Errorf("rules %+v, want the ElementRef site", pf.Rules)
	}
	tscCleanAt(t, pf, []string{"src/input.ts:11 react-elementref rule"})
	for _, d := range pf.Types.New {
		if d.File != "src/greeting.ts" || d.Line != 14 || d.Code != 2339 {
			t.Errorf("new error TS%d at %s:%d, want only the defaultProps site's TS2339", d.Code, d.File, d.Line)
		}
	}
	if len(pf.Types.New) != 1 {
		t.Errorf("new errors %+v, want the defaultProps site's one", pf.Types.New)
	}
	for _, s := range res.Sites {
		if s.File != "src/greeting.ts" || s.Line != 14 {
			t.Errorf("left for you: %s:%d (%s), want only the defaultProps site", s.File, s.Line, s.Rule)
		}
	}
	// The review notes are the run's rules', the noted ones included:
	// defaultProps's and forwardRef's.
	decisions := strings.Join(pf.Decisions, "\n")
	for _, note := range []string{"defaultProps on a function component silently stop applying at runtime in React 19", "forwardRef still works in 19"} {
		if !strings.Contains(decisions, note) {
			t.Errorf("decisions lack %q:\n%s", note, decisions)
		}
	}
	input := git(t, dir, "show", "uptide/@types/react-19.1.0:src/input.ts")
	if !strings.Contains(input, "export type InputHandle = React.ComponentRef<typeof Input>;") || strings.Contains(input, "ElementRef") {
		t.Errorf("src/input.ts on the branch:\n%s", input)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
}

// TestPacksReactJSXConfig: TypeScript looks JSX types up in the namespace
// of the JSX factory first (React.JSX, which @types/react 19 still
// declares), then in the global JSX namespace. A tsconfig whose jsxFactory
// names a plain function ("createElement") under "jsx": "preserve" reads
// the global one, which 19 removes: every element errors, the tracer
// anchors them all at the jsx line, and the pack's one edit there
// ("jsxImportSource": "react", read from react/jsx-runtime) fixes them.
// The app loads react by named imports only ({ useState }), which the scan
// of @types/react has to take for loads of the package it types, or
// nothing is compiled and check says no file uses it.
func TestPacksReactJSXConfig(t *testing.T) {
	fe := newFixEnv(t)
	dir := packApp(t, fe, "react-jsx-app")

	rep, rules := reactPlan(t, fe, dir)
	want := []string{"rules react-jsx-config 1/1/0/0 tsconfig.json:7 rule"}
	if strings.Join(rules, "\n") != strings.Join(want, "\n") {
		t.Fatalf("plan:\n%s\nwant:\n%s", strings.Join(rules, "\n"), strings.Join(want, "\n"))
	}
	p := rep.Packages[0]
	if r := p.Plan.Rules[0]; r.Errors != 6 {
		t.Errorf("the root cause stands for %d errors, want the 6 elements'", r.Errors)
	}
	for _, f := range p.Findings {
		if f.Severity == "info" || f.Severity == "additive" {
			continue // React.ReactNode's changes the code compiles against
		}
		if f.File != "tsconfig.json" || f.Change != "cause" || len(f.Errors) != 6 {
			t.Errorf("finding %s at %s:%d (%s, %d downstream), want only the tsconfig's anchor over 6 errors", f.ID, f.File, f.Line, f.Change, len(f.Errors))
		}
		for _, d := range f.Errors {
			if d.Code != 7026 {
				t.Errorf("downstream TS%d, want TS7026", d.Code)
			}
		}
	}
	wantPreview := "@@ tsconfig.json:7 @@\n-    \"jsx\": \"preserve\",\n+    \"jsx\": \"preserve\",\n+    \"jsxImportSource\": \"react\",\n"
	for _, pv := range p.Plan.Rules[0].Previews {
		if pv != wantPreview {
			t.Errorf("preview:\n%s\nwant:\n%s", pv, wantPreview)
		}
	}
	text := run(t, fe.env, dir, "check", "@types/react", "--target", reactTypesTarget)
	if line := `✗ jsx without jsxImportSource reads the removed global JSX +1 fix, 6 errors +1 +– +–`; !regexp.MustCompile(line).MatchString(text.stdout) {
		t.Errorf("check's plan lacks %q:\n%s", line, text.stdout)
	}

	before := checkoutDigest(t, dir)
	res, pf := fixPack(t, fe, dir, "@types/react", reactTypesTarget, 0, "verified",
		[]string{"upgrade @types/react 18.3.3 → 19.1.0", "apply @types/react rules: 1 site (react-jsx-config)"})
	if len(pf.Types.New) != 0 || len(res.Sites) != 0 {
		t.Errorf("new errors %+v, sites left %+v: want none", pf.Types.New, res.Sites)
	}
	tsconfig := git(t, dir, "show", "uptide/@types/react-19.1.0:tsconfig.json")
	if !strings.Contains(tsconfig, "    \"jsx\": \"preserve\",\n    \"jsxImportSource\": \"react\",\n    \"jsxFactory\": \"createElement\",") {
		t.Errorf("tsconfig.json on the branch:\n%s", tsconfig)
	}
	if !strings.Contains(strings.Join(pf.Decisions, "\n"), `"jsxImportSource": "react" changes only type-checking under "jsx": "preserve"`) {
		t.Errorf("decisions lack the jsxImportSource note: %q", pf.Decisions)
	}
	if after := checkoutDigest(t, dir); after != before {
		t.Errorf("the checkout changed:\n%s", diffLines(before, after))
	}
}
