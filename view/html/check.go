package html

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

// checkPage is a check report as the page lays it out.
type checkPage struct {
	head
	Rows     []checkRow
	Packages []packageView
	Computed []string
	Problems []string
	Notes    []string
}

// checkRow is one line of the summary table, as check prints it.
type checkRow struct {
	Anchor, Title, Where, Move, Update, Verdict string
	Tone                                        view.Tone
}

// packageView is one package's section.
type packageView struct {
	checkRow
	// NotAnalyzed: the package was not analyzed; Reason says why.
	NotAnalyzed bool
	Status      string
	Reason      string
	Importers   []string
	Group       string
	Members     []string
	Companions  []companionView
	// Plans are the plan's rules by kind: breaking, possible, deprecated,
	// noted; only the kinds that have a rule.
	Plans  []ruleKind
	Totals string
	// Others are the findings no rule lists (the hidden ones).
	Others      []findingView
	Hidden      int
	Coverage    string
	Skipped     []string
	PreExisting []string
	Unanalyzed  []string
	Warnings    []string
	Notes       []string
	Next        []string
}

// companionView is one companion or conflict line.
type companionView struct {
	Name, Versions, Why string
	Conflict            bool
}

// ruleKind is one block of the plan: the breaking rules, the possible
// impact, the deprecations or the noted rules.
type ruleKind struct {
	Heading string
	Marker  string
	Tone    view.Tone
	// Counted: the rules' sites count toward the plan's totals and are
	// split by who edits them.
	Counted bool
	Rules   []ruleView
}

// ruleView is one rule with its findings.
type ruleView struct {
	ID, Title, Sites        string
	ByRule, ByAgent, Manual string
	Note                    string
	Review                  []string
	Findings                []findingView
}

// findingView is one finding: where, what, the compiler's word and the
// edit the rule will make.
type findingView struct {
	At, Severity, ID, Reason, Fix string
	Marker                        string
	Tone                          view.Tone
	Evidence                      []string
	Also                          []string
	Preview                       []diffLine
}

// diffLine is one line of a preview: a hunk header, a removed or an added
// line.
type diffLine struct {
	Text, Class string
}

// Check writes a check report as a page.
func Check(w io.Writer, rep *model.CheckReport) error {
	return render(w, "check", checkView(rep))
}

func checkView(rep *model.CheckReport) checkPage {
	r := rep.Repository
	name := r.Name
	if name == "" {
		name = r.Root
	}
	page := checkPage{head: head{Command: "check", Title: "uptide check · " + name,
		Sub: []string{fmt.Sprintf("%s (%s, %s)", name, r.PackageManager, plural(len(r.Workspaces), "workspace"))}}}
	for i, pr := range rep.Packages {
		row := checkRow{Anchor: "p" + strconv.Itoa(i+1), Title: pr.Title, Where: model.Where(pr.Workspaces),
			Move: view.Arrow(pr.Installed, pr.Target), Update: pr.Update.String(), Verdict: pr.Summary, Tone: verdictTone(pr)}
		if row.Verdict == "" {
			row.Verdict = string(pr.Status)
		}
		page.Rows = append(page.Rows, row)
		page.Packages = append(page.Packages, packageSection(row, pr))
	}
	for _, l := range rep.ComputedLoads {
		page.Computed = append(page.Computed, fmt.Sprintf("%s:%d %s(%s) %s", l.File, l.Line, l.Kind, l.Specifier, l.Reason))
	}
	for _, p := range rep.Problems {
		page.Problems = append(page.Problems, view.ProblemLine(p))
	}
	page.Notes = rep.Notes
	return page
}

