package registry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/uptide/uptide/internal/safeurl"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/uptide/uptide/internal/cache"
)

// Defaults from the design: 16 requests in flight, 10 s per attempt. The
// rest bound what a registry that answers badly can cost: a document must
// arrive whole within a minute and a tarball within five, every 10 s window
// of a body must bring at least 1 KB, and nothing larger than the size caps
// is read.
const (
	DefaultConcurrency     = 16
	DefaultAttemptTimeout  = 10 * time.Second
	DefaultExchangeTimeout = 60 * time.Second
	DefaultTarballTimeout  = 5 * time.Minute
	DefaultMinRate         = 1 << 10 // bytes per second
	DefaultMaxDocument     = 128 << 20
	DefaultMaxTarball      = 512 << 20
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
	AttemptTimeout time.Duration // per attempt, to headers, and the window MinRate is measured over; default 10 s
	// ExchangeTimeout bounds one document request whole, retry included:
	// connecting, headers and body; default 60 s. TarballTimeout is the
	// same for a tarball; default 5 min.
	ExchangeTimeout time.Duration
	TarballTimeout  time.Duration
	// MinRate is the slowest body accepted, in bytes per second, averaged
	// over each AttemptTimeout window; default 1 KB/s.
	MinRate int64
	// MaxDocument and MaxTarball cap the bytes read for one document or
	// one tarball; defaults 128 MB and 512 MB.
	MaxDocument int64
	MaxTarball  int64
	// MaxKept and MaxKeptTotal cap the memory decoded documents take, one
	// and all of the client's (it keeps them for its lifetime), as
	// estimated while decoding; the total is MaxKeptShare for each
	// document asked when that is more. Defaults 64 MB, 128 MB and 512 KB.
	MaxKept      int64
	MaxKeptTotal int64
	MaxKeptShare int64
	// Clock is the time source of every limit above; default the system
	// clock. Tests inject one to drive deadlines without waiting.
	Clock Clock
	// HTTP is the client requests go through; default one pooling
	// Concurrency connections per host. Its redirect policy is always
	// replaced by the registry's (credentials recomputed per hop).
	HTTP *http.Client
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
	exchange   time.Duration
	tarballDur time.Duration
	minRate    int64
	maxDoc     int64
	maxTarball int64
	kept       *keptBudget
	clock      Clock
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
		exchange:   orDefault(opts.ExchangeTimeout, DefaultExchangeTimeout),
		tarballDur: orDefault(opts.TarballTimeout, DefaultTarballTimeout),
		minRate:    orDefault(opts.MinRate, DefaultMinRate),
		maxDoc:     orDefault(opts.MaxDocument, DefaultMaxDocument),
		maxTarball: orDefault(opts.MaxTarball, DefaultMaxTarball),
		kept: &keptBudget{perDoc: orDefault(opts.MaxKept, DefaultMaxKept), total: orDefault(opts.MaxKeptTotal, DefaultMaxKeptTotal),
			share: orDefault(opts.MaxKeptShare, DefaultMaxKeptShare)},
		clock:      opts.Clock,
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
	if c.clock == nil {
		c.clock = systemClock{}
	}
	hc := http.Client{}
	if opts.HTTP != nil {
		hc = *opts.HTTP
	} else {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = n
		hc.Transport = t
	}
	hc.CheckRedirect = c.redirect
	c.http = &hc
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
	// tarball selects the tarball limits instead of the document ones.
	tarball bool
	// body, when set, makes the request a POST of it, gzip-compressed as
	// npm sends its bulk audit requests.
	body []byte
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
	budget := c.exchange
	if req.tarball {
		budget = c.tarballDur
	}
	// The budget runs from the first attempt's start, not from the wait
	// for a request slot: a queue behind a slow registry is not the
	// registry's answer being slow.
	var deadline time.Time
	for i := 0; ; i++ {
		if err := c.blockedError(req.pkg, req.url.Host); err != nil {
			return err
		}
		err := c.attempt(ctx, req, budget, &deadline, handle)
		var r retryable
		if !errors.As(err, &r) {
			return err
		}
		if i+1 >= attempts || !c.clock.Now().Before(deadline) {
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

func (c *Client) attempt(ctx context.Context, req request, budget time.Duration, deadline *time.Time, handle func(*http.Response, io.Reader) error) error {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return c.newError(req, 0, "canceled", ctx.Err())
	}
	defer func() { <-c.sem }()
	now := c.clock.Now()
	if deadline.IsZero() {
		*deadline = now.Add(budget)
	}
	remaining := deadline.Sub(now)

	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The redirect policy reads whose credentials may apply from here.
	actx = context.WithValue(actx, registryKey{}, req.registry)
	wd := c.newWatchdog(cancel, budget, remaining)
	defer wd.stop()

	method, body := http.MethodGet, io.Reader(nil)
	if req.body != nil {
		method, body = http.MethodPost, bytes.NewReader(req.body)
	}
	hr, err := http.NewRequestWithContext(actx, method, req.url.String(), body)
	if err != nil {
		return c.newError(req, 0, "bad request URL "+safeurl.String(req.url.String()), nil)
	}
	if req.body != nil {
		hr.Header.Set("Content-Type", "application/json")
		hr.Header.Set("Content-Encoding", "gzip")
	}
	hr.Header.Set("Accept", req.accept)
	hr.Header.Set("User-Agent", userAgent)
	if req.etag != "" {
		hr.Header.Set("If-None-Match", req.etag)
	}
	if auth := c.cfg.authHeader(req.url, req.registry); auth != "" {
		hr.Header.Set("Authorization", auth)
	}
	// timedOut is the watchdog's verdict: retried while the request's
	// whole budget lasts, final once it is spent.
	timedOut := func() error {
		reason, final := wd.verdict()
		e := c.newError(req, 0, reason, context.DeadlineExceeded)
		if final {
			return e
		}
		return retryable{e}
	}
	resp, err := c.http.Do(hr)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return c.newError(req, 0, "canceled", ctx.Err())
		case wd.fired():
			return timedOut()
		case errors.Is(err, errRedirectLoop):
			return c.newError(req, 0, "the registry redirects in a loop (more than 10 redirects): check the registry URL in .npmrc", nil)
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return retryable{c.newError(req, 0, fmt.Sprintf("no answer within %s", c.timeout), context.DeadlineExceeded)}
		}
		return retryable{c.newError(req, 0, "request failed", safeurl.Error(err))}
	}
	defer resp.Body.Close()
	wd.headersArrived()
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
	case st == http.StatusOK && isHTML(resp.Header.Get("Content-Type")):
		// A proxy's login page or a web server's index, not a registry.
		return c.newError(req, st, "the registry answered with an HTML page, not package metadata: check the registry URL in .npmrc (a proxy or login page?)", nil)
	}
	limit := c.maxDoc
	if req.tarball {
		limit = c.maxTarball
	}
	if st := resp.StatusCode; st == http.StatusOK && resp.ContentLength > limit {
		return c.newError(req, st, tooLarge(req.tarball, limit), nil)
	}
	err = handle(resp, &bodyReader{r: resp.Body, wd: wd})
	if err == nil {
		return nil
	}
	switch {
	case ctx.Err() != nil:
		return c.newError(req, 0, "canceled", ctx.Err())
	case wd.fired():
		return timedOut()
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

// errRedirectLoop stops a redirect chain that would not end on its own.
var errRedirectLoop = errors.New("too many redirects")

// registryKey carries a request's registry URL in its context to the
// redirect policy.
type registryKey struct{}

// redirect is the policy of every hop: the Authorization net/http copied
// from the first request is dropped, since net/http keeps it when only
// the port or the scheme changes and for a subdomain, and the header is
// computed afresh for the new URL from the .npmrc credentials, exactly as
// for a first request to it (its nerf-dart: host, port and path). A chain
// that went from https to http never carries any: the credentials would
// cross the network in the clear.
func (c *Client) redirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errRedirectLoop
	}
	req.Header.Del("Authorization")
	if req.URL.Scheme != "https" {
		for _, v := range via {
			if v.URL.Scheme == "https" {
				return nil
			}
		}
	}
	registry, _ := req.Context().Value(registryKey{}).(string)
	if auth := c.cfg.authHeader(req.URL, registry); auth != "" {
		req.Header.Set("Authorization", auth)
	}
	return nil
}

func isHTML(contentType string) bool {
	ct := strings.ToLower(strings.TrimSpace(contentType))
	return strings.HasPrefix(ct, "text/html") || strings.HasPrefix(ct, "application/xhtml+xml")
}

// tooLarge is the reason for a response over its cap; the caller's Error
// names the package.
func tooLarge(tarball bool, limit int64) string {
	if tarball {
		return fmt.Sprintf("the tarball is larger than %s, the limit for one download", formatBytes(limit))
	}
	return fmt.Sprintf("the registry's document is larger than %s, the limit for one package's metadata", formatBytes(limit))
}

// errTooLarge is what a capped reader returns past its cap.
type errTooLarge struct{ limit int64 }

func (e errTooLarge) Error() string { return fmt.Sprintf("more than %s", formatBytes(e.limit)) }

func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
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

// bodyReader counts what arrives for the watchdog and marks read failures
// so the attempt is retried.
type bodyReader struct {
	r  io.Reader
	wd *watchdog
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.wd.received(n)
	if err != nil && err != io.EOF {
		err = bodyError{err}
	}
	return n, err
}

func orDefault[T int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Config is the configuration the client was built with.
func (c *Client) Config() *Config { return c.cfg }
