package view

import (
	"fmt"
	"github.com/uptide/uptide/engine/model"
	"strconv"
	"strings"
)

// CheckPackage is one package of a check report as it is shown, by
// `uptide check` and by the planner's details: the title and verdict, the
// members, companions, the per-rule plan with its sections, and what
// closes it. The words and counts are decided here once.
type CheckPackage struct {
	// Title is the package and its move: "zod 3.25.76 → 4.1.12".
	Title string
	// Where are the workspaces it is declared in.
	Where string
	// Verdict is the summary in its tone: "✗ 2 breaking · 1 possible".
	Verdict Span
	// Analyzed is false when nothing was checked: Head then says why and
	// nothing else follows.
	Analyzed bool
	// Head are the lines under the title: the undeclared importers, the
	// release group, the members.
	Head       []Line
	Companions []CompanionRow
	// Plan is the per-rule table under PlanHeader: the breaking rules,
	// then each further section under its heading.
	Plan []PlanRow
	// Rules are the plan's rules in the table's order: a row's Rule is
	// its place here.
	Rules []PlanEntry
	// RuleNotes are the packs' notes and review notes on the rules.
	RuleNotes []Line
	// Hidden says how many findings the report hides (--all shows them).
	Hidden []Line
	// Sites are every finding, in the report's order, as the details list
	// them (`check --details`, the page); a hidden one only with --all.
	Sites []Site
	// PreExisting are the errors the repository already has in the files
	// compiled, under their heading: subtracted, never counted.
	PreExisting []Line
	// Runtime says which Node loaded the copies, or why the probe could
	// not tell.
	Runtime []Line
	// Tail closes the package: coverage, what was not analyzed, warnings,
	// notes and the Next commands.
	Tail []Line
}

// Cells are a table's row, one span per cell.
type Cells []Span

// PlanHeader are the plan table's column titles.
var PlanHeader = []string{"Plan", "sites", "by rule", "by agent", "manual"}

// PlanRow is a row of the plan table: a rule, or a section's heading.
type PlanRow struct {
	Cells Cells
	// Rule is the rule's place in Rules (the order rows list them), -1
	// on a heading.
	Rule int
	// Severity is the rule's section.
	Severity model.Severity
}

// The plan's section headings.
const (
	HeadingPossible   = "Possible impact (unverified, not counted)"
	HeadingDeprecated = "Deprecated (still works; fix moves the by-rule ones, not counted)"
	HeadingNoted      = "Noted (still compiles; nothing to edit, read the note)"
)

// PlanEntry is a rule in its section of the plan: breaking, unverified
// (possible impact), deprecated or info (noted).
type PlanEntry struct {
	Severity model.Severity
	Rule     model.PlanRule
}

// Entries are a plan's rules in the order the plan table lists them.
func Entries(p model.Plan) []PlanEntry {
	var all []PlanEntry
	for _, sec := range []struct {
		sev   model.Severity
		rules []model.PlanRule
	}{{model.Breaking, p.Rules}, {model.Unverified, p.Unverified}, {model.Deprecated, p.Deprecations}, {model.Info, p.Noted}} {
		for _, r := range sec.rules {
			all = append(all, PlanEntry{sec.sev, r})
		}
	}
	return all
}

