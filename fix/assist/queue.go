package assist

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/fix/unidiff"
)

// Status is where one site of the queue is.
type Status int

// The statuses of a site (tui/review shows these).
const (
	// Waiting: no proposal asked yet.
	Waiting Status = iota
	// Proposing: a call, a retry or the validation of an edit is under way.
	Proposing
	// Valid: a proposal passed validation and waits for a decision.
	Valid
	// Invalid: no attempt validated (Reason says why).
	Invalid
	Accepted
	Rejected
	Skipped
	// Resolved: an accepted patch already removed the site's errors; no
	// call was made for it.
	Resolved
	// Manual: no provider, or the budget is spent: nobody proposes.
	Manual
)

func (s Status) String() string {
	return [...]string{"waiting", "proposing", "validated", "not valid", "accepted", "rejected", "skipped", "resolved", "manual"}[s]
}

// Item is one site of the queue and what the fixer made of it.
type Item struct {
	Site        Site
	Status      Status
	Diff        string
	Explanation string
	// Reason says why the last attempt was not kept, why the site is
	// manual, or which accepted patch resolved it.
	Reason string
	// Attempts counts the calls made for the site; History holds them.
	Attempts int
	Cost     float64
	History  []Attempt
	// ResolvedBy is the id of the accepted site whose patch removed this
	// site's errors.
	ResolvedBy string
}

// Concurrency is how many sites the queue works on at once.
const Concurrency = 2

// NoProviderNote is what the queue says of every site when no provider
// is configured.
const NoProviderNote = "no provider configured: every site is manual, no calls were made"

// Queue proposes patches for a fix run's sites in the background, two at
// a time, starting at the focused site and going on down the list, and
// keeps the decisions made on them. Every method returns at once;
// Changed says when to look again.
type Queue struct {
	f      *Fixer
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	entries []*entry
	byID    map[string]*entry
	focus   int
	running int
	jobs    []*job // retries and edits, before the waiting sites
	closed  bool

	changed chan struct{}
	wake    chan struct{}

	persist   func([]Item)
	persistMu sync.Mutex
	// refused is why the provider is not asked again ("" while it is).
	refused string
}

type entry struct {
	Item
	after string
	gone  []model.Diagnostic
	// gen changes whenever the user decides on the site: a proposal that
	// arrives for an older generation does not overwrite the decision.
	gen  int
	prev Status // the status before Resolved
}

type job struct {
	e    *entry
	gen  int
	kind int // propose, retry, replace
	hint string
	diff string
}

const (
	proposeJob = iota
	retryJob
	replaceJob
)

// NewQueue starts the queue of sites; f nil (or without a Provider)
// makes every site manual. The queue works until ctx ends or Close.
func NewQueue(ctx context.Context, sites []Site, f *Fixer) *Queue {
	q, _ := NewQueueWith(ctx, sites, f, Options{})
	return q
}

// Saved is a patch accepted in an earlier review of the same upgrade.
type Saved struct {
	ID          string `json:"id"`
	Diff        string `json:"diff"`
	Explanation string `json:"explanation,omitempty"`
}

// Options are a queue's memory of earlier reviews.
type Options struct {
	// Saved patches are validated again (no call) before any proposal is
	// asked; those that still validate and apply are accepted.
	Saved []Saved
	// Persist, when set, is given the accepted items after every
	// decision, so a review left before its hand-off can resume.
	Persist func(accepted []Item)
}

// NewQueueWith is NewQueue with the saved patches of an earlier review
// restored first; it says how many were accepted again.
func NewQueueWith(ctx context.Context, sites []Site, f *Fixer, o Options) (*Queue, int) {
	if f != nil && f.Budget == nil {
		f.Budget = NewBudget(DefaultMaxCost)
	}
	ctx, cancel := context.WithCancel(ctx)
	q := &Queue{f: f, ctx: ctx, cancel: cancel, byID: map[string]*entry{}, persist: o.Persist,
		changed: make(chan struct{}, 1), wake: make(chan struct{}, 1)}
	for _, s := range sites {
		e := &entry{Item: Item{Site: s}}
		switch {
		case s.Manual != "":
			e.Status, e.Reason = Manual, s.Manual
		case !q.hasProvider():
			e.Status, e.Reason = Manual, NoProviderNote
		}
		q.entries = append(q.entries, e)
		q.byID[s.ID] = e
	}
	restored := q.restore(o.Saved)
	if q.hasProvider() {
		q.wg.Add(1)
		go q.dispatch()
	}
	return q, restored
}

