package assist

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Attempt is one call for one site and what became of its reply.
type Attempt struct {
	N            int     `json:"n"`
	Hint         string  `json:"hint,omitempty"`
	InputTokens  int     `json:"inputTokens"`
	OutputTokens int     `json:"outputTokens"`
	Cost         float64 `json:"cost"`
	Diff         string  `json:"diff,omitempty"`
	Explanation  string  `json:"explanation,omitempty"`
	// Kept: the reply validated. Reason says why not otherwise.
	Kept   bool   `json:"kept"`
	Reason string `json:"reason,omitempty"`
	// Validation is the checks' verdict (nil when the reply had no diff
	// or the call failed).
	Validation *Validation `json:"validation,omitempty"`
}

// Proposal is what the fixer made of one site: the kept diff, or why
// there is none.
type Proposal struct {
	Valid       bool
	Diff        string
	Explanation string
	// After is the site's file with Diff applied.
	After    string
	Compiled *Compiled
	Reason   string
	// Manual: no call was made or may be made (the budget is spent).
	Manual bool
	// Refused: the provider refused the key, the model or the URL; no
	// other site will fare better.
	Refused  bool
	Attempts []Attempt
	Cost     float64
}

// Fixer makes proposals for sites: the prompt, the call, the reply's
// checks, the retries, the budget.
type Fixer struct {
	Provider  Provider
	Validator Validator
	// Read is a file of the upgraded code (slash path from the root).
	Read func(file string) (string, error)
	// Budget bounds the calls; a queue gives a Fixer without one the
	// default ($1).
	Budget *Budget
	// Sleep waits d or until ctx ends; nil is a timer. Tests inject it.
	Sleep func(ctx context.Context, d time.Duration) error
}

// transportTries bounds the calls one attempt makes when the provider
// asks to be tried again later (429, 529, 5xx).
const transportTries = 3

// longestWait is the longest Retry-After honoured: a provider asking for
// more is down for this run.
const longestWait = 2 * time.Minute

// Propose asks for a fix of site: up to calls attempts, numbered from
// first, each retry told why the one before was not kept. prev is the
// feedback of an earlier round (a user's retry), hint what the user
// typed. The error is the context's or the compile's, never the model's.
func (f *Fixer) Propose(ctx context.Context, site Site, first, calls int, hint string, prev *Feedback) (Proposal, error) {
	var p Proposal
	for n := first; n < first+calls; n++ {
		if err := ctx.Err(); err != nil {
			return p, err
		}
		req := NewRequest(site, n, hint, prev)
		at, reply, err := f.call(ctx, req)
		at.N, at.Hint = n, hint
		if errors.Is(err, errBudget) {
			p.Manual, p.Reason = true, at.Reason
			return p, nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return p, ctx.Err()
			}
			// A provider that fails (a bad key, a model it does not have,
			// too many retries) fails the same way on the next attempt.
			p.Attempts = append(p.Attempts, at)
			p.Cost += at.Cost
			p.Reason = at.Reason
			var se *StatusError
			p.Refused = errors.As(err, &se)
			return p, nil
		}
		s, perr := ParseReply(reply.Text)
		if perr != nil {
			at.Reason = perr.Error()
			p.Attempts, p.Cost, p.Reason = append(p.Attempts, at), p.Cost+at.Cost, at.Reason
			prev = &Feedback{Reason: at.Reason}
			continue
		}
		at.Diff, at.Explanation = s.Diff, s.Explanation
		val, verr := Validate(ctx, site, s.Diff, f.Read, f.Validator)
		if verr != nil {
			// The call was made and paid: the attempt is the item's.
			at.Reason = verr.Error()
			p.Attempts, p.Cost = append(p.Attempts, at), p.Cost+at.Cost
			return p, verr
		}
		at.Validation = &val
		at.Kept, at.Reason = val.OK, val.Reason
		p.Attempts, p.Cost = append(p.Attempts, at), p.Cost+at.Cost
		if val.OK {
			p.Valid, p.Diff, p.Explanation, p.After, p.Compiled, p.Reason = true, val.Diff, s.Explanation, val.After, val.Compiled, ""
			return p, nil
		}
		p.Diff, p.Explanation, p.Reason = s.Diff, s.Explanation, val.Reason
		prev = &Feedback{Diff: s.Diff, Reason: val.Reason}
	}
	return p, nil
}

var errBudget = errors.New("budget")

// call makes one attempt's call: the reservation first, the provider's
// "later" honoured up to transportTries times, the actual cost charged.
func (f *Fixer) call(ctx context.Context, req Request) (Attempt, Reply, error) {
	var at Attempt
	for try := 1; ; try++ {
		hold := f.Provider.Reserve(req)
		if err := f.Budget.Reserve(hold); err != nil {
			at.Reason = err.Error()
			return at, Reply{}, errBudget
		}
		reply, err := f.Provider.Complete(ctx, req)
		f.Budget.Settle(hold, reply.Cost)
		at.InputTokens += reply.InputTokens
		at.OutputTokens += reply.OutputTokens
		at.Cost += reply.Cost
		if err == nil {
			return at, reply, nil
		}
		var re *RetryError
		if !errors.As(err, &re) || try == transportTries || re.After > longestWait {
			at.Reason = fmt.Sprintf("%s failed: %v", f.Provider.Name(), err)
			return at, reply, err
		}
		if serr := f.sleep(ctx, re.After); serr != nil {
			return at, reply, serr
		}
	}
}

func (f *Fixer) sleep(ctx context.Context, d time.Duration) error {
	if f.Sleep != nil {
		return f.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