// Check turns one package of a check report into what is shown.
func Check(pr *model.PackageReport) CheckPackage {
	v := CheckPackage{Title: pr.Title, Where: model.Where(pr.Workspaces), Verdict: VerdictSpan(pr)}
	if pr.Installed != "" {
		v.Title += " " + Arrow(pr.Installed, pr.Target)
	}
	for _, l := range ImporterLines(pr) {
		v.Head = append(v.Head, Line{{"  ", Plain}, {l, Warn}})
	}
	if pr.Status == model.StatusNotAnalyzed {
		v.Head = append(v.Head, warnings(pr.Warnings)...)
		return v
	}
	v.Analyzed = true
	if pr.Group != nil {
		v.Head = append(v.Head, Line{{"  ", Plain}, {"group:", Dim}, {" " + pr.Group.Why, Plain}})
	}
	for _, m := range pr.Members {
		if len(pr.Members) == 1 && m.TypesVia == nil && m.Status == model.StatusAnalyzed {
			break
		}
		v.Head = append(v.Head, plain("  "+MemberLine(m)))
	}
	v.Companions = CompanionRows(pr.Companions)
	es := Entries(pr.Plan)
	v.Plan, v.Rules = PlanRows(es), es
	v.RuleNotes = RuleNotes(es)
	if pr.Counts.Hidden > 0 {
		v.Hidden = []Line{{{"  ", Plain}, {Count(pr.Counts.Hidden, "finding") + " hidden (info, additive or low confidence; --all shows them)", Dim}}}
	}
	for _, f := range pr.Findings {
		v.Sites = append(v.Sites, site(f, pr.Runtime))
	}
	if n := len(pr.Compile.PreExistingErrors); n > 0 {
		v.PreExisting = []Line{{{"  ", Plain}, {fmt.Sprintf("Pre-existing (%s before the upgrade, not counted)", Count(n, "error")), Strong}}}
		for _, d := range pr.Compile.PreExistingErrors {
			v.PreExisting = append(v.PreExisting, Line{{"    ", Plain}, {DiagLine(d), Dim}})
		}
	}
	for _, rt := range pr.Runtime {
		v.Runtime = append(v.Runtime, Line{{"  ", Plain}, {rt.Coverage(), Dim}})
	}
	if pr.Status == model.StatusSkipped {
		return v
	}
	if pr.Compile.Line != "" {
		v.Tail = append(v.Tail, Line{{"  ", Plain}, {pr.Compile.Line, Dim}})
	}
	if len(pr.Unanalyzed) > 0 || pr.ModuleFormat.Status == model.StatusNotAnalyzed {
		v.Tail = append(v.Tail, Line{{"  ", Plain}, {"Not analyzed", Warn}})
		for _, u := range pr.Unanalyzed {
			spec := ""
			if u.Specifier != "" {
				spec = "(" + u.Specifier + ")"
			}
			v.Tail = append(v.Tail, plain(fmt.Sprintf("    %s:%d  %s%s  %s", u.File, u.Line, u.Kind, spec, u.Reason)))
		}
		if pr.ModuleFormat.Status == model.StatusNotAnalyzed {
			v.Tail = append(v.Tail, plain("    module format: "+pr.ModuleFormat.Reason))
		}
	}
	v.Tail = append(v.Tail, warnings(pr.Warnings)...)
	for _, n := range pr.Notes {
		v.Tail = append(v.Tail, Line{{"  ", Plain}, {"note: " + n, Dim}})
	}
	for i, cmd := range pr.Plan.Next {
		label := "Next "
		if i > 0 {
			label = "     "
		}
		v.Tail = append(v.Tail, Line{{"  ", Plain}, {label, Strong}, {" " + cmd, Plain}})
	}
	return v
}

// Site is one finding as the details list it: a line that says where and
// what, and the evidence under it. Further evidence of a site (the
// runtime probe's, say) joins Evidence, so every renderer draws it.
type Site struct {
	ID       string
	Severity model.Severity
	Hidden   bool
	// Marker is the severity's sign in its tone: ✗ ? ! ·.
	Marker Span
	// At is "file:line", the file alone when the finding has no line.
	At     string
	Reason string
	// Evidence are the lines under the site, in order: the compiler's
	// errors at it, those traced to it elsewhere, the runtime probe's
	// word. A page lists every one; a terminal folds those inside
	// dependencies (Under).
	Evidence []Evidence
	// Also are the other places the site stands.
	Also []string
}

// Evidence is a line under a site.
type Evidence struct {
	Text string
	// InDependency: a compiler error inside a dependency at the site;
	// after the first few they repeat what the compiler cannot read.
	InDependency bool
}

// ShownDependencyErrors is how many errors inside dependencies a site
// shows in a terminal: the first say what the compiler cannot read, the
// rest repeat it (331 for zod 4 on TypeScript 4.4).
const ShownDependencyErrors = 5

// Line is the site's own line: "    ✗ src/a.ts:3  breaking · id  reason".
func (s Site) Line() Line {
	return Line{{"    ", Plain}, s.Marker, {" " + s.At + "  ", Plain}, {string(s.Severity) + " · " + s.ID, Dim}, {"  " + s.Reason, Plain}}
}

