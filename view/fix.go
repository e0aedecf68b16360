package view

import (
	"fmt"
	"github.com/uptide/uptide/engine/model"
	"strings"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/internal/lists"
)

// FixReport is fix's report as it is shown, by `uptide fix` and by the
// planner once a hand-off ends: the verdict, then its sections, then
// where the work is. The words and counts are decided here once.
type FixReport struct {
	// Verdict is "✓ verified", "✗ not verified" or "✗ not run".
	Verdict Span
	// Head is the package and its move: "zod 3.23.8 → 4.0.17".
	Head string
	// Reason says why the run stopped or failed (empty when verified).
	Reason   string
	Sections []Section
	// Where are the closing lines: the branch, the clone, the stored run.
	Where []Line
}

// FoldedShown is how many of a site's folded errors are listed; --json
// has them all.
const FoldedShown = 5

// Fix turns fix's report into what is shown.
func Fix(r *fix.Report) FixReport {
	v := FixReport{Head: r.Package}
	if r.To != "" {
		v.Head = fmt.Sprintf("%s %s → %s", r.Package, r.From, r.To)
	}
	switch r.Status {
	case fix.StatusVerified:
		v.Verdict = Span{"✓ verified", Good}
	case fix.StatusFailed:
		v.Verdict, v.Reason = Span{"✗ not verified", Bad}, r.Reason
	default:
		v.Verdict, v.Reason = Span{"✗ not run", Bad}, r.Reason
	}
	risk := Section{Title: "Risk", Aside: riskSpan(r.Risk.Level)}
	for _, why := range r.Risk.Why {
		risk.Lines = append(risk.Lines, plain("  "+why))
	}
	v.Sections = append(v.Sections, risk)
	if len(r.Moves) > 0 {
		s := Section{Title: "Moves"}
		for _, m := range r.Moves {
			from, to := MoveEnds(m)
			s.Lines = append(s.Lines, Line{{Text: fmt.Sprintf("  %-28s %s → %s  ", m.Name, from, to)}, {m.Why, Dim}})
		}
		v.Sections = append(v.Sections, s)
	}
	if len(r.Steps) > 0 {
		v.Sections = append(v.Sections, batchSteps(r))
	}
	changes := Section{}
	if len(r.Commits) > 0 {
		changes = Section{Title: "Changes", Aside: Span{Text: r.Branch}}
		for _, c := range r.Commits {
			changes.Lines = append(changes.Lines, plain(fmt.Sprintf("  %s %s", Short(c.Sha), c.Subject)))
		}
	}
	if v := r.Verified; v != nil && len(v.Added) > 0 {
		subjects := make([]string, len(v.Added))
		for i, c := range v.Added {
			subjects[i] = c.Subject
		}
		line := fmt.Sprintf("  %s added: %s", Count(len(v.Added), "commit"), strings.Join(subjects, "; "))
		if r.Publish == nil || r.Publish.Status != fix.PublishPushed {
			line += fmt.Sprintf(" (uptide verify %s --push --yes pushes it)", r.Package)
		}
		changes.Lines = append(changes.Lines, plain(line))
	}
	if in := r.Install; in != nil {
		changes.Lines = append(changes.Lines, plain(fmt.Sprintf("  installed with %s %s (%s)", in.Manager, in.Version, in.Lockfile)))
		if in.BinaryWhy != "" {
			changes.Lines = append(changes.Lines, plain(fmt.Sprintf("  ran %s: %s", in.Binary, in.BinaryWhy)))
		}
		if n := in.Normalized; len(n) > 0 {
			changes.Lines = append(changes.Lines, plain(fmt.Sprintf("  %s rewrites %s on its own, without the upgrade (committed before it): %s",
				in.Manager, in.Lockfile, strings.Join(n, "; "))))
		}
	}
	v.add(changes)
	if r.Rules != nil && (len(r.Rules.Sites) > 0 || r.Rules.Reason != "") {
		s := Section{Title: "Rules", Aside: Span{Text: "the " + r.Rules.Pack + " pack"}}
		for _, site := range r.Rules.Sites {
			s.Lines = append(s.Lines, plain(fmt.Sprintf("  %s:%d  %s", site.File, site.Line, site.Rule)))
		}
		if r.Rules.Reason != "" {
			s.Lines = append(s.Lines, Line{{"  ", Plain}, {"✗ no rule edit made:", Bad}, {" " + r.Rules.Reason, Plain}})
		}
		v.Sections = append(v.Sections, s)
	}
	if len(r.Decisions) > 0 {
		s := Section{Title: "Decisions for you"}
		for _, d := range r.Decisions {
			s.Lines = append(s.Lines, plain("  "+d))
		}
		v.Sections = append(v.Sections, s)
	}
	rejected := Section{}
	for _, p := range r.Patches {
		if !p.Applied {
			rejected.Lines = append(rejected.Lines, Line{{"  ", Plain}, {"✗ patch rejected", Bad}, {fmt.Sprintf(" %s:%d (%s): %s", p.File, p.Line, p.Rule, p.Reason), Plain}})
		}
	}
	v.add(rejected)
	v.add(assistSection(r))
	v.add(servicesSection(r))
	v.add(typesSection(r))
	v.add(testsSection(r))
	v.add(styleSection(r))
	v.add(leftSection(r))
	if len(r.NotRun) > 0 || len(r.Tests.NotRun) > 0 {
		s := Section{Title: "Not run"}
		for _, n := range append(append([]string{}, r.Tests.NotRun...), r.NotRun...) {
			s.Lines = append(s.Lines, plain("  "+n))
		}
		v.Sections = append(v.Sections, s)
	}
	v.Where = fixWhere(r)
	return v
}

