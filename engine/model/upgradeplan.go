package model

// UpgradePlan is `uptide plan`'s answer: every outdated direct dependency
// as steps in the order they can move, each with why it matters now and
// what its check says it costs.
type UpgradePlan struct {
	// Steps are in order: a step comes after every step it names in After.
	// The cheap batch, when there is one, is a step of its own.
	Steps []PlanStep `json:"steps"`
	// Cycles are steps whose constraints need each other first: they are
	// reported, not ordered (their steps come last, marked Blocked).
	Cycles [][]string `json:"cycles"`
	// Unchecked names the steps no check result covers: their effort and
	// verdict are unknown, not zero.
	Unchecked []string `json:"unchecked"`
	// Totals sums the checked steps' effort.
	Totals Effort `json:"totals"`
	// Advisories says whether the registry's advisories were asked, and
	// why not when they were not.
	Advisories AdvisoryStatus `json:"advisories"`
}

// AdvisoryStatus says what the plan knows of security advisories.
type AdvisoryStatus struct {
	Asked  bool   `json:"asked"`
	Reason string `json:"reason,omitempty"`
}

// PlanStep is one decision: a package, a release group or a package with
// its companions, moving together; or the cheap batch.
type PlanStep struct {
	// ID is the step's lead package, or "cheap-batch".
	ID string `json:"id"`
	// Batch: every upgrade here was checked ✓ no impact; they move as one.
	Batch bool       `json:"batch,omitempty"`
	Moves []StepMove `json:"moves"`
	// After are the steps that must move first, each with why.
	After      []StepAfter `json:"after"`
	Priorities []Priority  `json:"priorities"`
	// Checked: a check result covers every move of the step.
	Checked bool `json:"checked"`
	// Verdict is the check's (breaking, possible, safe, partial, unknown),
	// "unchecked" without one.
	Verdict string `json:"verdict"`
	// Reason is the check's, when its verdict is not conclusive.
	Reason string `json:"reason,omitempty"`
	Effort Effort `json:"effort"`
	// Blocked says why the step cannot be placed (a cycle, a peer no
	// release satisfies); empty when it can move.
	Blocked string `json:"blocked,omitempty"`
}

// StepMove is one package a step moves.
type StepMove struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
	// Update is patch, minor, major or "major ×N".
	Update string `json:"update,omitempty"`
	Why    string `json:"why"`
}

// StepAfter is one ordering constraint: Step must move first.
type StepAfter struct {
	Step string `json:"step"`
	Why  string `json:"why"`
}

// PriorityKind is why a step matters now.
type PriorityKind string

// The priorities, most urgent first.
const (
	PriorityAdvisory    PriorityKind = "advisory"
	PriorityDeprecated  PriorityKind = "deprecated"
	PriorityUnsupported PriorityKind = "unsupported"
	PriorityBlocking    PriorityKind = "blocking"
	PriorityBehind      PriorityKind = "behind"
)

// Priority is one reason a step matters now.
type Priority struct {
	Kind    PriorityKind `json:"kind"`
	Package string       `json:"package"`
	Reason  string       `json:"reason"`
	// Severity is an advisory's (low, moderate, high, critical).
	Severity string `json:"severity,omitempty"`
	// FixedIn is the smallest release that an advisory does not cover.
	FixedIn string `json:"fixedIn,omitempty"`
	URL     string `json:"url,omitempty"`
	// Majors is how many majors behind ("behind"), or how many steps wait
	// for this one ("blocking").
	Count int `json:"count,omitempty"`
}

// Effort is what a step's check counted: sites by who fixes them, and the
// files they are in. Counts, not time.
type Effort struct {
	Sites   int `json:"sites"`
	ByRule  int `json:"byRule"`
	ByAgent int `json:"byAgent"`
	Manual  int `json:"manual"`
	Files   int `json:"files"`
}

// UpgradePlanReport is `uptide plan --json`'s data.
type UpgradePlanReport struct {
	Repository RepoSummary `json:"repository"`
	Plan       UpgradePlan `json:"plan"`
	// Ceiling is set by --ceiling.
	Ceiling  *Ceiling  `json:"ceiling,omitempty"`
	Problems []Problem `json:"problems"`
	Notes    []string  `json:"notes"`
}

// Ceiling is the newest release of a package whose check against this
// repository is ✓ no impact, found by bisecting the releases above the
// installed one (`uptide plan --ceiling`).
type Ceiling struct {
	Package   string `json:"package"`
	Installed string `json:"installed"`
	// Version is the ceiling: the newest release checked ✓, the installed
	// version when the first release above it already has impact, "" when
	// the bisection stopped before it knew.
	Version string `json:"version"`
	// Latest is the newest release the bisection considered.
	Latest string `json:"latest"`
	// Steps are the checks made, in order.
	Steps []CeilingStep `json:"steps"`
	// Stopped says why the bisection could not finish (a check that did
	// not decide).
	Stopped string `json:"stopped,omitempty"`
}

// CeilingStep is one check of the bisection.
type CeilingStep struct {
	Version string `json:"version"`
	Verdict string `json:"verdict"`
	Sites   int    `json:"sites"`
	Reason  string `json:"reason,omitempty"`
}