// Under are the lines a terminal shows under the site: its evidence,
// the errors inside dependencies after the first few folded into one
// line, then the other places it stands.
func (s Site) Under() []Line {
	var ls []Line
	under := func(text string) { ls = append(ls, Line{{"        ", Plain}, {text, Dim}}) }
	last := -1
	for i, e := range s.Evidence {
		if e.InDependency {
			last = i
		}
	}
	inDeps := 0
	for i, e := range s.Evidence {
		if e.InDependency {
			inDeps++
		}
		if !e.InDependency || inDeps <= ShownDependencyErrors {
			under(e.Text)
		}
		if more := inDeps - ShownDependencyErrors; i == last && more > 0 {
			under(fmt.Sprintf("… %d more inside dependencies (--json lists every one)", more))
		}
	}
	for _, a := range s.Also {
		under("also " + a)
	}
	return ls
}

// SiteLines are the details' "Sites" block: the heading, then each site
// shown (the hidden ones with all) with the lines under it; none when no
// site is shown.
func SiteLines(sites []Site, all bool) []Line {
	var ls []Line
	for _, s := range sites {
		if s.Hidden && !all {
			continue
		}
		if ls == nil {
			ls = []Line{{{"  ", Plain}, {"Sites", Strong}}}
		}
		ls = append(append(ls, s.Line()), s.Under()...)
	}
	return ls
}

func site(f model.Finding, runtime []model.RuntimeResult) Site {
	s := Site{ID: f.ID, Severity: f.Severity, Hidden: f.Hidden, Marker: SeverityMarker(f.Severity), At: At(f.File, f.Line), Reason: f.Reason}
	for _, d := range f.Evidence {
		s.Evidence = append(s.Evidence, Evidence{Text: DiagLine(d), InDependency: model.InDependency(d.File)})
	}
	for _, d := range f.Downstream {
		s.Evidence = append(s.Evidence, Evidence{Text: DiagLine(d)})
	}
	for _, l := range SiteEvidence(f, runtime) {
		s.Evidence = append(s.Evidence, Evidence{Text: l})
	}
	for _, u := range f.Sites {
		if u.Line != f.Line || u.File != f.File {
			s.Also = append(s.Also, At(u.File, u.Line))
		}
	}
	return s
}

// SeverityMarker is a finding's sign in its tone, as the plan's rows and
// the sites show it.
func SeverityMarker(sev model.Severity) Span {
	switch sev {
	case model.Breaking:
		return Span{"✗", Bad}
	case model.Unverified:
		return Span{"?", Warn}
	case model.Deprecated:
		return Span{"!", Warn}
	}
	return Span{"·", Dim}
}

// At is a place: "file:line", the file alone without a line.
func At(file string, line int) string {
	if line > 0 {
		return file + ":" + strconv.Itoa(line)
	}
	return file
}

func warnings(ws []string) []Line {
	var ls []Line
	for _, x := range ws {
		ls = append(ls, Line{{"  ", Plain}, {"! " + x, Warn}})
	}
	return ls
}

// VerdictSpan is a package's verdict in words and tone, as the check
// table's CHECK column and the package's title line show it.
func VerdictSpan(pr *model.PackageReport) Span {
	text := pr.Summary
	if text == "" {
		text = string(pr.Status)
	}
	switch {
	case pr.Status == model.StatusNotAnalyzed || pr.Verdict == model.VerdictUnknown:
		return Span{text, Warn}
	case pr.Verdict == model.VerdictBreaking:
		return Span{text, Bad}
	case pr.Verdict == model.VerdictPossible || pr.Verdict == model.VerdictPartial:
		return Span{text, Warn}
	}
	return Span{text, Good}
}

// Arrow is a move: "3.25.76 → 4.1.12", the installed version alone when
// nothing moves, "?" when nothing is installed.
func Arrow(installed, target string) string {
	switch {
	case installed == "":
		return "?"
	case target == "" || target == installed:
		return installed
	}
	return installed + " → " + target
}

// MemberLine is a release group's member as check shows it: "react-dom
// 18.3.1 → 19.1.0 · types via @types/react-dom 18.3.5 → its own".
func MemberLine(m model.MemberReport) string {
	line := fmt.Sprintf("%s %s", m.Name, Arrow(m.Installed, m.Target))
	switch tv := m.TypesVia; {
	case tv == nil:
	case tv.To == "" && m.Target != "" && m.Target != m.Installed:
		// The target types itself: its own declarations replace them.
		line += fmt.Sprintf(" · types via %s %s → its own", tv.Package, tv.From)
	default:
		line += fmt.Sprintf(" · types via %s %s", tv.Package, Arrow(tv.From, tv.To))
	}
	if m.Status != model.StatusAnalyzed {
		line += " · " + string(m.Status)
		if m.Reason != "" {
			line += ": " + m.Reason
		}
	}
	return line
}