// add appends a section that has something to show.
func (v *FixReport) add(s Section) {
	if s.Title != "" || len(s.Lines) > 0 {
		v.Sections = append(v.Sections, s)
	}
}

func riskSpan(level model.RiskLevel) Span {
	switch level {
	case model.RiskLow:
		return Span{string(level), Good}
	case model.RiskMedium:
		return Span{string(level), Warn}
	}
	return Span{string(level), Bad}
}

// assistSection says what the assisted fixer did and what it cost:
// estimates from list prices, not an invoice.
func assistSection(r *fix.Report) Section {
	a := r.Assist
	if a == nil {
		return Section{}
	}
	s := Section{Title: "Assisted"}
	if a.Provider == "" {
		s.Lines = append(s.Lines, plain("  "+a.Note))
		return s
	}
	s.Lines = append(s.Lines, plain(fmt.Sprintf("  %s · %s · %d accepted · %s · $%.2f estimated", a.Provider, Count(a.Sites, "site"), a.Accepted, Count(a.Calls, "call"), a.Cost)))
	if a.Note != "" {
		s.Lines = append(s.Lines, plain("  "+indentMore(a.Note, "    ")))
	}
	return s
}

// servicesSection lists what --with-services runs and where it connects,
// credentials masked: what --yes confirms.
func servicesSection(r *fix.Report) Section {
	sv := r.Services
	if sv == nil || sv.Empty() {
		return Section{}
	}
	s := Section{Title: "Services", Aside: Span{Text: "what --with-services runs"}}
	for _, n := range sv.Needs {
		s.Lines = append(s.Lines, plain(fmt.Sprintf("  %-40s %s", n.File, n.Needs)))
	}
	for _, run := range sv.Runs {
		s.Lines = append(s.Lines, plain("  "+run))
	}
	if len(sv.Targets) == 0 {
		s.Lines = append(s.Lines, plain("  connection targets: none found in the environment or the dotenv files"))
	}
	for _, t := range sv.Targets {
		s.Lines = append(s.Lines, plain(fmt.Sprintf("  connects to %s=%s (%s)", t.Name, t.Value, t.From)))
	}
	return s
}

