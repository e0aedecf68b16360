package registry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// fakeClock is a Clock that moves only when a test advances it.
type fakeClock struct {
	mu     sync.Mutex
	start  time.Time
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at            time.Time
	f             func()
	fired, cancel bool
}

func newFakeClock() *fakeClock {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return &fakeClock{start: t0, now: t0}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		if t.fired || t.cancel {
			return false
		}
		t.cancel = true
		return true
	}
}

// Advance moves the clock and runs the timers that fall due, each in its
// own goroutine as time.AfterFunc does.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*fakeTimer
	for _, t := range c.timers {
		if !t.fired && !t.cancel && !t.at.After(c.now) {
			t.fired = true
			due = append(due, t)
		}
	}
	c.mu.Unlock()
	for _, t := range due {
		go t.f()
	}
}

func (c *fakeClock) Elapsed() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now.Sub(c.start)
}

// faultRig is a client on a fake clock against the fixture registry.
type faultRig struct {
	reg       *testregistry.Registry
	clock     *fakeClock
	client    *Client
	responses atomic.Int32
}

func newFaultRig(t *testing.T, opts ...func(*Options)) *faultRig {
	t.Helper()
	reg, err := testregistry.New(os.DirFS("../../fixtures/registry"))
	if err != nil {
		t.Fatal(err)
	}
	url, err := reg.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	rig := &faultRig{reg: reg, clock: newFakeClock()}
	rig.client = testClient(t, testConfig(t, "registry="+url), "", append([]func(*Options){func(o *Options) {
		o.Clock = rig.clock
		o.OnResponse = func() { rig.responses.Add(1) }
	}}, opts...)...)
	return rig
}

// step is one move of a scripted exchange: wait until cond holds (another
// goroutine makes it true), then advance the clock by d.
type step struct {
	cond func(*faultRig) bool
	d    time.Duration
}

func afterResponses(n int32) func(*faultRig) bool {
	return func(r *faultRig) bool { return r.responses.Load() >= n }
}

func afterRequests(name string, n int) func(*faultRig) bool {
	return func(r *faultRig) bool { return r.reg.RequestsFor(name) >= n }
}

// run calls f in the background and plays the script against it; it
// returns f's error once f ends.
func (r *faultRig) run(t *testing.T, f func() error, script ...step) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	for i, s := range script {
		// The bound is a deadlock guard, never a timing assertion.
		deadline := time.Now().Add(30 * time.Second)
		for !s.cond(r) {
			select {
			case err := <-done:
				t.Fatalf("the call ended before step %d of the script: %v", i, err)
			case <-time.After(2 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				t.Fatalf("step %d never became ready", i)
			}
		}
		r.clock.Advance(s.d)
	}
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the call did not end after its script")
		return nil
	}
}

func asError(t *testing.T, err error) *Error {
	t.Helper()
	var re *Error
	if !errors.As(err, &re) {
		t.Fatalf("want a *registry.Error, got %T %v", err, err)
	}
	if re.Package != "zod" || re.Host == "" {
		t.Errorf("the error should name the package and host: %+v", re)
	}
	return re
}

func TestFaultDripIsCutAtTheMinimumRate(t *testing.T) {
	rig := newFaultRig(t)
	rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.Drip, Chunk: 4, Interval: 20 * time.Millisecond})
	err := rig.run(t, func() error {
		_, err := rig.client.Packument(context.Background(), "zod", false)
		return err
	},
		step{afterResponses(1), DefaultAttemptTimeout},
		step{afterResponses(2), DefaultAttemptTimeout},
	)
	re := asError(t, err)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(re.Reason, "no complete answer within 10s") || !strings.Contains(re.Reason, "under the minimum of 1 KB/s") {
		t.Fatalf("reason %q", re.Reason)
	}
	if n := rig.reg.RequestsFor("zod"); n != 2 {
		t.Errorf("%d requests, want one retry", n)
	}
	if got := rig.clock.Elapsed(); got > 2*DefaultAttemptTimeout {
		t.Errorf("gave up after %s on the client's clock, want at most %s", got, 2*DefaultAttemptTimeout)
	}
}

