// Package verify owns the test and style parts of uptide fix's
// verification: which of the repository's own test runs answer for the
// affected workspaces (its test scripts, else the nearest vitest or jest
// configuration in related mode, else the root script), which test files
// and setups need services and so stay out by default, running those tests
// quietly with a time limit and reading their output before believing it
// (counts, no tests found, a re-run of an unrelated failure), and the
// repository's own formatter and linter on the edited files only. The
// type-check part of verification lives in package fix.
package verify