func typesSection(r *fix.Report) Section {
	if r.Install == nil {
		return Section{}
	}
	s := Section{Title: "Types"}
	t := r.Types
	if t.Reason != "" && len(t.Projects) == 0 {
		s.Lines = append(s.Lines, plain("  "+t.Reason))
		return s
	}
	before := "before the upgrade"
	if r.Verified != nil {
		before = "at the base"
	}
	s.Lines = append(s.Lines, plain(fmt.Sprintf("  %s · %s · %s · %s %s", t.Compiler, Count(len(t.Projects), "project"),
		Count(t.Files, "file"), Count(t.Baseline, "error"), before)))
	if len(t.New) == 0 {
		s.Lines = append(s.Lines, Line{{"  ", Plain}, {"✓ no new errors", Good}})
		return s
	}
	by := map[string][]string{}
	// Errors inside a dependency are one line per package: the first
	// says what the compiler cannot read there, the rest repeat it.
	deps := map[string][]model.Diagnostic{}
	for _, d := range t.New {
		if model.InDependency(d.File) {
			pkg, _ := model.DependencyOf(d.File)
			deps[pkg] = append(deps[pkg], d)
			continue
		}
		by[d.File] = append(by[d.File], fmt.Sprintf("%d:%d TS%d %s", d.Line, d.Column, d.Code, indentMore(d.Message, "      ")))
	}
	s.Lines = append(s.Lines, Line{{"  ", Plain}, {"✗ " + Count(len(t.New), "new error"), Bad}})
	for _, f := range lists.SortedKeys(by) {
		s.Lines = append(s.Lines, plain("  "+f))
		for _, l := range by[f] {
			s.Lines = append(s.Lines, plain("    "+l))
		}
	}
	for _, pkg := range lists.SortedKeys(deps) {
		ds := deps[pkg]
		name := "outside the repository"
		if pkg != "" {
			name = "inside " + pkg
		}
		s.Lines = append(s.Lines, plain(fmt.Sprintf("  %s %s (--json lists every one); the first:", Count(len(ds), "error"), name)),
			plain(fmt.Sprintf("    %s:%d:%d TS%d %s", ds[0].File, ds[0].Line, ds[0].Column, ds[0].Code, indentMore(ds[0].Message, "      "))))
	}
	return s
}

func testsSection(r *fix.Report) Section {
	t := r.Tests
	if len(t.Results) == 0 && len(t.NoTests) == 0 && len(t.Skipped) == 0 {
		return Section{}
	}
	s := Section{Title: "Tests"}
	for _, res := range t.Results {
		mark := Span{"✓", Good}
		switch res.Status {
		case model.TestPassed:
		case model.TestNoTests:
			// The runner found nothing to run: nothing failed either.
			mark = Span{"–", Warn}
		default:
			mark = Span{"✗", Bad}
		}
		counts := ""
		if res.Passed >= 0 || res.Failed >= 0 {
			counts = fmt.Sprintf(" · %d passed, %d failed", max(res.Passed, 0), max(res.Failed, 0))
		}
		rerun := ""
		if res.Rerun {
			rerun = " · re-run once (an unrelated test failed the first time)"
		}
		s.Lines = append(s.Lines, Line{{"  ", Plain}, mark, {fmt.Sprintf(" %s  %s · %s%s%s", res.Status, CommandLine(res.Run.Command), res.Run.Scope, counts, rerun), Plain}})
		if n := len(res.UnrelatedFailing); n > 0 {
			// Said, not judged: a test failing for want of a service no
			// signal showed fails before the upgrade as well.
			which := fmt.Sprintf("%d of the %d failing test files", n, len(res.FailingFiles))
			switch {
			case n == len(res.FailingFiles) && n == 1:
				which = "the failing test file"
			case n == len(res.FailingFiles):
				which = fmt.Sprintf("the %d failing test files", n)
			}
			verb := "import nothing the upgrade moved; they may fail before it too"
			if n == 1 {
				verb = "imports nothing the upgrade moved; it may fail before it too"
			}
			s.Lines = append(s.Lines, plain(fmt.Sprintf("    %s %s: %s", which, verb, strings.Join(res.UnrelatedFailing, ", "))))
		}

	}
	for _, ws := range t.NoTests {
		s.Lines = append(s.Lines, plain("  – no tests cover "+model.Where([]string{ws})))
	}
	if len(t.Skipped) > 0 {
		verb := "need services and were"
		if len(t.Skipped) == 1 {
			verb = "needs services and was"
		}
		s.Lines = append(s.Lines, plain(fmt.Sprintf("  – %s %s not run (--with-services runs them):", Count(len(t.Skipped), "test file"), verb)))
		for _, sk := range t.Skipped {
			s.Lines = append(s.Lines, plain(fmt.Sprintf("      %s  %s", sk.File, sk.Needs)))
		}
	}
	return s
}