func TestFaultHangAfterHeaders(t *testing.T) {
	rig := newFaultRig(t)
	rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.HangAfterHeaders})
	err := rig.run(t, func() error {
		_, err := rig.client.Packument(context.Background(), "zod", false)
		return err
	},
		step{afterResponses(1), DefaultAttemptTimeout},
		step{afterResponses(2), DefaultAttemptTimeout},
	)
	re := asError(t, err)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(re.Reason, "within 10s") {
		t.Fatalf("reason %q", re.Reason)
	}
	if got := rig.clock.Elapsed(); got != 2*DefaultAttemptTimeout {
		t.Errorf("gave up after %s on the client's clock, want %s", got, 2*DefaultAttemptTimeout)
	}
}

// The whole request, retry included, ends with its budget even when each
// attempt on its own would go on.
func TestFaultExchangeDeadline(t *testing.T) {
	t.Run("body", func(t *testing.T) {
		rig := newFaultRig(t, func(o *Options) { o.ExchangeTimeout = 5 * time.Second })
		rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.Drip, Chunk: 64, Interval: 20 * time.Millisecond})
		err := rig.run(t, func() error {
			_, err := rig.client.Packument(context.Background(), "zod", false)
			return err
		}, step{afterResponses(1), 5 * time.Second})
		re := asError(t, err)
		if !errors.Is(err, context.DeadlineExceeded) || re.Reason != "no complete answer within 5s" {
			t.Fatalf("reason %q", re.Reason)
		}
		if n := rig.reg.RequestsFor("zod"); n != 1 {
			t.Errorf("%d requests: a spent budget leaves no retry", n)
		}
	})
	t.Run("hang then retry", func(t *testing.T) {
		rig := newFaultRig(t, func(o *Options) { o.ExchangeTimeout = 15 * time.Second })
		rig.reg.Hang("zod")
		err := rig.run(t, func() error {
			_, err := rig.client.Packument(context.Background(), "zod", false)
			return err
		},
			step{afterRequests("zod", 1), DefaultAttemptTimeout},
			step{afterRequests("zod", 2), 5 * time.Second},
		)
		re := asError(t, err)
		if re.Reason != "no complete answer within 15s" {
			t.Fatalf("reason %q", re.Reason)
		}
		if got := rig.clock.Elapsed(); got != 15*time.Second {
			t.Errorf("ended at %s on the client's clock, want the 15s budget", got)
		}
	})
}

func TestFaultTruncatedBody(t *testing.T) {
	rig := newFaultRig(t)
	rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.Truncate})
	p, err := rig.client.Packument(context.Background(), "zod", false)
	re := asError(t, err)
	if p != nil || !strings.Contains(re.Reason, "reading the response failed") {
		t.Fatalf("got %v, reason %q", p, re.Reason)
	}
	if n := rig.reg.RequestsFor("zod"); n != 2 {
		t.Errorf("%d requests, want one retry", n)
	}
}

func TestFaultHTMLServerError(t *testing.T) {
	for _, status := range []int{500, 503} {
		rig := newFaultRig(t)
		rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.HTMLError, Status: status})
		_, err := rig.client.Packument(context.Background(), "zod", false)
		re := asError(t, err)
		if re.Status != status || !strings.Contains(re.Reason, "server error") || strings.Contains(err.Error(), "<") {
			t.Errorf("%d: %+v", status, re)
		}
		if n := rig.reg.RequestsFor("zod"); n != 2 {
			t.Errorf("%d: %d requests, want one retry", status, n)
		}
	}
}

