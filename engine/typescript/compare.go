package typescript

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"time"
)

// Relation is what the checker says about the same path in two versions.
type Relation struct {
	// AToB: the old type is assignable to the new one.
	AToB bool `json:"aToB"`
	// BToA: the new type is assignable to the old one.
	BToA bool `json:"bToA"`
	// Overloads compares a callable (function, method, function-typed
	// property) parameter by parameter, set when both sides have the same
	// number of non-generic overloads.
	Overloads []OverloadRelation `json:"overloads,omitempty"`
}

// OverloadRelation relates one overload's parameters (by position, up to
// the shorter list) and return type.
type OverloadRelation struct {
	Params []Relation `json:"params"`
	Return Relation   `json:"return"`
}

// SkipReason says why the checker gave no verdict on a path it was asked
// about.
type SkipReason string

// The reasons a path was not compared.
const (
	// SkipBudget: the question ran over the per-question time budget.
	SkipBudget SkipReason = "budget"
	// SkipBudgetFamily: not asked, because the same two declarations seen
	// through another container (an inherited member) ran over its time or
	// memory budget; the questions differ only in their `this`.
	SkipBudgetFamily SkipReason = "budget-family"
	// SkipLimit: the checker gave up on its own (five million type
	// instantiations, or a comparison too complex or too deep) and answered
	// with a guess.
	SkipLimit SkipReason = "limit"
	// SkipMemory: the worker asking it ran out of its heap.
	SkipMemory SkipReason = "memory"
	// SkipDeadline: the comparison's total time ran out before it was asked.
	SkipDeadline SkipReason = "deadline"
	// SkipCrash: the worker asking it died otherwise.
	SkipCrash SkipReason = "crash"
	// SkipUnresolved: the types name a dependency that is not installed,
	// which the checker relates like any, and it said they relate: a guess.
	SkipUnresolved SkipReason = "unresolved"
)

// CompareBudgets bound one comparison. The checker cannot be interrupted
// from inside, so the driver asks in worker threads and stops a worker whose
// question runs over; a zero field takes its default.
type CompareBudgets struct {
	// PerQuestion bounds one question (the relation of one pair of types,
	// answered for every path that resolves to the pair). Questions that end
	// at all take milliseconds; the rare one that does not takes minutes.
	PerQuestion time.Duration
	// Total bounds the whole comparison, the programs' construction included.
	Total time.Duration
	// Workers is how many questions are asked at once, each worker with its
	// own program over both versions.
	Workers int
	// WorkerHeapMB is a worker's heap limit; a worker that reaches it is
	// stopped and its question skipped.
	WorkerHeapMB int
	// RecycleHeapMB: a worker whose heap has grown past it is replaced by a
	// fresh one after its question, which frees the checker's caches.
	RecycleHeapMB int
}

// Default budgets: a question that ends at all takes well under a second
// (zod 3 → 4: p99 36 ms, max 0.5 s over 945 questions), so 5 s stops only
// the pathological ones.
const (
	DefaultPerQuestion   = 5 * time.Second
	DefaultCompareTotal  = 30 * time.Second
	DefaultWorkerHeapMB  = 1536
	DefaultRecycleHeapMB = 768
)

// WithDefaults fills the zero fields with the defaults.
func (b CompareBudgets) WithDefaults() CompareBudgets {
	if b.PerQuestion <= 0 {
		b.PerQuestion = DefaultPerQuestion
	}
	if b.Total <= 0 {
		b.Total = DefaultCompareTotal
	}
	if b.Workers <= 0 {
		b.Workers = min(2, runtime.NumCPU())
	}
	if b.WorkerHeapMB <= 0 {
		b.WorkerHeapMB = DefaultWorkerHeapMB
	}
	if b.RecycleHeapMB <= 0 {
		b.RecycleHeapMB = min(DefaultRecycleHeapMB, b.WorkerHeapMB/2)
	}
	return b
}

// CompareProgress counts the asked paths that have a type on both sides:
// Done of Total answered or skipped, Skipped of them without a verdict.
type CompareProgress struct {
	Done    int `json:"done"`
	Total   int `json:"total"`
	Skipped int `json:"skipped"`
}

// CompareRequest asks about Paths in two extracted package directories.
type CompareRequest struct {
	PkgA, PkgB string
	Paths      []string
	Budgets    CompareBudgets
	// Progress, when set, is called as questions are answered.
	Progress func(CompareProgress)
}

// Comparison is the checker's answer. Every asked path is in exactly one of
// Relations and Skipped, or in neither when it is missing on either side or
// has no type (namespaces, call signatures).
type Comparison struct {
	Relations map[string]Relation
	Skipped   map[string]SkipReason
	// Questions is how many distinct pairs of types the paths resolved to.
	Questions int
	// Budgets are the ones applied, defaults filled in.
	Budgets CompareBudgets
}

// Compare asks the checker, in programs holding both versions, whether each
// path's type in PkgA is assignable to its type in PkgB and the other way
// round, within the budgets.
func (a *Adapter) Compare(ctx context.Context, req CompareRequest) (*Comparison, error) {
	paths := req.Paths
	if paths == nil {
		paths = []string{}
	}
	b := req.Budgets.WithDefaults()
	var out struct {
		Relations map[string]Relation   `json:"relations"`
		Skipped   map[string]SkipReason `json:"skipped"`
		Units     int                   `json:"units"`
	}
	params := map[string]any{
		"pkgA": req.PkgA, "pkgB": req.PkgB, "paths": paths,
		"budgets": map[string]int{
			"unitBudgetMs":  int(b.PerQuestion / time.Millisecond),
			"totalBudgetMs": int(b.Total / time.Millisecond),
			"workers":       b.Workers,
			"workerHeapMb":  b.WorkerHeapMB,
			"recycleHeapMb": b.RecycleHeapMB,
		},
	}
	var onProgress func(json.RawMessage)
	if req.Progress != nil {
		onProgress = func(raw json.RawMessage) {
			var p CompareProgress
			if json.Unmarshal(raw, &p) == nil {
				req.Progress(p)
			}
		}
	}
	subject := req.PkgA + " and " + req.PkgB
	if err := a.callProgress(ctx, "compare", params, subject, &out, onProgress); err != nil {
		return nil, err
	}
	c := &Comparison{Relations: out.Relations, Skipped: out.Skipped, Questions: out.Units, Budgets: b}
	if c.Relations == nil {
		c.Relations = map[string]Relation{}
	}
	if c.Skipped == nil {
		c.Skipped = map[string]SkipReason{}
	}
	asked := make(map[string]bool, len(paths))
	for _, p := range paths {
		asked[p] = true
	}
	for p := range c.Relations {
		if _, dup := c.Skipped[p]; dup || !asked[p] {
			return nil, &DriverError{Subject: subject, Method: "compare", Code: CodeMalformed, Message: fmt.Sprintf("answered about %q, which was not asked or was also skipped", p)}
		}
	}
	for p := range c.Skipped {
		if !asked[p] {
			return nil, &DriverError{Subject: subject, Method: "compare", Code: CodeMalformed, Message: fmt.Sprintf("skipped %q, which was not asked", p)}
		}
	}
	return c, nil
}

// CompareTypes is Compare with the default budgets, for callers that only
// need the verdicts: a skipped path is absent, as one without a type is.
func (a *Adapter) CompareTypes(ctx context.Context, pkgA, pkgB string, paths []string) (map[string]Relation, error) {
	c, err := a.Compare(ctx, CompareRequest{PkgA: pkgA, PkgB: pkgB, Paths: paths})
	if err != nil {
		return nil, err
	}
	return c.Relations, nil
}
