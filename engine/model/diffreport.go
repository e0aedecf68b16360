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
	// comparison could not decide: "checker", "text" (none needed), or
	// "skipped" with the reason in Notes.
	Refinement string   `json:"refinement"`
	Notes      []string `json:"notes"`
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
