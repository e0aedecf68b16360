package cli

// The renderer before view.Check, kept while the new one is compared with it.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/uptide/uptide/engine"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/engine/model"
)

// checkView is how much of a check report to print.

// oldRenderCheck prints the check report for humans: a header with the
// repository, its package manager and the elapsed time; one row per
// dependency; then per package its companions, one line per plan rule, the
// possible impact apart, the coverage line, what was not analyzed, and the
// Next block.
func oldRenderCheck(w io.Writer, rep *model.CheckReport, v checkView, p palette, width int) {
	repo := rep.Repository
	fmt.Fprintf(w, "%s · %s (%s, %s) · %s\n\n", p.bold("uptide check"), repo.Name, repo.PackageManager,
		plural(len(repo.Workspaces), "workspace"), v.elapsed.Round(100*time.Millisecond))

	t := &table{
		header:   []string{"PACKAGE", "WHERE", "INSTALLED → TARGET", "KIND", "CHECK"},
		flexible: []bool{true, true, false, false, true},
		keep:     3,
	}
	for _, pr := range rep.Packages {
		t.add(pr.Title, engine.Where(pr.Workspaces), oldArrow(pr.Installed, pr.Target), pr.Update.String(), oldVerdictText(pr))
	}
	fmt.Fprint(w, t.render(width, "  ", func(row, col int, s string) string {
		switch {
		case row < 0:
			return p.dim(s)
		case col == 3:
			return p.update(rep.Packages[row].Update, s)
		case col == 4:
			return oldColorVerdict(rep.Packages[row], s, p)
		}
		return s
	}))
	for _, pr := range rep.Packages {
		oldRenderPackage(w, pr, v, p, width)
	}
	if line := oldComputedLine(rep.ComputedLoads); line != "" {
		fmt.Fprintf(w, "\n%s\n", p.dim(line))
	}
	if len(rep.Problems) > 0 {
		fmt.Fprintf(w, "\n%s\n", p.red("Problems"))
		for _, pr := range rep.Problems {
			fmt.Fprintf(w, "  %s\n", problemLine(pr))
		}
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "\n%s\n", p.dim("note: "+n))
	}
}

// oldComputedLine is the one line for the computed loads no package checked
// could be loaded by: the first three by place, then how many more.
func oldComputedLine(loads []model.ComputedLoad) string {
	if len(loads) == 0 {
		return ""
	}
	const shown = 3
	var at []string
	for i, l := range loads {
		if i == shown {
			at = append(at, fmt.Sprintf("%d more", len(loads)-shown))
			break
		}
		at = append(at, fmt.Sprintf("%s:%d %s(%s)", l.File, l.Line, l.Kind, l.Specifier))
	}
	return fmt.Sprintf("%s cannot load a checked package, not counted: %s", plural(len(loads), "computed load"), strings.Join(at, ", "))
}

