package registry

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/uptide/uptide/internal/safeurl"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/lists"
)

// packCall deduplicates concurrent requests for one document and keeps the
// result for the client's lifetime (one run).
type packCall struct {
	done chan struct{}
	p    *model.Packument
	err  error
}

// Packument returns what the registry knows of name. The abbreviated
// document is asked for unless full is set (only the full one carries
// publish times). Documents are revalidated with their ETag and kept for
// the client's lifetime; callers must treat the result as read-only.
func (c *Client) Packument(ctx context.Context, name string, full bool) (*model.Packument, error) {
	if err := validateName(name); err != nil {
		return nil, &Error{Package: name, Reason: err.Error()}
	}
	reg, err := c.registryFor(name)
	if err != nil {
		return nil, err
	}
	key := packumentKey(reg, name, full)
	for {
		c.mu.Lock()
		call, ok := c.calls[key]
		if !ok {
			call = &packCall{done: make(chan struct{})}
			c.calls[key] = call
			c.mu.Unlock()
			c.kept.asked()
			call.p, call.err = c.loadPackument(ctx, name, reg, full, key)
			if call.err != nil {
				c.mu.Lock()
				delete(c.calls, key)
				c.mu.Unlock()
			}
			close(call.done)
			return call.p, call.err
		}
		c.mu.Unlock()
		select {
		case <-call.done:
		case <-ctx.Done():
			return nil, &Error{Package: name, Host: hostOf(reg), Reason: "canceled", Err: ctx.Err()}
		}
		// Another caller's cancellation is not this caller's failure.
		if call.err != nil && errors.Is(call.err, context.Canceled) && ctx.Err() == nil {
			continue
		}
		return call.p, call.err
	}
}

func (c *Client) registryFor(name string) (string, error) {
	if c.cfg == nil {
		return "", &Error{Package: name, Reason: "no registry configuration: load one with registry.LoadConfig"}
	}
	reg := c.cfg.RegistryFor(name)
	if reg == "" {
		reason := "no registry configured: set registry=<url> in .npmrc"
		if c.cfg.s != nil && c.cfg.s.defaultErr != nil {
			reason = c.cfg.s.defaultErr.Error()
		}
		return "", &Error{Package: name, Reason: reason}
	}
	return reg, nil
}