// restore accepts the saved patches that still validate, in queue
// order, without a call.
func (q *Queue) restore(saved []Saved) int {
	if q.f == nil || q.f.Validator == nil || q.f.Read == nil || len(saved) == 0 {
		return 0
	}
	byID := map[string]Saved{}
	for _, s := range saved {
		byID[s.ID] = s
	}
	n := 0
	for _, e := range q.entries {
		s, ok := byID[e.Site.ID]
		if !ok || q.ctx.Err() != nil {
			continue
		}
		v, err := Validate(q.ctx, e.Site, s.Diff, q.f.Read, q.f.Validator)
		if err != nil || !v.OK {
			continue
		}
		q.mu.Lock()
		if e.Status != Resolved {
			e.Diff, e.Explanation, e.after, e.gone, e.Status = v.Diff, s.Explanation, v.After, v.Compiled.Gone, Valid
			if q.take(e) {
				n++
			}
			q.resolve()
		}
		q.mu.Unlock()
	}
	return n
}

// save hands the accepted items to Persist, one save at a time.
func (q *Queue) save() {
	if q.persist == nil {
		return
	}
	q.persistMu.Lock()
	defer q.persistMu.Unlock()
	var acc []Item
	for _, it := range q.Items() {
		if it.Status == Accepted {
			acc = append(acc, it)
		}
	}
	q.persist(acc)
}

func (q *Queue) hasProvider() bool { return q.f != nil && q.f.Provider != nil }

// Close stops the work under way and waits for it.
func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cancel()
	q.wg.Wait()
}

// Items are the sites in order, as they are now.
func (q *Queue) Items() []Item {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]Item, len(q.entries))
	for i, e := range q.entries {
		out[i] = e.Item
		out[i].History = append([]Attempt(nil), e.History...)
	}
	return out
}

// Provider names the model, "" without one.
func (q *Queue) Provider() string {
	if !q.hasProvider() {
		return ""
	}
	return q.f.Provider.Name()
}

// Spent is what the calls cost, in dollars.
func (q *Queue) Spent() float64 {
	if !q.hasProvider() || q.f.Budget == nil {
		return 0
	}
	return q.f.Budget.Spent()
}

// Budget is the most the calls may cost, in dollars.
func (q *Queue) Budget() float64 {
	if !q.hasProvider() || q.f.Budget == nil {
		return 0
	}
	return q.f.Budget.Limit()
}

// Changed receives a value after any item changed.
func (q *Queue) Changed() <-chan struct{} { return q.changed }

// Focus moves the proposals ahead of the site id.
func (q *Queue) Focus(id string) {
	q.mu.Lock()
	for i, e := range q.entries {
		if e.Site.ID == id {
			q.focus = i
		}
	}
	q.mu.Unlock()
	q.poke()
}

// Accept takes a validated proposal; the sites whose errors the accepted
// patches remove are resolved, without a call.
func (q *Queue) Accept(id string) {
	q.mu.Lock()
	if e := q.byID[id]; e != nil && e.Status == Valid {
		q.take(e)
		q.resolve()
	}
	q.mu.Unlock()
	q.notify()
	q.save()
}

// take accepts e when its patch still applies after the accepted ones
// of its file, in the order fix applies them (the queue's); otherwise e
// is not valid and says which patch it conflicts with. q.mu is held.
func (q *Queue) take(e *entry) bool {
	e.gen++
	if err := q.stacks(e); err != nil {
		e.Status, e.Reason = Invalid, err.Error()
		return false
	}
	e.Status = Accepted
	return true
}

// stacks applies the accepted patches of e's file and e's, in queue
// order, as fix will: exactly, or moved to the one place a hunk's old
// block occurs.
func (q *Queue) stacks(e *entry) error {
	if q.f == nil || q.f.Read == nil {
		return nil
	}
	content, err := q.f.Read(e.Site.File)
	if err != nil {
		return err
	}
	for _, o := range q.entries {
		if o.Site.File != e.Site.File || (o != e && o.Status != Accepted) {
			continue
		}
		next, err := applyMoved(content, o.Diff, o.Site.File)
		if err != nil {
			if o == e {
				return fmt.Errorf("it no longer applies with the accepted patches of %s: %v", e.Site.File, err)
			}
			return fmt.Errorf("the accepted patch of %s:%d no longer applies with this one: %v", o.Site.File, o.Site.Line, err)
		}
		content = next
	}
	return nil
}

func applyMoved(content, diff, file string) (string, error) {
	hunks, err := unidiff.Parse(diff, file)
	if err != nil {
		return "", err
	}
	next, _, _, err := unidiff.ApplyMoved(content, hunks)
	return next, err
}

// AcceptRule accepts every validated proposal of rule and says how many.
func (q *Queue) AcceptRule(rule string) int {
	q.mu.Lock()
	n := 0
	for _, e := range q.entries {
		// A site an earlier patch of the rule resolved is no longer valid.
		if e.Site.Rule == rule && e.Status == Valid && q.take(e) {
			n++
			q.resolve()
		}
	}
	q.mu.Unlock()
	q.notify()
	q.save()
	return n
}

