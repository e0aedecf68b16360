package model

// DiffReport is the contract diff of two published versions of a package.
type DiffReport struct {
	Package string `json:"package"`
	// From and To are the resolved versions (a dist-tag asked for is resolved).
	From string `json:"from"`
	To   string `json:"to"`
	// Compiler names the TypeScript that read the declarations.
	Compiler string      `json:"compiler"`
	Summary  DiffSummary `json:"summary"`
	// Changes is every classified change, sorted canonically.
	Changes []Change `json:"changes"`
	// Refinement says whether the checker compared the types the text
	// comparison could not decide: "checker" (every one it could), "partial"
	// (some were skipped, listed in Comparison), "text" (none needed), or
	// "skipped" with the reason in Notes.
	Refinement string `json:"refinement"`
	// Comparison counts what the checker was asked and what it answered.
	Comparison TypeComparison `json:"comparison"`
	Notes      []string       `json:"notes"`
}

// TypeComparison accounts for every changed path whose classification the
// checker was asked to refine: each is compared, untyped or skipped.
type TypeComparison struct {
	// Asked is how many changed paths the text comparison could not decide.
	Asked int `json:"asked"`
	// Compared: the checker answered; its verdict replaced the text's.
	Compared int `json:"compared"`
	// Untyped: missing on one side, or without a type to compare
	// (namespaces, call signatures); the text verdict stands.
	Untyped int `json:"untyped"`
	// Skipped: asked, but the checker gave no verdict within its budgets; the
	// text verdict stands. Sorted by path.
	Skipped []SkippedComparison `json:"skipped"`
	// PerQuestionMs and TotalMs are the time budgets that applied: one
	// question (a pair of types, shared by the paths that resolve to it) and
	// the whole comparison.
	PerQuestionMs int `json:"perQuestionMs"`
	TotalMs       int `json:"totalMs"`
}

// SkippedComparison is a path the checker gave no verdict on.
type SkippedComparison struct {
	Path string `json:"path"`
	// Reason: budget (over the per-question time), budget-family (the same
	// declarations through another container ran over), limit (the checker
	// gave up on its own), memory, deadline (the total ran out first), crash.
	Reason string `json:"reason"`
}

// DiffSummary counts the changes.
type DiffSummary struct {
	SymbolsFrom int                `json:"symbolsFrom"`
	SymbolsTo   int                `json:"symbolsTo"`
	BySeverity  map[Severity]int   `json:"bySeverity"`
	ByKind      map[ChangeKind]int `json:"byKind"`
	// PublicBreaking counts the genuinely public breaking changes: no
	// visibility marker, confidence at least 0.7, not folded into an
	// ancestor or an alias.
	PublicBreaking int `json:"publicBreaking"`
}
