package assist

import "context"

// AcceptValidated is the queue without a person: every proposal that
// validates is accepted as soon as it does (so the sites its patch
// resolves get no call), until no site is waiting or being proposed.
// It returns the accepted items in the queue's order; progress, when
// set, is told the counts after every change.
func AcceptValidated(ctx context.Context, q *Queue, progress func(Summary)) ([]Item, error) {
	for {
		busy := false
		items := q.Items()
		if progress != nil {
			progress(Summarize(items))
		}
		for _, it := range items {
			switch it.Status {
			case Valid:
				q.Accept(it.Site.ID)
			case Waiting, Proposing:
				busy = true
			}
		}
		if !busy {
			break
		}
		select {
		case <-q.Changed():
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	var out []Item
	for _, it := range q.Items() {
		if it.Status == Accepted {
			out = append(out, it)
		}
	}
	return out, nil
}

// Summary counts a finished queue for a report.
type Summary struct {
	Sites, Accepted, Resolved, Manual, Invalid, Pending, Calls int
	Cost                                                       float64
}

// Summarize counts the items of q.
func Summarize(items []Item) Summary {
	s := Summary{Sites: len(items)}
	for _, it := range items {
		s.Calls += it.Attempts
		s.Cost += it.Cost
		switch it.Status {
		case Accepted:
			s.Accepted++
		case Resolved:
			s.Resolved++
		case Manual:
			s.Manual++
		case Invalid:
			s.Invalid++
		case Waiting, Proposing:
			s.Pending++
		}
	}
	return s
}

// Record is one site's history for the report and the stored run: each
// attempt with its tokens, cost, diff, validation (the compiler's
// verdict included) and whether it was kept.
type Record struct {
	ID         string    `json:"id"`
	Rule       string    `json:"rule"`
	File       string    `json:"file"`
	Line       int       `json:"line"`
	Status     string    `json:"status"`
	Reason     string    `json:"reason,omitempty"`
	ResolvedBy string    `json:"resolvedBy,omitempty"`
	Cost       float64   `json:"cost"`
	Attempts   []Attempt `json:"attempts"`
}

// Records are the items' histories, in queue order.
func Records(items []Item) []Record {
	out := make([]Record, 0, len(items))
	for _, it := range items {
		out = append(out, Record{ID: it.Site.ID, Rule: it.Site.RuleTitle, File: it.Site.File, Line: it.Site.Line,
			Status: it.Status.String(), Reason: it.Reason, ResolvedBy: it.ResolvedBy, Cost: it.Cost,
			Attempts: append([]Attempt{}, it.History...)})
	}
	return out
}
