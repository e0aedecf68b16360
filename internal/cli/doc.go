// Package cli owns Uptide's command line: one file per command (an Options
// struct filled by cobra, and a run function that calls the engine and
// renders what comes back), the JSON envelope, and the exit codes.
package cli
