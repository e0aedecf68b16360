// Package review is the planner's patch review: the queue of one upgrade's
// sites with the assisted fixer's proposals (the finding, the compiler
// error, the diff, the explanation, attempts, cost and validation), the
// keys that accept, reject, skip, retry with a hint, edit and accept a
// whole rule, and the hand-off that runs the fix runner with the accepted
// set and streams its phases to the report.
package review

import (
	"github.com/uptide/uptide/fix/assist"
)

// Status is where one site of the queue is: the assisted fixer's own.
type Status = assist.Status

// The statuses of a site (see assist.Status).
const (
	Waiting   = assist.Waiting
	Proposing = assist.Proposing
	Valid     = assist.Valid
	Invalid   = assist.Invalid
	Accepted  = assist.Accepted
	Rejected  = assist.Rejected
	Skipped   = assist.Skipped
	Resolved  = assist.Resolved
	Manual    = assist.Manual
)

// Item is one site and what the fixer made of it (its attempts' history
// too, which the screen does not show).
type Item = assist.Item

// Source is the queue behind the screen: the fixer working ahead of the
// cursor, the accepted set. Every method returns at once; work happens in
// the background and Changed tells the screen to look again.
type Source interface {
	Items() []Item
	// Provider names the model ("" without one); Spent and Budget are
	// dollars.
	Provider() string
	Spent() float64
	Budget() float64
	// Focus says which site the cursor is on: proposals are made ahead of
	// it.
	Focus(id string)
	Accept(id string)
	Reject(id string)
	Skip(id string)
	Retry(id, hint string)
	// Replace re-validates an edited diff of the site.
	Replace(id, diff string)
	// AcceptRule accepts every validated proposal of the rule and says how
	// many.
	AcceptRule(rule string) int
	// Files are the site's file before and after its proposal, for the
	// editor.
	Files(id string) (before, after string, err error)
	// Changed receives a value whenever an item changes.
	Changed() <-chan struct{}
}
