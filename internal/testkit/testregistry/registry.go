package testregistry

import (
	"context"
	"io/fs"
	"sync"
	"time"

	"github.com/uptide/uptide/internal/registryserver"
)

// Registry is a registryserver.Registry (its packages, documents and
// tarballs) behind a handler that logs every request and injects the faults
// a test asks for.
type Registry struct {
	*registryserver.Registry

	mu       sync.Mutex
	latency  time.Duration
	faults   map[string]*fault
	corrupt  map[string]bool // "name@version"
	token    string
	noPerVer bool
	log      []Request
	perPath  map[string]int
	perPkg   map[string]int

	done      chan struct{}
	closeOnce sync.Once
}

// Request is one request the registry received, for tests that assert on
// what a client asked for. The Authorization header itself is never kept.
type Request struct {
	Method string
	// Path is the decoded URL path, so "/@scope%2fname" reads "/@scope/name".
	Path string
	// RawPath is the path as the client escaped it.
	RawPath string
	Accept  string
	// Authorized says the request carried an Authorization header.
	Authorized bool
	// IfNoneMatch is the client's revalidation header, if any.
	IfNoneMatch string
	Status      int
}

type fault struct {
	status    int
	hang      bool
	misbehave *Fault
	remaining int // < 0: forever
}

// New loads every package in fsys as registryserver.New does; a nil fsys
// gives an empty registry for Add.
func New(fsys fs.FS) (*Registry, error) {
	inner, err := registryserver.New(fsys)
	if err != nil {
		return nil, err
	}
	return &Registry{
		Registry: inner,
		faults:   map[string]*fault{},
		corrupt:  map[string]bool{},
		perPath:  map[string]int{},
		perPkg:   map[string]int{},
		done:     make(chan struct{}),
	}, nil
}

// Start listens on 127.0.0.1 at a free port and serves until Close. It
// returns the base URL with a trailing slash.
func (r *Registry) Start() (string, error) { return r.StartAt("127.0.0.1:0") }

// StartAt is Start on a chosen address, for the command that real package
// managers are pointed at.
func (r *Registry) StartAt(addr string) (string, error) {
	return r.Registry.StartHandler(addr, r)
}

// Close releases hanging requests and stops the listener. It is safe to call
// more than once.
func (r *Registry) Close() {
	r.closeOnce.Do(func() { close(r.done) })
	r.Registry.Close()
}

// SetLatency delays every answer by d (0 turns it off). A client that gives
// up earlier releases the request at once.
func (r *Registry) SetLatency(d time.Duration) {
	r.mu.Lock()
	r.latency = d
	r.mu.Unlock()
}

// Fail makes every request for the package (document, version, tarball)
// answer status with a JSON error body, until Heal.
func (r *Registry) Fail(name string, status int) {
	r.setFault(name, &fault{status: status, remaining: -1})
}

// FailTimes answers status to the next n requests for the package, then
// serves normally again: a transient 5xx for retry tests.
func (r *Registry) FailTimes(name string, status, n int) {
	r.setFault(name, &fault{status: status, remaining: n})
}

// Hang makes every request for the package wait without answering until the
// client gives up or the registry is closed, until Heal.
func (r *Registry) Hang(name string) { r.setFault(name, &fault{hang: true, remaining: -1}) }

// HangTimes hangs the next n requests for the package, then serves normally:
// a timeout followed by a successful retry.
func (r *Registry) HangTimes(name string, n int) {
	r.setFault(name, &fault{hang: true, remaining: n})
}

// Heal removes a package's Fail, Hang or Misbehave.
func (r *Registry) Heal(name string) {
	r.mu.Lock()
	delete(r.faults, name)
	r.mu.Unlock()
}

func (r *Registry) setFault(name string, f *fault) {
	r.mu.Lock()
	r.faults[name] = f
	r.mu.Unlock()
}

// CorruptTarball serves, for name@version, a well-formed tarball whose bytes
// do not match the advertised dist.integrity and dist.shasum, so only an
// integrity check can notice.
func (r *Registry) CorruptTarball(name, ver string) {
	r.mu.Lock()
	r.corrupt[name+"@"+ver] = true
	r.mu.Unlock()
}

// RequireToken answers 401 to every package request whose Authorization
// header is not "Bearer <token>"; "" turns it off.
func (r *Registry) RequireToken(token string) {
	r.mu.Lock()
	r.token = token
	r.mu.Unlock()
}

// DisableVersionEndpoint answers 404 on GET /<name>/<version>, like the
// registries that only serve packuments.
func (r *Registry) DisableVersionEndpoint(disabled bool) {
	r.mu.Lock()
	r.noPerVer = disabled
	r.mu.Unlock()
}

// Requests is the number of requests received.
func (r *Registry) Requests() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.log)
}

// RequestsTo counts the requests for one decoded path, e.g. "/@scope/name"
// (which "/@scope%2fname" also counts toward) or "/left-pad/-/left-pad-1.3.0.tgz".
func (r *Registry) RequestsTo(path string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.perPath[path]
}

// RequestsFor counts every request concerning one package: its documents,
// versions and tarballs.
func (r *Registry) RequestsFor(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.perPkg[name]
}

// Log returns a copy of the requests received, in arrival order.
func (r *Registry) Log() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.log...)
}

// ResetRequests forgets the request counts and log.
func (r *Registry) ResetRequests() {
	r.mu.Lock()
	r.log = nil
	r.perPath = map[string]int{}
	r.perPkg = map[string]int{}
	r.mu.Unlock()
}

// wait sleeps d, returning false when the client or Close cut it short.
func (r *Registry) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-r.done:
		return false
	}
}