func (c *Client) loadPackument(ctx context.Context, name, reg string, full bool, key string) (*model.Packument, error) {
	u, err := url.Parse(reg + escapeName(name))
	if err != nil {
		return nil, &Error{Package: name, Host: hostOf(reg), Reason: "bad registry URL " + safeurl.String(reg)}
	}
	req := request{pkg: name, url: u, registry: reg, accept: abbreviatedAccept}
	if full {
		req.accept = fullAccept
	}
	cachePath := c.packumentPath(key)
	var cached cachedPackument
	if cachePath != "" {
		cached = readPackumentCache(cachePath)
		req.etag = cached.etag
	}
	// A document still fresh by the registry's Cache-Control is used
	// without asking, as npm does; a stale one is revalidated by ETag.
	if cached.body != nil && time.Now().Before(cached.freshUntil) {
		if p, err := decodeCached(cached.body); err == nil {
			if err := c.keep(name, u.Host, p); err != nil {
				return nil, err
			}
			return p, nil
		}
	}
	var p *model.Packument
	var newETag string
	var freshUntil time.Time
	err = c.get(ctx, req, func(resp *http.Response, r io.Reader) error {
		switch resp.StatusCode {
		case http.StatusOK:
			// Decoded as it arrives: the document itself is never held.
			kept := c.kept.open()
			dp, err := decodePackumentStream(&capReader{r: r, left: c.maxDoc, limit: c.maxDoc}, name, kept)
			if err != nil {
				kept.release()
			}
			var tl errTooLarge
			var be bodyError
			var tm errKeptTooMuch
			switch {
			case errors.As(err, &tm):
				return c.newError(req, resp.StatusCode, tm.Error(), nil)
			case errors.As(err, &tl):
				return c.newError(req, resp.StatusCode, tooLarge(false, c.maxDoc), nil)
			case errors.As(err, &be):
				return be
			case err != nil:
				if cachePath != "" {
					_ = os.Remove(cachePath)
				}
				return c.newError(req, resp.StatusCode, "the registry sent an unreadable document", err)
			}
			p, newETag = dp, resp.Header.Get("ETag")
			freshUntil = time.Now().Add(maxAge(resp.Header))
			return nil
		case http.StatusNotModified:
			if cached.body == nil {
				return c.newError(req, resp.StatusCode, "304 not modified without a cached document", nil)
			}
			cp, err := decodeCached(cached.body)
			if err != nil {
				return c.newError(req, resp.StatusCode, "304 not modified but the cached document is unreadable", err)
			}
			if err := c.keep(name, u.Host, cp); err != nil {
				return err
			}
			p, newETag = cp, cached.etag
			if e := resp.Header.Get("ETag"); e != "" {
				newETag = e
			}
			freshUntil = time.Now().Add(maxAge(resp.Header))
			return nil
		case http.StatusNotFound:
			return c.newError(req, resp.StatusCode, "404 not found in the registry", nil)
		}
		return c.newError(req, resp.StatusCode, statusReason(resp.StatusCode, "", false), nil)
	})
	if err != nil {
		return nil, err
	}
	// Written once decoded (never cache what cannot be read) and outside
	// the request slot, which disk time should not hold. The cache keeps
	// only what Uptide reads, not the registry's document: a full
	// packument is megabytes, and decoding it is most of a warm run.
	if (newETag != "" || time.Now().Before(freshUntil)) && cachePath != "" && !strings.ContainsAny(newETag, "\r\n") {
		// A cache that cannot be written only costs a full download next run.
		_ = writeCacheAtomic(cachePath, func(w io.Writer) error {
			return writePackumentCache(w, newETag, freshUntil, p)
		})
	}
	return p, nil
}

// keep accounts for a document decoded whole against the client's budget.
func (c *Client) keep(name, host string, p *model.Packument) error {
	kept := c.kept.open()
	if err := kept.addPackument(p); err != nil {
		kept.release()
		return &Error{Package: name, Host: host, Reason: err.Error()}
	}
	return nil
}

// escapeName is how npm puts a name in a URL: the scope's slash encoded.
func escapeName(name string) string {
	if scope, rest, ok := strings.Cut(name, "/"); ok && strings.HasPrefix(name, "@") {
		return url.PathEscape(scope) + "%2f" + url.PathEscape(rest)
	}
	return url.PathEscape(name)
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}

// packumentKey identifies one cached document: the registry (already free
// of credentials), the name, and the document kind.
func packumentKey(reg, name string, full bool) string {
	kind := "abbreviated"
	if full {
		kind = "full"
	}
	sum := sha256.Sum256([]byte(reg + "\x00" + name + "\x00" + kind))
	return hex.EncodeToString(sum[:])
}

func (c *Client) packumentPath(key string) string {
	if c.cacheErr != nil || c.cacheRoot == "" {
		return ""
	}
	dir := filepath.Join(c.cacheRoot, "registry", "packuments")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return ""
	}
	return filepath.Join(dir, key+".json")
}

const packumentCacheMagic = "uptide-packument-v3\n"

// decodeCached reads a cached document: a model.Packument as Uptide wrote it.
func decodeCached(body []byte) (*model.Packument, error) {
	var p model.Packument
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, err
	}
	if p.Name == "" || p.Versions == nil {
		return nil, errors.New("cached document without name or versions")
	}
	return &p, nil
}

