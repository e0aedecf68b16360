package tui

// The request mapping and report selection of Live.Check, for the tests.
var (
	CheckOptionsOf = checkOptions
	ReportFor      = reportFor
	PhaseLabel     = phaseLabel
)