func styleSection(r *fix.Report) Section {
	st := r.Style
	if st.Formatter == "" && st.Linter == "" {
		return Section{}
	}
	s := Section{Title: "Style"}
	if st.Formatter != "" {
		s.Lines = append(s.Lines, plain(fmt.Sprintf("  %s formatted %d of the edited files", st.Formatter, len(st.Formatted))))
	}
	if st.Linter != "" {
		if len(st.NewFailures) == 0 {
			s.Lines = append(s.Lines, plain(fmt.Sprintf("  %s: no new lint failure in the edited files", st.Linter)))
		}
		for _, f := range lists.SortedKeys(st.NewFailures) {
			for _, m := range st.NewFailures[f] {
				s.Lines = append(s.Lines, Line{{"  ", Plain}, {"✗", Bad}, {" " + f + " " + m, Plain}})
			}
		}
	}
	return s
}

// leftSection is one line per site left for the user; what its edit fixes
// is folded under it, the first few of a cause's many.
func leftSection(r *fix.Report) Section {
	if len(r.Sites) == 0 {
		return Section{}
	}
	s := Section{Title: "Left for you", Aside: Span{Text: Count(len(r.Sites), "site")}}
	for _, site := range r.Sites {
		at := site.File
		if site.Line > 0 {
			at += fmt.Sprintf(":%d", site.Line)
		}
		s.Lines = append(s.Lines, Line{{fmt.Sprintf("  %s  %s  ", at, site.Rule), Plain}, {indentMore(site.Message, "    "), Dim}})
		if len(site.Errors) > 1 || len(site.Errors) == 1 && (site.Errors[0].File != site.File || site.Errors[0].Message != site.Message) {
			for i, d := range site.Errors {
				if i == FoldedShown && len(site.Errors) > FoldedShown+1 {
					s.Lines = append(s.Lines, Line{{"      ", Plain}, {fmt.Sprintf("… and %d more", len(site.Errors)-FoldedShown), Dim}})
					break
				}
				at := fmt.Sprintf("%d:%d", d.Line, d.Column)
				if d.File != site.File {
					at = fmt.Sprintf("%s:%d", d.File, d.Line)
				}
				s.Lines = append(s.Lines, Line{{fmt.Sprintf("      %s TS%d ", at, d.Code), Plain}, {indentMore(d.Message, "        "), Dim}})
			}
		}
	}
	return s
}

