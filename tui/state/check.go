package state

import (
	"fmt"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/view"
)

// CheckRequest asks what upgrading one dependency decision to Target breaks.
type CheckRequest struct {
	// ID is the dependency's index in the Store.
	ID  int
	Row model.DependencyRow
	// Target is the version to check against (the row's chosen target).
	Target string
	// With: the group members and companions that move along.
	With []model.Companion
}

// CheckEvent is one piece of check progress: the phase and, when the phase
// has units, how many are done.
type CheckEvent struct {
	Phase string
	Done  int
	Total int
}

// CheckResult is what the planner shows of one finished check.
type CheckResult struct {
	// Verdict is the engine's, unknown folded into partial; none when the
	// check did not run.
	Verdict model.Verdict
	// Reason says why an analysis is partial or did not run.
	Reason     string
	Breaking   int
	Possible   int
	Deprecated int
	// Summary is the verdict in check's words (view.VerdictSpan): "✗ 2
	// breaking · 1 possible".
	Summary string
	// Compiler names who judged: "the repo's TypeScript 5.4.5".
	Compiler string
	// Coverage is the compile's coverage line ("compiled 12/12 files …").
	Coverage string
	// Files of FilesTotal in scope were compiled.
	Files, FilesTotal int
	PreExisting       int
	Rules             []PlanRule
	// Importers are the workspaces importing the package beyond its
	// declared, analyzed ones, one line each as `uptide check` prints them:
	// "packages/ui · imports zod without declaring it (resolved via
	// @acme/core)".
	Importers []string
	Notes     []string
	// NextCommand is the exact command to go on with: the fix of the checked upgrade.
	NextCommand string
}

// PlanRule is one row of the per-rule plan: the findings one migration
// rule (or one compiler error code) accounts for, and who can fix them.
type PlanRule struct {
	ID       string
	Title    string
	Severity model.Severity
	Sites    int
	ByRule   int
	ByAgent  int
	Manual   int
	// Errors counts the errors the rule's edits stand for ("1 fix, 12
	// errors"), when more than its sites.
	Errors   int
	Findings []model.Finding
	// Fix is who edits each finding (by id): "rule", "agent" or
	// "manual", as check --json says.
	Fix map[string]string
	// Previews are, per finding the pack's transform takes, the diff its
	// edit will make (check's dry run), as check --json says.
	Previews map[string]string
	// Note is the line a pack adds under the rule.
	Note string
	// Review are the pack's review notes on the rule.
	Review []string
	// Evidence are, per finding (by id), the lines check --details prints
	// under its site (view.SiteEvidence): the findings counted with it and
	// what the runtime probe saw there.
	Evidence map[string][]string
}

// Entry is the rule as view.PlanRows lays it out: the plan table's words
// and counts are the CLI's.
func (r PlanRule) Entry() view.PlanEntry {
	return view.PlanEntry{Severity: r.Severity, Rule: model.PlanRule{ID: r.ID, Title: r.Title, Sites: r.Sites,
		ByRule: r.ByRule, ByAgent: r.ByAgent, Manual: r.Manual, Errors: r.Errors, Note: r.Note, Review: r.Review}}
}

// Entries are the result's rules as view.PlanRows lays them out.
func (r *CheckResult) Entries() []view.PlanEntry {
	var es []view.PlanEntry
	for _, rule := range r.Rules {
		es = append(es, rule.Entry())
	}
	return es
}

// Status is where a dependency's check stands.
type Status int

// The check statuses.
const (
	Unchecked Status = iota
	Queued
	Running
	Done
	Failed
)

// Check is the check state of one dependency.
type Check struct {
	Status Status
	// Target is the version being (or that was) checked.
	Target string
	Event  CheckEvent
	Result *CheckResult
	Err    error
}

// Label is the check status column's text, without the spinner a running
// check adds in front.
func (c Check) Label() string {
	switch c.Status {
	case Queued:
		return "queued"
	case Running:
		if c.Event.Total > 0 {
			return fmt.Sprintf("%s %d/%d", orDefault(c.Event.Phase, "checking"), c.Event.Done, c.Event.Total)
		}
		return orDefault(c.Event.Phase, "checking")
	case Failed:
		return "not analyzed: " + c.Err.Error()
	case Done:
		return c.Result.Label()
	}
	return ""
}