func TestFaultRedirectLoop(t *testing.T) {
	rig := newFaultRig(t)
	rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.RedirectLoop})
	_, err := rig.client.Packument(context.Background(), "zod", false)
	re := asError(t, err)
	if !strings.Contains(re.Reason, "redirects in a loop") {
		t.Fatalf("reason %q", re.Reason)
	}
	if n := rig.reg.RequestsFor("zod"); n > 11 {
		t.Errorf("%d requests: a loop is not retried", n)
	}
}

func TestFaultWrongContentType(t *testing.T) {
	rig := newFaultRig(t)
	rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.WrongType})
	_, err := rig.client.Packument(context.Background(), "zod", false)
	re := asError(t, err)
	if !strings.Contains(re.Reason, "HTML page") || !strings.Contains(re.Reason, ".npmrc") {
		t.Fatalf("reason %q", re.Reason)
	}
	if n := rig.reg.RequestsFor("zod"); n != 1 {
		t.Errorf("%d requests: a page is not retried", n)
	}
}

func TestFaultHugeDocument(t *testing.T) {
	t.Run("streamed", func(t *testing.T) {
		rig := newFaultRig(t, func(o *Options) { o.MaxDocument = 1 << 20 })
		rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.Huge, Size: 3 << 20})
		_, err := rig.client.Packument(context.Background(), "zod", false)
		re := asError(t, err)
		if re.Reason != "the registry's document is larger than 1 MB, the limit for one package's metadata" {
			t.Fatalf("reason %q", re.Reason)
		}
		if n := rig.reg.RequestsFor("zod"); n != 1 {
			t.Errorf("%d requests: an oversized document is not retried", n)
		}
	})
	t.Run("declared", func(t *testing.T) {
		rig := newFaultRig(t, func(o *Options) { o.MaxDocument = 100 })
		// Drip declares the whole length at once: refused on the
		// headers, without waiting for a byte of the body.
		rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.Drip, Interval: time.Hour})
		_, err := rig.client.Packument(context.Background(), "zod", false)
		if re := asError(t, err); !strings.Contains(re.Reason, "larger than 100 bytes") {
			t.Fatalf("reason %q", re.Reason)
		}
	})
	t.Run("within the cap", func(t *testing.T) {
		rig := newFaultRig(t)
		rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.Huge, Size: 3 << 20})
		p, err := rig.client.Packument(context.Background(), "zod", false)
		if err != nil {
			t.Fatal(err)
		}
		if p.DistTags["latest"] != "4.1.12" || p.Versions["4.1.12"].Dist.Tarball == "" || len(p.Versions) < 1000 {
			t.Errorf("latest %q, %d versions", p.DistTags["latest"], len(p.Versions))
		}
	})
}

func TestFaultTarballLongerThanDeclared(t *testing.T) {
	rig := newFaultRig(t)
	rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.TarballLonger})
	pkg, err := rig.client.Fetch(context.Background(), "zod", "4.1.12")
	if err == nil {
		pkg.Remove()
		t.Fatal("a tarball cut at its declared length passed verification")
	}
	var re *Error
	if !errors.As(err, &re) || !strings.Contains(re.Reason, "integrity check failed") || re.Package != "zod@4.1.12" {
		t.Fatalf("got %v", err)
	}
}

// A tarball that drips is cut like a document: 10 s per attempt, one retry.
func TestFaultDrippingTarball(t *testing.T) {
	rig := newFaultRig(t)
	rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.Drip, Chunk: 4, Interval: 20 * time.Millisecond, TarballOnly: true})
	err := rig.run(t, func() error {
		_, err := rig.client.Fetch(context.Background(), "zod", "4.1.12")
		return err
	},
		// The version manifest answers at once; then the tarball, twice.
		step{afterResponses(2), DefaultAttemptTimeout},
		step{afterResponses(3), DefaultAttemptTimeout},
	)
	var re *Error
	if !errors.As(err, &re) || re.Package != "zod@4.1.12" || !strings.Contains(re.Reason, "no complete answer within 10s") {
		t.Fatalf("got %v", err)
	}
	if n := rig.reg.RequestsTo("/zod/-/zod-4.1.12.tgz"); n != 2 {
		t.Errorf("%d tarball requests, want one retry", n)
	}
	if got := rig.clock.Elapsed(); got != 2*DefaultAttemptTimeout {
		t.Errorf("gave up after %s on the client's clock, want %s", got, 2*DefaultAttemptTimeout)
	}
}

