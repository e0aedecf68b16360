package review

import (
	"github.com/uptide/uptide/fix/assist"
)

// FromQueue is the screen's Source over the assisted fixer's queue.
func FromQueue(q *assist.Queue) Source { return queueSource{q: q} }

// FromQueueFile is FromQueue of a queue whose accepted set is kept in file
// after every decision: the file `uptide fix --patches` takes, which the
// hand-off summary names.
func FromQueueFile(q *assist.Queue, file string) Source { return queueSource{q: q, file: file} }

type queueSource struct {
	q    *assist.Queue
	file string
}

// PatchesFile is where the accepted set is kept ("" when nowhere).
func (s queueSource) PatchesFile() string { return s.file }

func (s queueSource) Items() []Item { return s.q.Items() }

func (s queueSource) Provider() string           { return s.q.Provider() }
func (s queueSource) Spent() float64             { return s.q.Spent() }
func (s queueSource) Budget() float64            { return s.q.Budget() }
func (s queueSource) Focus(id string)            { s.q.Focus(id) }
func (s queueSource) Accept(id string)           { s.q.Accept(id) }
func (s queueSource) Reject(id string)           { s.q.Reject(id) }
func (s queueSource) Skip(id string)             { s.q.Skip(id) }
func (s queueSource) Retry(id, hint string)      { s.q.Retry(id, hint) }
func (s queueSource) Replace(id, diff string)    { s.q.Replace(id, diff) }
func (s queueSource) AcceptRule(rule string) int { return s.q.AcceptRule(rule) }
func (s queueSource) Changed() <-chan struct{}   { return s.q.Changed() }

// Close stops the proposals still under way (the hand-off).
func (s queueSource) Close() { s.q.Close() }

// Records are the sites' histories, for the report.
func (s queueSource) Records() []assist.Record { return assist.Records(s.q.Items()) }

// Calls counts the calls made.
func (s queueSource) Calls() int { return assist.Summarize(s.q.Items()).Calls }

func (s queueSource) Files(id string) (string, string, error) {
	return s.q.Files(id)
}
