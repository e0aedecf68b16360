// Package match joins a package's contract diff with the places the
// repository uses it and lets the repository's own compiler decide what
// really breaks. It owns the direction table (which side of a contract a
// usage is on), the usage join, the arbiter that weighs the diff against
// new compiler diagnostics, root-cause anchors, fixability, the honest
// verdict per package, and stable finding ids.
//
// Every rule is a row in a table with an id, a title and a test (rules.go);
// TestRuleRegistry fails when a row has no test. Everything here is a pure
// function of its inputs: no I/O, no clock, no map order in the output.
//
// Hidden is decided here, not at render time, so every renderer hides the
// same findings: a finding is hidden when it is info or additive, or when
// its confidence is under 0.5 and no compiler diagnostic confirms it.
package match
