package assist

import (
	"fmt"
	"sync"
	"time"
)

// RetryError is a provider's "try again later": a 429, a 529 or a 5xx,
// with the delay its Retry-After header asked for (or the provider's
// default backoff when it gave none).
type RetryError struct {
	After time.Duration
	Err   error
}

func (e *RetryError) Error() string {
	return fmt.Sprintf("%v (retry after %v)", e.Err, e.After)
}

func (e *RetryError) Unwrap() error { return e.Err }

// StatusError is a provider's refusal that no other site would fare
// better with: a key it does not take (401, 403) or a model or URL it
// does not have (404). The queue stops asking after one.
type StatusError struct {
	Status int
	Err    error
}

func (e *StatusError) Error() string { return e.Err.Error() }

func (e *StatusError) Unwrap() error { return e.Err }

// refusal wraps err as a StatusError when status is one.
func refusal(status int, err error) error {
	switch status {
	case 401, 403, 404:
		return &StatusError{Status: status, Err: err}
	}
	return err
}

// Budget is the dollars the fixer may spend on one package: every call
// reserves its most expensive outcome first and is refused when the
// reservation would pass the limit; the reply's actual cost is charged
// when it arrives.
type Budget struct {
	mu       sync.Mutex
	limit    float64
	spent    float64
	reserved float64
}

// NewBudget is a budget of limit dollars.
func NewBudget(limit float64) *Budget { return &Budget{limit: limit} }

// Reserve holds back amount, or says why the call may not be made.
func (b *Budget) Reserve(amount float64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.spent+b.reserved+amount > b.limit+1e-9 {
		return fmt.Errorf("the budget is spent: $%.2f of $%.2f used or held, and the next call may cost up to $%.2f (--max-cost raises it)",
			b.spent+b.reserved, b.limit, amount)
	}
	b.reserved += amount
	return nil
}

// Settle releases a reservation and charges what the call cost.
func (b *Budget) Settle(reserved, cost float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserved -= reserved
	if b.reserved < 0 {
		b.reserved = 0
	}
	b.spent += cost
}

// Spent is what the calls cost so far.
func (b *Budget) Spent() float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.spent
}

// Limit is the budget's size.
func (b *Budget) Limit() float64 { return b.limit }
