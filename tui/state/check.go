package state

import (
	"fmt"

	"github.com/uptide/uptide/engine/model"
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

// Outcome summarizes a check.
type Outcome string

// The outcomes, in the words of the check status column.
const (
	Breaking    Outcome = "breaking"
	Possible    Outcome = "possible"
	Safe        Outcome = "safe"
	Partial     Outcome = "partial"
	NotAnalyzed Outcome = "not-analyzed"
)

// CheckResult is what the planner shows of one finished check.
type CheckResult struct {
	Outcome Outcome
	// Reason says why an analysis is partial or did not run.
	Reason     string
	Breaking   int
	Possible   int
	Deprecated int
	// Compiler names who judged: "the repo's TypeScript 5.4.5".
	Compiler string
	// Files of FilesTotal in scope were compiled.
	Files, FilesTotal int
	PreExisting       int
	Rules             []PlanRule
	Notes             []string
	// FixCommand is the exact command that applies this plan.
	FixCommand string
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
	Findings []model.Finding
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
	switch r.Outcome {
	case Breaking:
		return fmt.Sprintf("✗ %d breaking", r.Breaking)
	case Possible:
		return fmt.Sprintf("? %d possible", r.Possible)
	case Safe:
		return "✓ safe"
	case Partial:
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