// writePackumentCache writes the magic line, the ETag line, the line
// holding the Unix time the document stays fresh until, then the document
// as Uptide keeps it (a model.Packument), one version at a time so a huge
// document is never encoded whole in memory.
func writePackumentCache(w io.Writer, etag string, freshUntil time.Time, p *model.Packument) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "%s%s\n%d\n", packumentCacheMagic, etag, freshUntil.Unix())
	head, err := json.Marshal(struct {
		Name     string            `json:"name"`
		DistTags map[string]string `json:"distTags"`
		Time     map[string]string `json:"time,omitempty"`
	}{p.Name, p.DistTags, p.Time})
	if err != nil {
		return err
	}
	bw.Write(head[:len(head)-1]) // without its closing brace
	bw.WriteString(`,"versions":{`)
	versions := lists.SortedKeys(p.Versions)
	for i, v := range versions {
		if i > 0 {
			bw.WriteByte(',')
		}
		key, _ := json.Marshal(v)
		rel, err := json.Marshal(p.Versions[v])
		if err != nil {
			return err
		}
		bw.Write(key)
		bw.WriteByte(':')
		bw.Write(rel)
	}
	bw.WriteString("}}")
	return bw.Flush()
}

type cachedPackument struct {
	etag       string
	freshUntil time.Time
	body       []byte
}

func readPackumentCache(path string) cachedPackument {
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(data, []byte(packumentCacheMagic)) {
		return cachedPackument{}
	}
	etag, rest, ok := bytes.Cut(data[len(packumentCacheMagic):], []byte("\n"))
	if !ok {
		return cachedPackument{}
	}
	fresh, body, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return cachedPackument{}
	}
	until, err := strconv.ParseInt(string(fresh), 10, 64)
	if err != nil {
		return cachedPackument{}
	}
	return cachedPackument{etag: string(etag), freshUntil: time.Unix(until, 0), body: body}
}

// unvalidatedFreshness is how long a document is used when the registry
// says nothing about it: no Cache-Control and no validator to revalidate
// with, so every run would download it whole again. It is the public
// registry's own max-age.
const unvalidatedFreshness = 300 * time.Second

// maxAge is how long a response may be used without asking again:
// Cache-Control max-age; none for no-cache or no-store, or when the
// response can be revalidated cheaply (an ETag or Last-Modified) without
// saying; unvalidatedFreshness when it says nothing and cannot be.
func maxAge(h http.Header) time.Duration {
	if h.Get("Cache-Control") == "" {
		if h.Get("ETag") == "" && h.Get("Last-Modified") == "" {
			return unvalidatedFreshness
		}
		return 0
	}
	var age time.Duration
	for _, d := range strings.Split(h.Get("Cache-Control"), ",") {
		d = strings.ToLower(strings.TrimSpace(d))
		switch {
		case d == "no-cache" || d == "no-store":
			return 0
		case strings.HasPrefix(d, "max-age="):
			if n, err := strconv.Atoi(strings.TrimPrefix(d, "max-age=")); err == nil && n > 0 {
				age = time.Duration(n) * time.Second
			}
		}
	}
	return age
}

// capReader fails with errTooLarge once more than limit bytes came.
type capReader struct {
	r           io.Reader
	left, limit int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, errTooLarge{c.limit}
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n, errTooLarge{c.limit}
	}
	return n, err
}

func readAllLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(bufio.NewReaderSize(r, 64<<10), limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("document larger than %d MB", limit>>20)
	}
	return b, nil
}

// writeFileAtomic writes through a temporary file and a rename, so a
// reader never sees half a file and a crash leaves no corrupt cache entry.
func writeFileAtomic(path string, data []byte) error {
	return writeCacheAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeCacheAtomic is writeFileAtomic for content written by fill.
func writeCacheAtomic(path string, fill func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := fill(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// validName accepts the names npm ever published (legacy names may have
// capitals and URL-safe punctuation) and nothing that could leave a cache
// directory once used as a path.
var validName = regexp.MustCompile(`^(@[A-Za-z0-9._~!*'()-]+/)?[A-Za-z0-9._~!*'()-]+$`)

func validateName(name string) error {
	if len(name) == 0 || len(name) > 214 || !validName.MatchString(name) {
		return fmt.Errorf("invalid package name %q", name)
	}
	for _, seg := range strings.Split(strings.TrimPrefix(name, "@"), "/") {
		if strings.HasPrefix(seg, ".") {
			return fmt.Errorf("invalid package name %q", name)
		}
	}
	return nil
}