// Reject sets the site's proposal aside; an accepted one is taken back.
func (q *Queue) Reject(id string) { q.decide(id, Rejected) }

// Skip leaves the site for later, to the user.
func (q *Queue) Skip(id string) { q.decide(id, Skipped) }

func (q *Queue) decide(id string, s Status) {
	q.mu.Lock()
	if e := q.byID[id]; e != nil && e.Status != Resolved {
		was := e.Status
		e.Status = s
		e.gen++
		if was == Accepted {
			q.resolve()
		}
	}
	q.mu.Unlock()
	q.notify()
	q.poke()
	q.save()
}

// Retry asks once more for the site, with the user's hint and why the
// last attempt was not kept.
func (q *Queue) Retry(id, hint string) {
	q.mu.Lock()
	e := q.byID[id]
	q.mu.Unlock()
	if !q.hasProvider() || e == nil || e.Site.Manual != "" {
		return
	}
	q.enqueue(id, &job{kind: retryJob, hint: hint})
}

// Replace validates an edited diff of the site, as a proposal, without a
// call.
func (q *Queue) Replace(id, diff string) {
	if q.f == nil || q.f.Validator == nil {
		return
	}
	q.enqueue(id, &job{kind: replaceJob, diff: diff})
}

func (q *Queue) enqueue(id string, j *job) {
	q.mu.Lock()
	e := q.byID[id]
	if e == nil || e.Status == Resolved {
		q.mu.Unlock()
		return
	}
	was := e.Status
	e.gen++
	e.Status, e.Reason = Proposing, ""
	j.e, j.gen = e, e.gen
	if was == Accepted {
		q.resolve()
	}
	switch {
	case q.hasProvider():
		q.jobs = append(q.jobs, j)
	case !q.closed:
		// Without a provider nothing dispatches; an edit is still
		// validated.
		q.running++
		q.wg.Add(1)
		go q.work(j)
	}
	q.mu.Unlock()
	q.notify()
	q.poke()
	if was == Accepted {
		q.save()
	}
}

// Files are the site's file before and after its current diff.
func (q *Queue) Files(id string) (before, after string, err error) {
	q.mu.Lock()
	e := q.byID[id]
	if e == nil {
		q.mu.Unlock()
		return "", "", fmt.Errorf("no site %s in the queue", id)
	}
	site, diff, cached := e.Site, e.Diff, e.after
	q.mu.Unlock()
	if q.f == nil || q.f.Read == nil {
		return "", "", errors.New("the upgraded files are not readable here")
	}
	before, err = q.f.Read(site.File)
	if err != nil {
		return "", "", err
	}
	if cached != "" {
		return before, cached, nil
	}
	if diff == "" {
		return before, before, nil
	}
	if hunks, perr := unidiff.Parse(diff, site.File); perr == nil {
		if a, aerr := unidiff.Apply(before, hunks); aerr == nil {
			return before, a, nil
		}
	}
	// A proposal that does not apply is edited from the file as it is.
	return before, before, nil
}

// diagKey is a diagnostic as model.Without counts it: file, code and
// message, without its position.
type diagKey struct {
	file, message string
	code          int
}

func keyOf(d model.Diagnostic) diagKey { return diagKey{d.File, d.Message, d.Code} }

// resolve marks the open sites whose errors the accepted patches removed
// (as multisets: an error two sites share is removed once per patch), and
// gives back the ones a taken-back patch no longer covers. q.mu is held.
func (q *Queue) resolve() {
	pool := map[diagKey]int{}
	for _, e := range q.entries {
		if e.Status == Resolved {
			e.Status, e.ResolvedBy, e.Reason = e.prev, "", ""
			if e.Status == Proposing {
				e.Status = Waiting // its proposal was dropped when it resolved
			}
		}
	}
	var accepted []*entry
	for _, e := range q.entries {
		if e.Status != Accepted {
			continue
		}
		accepted = append(accepted, e)
		for _, d := range e.gone {
			pool[keyOf(d)]++
		}
		for _, d := range e.Site.Errors {
			pool[keyOf(d)]--
		}
	}
	// A rejected or skipped site is resolved too when an accepted patch
	// removed its errors: the report would otherwise leave it to the user
	// while fix verifies.
	for _, e := range q.entries {
		if e.Status == Accepted {
			continue
		}
		need := map[diagKey]int{}
		for _, d := range e.Site.Errors {
			need[keyOf(d)]++
		}
		covered := len(need) > 0
		for k, n := range need {
			if pool[k] < n {
				covered = false
			}
		}
		if !covered {
			continue
		}
		for k, n := range need {
			pool[k] -= n
		}
		by := ""
		for _, a := range accepted {
			if len(model.Without(e.Site.Errors, a.gone)) < len(e.Site.Errors) {
				by = a.Site.ID
				break
			}
		}
		e.prev, e.Status, e.ResolvedBy = e.Status, Resolved, by
		e.Reason = fmt.Sprintf("resolved by the accepted patch of %s: its errors are gone, no call was made", by)
		if e.prev != Waiting && e.prev != Manual {
			e.Reason = fmt.Sprintf("resolved by the accepted patch of %s: its errors are gone", by)
		}
		e.gen++
	}
}

