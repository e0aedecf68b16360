package model

// Plan is what fix would do about one package's (or one group's) breaking
// findings: the findings grouped per migration rule, each rule's sites split
// by who makes the edit, and the exact commands to go on with.
type Plan struct {
	Package string `json:"package"`
	// Target is the version the plan upgrades to.
	Target string `json:"target,omitempty"`
	// Pack names the migration pack whose rules apply, empty when no pack
	// covers this upgrade (every site is then manual).
	Pack string `json:"pack,omitempty"`
	// Rules hold the breaking findings, most sites first, then by ID.
	Rules []PlanRule `json:"rules"`
	// Unverified groups the possible-impact findings the same way; they are
	// listed apart and never counted in Totals.
	Unverified []PlanRule `json:"unverified"`
	// Deprecations are the deprecated uses (they still work) a pack's
	// transforms move off, grouped the same way: fix edits their by-rule
	// sites in the rules' commit. A site no transform takes is manual (the
	// assisted fixer answers compiler errors only). Never counted in
	// Totals; empty without a pack.
	Deprecations []PlanRule `json:"deprecations"`
	// Noted are a pack's rules over uses that keep compiling and that no
	// transform edits: a deprecated use the pack has no transform for, a
	// changed signature the pack has review notes on (React 19's
	// forwardRef, propTypes). Listed with the notes for a human to read,
	// never counted in Totals, never edited; empty without a pack.
	Noted  []PlanRule `json:"noted"`
	Totals PlanTotals `json:"totals"`
	// Next holds the exact commands for this repository, in order.
	Next []string `json:"next"`
	// Fix is the command of Next that fixes the upgrade, "" when the plan
	// offers none (a conflict, a Node or TypeScript to move first): code
	// picks the fix by this field, never by a command's words. The
	// envelope has it in next already.
	Fix string `json:"-"`
}

// PlanTotals sums the counted rules.
type PlanTotals struct {
	Sites   int `json:"sites"`
	ByRule  int `json:"byRule"`
	ByAgent int `json:"byAgent"`
	Manual  int `json:"manual"`
	// Errors sums the rules' Errors (see PlanRule.Errors).
	Errors int `json:"errors"`
}

// PlanRule is one migration rule: a pack rule, or without one a group of
// findings of one change kind, symbol or compiler error code.
type PlanRule struct {
	// ID is the pack's rule id, else a key derived from the change
	// ("removed:Foo", "signature", "TS2345", "module-format").
	ID    string `json:"id"`
	Title string `json:"title"`
	// Sites counts edits: a site, a file for a per-file rule, one anchor
	// for a root cause. ByRule + ByAgent + Manual == Sites.
	Sites   int `json:"sites"`
	ByRule  int `json:"byRule"`
	ByAgent int `json:"byAgent"`
	Manual  int `json:"manual"`
	// PerFile: one edit per file ("1 fix, 3 errors"); compiler-only errors
	// of that file fold into it.
	PerFile bool `json:"perFile,omitempty"`
	// Errors counts the errors the rule's edits stand for, set when an edit
	// stands for more than its own site (a per-file rule, a root-cause
	// anchor with its downstream errors); 0 otherwise.
	Errors int `json:"errors,omitempty"`
	// Findings are the ids of the findings in the rule, sorted.
	Findings []string `json:"findings"`
	// Fix says, per finding id, who makes its edit, as the counts split
	// them: "rule" (the pack's transform takes it), "agent" (the pack
	// covers the upgrade, the assisted fixer proposes) or "manual". A
	// per-file rule's findings share their file's; a finding folded into
	// another rule's file is under that rule.
	Fix map[string]string `json:"fix"`
	// Previews are, per finding the pack's transform takes, what its edit
	// will do: the plan's dry run as hunks of the file's lines, each headed
	// "@@ file:line @@" with the old lines as "-" and the new as "+".
	Previews map[string]string `json:"previews,omitempty"`
	// Note is one line a pack adds under the rule.
	Note string `json:"note,omitempty"`
	// Review are the pack's review notes on the rule: what fix lists under
	// "Decisions for you" when the run has a site of it.
	Review []string `json:"review,omitempty"`
}
