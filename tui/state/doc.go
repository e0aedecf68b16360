// Package state is what the planner's screens share: the discovered
// dependencies with the target, companion plan, selection and check status
// the user has given each, the check results the screens render, and the
// typed messages by which screens ask the root model to act.
//
// The root model writes it on the UI goroutine (the table owns only the
// selection marks); screens hold a
// pointer to the Store and read it when they render, so a check finishing
// while the details screen is open shows there without copying.
package state