// PlanRows are the plan table's rows: the breaking rules, then possible
// impact, deprecations and noted uses, each section under its heading.
// The entries come in Entries' order.
func PlanRows(es []PlanEntry) []PlanRow {
	var rows []PlanRow
	section := model.Breaking
	for i, e := range es {
		r := e.Rule
		if e.Severity != section {
			section = e.Severity
			text, tone := planHeading(section)
			rows = append(rows, PlanRow{Cells: Cells{{text, tone}, {"", tone}, {"", tone}, {"", tone}, {"", tone}}, Rule: -1, Severity: section})
		}
		var cells Cells
		switch e.Severity {
		case model.Breaking:
			cells = Cells{{"✗ " + r.Title, Bad}, {Text: RuleSites(r)}, {Text: dash(r.ByRule)}, {Text: dash(r.ByAgent)}, {Text: dash(r.Manual)}}
		case model.Unverified:
			cells = Cells{{"? " + r.Title, Warn}, {Text: RuleSites(r)}, {}, {}, {}}
		case model.Deprecated:
			// Fix moves the by-rule ones; no agent edits a use that works.
			cells = Cells{{"! " + r.Title, Warn}, {Text: RuleSites(r)}, {Text: dash(r.ByRule)}, {Text: "–"}, {Text: dash(r.Manual)}}
		default:
			// Still compiles; the pack has a word on it, nothing to edit.
			cells = Cells{{"· " + r.Title, Dim}, {RuleSites(r), Dim}, {"", Dim}, {"", Dim}, {"", Dim}}
		}
		rows = append(rows, PlanRow{Cells: cells, Rule: i, Severity: e.Severity})
	}
	return rows
}

func planHeading(sev model.Severity) (string, Tone) {
	switch sev {
	case model.Unverified:
		return HeadingPossible, Warn
	case model.Deprecated:
		return HeadingDeprecated, Warn
	}
	return HeadingNoted, Dim
}

// RuleNotes are the lines under the plan: each breaking rule's note, then
// the packs' review notes once each (fix lists them under "Decisions for
// you").
func RuleNotes(es []PlanEntry) []Line {
	var ls []Line
	for _, e := range es {
		if e.Severity == model.Breaking && e.Rule.Note != "" {
			ls = append(ls, Line{{"    ", Plain}, {e.Rule.Title + ": " + e.Rule.Note, Dim}})
		}
	}
	seen := map[string]bool{}
	for _, e := range es {
		if e.Severity == model.Unverified {
			continue
		}
		for _, note := range e.Rule.Review {
			if !seen[note] {
				seen[note] = true
				ls = append(ls, Line{{"    ", Plain}, {e.Rule.Title + ": " + note, Dim}})
			}
		}
	}
	return ls
}

// FixWord says who makes a site's edit ("rule", "agent", "manual" in a
// plan's Fix) in the plan's column words; nothing when no one is named.
func FixWord(by string) string {
	switch by {
	case "":
		return ""
	case "rule":
		return "by rule"
	case "agent":
		return "by agent"
	}
	return "manual"
}

// RuleSites reads "3", or "1 fix, 12 errors" when edits stand for more
// errors than sites.
func RuleSites(r model.PlanRule) string {
	if r.Errors > r.Sites {
		fixes := "1 fix"
		if r.Sites != 1 {
			fixes = strconv.Itoa(r.Sites) + " fixes"
		}
		return fixes + ", " + Count(r.Errors, "error")
	}
	return strconv.Itoa(r.Sites)
}

func dash(n int) string {
	if n == 0 {
		return "–"
	}
	return strconv.Itoa(n)
}

// DiagLine is one compiler error on one line: "src/a.ts:3 TS2345 message",
// the message's own line breaks folded.
func DiagLine(d model.Diagnostic) string {
	msg := strings.Join(strings.Fields(d.Message), " ")
	return fmt.Sprintf("%s:%d TS%d %s", d.File, d.Line, d.Code, msg)
}

// ProblemLine is an input problem on one line: "file:line: message".
func ProblemLine(p model.Problem) string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Message)
}