func TestFaultEndlessTarball(t *testing.T) {
	rig := newFaultRig(t, func(o *Options) { o.MaxTarball = 1 << 20 })
	rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.TarballEndless})
	_, err := rig.client.Fetch(context.Background(), "zod", "4.1.12")
	var re *Error
	if !errors.As(err, &re) || re.Reason != "the tarball is larger than 1 MB, the limit for one download" || re.Package != "zod@4.1.12" {
		t.Fatalf("got %v", err)
	}
	if n := rig.reg.RequestsTo("/zod/-/zod-4.1.12.tgz"); n != 1 {
		t.Errorf("%d tarball requests: an oversized tarball is not retried", n)
	}
}

// What a client keeps of decoded documents is bounded per document and for
// the run, whatever their size on the wire.
func TestFaultKeptMemoryBudget(t *testing.T) {
	t.Run("one document", func(t *testing.T) {
		rig := newFaultRig(t, func(o *Options) { o.MaxKept = 1 << 20 })
		rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.Huge, Size: 3 << 20})
		_, err := rig.client.Packument(context.Background(), "zod", false)
		re := asError(t, err)
		if re.Reason != "the registry's document takes more than 1 MB once decoded, the limit for one package's metadata" {
			t.Fatalf("reason %q", re.Reason)
		}
		if used := rig.client.kept.used.Load(); used != 0 {
			t.Errorf("a refused document still holds %d bytes of the budget", used)
		}
	})
	t.Run("the run", func(t *testing.T) {
		rig := newFaultRig(t, func(o *Options) { o.MaxKeptTotal = 3 << 20 })
		rig.reg.Misbehave("zod", testregistry.Fault{Kind: testregistry.Huge, Size: 3 << 20})
		if _, err := rig.client.Packument(context.Background(), "zod", false); err != nil {
			t.Fatal(err)
		}
		_, err := rig.client.Packument(context.Background(), "zod", true) // a second document: the full one
		re := asError(t, err)
		if re.Reason != "not kept: the run's package documents already take the 3 MB Uptide allows them in memory" {
			t.Fatalf("reason %q", re.Reason)
		}
		if _, err := rig.client.Packument(context.Background(), "react", false); err != nil {
			t.Errorf("a small document should still fit: %v", err)
		}
	})
}

// A request's budget starts when it gets a request slot: waiting behind a
// hanging registry's requests does not use it up.
func TestFaultBudgetStartsWithTheRequest(t *testing.T) {
	rig := newFaultRig(t, func(o *Options) { o.Concurrency = 1; o.ExchangeTimeout = 5 * time.Second })
	rig.reg.Hang("zod")
	zod := make(chan error, 1)
	go func() {
		_, err := rig.client.Packument(context.Background(), "zod", false)
		zod <- err
	}()
	waitUntil(t, func() bool { return rig.reg.RequestsFor("zod") == 1 })
	react := make(chan error, 1)
	go func() {
		_, err := rig.client.Packument(context.Background(), "react", false)
		react <- err
	}()
	time.Sleep(20 * time.Millisecond) // lets react queue for the slot; not a timing assertion
	rig.clock.Advance(5 * time.Second)
	if err := <-zod; !strings.Contains(fmt.Sprint(err), "no complete answer within 5s") {
		t.Fatalf("zod: %v", err)
	}
	if err := <-react; err != nil {
		t.Fatalf("react waited 5s for the slot, then: %v", err)
	}
}

// waitUntil polls a condition another goroutine makes true; the bound is a
// deadlock guard, not a timing assertion.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for range 3000 {
		if cond() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("condition never became true")
}
