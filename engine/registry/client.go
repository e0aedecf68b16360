package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptide/uptide/internal/cache"
)

// Defaults from the design: 16 requests in flight, 10 s per attempt.
const (
	DefaultConcurrency    = 16
	DefaultAttemptTimeout = 10 * time.Second
)

const (
	// abbreviatedAccept asks for the install-time ("corgi") document, a
	// fraction of the full one; servers without it send the full JSON.
	abbreviatedAccept = "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*"
	fullAccept        = "application/json"
	userAgent         = "uptide"
)

// Options configures a Client. Only Config is required.
type Options struct {
	Config *Config
	// CacheDir is the cache root (packuments under registry/packuments,
	// tarballs under tarballs/); empty means cache.Root().
	CacheDir       string
	Concurrency    int           // requests in flight at once; default 16
	AttemptTimeout time.Duration // per attempt, to headers and between body reads; default 10 s
	HTTP           *http.Client  // default: a client pooling Concurrency connections per host
	// OnResponse is called once per HTTP response received, from any
	// goroutine, so a caller can show progress.
	OnResponse func()
}

// Client talks to the registries a Config names. It is safe for
// concurrent use; all its requests share one concurrency limit, and a
// host that refuses Uptide (401/403/405) is not asked again for the
// client's lifetime.
type Client struct {
	cfg        *Config
	http       *http.Client
	sem        chan struct{}
	timeout    time.Duration
	cacheRoot  string
	cacheErr   error
	onResponse func()
	retryDelay time.Duration

	mu      sync.Mutex
	blocked map[string]*Error    // host → its first refusal
	calls   map[string]*packCall // packument cache key → in flight or done

	fileLocks sync.Map // tarball cache path → chan struct{} (a lock that honours ctx)
}

// New returns a client. It does no I/O.
func New(opts Options) *Client {
	c := &Client{
		cfg:        opts.Config,
		http:       opts.HTTP,
		timeout:    opts.AttemptTimeout,
		cacheRoot:  opts.CacheDir,
		onResponse: opts.OnResponse,
		retryDelay: 250 * time.Millisecond,
		blocked:    map[string]*Error{},
		calls:      map[string]*packCall{},
	}
	n := opts.Concurrency
	if n <= 0 {
		n = DefaultConcurrency
	}
	c.sem = make(chan struct{}, n)
	if c.timeout <= 0 {
		c.timeout = DefaultAttemptTimeout
	}
	if c.http == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = n
		c.http = &http.Client{Transport: t}
	}
	if c.cacheRoot == "" {
		c.cacheRoot, c.cacheErr = cache.Root()
	}
	return c
}

// request is one logical GET; attempts are made by Client.get.
type request struct {
	pkg      string
	url      *url.URL
	registry string // whose credentials may apply, and named in refusals
	accept   string
	etag     string
	// probe marks a request whose refusal says nothing about the host
	// (the per-version endpoint, which some registries refuse for scoped
	// names): it is made once and never blocks the host.
	probe bool
}

// errRetry marks a failure worth a second attempt (a timeout, a 5xx, a
// broken connection).
type retryable struct{ err *Error }

func (r retryable) Error() string { return r.err.Error() }

// bodyError marks a failure while reading a response body, so a handler
// that passes it through still gets the attempt retried.
type bodyError struct{ err error }

func (b bodyError) Error() string { return b.err.Error() }
func (b bodyError) Unwrap() error { return b.err }

// get performs req with the client's limits: at most one retry, on a
// timeout, a 5xx or a broken connection. handle sees every response that
// is neither a refusal (401/403/405) nor a 5xx and reads what it needs
// from body; its *Error results are returned as they are.
func (c *Client) get(ctx context.Context, req request, handle func(resp *http.Response, body io.Reader) error) error {
	attempts := 2
	if req.probe {
		attempts = 1
	}
	for i := 0; ; i++ {
		if err := c.blockedError(req.pkg, req.url.Host); err != nil {
			return err
		}
		err := c.attempt(ctx, req, handle)
		var r retryable
		if !errors.As(err, &r) {
			return err
		}
		if i+1 >= attempts {
			return r.err
		}
		t := time.NewTimer(c.retryDelay)
		select {
		case <-ctx.Done():
			t.Stop()
			return c.newError(req, 0, "canceled", ctx.Err())
		case <-t.C:
		}
	}
}