func oldOrQuestion(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func oldArrow(installed, target string) string {
	switch {
	case installed == "":
		return "?"
	case target == "" || target == installed:
		return installed
	}
	return installed + " → " + target
}

func oldVerdictText(pr model.PackageReport) string {
	if pr.Summary != "" {
		return pr.Summary
	}
	return string(pr.Status)
}

func oldColorVerdict(pr model.PackageReport, s string, p palette) string {
	switch {
	case pr.Status == model.StatusNotAnalyzed || pr.Verdict == model.VerdictUnknown:
		return p.yellow(s)
	case pr.Verdict == model.VerdictBreaking:
		return p.red(s)
	case pr.Verdict == model.VerdictPossible || pr.Verdict == model.VerdictPartial:
		return p.yellow(s)
	}
	return p.green(s)
}

func oldRenderPackage(w io.Writer, pr model.PackageReport, v checkView, p palette, width int) {
	title := pr.Title
	if pr.Installed != "" {
		title += " " + oldArrow(pr.Installed, pr.Target)
	}
	fmt.Fprintf(w, "\n%s · %s   %s\n", p.bold(title), engine.Where(pr.Workspaces), oldColorVerdict(pr, oldVerdictText(pr), p))
	oldRenderImporters(w, pr, p)
	if pr.Status == model.StatusNotAnalyzed {
		for _, x := range pr.Warnings {
			fmt.Fprintf(w, "  %s\n", p.yellow("! "+x))
		}
		return
	}
	if pr.Group != nil {
		fmt.Fprintf(w, "  %s %s\n", p.dim("group:"), pr.Group.Why)
	}
	for _, m := range pr.Members {
		if len(pr.Members) == 1 && m.TypesVia == nil && m.Status == model.StatusAnalyzed {
			break
		}
		line := fmt.Sprintf("%s %s", m.Name, oldArrow(m.Installed, m.Target))
		switch tv := m.TypesVia; {
		case tv == nil:
		case tv.To == "" && m.Target != "" && m.Target != m.Installed:
			// The target types itself: its own declarations replace them.
			line += fmt.Sprintf(" · types via %s %s → its own", tv.Package, tv.From)
		default:
			line += fmt.Sprintf(" · types via %s %s", tv.Package, oldArrow(tv.From, tv.To))
		}
		if m.Status != model.StatusAnalyzed {
			line += " · " + string(m.Status)
			if m.Reason != "" {
				line += ": " + m.Reason
			}
		}
		fmt.Fprintf(w, "  %s\n", line)
	}
	oldRenderCompanions(w, pr.Companions, p, width)
	oldRenderPlan(w, pr, p, width)
	if v.details || v.all {
		oldRenderDetails(w, pr, v.all, p)
		oldRenderPreExisting(w, pr.Compile.PreExistingErrors, p)
	}
	if pr.Counts.Hidden > 0 && !v.all {
		fmt.Fprintf(w, "  %s\n", p.dim(fmt.Sprintf("%s hidden (info, additive or low confidence; --all shows them)", plural(pr.Counts.Hidden, "finding"))))
	}
	if pr.Status == model.StatusSkipped {
		return
	}
	if pr.Compile.Line != "" {
		fmt.Fprintf(w, "  %s\n", p.dim(pr.Compile.Line))
	}
	if len(pr.Unanalyzed) > 0 || pr.ModuleFormat.Status == model.StatusNotAnalyzed {
		fmt.Fprintf(w, "  %s\n", p.yellow("Not analyzed"))
		for _, u := range pr.Unanalyzed {
			spec := ""
			if u.Specifier != "" {
				spec = "(" + u.Specifier + ")"
			}
			fmt.Fprintf(w, "    %s:%d  %s%s  %s\n", u.File, u.Line, u.Kind, spec, u.Reason)
		}
		if pr.ModuleFormat.Status == model.StatusNotAnalyzed {
			fmt.Fprintf(w, "    module format: %s\n", pr.ModuleFormat.Reason)
		}
	}
	for _, x := range pr.Warnings {
		fmt.Fprintf(w, "  %s\n", p.yellow("! "+x))
	}
	for _, n := range pr.Notes {
		fmt.Fprintf(w, "  %s\n", p.dim("note: "+n))
	}
	for i, cmd := range pr.Plan.Next {
		label := "Next "
		if i > 0 {
			label = "     "
		}
		fmt.Fprintf(w, "  %s %s\n", p.bold(label), cmd)
	}
}

// oldCompanionColumns are a companion's name, versions and why as list and
// check print them: "remove @types/bcryptjs  2.4.6  bcryptjs 3.0.3 ships its
// own types" for a removal, "new → 10.4.0" for a package the upgrade adds.
func oldCompanionColumns(c model.Companion) (name, versions, why string) {
	switch {
	case c.Remove:
		return "remove " + c.Name, c.From, c.Why
	case c.From == "":
		return c.Name, "new → " + oldOrQuestion(c.To), c.Why
	}
	return c.Name, oldArrow(c.From, c.To), c.Why
}

func oldRenderCompanions(w io.Writer, cp model.CompanionPlan, p palette, width int) {
	if len(cp.Companions)+len(cp.Conflicts) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s\n", p.bold("Companions"))
	// One table, as list prints them: the versions and reasons line up
	// whatever the names' lengths.
	t := &table{header: []string{"", "", ""}, flexible: []bool{false, false, true}, keep: 2}
	for _, c := range cp.Companions {
		t.add(oldCompanionColumns(c))
	}
	for _, c := range cp.Conflicts {
		t.add("✗ "+c.Name, c.From, "conflict: "+c.Why)
	}
	out := t.render(width, "    ", func(row, col int, s string) string {
		switch {
		case row >= len(cp.Companions):
			return p.red(s)
		case col == 2:
			return p.dim(s)
		}
		return s
	})
	// Drop the empty header line.
	fmt.Fprint(w, out[strings.Index(out, "\n")+1:])
}

// oldRenderPlan prints one line per rule: the breaking rules with their sites
// split by rule, by agent and manual, then the possible impact apart.
func oldRenderPlan(w io.Writer, pr model.PackageReport, p palette, width int) {
	if len(pr.Plan.Rules) == 0 && len(pr.Plan.Unverified) == 0 && len(pr.Plan.Deprecations) == 0 && len(pr.Plan.Noted) == 0 {
		return
	}
	t := &table{
		header:   []string{"Plan", "sites", "by rule", "by agent", "manual"},
		flexible: []bool{true, false, false, false, false},
		right:    []bool{false, true, true, true, true},
		keep:     2,
	}
	dash := func(n int) string {
		if n == 0 {
			return "–"
		}
		return strconv.Itoa(n)
	}
	for _, r := range pr.Plan.Rules {
		t.add("✗ "+r.Title, oldRuleSites(r), dash(r.ByRule), dash(r.ByAgent), dash(r.Manual))
	}
	nRules := len(pr.Plan.Rules)
	if len(pr.Plan.Unverified) > 0 {
		t.add("Possible impact (unverified, not counted)", "", "", "", "")
		for _, r := range pr.Plan.Unverified {
			t.add("? "+r.Title, oldRuleSites(r), "", "", "")
		}
	}
	if len(pr.Plan.Deprecations) > 0 {
		t.add("Deprecated (still works; fix moves the by-rule ones, not counted)", "", "", "", "")
		for _, r := range pr.Plan.Deprecations {
			t.add("! "+r.Title, oldRuleSites(r), dash(r.ByRule), "–", dash(r.Manual))
		}
	}
	noted := len(t.rows)
	if len(pr.Plan.Noted) > 0 {
		t.add("Noted (still compiles; nothing to edit, read the note)", "", "", "", "")
		for _, r := range pr.Plan.Noted {
			t.add("· "+r.Title, oldRuleSites(r), "", "", "")
		}
	}
	fmt.Fprint(w, t.render(width, "  ", func(row, col int, s string) string {
		switch {
		case row < 0 && col == 0:
			return p.bold(s)
		case row < 0:
			return p.dim(s)
		case row < nRules && col == 0:
			return p.red(s)
		case row >= noted:
			return p.dim(s)
		case row == nRules:
			return p.yellow(s)
		case row > nRules && col == 0:
			return p.yellow(s)
		}
		return s
	}))
	for _, r := range pr.Plan.Rules {
		if r.Note != "" {
			fmt.Fprintf(w, "    %s\n", p.dim(r.Title+": "+r.Note))
		}
	}
	// The pack's review notes, which fix lists under "Decisions for you".
	seen := map[string]bool{}
	for _, rules := range [][]model.PlanRule{pr.Plan.Rules, pr.Plan.Deprecations, pr.Plan.Noted} {
		for _, r := range rules {
			for _, note := range r.Review {
				if !seen[note] {
					seen[note] = true
					fmt.Fprintf(w, "    %s\n", p.dim(r.Title+": "+note))
				}
			}
		}
	}
}

// oldRuleSites reads "3", or "1 fix, 12 errors" when edits stand for more
// errors than sites.
func oldRuleSites(r model.PlanRule) string {
	if r.Errors > r.Sites {
		return fmt.Sprintf("%s, %s", plural(r.Sites, "fix"), plural(r.Errors, "error"))
	}
	return strconv.Itoa(r.Sites)
}

// oldShownDependencyErrors is how many errors inside dependencies a cause
// shows: the first say what the compiler cannot read, the rest repeat it
// (331 for zod 4 on TypeScript 4.4).
const oldShownDependencyErrors = 5

// oldRenderDetails lists every site: file:line, severity, reason and the
// compiler's messages.
func oldRenderDetails(w io.Writer, pr model.PackageReport, all bool, p palette) {
	var shown []model.Finding
	for _, f := range pr.Findings {
		if !f.Hidden || all {
			shown = append(shown, f)
		}
	}
	if len(shown) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s\n", p.bold("Sites"))
	for _, f := range shown {
		loc := f.File
		if f.Line > 0 {
			loc += ":" + strconv.Itoa(f.Line)
		}
		fmt.Fprintf(w, "    %s %s  %s  %s\n", oldSiteMarker(f.Severity, p), loc, p.dim(string(f.Severity)+" · "+f.ID), f.Reason)
		inDeps := 0
		for _, d := range f.Evidence {
			if model.InDependency(d.File) {
				if inDeps++; inDeps > oldShownDependencyErrors {
					continue
				}
			}
			fmt.Fprintf(w, "        %s\n", p.dim(oldDiagLine(d)))
		}
		if more := inDeps - oldShownDependencyErrors; more > 0 {
			fmt.Fprintf(w, "        %s\n", p.dim(fmt.Sprintf("… %d more inside dependencies (--json lists every one)", more)))
		}
		for _, d := range f.Downstream {
			fmt.Fprintf(w, "        %s\n", p.dim(oldDiagLine(d)))
		}
		for _, s := range f.Sites {
			if s.Line != f.Line || s.File != f.File {
				fmt.Fprintf(w, "        %s\n", p.dim(fmt.Sprintf("also %s:%d", s.File, s.Line)))
			}
		}
	}
}

// oldRenderPreExisting lists the errors the repository already has in the
// files compiled: subtracted from the upgrade's, never counted.
func oldRenderPreExisting(w io.Writer, ds []model.Diagnostic, p palette) {
	if len(ds) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s\n", p.bold(fmt.Sprintf("Pre-existing (%s before the upgrade, not counted)", plural(len(ds), "error"))))
	for _, d := range ds {
		fmt.Fprintf(w, "    %s\n", p.dim(oldDiagLine(d)))
	}
}

func oldDiagLine(d model.Diagnostic) string {
	msg := strings.Join(strings.Fields(d.Message), " ")
	return fmt.Sprintf("%s:%d TS%d %s", d.File, d.Line, d.Code, msg)
}

func oldSiteMarker(s model.Severity, p palette) string {
	switch s {
	case model.Breaking:
		return p.red("✗")
	case model.Unverified:
		return p.yellow("?")
	case model.Deprecated:
		return p.yellow("!")
	}
	return p.dim("·")
}

func oldRenderImporters(w io.Writer, pr model.PackageReport, p palette) {
	for _, line := range engine.ImporterLines(&pr) {
		fmt.Fprintf(w, "  %s\n", p.yellow(line))
	}
}

// The check report drawn from view.Check is the one the old renderer
// drew, byte for byte, in colour and without, wide and narrow, at every
// level of detail: over a rich synthetic report and every check envelope
// of the JSON goldens.
func TestRenderCheckSameAsBefore(t *testing.T) {
	paths, _ := filepath.Glob("../../cmd/uptide/testdata/json-golden/*check*.json")
	paths = append(paths, "../../view/testdata/check-rich.json")
	n := 0
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var rep model.CheckReport
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		if json.Unmarshal(raw, &env) == nil && len(env.Data) > 0 {
			raw = env.Data
		}
		if err := json.Unmarshal(raw, &rep); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(rep.Packages) == 0 {
			continue // check's error envelope
		}
		n++
		for _, on := range []bool{false, true} {
			for _, width := range []int{200, 60} {
				for _, v := range []checkView{{}, {details: true}, {all: true}} {
					var old, cur bytes.Buffer
					oldRenderCheck(&old, &rep, v, palette{on: on}, width)
					renderCheck(&cur, &rep, v, palette{on: on}, width)
					if old.String() != cur.String() {
						t.Errorf("%s (colour %v, width %d, %+v):\n--- old\n%s\n--- new\n%s", path, on, width, v, old.String(), cur.String())
					}
				}
			}
		}
	}
	if n < 4 {
		t.Fatalf("only %d check reports compared", n)
	}
}
