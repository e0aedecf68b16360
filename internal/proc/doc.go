// Package proc owns how Uptide runs the repository's tools (package
// managers, test runners, formatters, git) while it fixes: a quiet
// environment in which no lifecycle script runs and no hook installer
// reaches git, a process group of its own so a timeout or an interrupt ends
// everything the tool started, and the tail of the output kept for the
// report.
package proc