func (c *Client) attempt(ctx context.Context, req request, handle func(*http.Response, io.Reader) error) error {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return c.newError(req, 0, "canceled", ctx.Err())
	}
	defer func() { <-c.sem }()

	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	var timedOut atomic.Bool
	timer := time.AfterFunc(c.timeout, func() {
		timedOut.Store(true)
		cancel()
	})
	defer timer.Stop()

	hr, err := http.NewRequestWithContext(actx, http.MethodGet, req.url.String(), nil)
	if err != nil {
		return c.newError(req, 0, "bad request URL "+redactURL(req.url.String()), nil)
	}
	hr.Header.Set("Accept", req.accept)
	hr.Header.Set("User-Agent", userAgent)
	if req.etag != "" {
		hr.Header.Set("If-None-Match", req.etag)
	}
	if auth := c.cfg.authHeader(req.url, req.registry); auth != "" {
		hr.Header.Set("Authorization", auth)
	}
	timeoutErr := func() error {
		return retryable{c.newError(req, 0, fmt.Sprintf("no answer within %s", c.timeout), context.DeadlineExceeded)}
	}
	resp, err := c.http.Do(hr)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return c.newError(req, 0, "canceled", ctx.Err())
		case timedOut.Load():
			return timeoutErr()
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return timeoutErr()
		}
		return retryable{c.newError(req, 0, "request failed", scrubError(err))}
	}
	defer resp.Body.Close()
	if c.onResponse != nil {
		c.onResponse()
	}
	switch st := resp.StatusCode; {
	case st == http.StatusUnauthorized || st == http.StatusForbidden || st == http.StatusMethodNotAllowed:
		e := c.newError(req, st, statusReason(st, c.nerfFor(req), c.cfg.authHeader(req.url, req.registry) != ""), nil)
		if !req.probe {
			c.block(req.url.Host, e)
		}
		return e
	case st >= 500:
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return retryable{c.newError(req, st, statusReason(st, "", false), nil)}
	}
	err = handle(resp, &stallReader{r: resp.Body, timer: timer, timeout: c.timeout})
	if err == nil {
		return nil
	}
	switch {
	case ctx.Err() != nil:
		return c.newError(req, 0, "canceled", ctx.Err())
	case timedOut.Load():
		return timeoutErr()
	}
	var be bodyError
	if errors.As(err, &be) {
		return retryable{c.newError(req, resp.StatusCode, "reading the response failed", be.err)}
	}
	var re *Error
	if errors.As(err, &re) {
		return re
	}
	return c.newError(req, resp.StatusCode, "bad response", err)
}

func (c *Client) newError(req request, status int, reason string, cause error) *Error {
	return &Error{Package: req.pkg, Host: req.url.Host, Status: status, Reason: reason, Err: cause}
}

// nerfFor is the .npmrc key prefix a user would set credentials under for
// req: the registry's, or the bare host for a tarball served elsewhere.
func (c *Client) nerfFor(req request) string {
	if u, err := url.Parse(req.registry); err == nil && strings.EqualFold(u.Host, req.url.Host) {
		return nerfDart(u)
	}
	return "//" + strings.ToLower(req.url.Host) + "/"
}

func (c *Client) block(host string, e *Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.blocked[host]; !ok {
		c.blocked[host] = e
	}
}

// blockedError fails a request to a host that already refused Uptide, with
// the refusal's status and reason, without asking it again.
func (c *Client) blockedError(pkg, host string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.blocked[host]; ok {
		return &Error{Package: pkg, Host: host, Status: e.Status, Reason: e.Reason}
	}
	return nil
}

// stallReader pushes the attempt's deadline back whenever data arrives, so
// the attempt timeout bounds silence, not the size of a slow download.
type stallReader struct {
	r       io.Reader
	timer   *time.Timer
	timeout time.Duration
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.timer.Reset(s.timeout)
	}
	if err != nil && err != io.EOF {
		err = bodyError{err}
	}
	return n, err
}

// Config is the configuration the client was built with.
func (c *Client) Config() *Config { return c.cfg }