func fixWhere(r *fix.Report) []Line {
	var out []Line
	for _, c := range r.Checkout.Changed {
		out = append(out, Line{{"✗ your checkout changed during the run:", Bad}, {" " + c, Plain}})
	}
	if v := r.Verified; v != nil && v.Base != "" {
		from := ""
		if v.Clone != "" {
			from = ", the commits of the kept clone " + v.Clone
		}
		out = append(out, plain(fmt.Sprintf("Branch  %s at %s against %s (its merge-base with %s)%s", v.Branch, Short(v.Sha), Short(v.Base), v.BaseRef, from)))
	}
	switch {
	case r.Checkout.Branch != "":
		verb := "updated"
		if r.Checkout.Created {
			verb = "created"
		}
		out = append(out, plain(fmt.Sprintf("Branch  %s %s at %s in your checkout (nothing else in it changed)", r.Checkout.Branch, verb, Short(r.Checkout.Sha))))
	default:
		for _, l := range r.Checkout.BranchNotMoved() {
			out = append(out, plain(l))
		}
	}
	switch {
	case r.Clone.Kept:
		out = append(out, plain(fmt.Sprintf("Clone   kept at %s (%s)", r.Clone.Repo, r.Clone.Why)))
	case r.Clone.Removed:
		out = append(out, plain("Clone   removed"))
	}
	if r.Checkout.RunFile != "" {
		out = append(out, plain("Run     "+r.Checkout.RunFile))
	}
	if p := r.Publish; p != nil && r.Verified != nil {
		if p.Status == fix.PublishPushed {
			out = append(out, plain(fmt.Sprintf("Push    pushed %s to %s %s (git pull brings it into your checkout)", Short(p.Sha), p.Remote, p.Branch)))
		} else {
			out = append(out, Line{{"Push    ", Plain}, {"✗ not pushed:", Bad}, {" " + p.Reason, Plain}})
		}
	} else if p != nil {
		if p.Status == fix.PublishOpened {
			out = append(out, plain("PR      opened "+p.URL))
		} else {
			out = append(out, Line{{"PR      ", Plain}, {"✗ not opened:", Bad}, {" " + p.Reason, Plain}})
		}
	}
	return out
}

// Short is a commit's abbreviated hash.
func Short(sha string) string {
	if len(sha) > 10 {
		return sha[:10]
	}
	return sha
}

// CommandLine shows a test command as the user would type it: a script
// run through sh -c is its script.
func CommandLine(argv []string) string {
	if len(argv) == 3 && argv[0] == "sh" && argv[1] == "-c" {
		return argv[2]
	}
	return strings.Join(argv, " ")
}

// batchSteps are a batch's steps in order, each marked by what bisection
// found: verified, broke the batch, or after the break (not verified on
// its own).
func batchSteps(r *fix.Report) Section {
	s := Section{Title: "Steps", Aside: Span{Text: "one commit each, verified once at the end"}}
	for i, st := range r.Steps {
		mark := Span{"  ", Plain}
		switch b := r.BrokeAt; {
		case b == nil && r.Status == fix.StatusVerified, b != nil && i+1 < b.Step:
			mark = Span{"✓ ", Good}
		case b != nil && i+1 == b.Step:
			mark = Span{"✗ ", Bad}
		}
		line := Line{{"  ", Plain}, mark, {Text: fmt.Sprintf("%d. %s %s → %s  ", i+1, st.Package, st.From, st.To)}, {Short(st.Commit), Dim}}
		if b := r.BrokeAt; b != nil && i+1 > b.Step {
			line = append(line, Span{"  after the break: not verified on its own", Dim})
		}
		s.Lines = append(s.Lines, line)
	}
	if b := r.BrokeAt; b != nil {
		var probes []string
		for _, p := range b.Probes {
			verdict := "verifies"
			if p.Broken {
				verdict = "breaks"
			}
			probes = append(probes, fmt.Sprintf("step %d %s", p.Step, verdict))
		}
		how := "bisection: the last step breaks"
		if len(probes) > 0 {
			how += ", " + strings.Join(probes, ", ")
		}
		s.Lines = append(s.Lines, Line{{"  " + how + "; every step stays in the clone on " + b.Whole, Dim}})
		for _, d := range b.NewErrors {
			s.Lines = append(s.Lines, plain(fmt.Sprintf("  step %d: %s:%d TS%d %s", b.Step, d.File, d.Line, d.Code, d.Message)))
		}
		for _, t := range b.FailingTests {
			s.Lines = append(s.Lines, plain(fmt.Sprintf("  step %d: tests failing (%s)", b.Step, t)))
		}
	}
	return s
}

// MoveEnds are a move's versions in words: "(new)" for a package the
// upgrade adds, "(removed)" for one it takes out.
func MoveEnds(m fix.Move) (from, to string) {
	from, to = m.From, m.To
	if from == "" {
		from = "(new)"
	}
	if to == "" {
		to = "(removed)"
	}
	return from, to
}