func (q *Queue) notify() {
	select {
	case q.changed <- struct{}{}:
	default:
	}
}

func (q *Queue) poke() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// dispatch starts work while fewer than Concurrency run: the user's
// retries and edits first, then waiting sites from the focus on.
func (q *Queue) dispatch() {
	defer q.wg.Done()
	for {
		q.mu.Lock()
		started := false
		for q.running < Concurrency && !q.closed {
			j := q.next()
			if j == nil {
				break
			}
			q.running++
			q.wg.Add(1)
			go q.work(j)
			started = true
		}
		q.mu.Unlock()
		if started {
			q.notify()
		}
		select {
		case <-q.ctx.Done():
			return
		case <-q.wake:
		}
	}
}

// next is the next job, nil when there is none. q.mu is held.
func (q *Queue) next() *job {
	for len(q.jobs) > 0 {
		j := q.jobs[0]
		q.jobs = q.jobs[1:]
		if j.gen == j.e.gen {
			return j
		}
	}
	if q.refused != "" {
		return nil
	}
	n := len(q.entries)
	for k := 0; k < n; k++ {
		e := q.entries[(q.focus+k)%n]
		if e.Status != Waiting {
			continue
		}
		e.Status = Proposing
		return &job{e: e, gen: e.gen, kind: proposeJob}
	}
	return nil
}

// work runs one job and records its outcome, unless the user decided on
// the site meanwhile (its cost and attempts are recorded all the same).
func (q *Queue) work(j *job) {
	defer q.wg.Done()
	q.mu.Lock()
	site, attempts := j.e.Site, j.e.Attempts
	var prev *Feedback
	if n := len(j.e.History); n > 0 {
		last := j.e.History[n-1]
		prev = &Feedback{Diff: last.Diff, Reason: last.Reason}
	}
	q.mu.Unlock()

	var p Proposal
	var err error
	switch j.kind {
	case proposeJob:
		p, err = q.f.Propose(q.ctx, site, attempts+1, MaxAttempts, "", nil)
	case retryJob:
		p, err = q.f.Propose(q.ctx, site, attempts+1, 1, j.hint, prev)
	case replaceJob:
		var v Validation
		v, err = Validate(q.ctx, site, j.diff, q.f.Read, q.f.Validator)
		p = Proposal{Valid: v.OK, Diff: v.Diff, After: v.After, Compiled: v.Compiled, Reason: v.Reason,
			Explanation: "your edit, validated like a proposal"}
		if p.Diff == "" {
			p.Diff = j.diff
		}
	}

	q.mu.Lock()
	e := j.e
	q.running--
	e.Attempts += len(p.Attempts)
	e.History = append(e.History, p.Attempts...)
	e.Cost += p.Cost
	current := j.gen == e.gen && e.Status == Proposing
	switch {
	case !current:
	case err != nil && q.ctx.Err() != nil:
		e.Status = Waiting
	case err != nil:
		e.Status, e.Reason = Invalid, "the validation could not run: "+err.Error()
	case p.Manual:
		e.Status, e.Reason = Manual, p.Reason
	case p.Refused:
		e.Status, e.Reason = Manual, p.Reason
		q.refuse(p.Reason)
	default:
		e.Diff, e.Explanation, e.Reason, e.after = p.Diff, p.Explanation, p.Reason, p.After
		e.gone = nil
		if p.Compiled != nil {
			e.gone = p.Compiled.Gone
		}
		e.Status = Invalid
		if p.Valid {
			e.Status = Valid
		}
	}
	q.mu.Unlock()
	q.notify()
	q.poke()
}

// refuse stops the proposals: the provider refused what every call
// sends (the key, the model, the URL), so the waiting sites are manual
// and no further call is made. q.mu is held.
func (q *Queue) refuse(reason string) {
	if q.refused != "" {
		return
	}
	q.refused = reason
	for _, e := range q.entries {
		if e.Status == Waiting {
			e.Status, e.Reason = Manual, "no call was made: "+reason
		}
	}
}