func packageSection(row checkRow, pr model.PackageReport) packageView {
	v := packageView{checkRow: row, Status: string(pr.Status), Reason: pr.Reason,
		NotAnalyzed: pr.Status == model.StatusNotAnalyzed, Importers: view.ImporterLines(&pr),
		Warnings: pr.Warnings, Notes: pr.Notes, Next: pr.Plan.Next, Hidden: pr.Counts.Hidden}
	if v.NotAnalyzed {
		return v
	}
	if pr.Group != nil {
		v.Group = pr.Group.Why
	}
	for _, m := range pr.Members {
		line := m.Name + " " + view.Arrow(m.Installed, m.Target)
		switch tv := m.TypesVia; {
		case tv == nil:
		case tv.To == "" && m.Target != "" && m.Target != m.Installed:
			// The target types itself: its own declarations replace them.
			line += fmt.Sprintf(" · types via %s %s → its own", tv.Package, tv.From)
		default:
			line += fmt.Sprintf(" · types via %s %s", tv.Package, view.Arrow(tv.From, tv.To))
		}
		if m.Status != model.StatusAnalyzed {
			line += " · " + joinNonEmpty(": ", string(m.Status), m.Reason)
		}
		line += fmt.Sprintf(" · %s in %s", plural(m.Sites, "site"), plural(m.Files, "file"))
		v.Members = append(v.Members, line)
	}
	for _, c := range pr.Companions.Companions {
		cv := companionView{Name: c.Name, Versions: view.Arrow(c.From, c.To), Why: c.Why}
		switch {
		case c.Remove:
			cv.Name, cv.Versions = "remove "+c.Name, c.From
		case c.From == "":
			cv.Versions = "new → " + c.To
		}
		v.Companions = append(v.Companions, cv)
	}
	for _, c := range pr.Companions.Conflicts {
		v.Companions = append(v.Companions, companionView{Name: "✗ " + c.Name, Versions: c.From, Why: "conflict: " + c.Why, Conflict: true})
	}
	byID := map[string]model.Finding{}
	for _, f := range pr.Findings {
		byID[f.ID] = f
	}
	listed := map[string]bool{}
	kinds := []struct {
		rules   []model.PlanRule
		heading string
		marker  string
		tone    view.Tone
		counted bool
	}{
		{pr.Plan.Rules, "Breaking", "✗", view.Bad, true},
		{pr.Plan.Unverified, view.HeadingPossible, "?", view.Warn, false},
		{pr.Plan.Deprecations, view.HeadingDeprecated, "!", view.Warn, false},
		{pr.Plan.Noted, view.HeadingNoted, "·", view.Dim, false},
	}
	for _, k := range kinds {
		if len(k.rules) == 0 {
			continue
		}
		rk := ruleKind{Heading: k.heading, Marker: k.marker, Tone: k.tone, Counted: k.counted}
		for _, r := range k.rules {
			rv := ruleView{ID: r.ID, Title: r.Title, Sites: view.RuleSites(r), ByRule: dash(r.ByRule), ByAgent: dash(r.ByAgent),
				Manual: dash(r.Manual), Note: r.Note, Review: r.Review}
			for _, id := range r.Findings {
				f, ok := byID[id]
				if !ok {
					continue
				}
				listed[id] = true
				fv := findingSection(f)
				fv.Fix = fixWords[r.Fix[id]]
				fv.Preview = previewLines(r.Previews[id])
				rv.Findings = append(rv.Findings, fv)
			}
			rk.Rules = append(rk.Rules, rv)
		}
		v.Plans = append(v.Plans, rk)
	}
	if t := pr.Plan.Totals; t.Sites > 0 {
		v.Totals = fmt.Sprintf("%s: %d by rule, %d by agent, %d manual", plural(t.Sites, "site"), t.ByRule, t.ByAgent, t.Manual)
		if t.Errors > t.Sites {
			v.Totals += " · " + plural(t.Errors, "error")
		}
	}
	for _, f := range pr.Findings {
		if !listed[f.ID] {
			v.Others = append(v.Others, findingSection(f))
		}
	}
	if pr.Status != model.StatusSkipped {
		v.Coverage = pr.Compile.Line
	}
	for _, s := range pr.Compile.Skipped {
		v.Skipped = append(v.Skipped, s.File+": "+s.Reason)
	}
	for _, d := range pr.Compile.PreExistingErrors {
		v.PreExisting = append(v.PreExisting, view.DiagLine(d))
	}
	for _, u := range pr.Unanalyzed {
		spec := ""
		if u.Specifier != "" {
			spec = "(" + u.Specifier + ")"
		}
		v.Unanalyzed = append(v.Unanalyzed, fmt.Sprintf("%s:%d %s%s %s", u.File, u.Line, u.Kind, spec, u.Reason))
	}
	if pr.ModuleFormat.Status == model.StatusNotAnalyzed {
		v.Unanalyzed = append(v.Unanalyzed, "module format: "+pr.ModuleFormat.Reason)
	}
	return v
}

// fixWords say who makes a finding's edit, as the plan's columns do.
var fixWords = map[string]string{"rule": "by rule", "agent": "by agent", "manual": "manual"}

func findingSection(f model.Finding) findingView {
	fv := findingView{At: at(f.File, f.Line), Severity: string(f.Severity), ID: f.ID, Reason: f.Reason}
	fv.Marker, fv.Tone = severityMark(f.Severity)
	if f.Hidden {
		fv.Severity += " · hidden"
	}
	// Every error is listed, those inside dependencies too: a page has
	// room the terminal has not.
	for _, d := range f.Evidence {
		fv.Evidence = append(fv.Evidence, view.DiagLine(d))
	}
	for _, d := range f.Downstream {
		fv.Evidence = append(fv.Evidence, view.DiagLine(d))
	}
	for _, s := range f.Sites {
		if s.Line != f.Line || s.File != f.File {
			fv.Also = append(fv.Also, at(s.File, s.Line))
		}
	}
	return fv
}

// previewLines splits a rule's dry run into classed lines.
func previewLines(p string) []diffLine {
	if p == "" {
		return nil
	}
	var out []diffLine
	for _, l := range strings.Split(strings.TrimRight(p, "\n"), "\n") {
		class := ""
		switch {
		case strings.HasPrefix(l, "@@"):
			class = "hunk"
		case strings.HasPrefix(l, "-"):
			class = "del"
		case strings.HasPrefix(l, "+"):
			class = "add"
		}
		out = append(out, diffLine{Text: l, Class: class})
	}
	return out
}

func severityMark(s model.Severity) (string, view.Tone) {
	switch s {
	case model.Breaking:
		return "✗", view.Bad
	case model.Unverified:
		return "?", view.Warn
	case model.Deprecated:
		return "!", view.Warn
	}
	return "·", view.Dim
}

func verdictTone(pr model.PackageReport) view.Tone {
	switch {
	case pr.Status == model.StatusNotAnalyzed || pr.Verdict == model.VerdictUnknown:
		return view.Warn
	case pr.Verdict == model.VerdictBreaking:
		return view.Bad
	case pr.Verdict == model.VerdictPossible || pr.Verdict == model.VerdictPartial:
		return view.Warn
	}
	return view.Good
}

func at(file string, line int) string {
	if line > 0 {
		return file + ":" + strconv.Itoa(line)
	}
	return file
}

func dash(n int) string {
	if n == 0 {
		return "–"
	}
	return strconv.Itoa(n)
}