// Label is the result in a few words: "✗ 6 breaking", "? 2 possible".
func (r *CheckResult) Label() string {
	switch r.Verdict {
	case model.VerdictBreaking:
		return fmt.Sprintf("✗ %d breaking", r.Breaking)
	case model.VerdictPossible:
		return fmt.Sprintf("? %d possible", r.Possible)
	case model.VerdictSafe:
		return "✓ safe"
	case model.VerdictPartial:
		return "partial: " + r.Reason
	}
	return "not analyzed: " + r.Reason
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// ResultOf maps one package report of a check into what the planner shows.
// The outcome is honest: a report that did not run is not analyzed with
// the engine's reason, and a clean verdict over partial coverage is
// partial, not safe.
func ResultOf(p *model.PackageReport) *CheckResult {
	r := &CheckResult{
		Summary:     view.VerdictSpan(p).Text,
		Breaking:    p.Counts.Breaking,
		Possible:    p.Counts.Possible,
		Deprecated:  p.Counts.Deprecated,
		Compiler:    p.Compile.Compiler,
		Coverage:    p.Compile.Line,
		Files:       p.Compile.Compiled,
		FilesTotal:  p.Compile.Asked,
		PreExisting: p.Compile.PreExisting,
	}
	r.Verdict, r.Reason = verdictOf(p)
	findings := map[string]model.Finding{}
	for _, f := range p.Findings {
		findings[f.ID] = f
	}
	// The rules in the plan table's order, each in its section (noted
	// uses keep compiling, with what the pack says about them).
	for _, e := range view.Entries(p.Plan) {
		pr := e.Rule
		rule := PlanRule{ID: pr.ID, Title: pr.Title, Severity: e.Severity, Sites: pr.Sites, ByRule: pr.ByRule, ByAgent: pr.ByAgent, Manual: pr.Manual, Errors: pr.Errors, Fix: pr.Fix, Previews: pr.Previews, Note: pr.Note, Review: pr.Review}
		for _, id := range pr.Findings {
			if f, ok := findings[id]; ok {
				rule.Findings = append(rule.Findings, f)
				if ev := view.SiteEvidence(f, p.Runtime); len(ev) > 0 {
					if rule.Evidence == nil {
						rule.Evidence = map[string][]string{}
					}
					rule.Evidence[f.ID] = ev
				}
			}
		}
		r.Rules = append(r.Rules, rule)
	}
	r.Importers = view.ImporterLines(p)
	r.Notes = append(r.Notes, p.Notes...)
	for _, w := range p.Warnings {
		r.Notes = append(r.Notes, "⚠ "+w)
	}
	if p.Status == model.StatusSkipped && p.Reason != "" {
		r.Notes = append(r.Notes, p.Reason)
	}
	// The fix when the plan offers one, else its first command (the
	// detailed check, or the upgrade of typescript a target the
	// repository's compiler cannot read needs first).
	r.NextCommand = p.Plan.Fix
	if r.NextCommand == "" && len(p.Plan.Next) > 0 {
		r.NextCommand = p.Plan.Next[0]
	}
	return r
}

func verdictOf(p *model.PackageReport) (model.Verdict, string) {
	if p.Status == model.StatusNotAnalyzed {
		return model.VerdictNone, orDefault(p.Reason, "the engine gave no reason")
	}
	partial := p.Status == model.StatusPartial
	switch p.Verdict {
	case model.VerdictBreaking, model.VerdictPossible:
		return p.Verdict, partialReason(partial, p)
	case model.VerdictSafe:
		if partial {
			return model.VerdictPartial, orDefault(p.Reason, p.Summary)
		}
		return model.VerdictSafe, ""
	case model.VerdictPartial, model.VerdictUnknown:
		return model.VerdictPartial, orDefault(p.Reason, p.Summary)
	}
	if p.Status == model.StatusSkipped {
		// Nothing moves: the installed version is the target.
		return model.VerdictSafe, ""
	}
	return model.VerdictNone, orDefault(p.Reason, "nothing was analyzed")
}

func partialReason(partial bool, p *model.PackageReport) string {
	if partial {
		return p.Reason
	}
	return ""
}
