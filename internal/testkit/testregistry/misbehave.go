package testregistry

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// FaultKind is one way a registry misbehaves after accepting a request,
// as opposed to Fail (a clean error status) and Hang (no answer at all).
type FaultKind int

const (
	// Drip sends the headers at once, then the body a few bytes at a time
	// with a pause between them: a server or proxy that never stalls long
	// enough to trip a silence timeout.
	Drip FaultKind = iota + 1
	// HangAfterHeaders sends the headers and the body's first bytes, then
	// nothing until the client gives up.
	HangAfterHeaders
	// Truncate declares the whole body's length, sends half of it and
	// closes the connection.
	Truncate
	// HTMLError answers Fault.Status (503 by default) with an HTML page, as
	// a load balancer or proxy in front of a registry does.
	HTMLError
	// RedirectLoop redirects every request to a URL that redirects back.
	RedirectLoop
	// Huge serves the package's real document padded with generated
	// versions up to Fault.Size bytes, streamed without a Content-Length.
	Huge
	// WrongType answers 200 with an HTML page (a captive portal, a proxy's
	// login page) where a JSON document belongs.
	WrongType
	// TarballLonger sends more tarball bytes than its Content-Length
	// declares (the declared length is half the real tarball). Documents
	// are served normally.
	TarballLonger
	// TarballEndless sends an endless chunked tarball. Documents are served
	// normally.
	TarballEndless
)

var faultNames = map[FaultKind]string{
	Drip: "drip", HangAfterHeaders: "hang-after-headers", Truncate: "truncate", HTMLError: "html-error",
	RedirectLoop: "redirect-loop", Huge: "huge", WrongType: "wrong-type",
	TarballLonger: "tarball-longer", TarballEndless: "tarball-endless",
}

func (k FaultKind) String() string {
	if s, ok := faultNames[k]; ok {
		return s
	}
	return "fault(" + strconv.Itoa(int(k)) + ")"
}

// Fault describes a misbehaviour; zero fields take the defaults noted.
type Fault struct {
	Kind FaultKind
	// Status is HTMLError's status (default 503).
	Status int
	// Size is Huge's document size in bytes (default 50 MB).
	Size int64
	// Chunk and Interval are Drip's bytes per write (default 4) and pause
	// between writes (default 1 s).
	Chunk    int
	Interval time.Duration
	// TarballOnly keeps documents well-behaved: only tarball requests
	// misbehave.
	TarballOnly bool
}

// DefaultHugeSize is the size of a Huge document when Fault.Size is zero.
const DefaultHugeSize = 50 << 20

// Misbehave makes every request for the package misbehave as f says until
// Heal (the tarball kinds only touch tarball requests).
func (r *Registry) Misbehave(name string, f Fault) {
	if f.Status == 0 {
		f.Status = http.StatusServiceUnavailable
	}
	if f.Size <= 0 {
		f.Size = DefaultHugeSize
	}
	if f.Chunk <= 0 {
		f.Chunk = 4
	}
	if f.Interval <= 0 {
		f.Interval = time.Second
	}
	r.setFault(name, &fault{misbehave: &f, remaining: -1})
}

// misbehave serves req as f says, writing to w; it returns false when the
// request should be served normally (a tarball fault on a document).
func (r *Registry) misbehave(w http.ResponseWriter, req *http.Request, name string, rest []string, f *Fault) bool {
	tarball := len(rest) == 2 && rest[0] == "-"
	if f.TarballOnly && !tarball {
		return false
	}
	switch f.Kind {
	case TarballLonger, TarballEndless:
		if !tarball {
			return false
		}
	case Huge:
		if len(rest) != 0 {
			return false
		}
	}
	ctx := req.Context()
	switch f.Kind {
	case HTMLError:
		writeHTML(w, f.Status)
	case WrongType:
		writeHTML(w, http.StatusOK)
	case RedirectLoop:
		// /x → /x?loop=1 → /x → ...: never the same URL twice in a row,
		// so only a client's redirect limit ends it.
		target := req.URL.Path
		if req.URL.Query().Get("loop") == "" {
			target += "?loop=1"
		}
		http.Redirect(w, req, target, http.StatusFound)
	case Huge:
		r.serveHuge(w, req, name, f.Size)
	case Drip, HangAfterHeaders, Truncate, TarballLonger:
		body, ctype, ok := r.normalBody(req)
		if !ok {
			return false
		}
		switch f.Kind {
		case Drip:
			w.Header().Set("Content-Type", ctype)
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(http.StatusOK)
			for len(body) > 0 {
				n := min(f.Chunk, len(body))
				if _, err := w.Write(body[:n]); err != nil {
					return true
				}
				flush(w)
				body = body[n:]
				if !r.wait(ctx, f.Interval) {
					return true
				}
			}
		case HangAfterHeaders:
			w.Header().Set("Content-Type", ctype)
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(body[:min(16, len(body))])
			flush(w)
			select {
			case <-ctx.Done():
			case <-r.done:
			}
		case Truncate:
			w.Header().Set("Content-Type", ctype)
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(body[:len(body)/2])
			flush(w)
			// Returning short of the declared length makes the server
			// close the connection: the client sees an unexpected EOF.
		case TarballLonger:
			serveLonger(w, ctype, body)
		}
	case TarballEndless:
		w.Header().Set("Content-Type", "application/octet-stream")
		w.WriteHeader(http.StatusOK)
		chunk := make([]byte, 64<<10)
		for i := range chunk {
			chunk[i] = byte(i * 7)
		}
		for ctx.Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return true
			}
			select {
			case <-r.done:
				return true
			default:
			}
		}
	default:
		writeError(w, http.StatusInternalServerError, "unknown fault "+f.Kind.String())
	}
	return true
}

// normalBody is what a well-behaved registry would send for the request.
func (r *Registry) normalBody(req *http.Request) ([]byte, string, bool) {
	rec := &bufferedResponse{header: http.Header{}}
	// No validators: a fault always sends a body.
	plain := req.Clone(req.Context())
	plain.Header.Del("If-None-Match")
	r.Registry.ServeHTTP(rec, plain)
	if rec.status != http.StatusOK {
		return nil, "", false
	}
	return rec.body.Bytes(), rec.header.Get("Content-Type"), true
}

// serveLonger writes a raw response on the hijacked connection whose body
// runs past its Content-Length: net/http would refuse to send it.
func serveLonger(w http.ResponseWriter, ctype string, body []byte) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		writeError(w, http.StatusInternalServerError, "cannot hijack the connection")
		return
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n", ctype, len(body)/2)
	_, _ = buf.Write(body)
	_, _ = buf.Write(make([]byte, 1<<20))
	_ = buf.Flush()
}

// serveHuge streams the package's document with generated versions added
// until it is size bytes long (within one version entry). The generated
// versions are prereleases of 0.0.0, so they never become anyone's target.
func (r *Registry) serveHuge(w http.ResponseWriter, req *http.Request, name string, size int64) {
	doc, _, found := r.normalBody(req)
	if !found {
		writeError(w, http.StatusNotFound, "Not found")
		return
	}
	var real struct {
		DistTags json.RawMessage            `json:"dist-tags"`
		Versions map[string]json.RawMessage `json:"versions"`
	}
	if err := json.Unmarshal(doc, &real); err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", jsonType)
	w.WriteHeader(http.StatusOK)
	cw := &countingWriter{w: bufio.NewWriterSize(w, 64<<10)}
	defer cw.w.Flush()
	nameJSON, _ := json.Marshal(name)
	fmt.Fprintf(cw, `{"name":%s,"dist-tags":%s,"versions":{`, nameJSON, real.DistTags)
	first := true
	for v, body := range real.Versions {
		if !first {
			cw.WriteString(",")
		}
		first = false
		vj, _ := json.Marshal(v)
		cw.Write(vj)
		cw.WriteString(":")
		cw.Write(body)
	}
	pad := strconv.Quote(strings.Repeat("lorem ipsum dolor sit amet ", 20))
	base := r.URL()
	if base == "" {
		base = "http://" + req.Host + "/"
	}
	for i := 0; cw.n < size && req.Context().Err() == nil; i++ {
		if !first {
			cw.WriteString(",")
		}
		first = false
		fmt.Fprintf(cw, `"0.0.0-gen.%d":{"name":%s,"version":"0.0.0-gen.%d","description":%s,`+
			`"dependencies":{"dep-a":"^1.0.%d","dep-b":"~2.%d.0"},"devDependencies":{"dev-x":"^%d.0.0"},`+
			`"dist":{"tarball":"%s%s/-/gen-%d.tgz","shasum":"0000000000000000000000000000000000000000"},"readme":%s}`,
			i, nameJSON, i, pad, i, i%50, i%9, base, name, i, pad)
	}
	cw.WriteString("}}\n")
}

type countingWriter struct {
	w   *bufio.Writer
	n   int64
	err error
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

func (c *countingWriter) WriteString(s string) { _, _ = io.WriteString(c, s) }

// bufferedResponse captures what a normal handler would have sent.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }
func (b *bufferedResponse) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}
func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

func writeHTML(w http.ResponseWriter, status int) {
	body := fmt.Sprintf("<!DOCTYPE html>\n<html><head><title>%d %s</title></head>\n<body><h1>%d %s</h1><p>nginx</p></body></html>\n",
		status, http.StatusText(status), status, http.StatusText(status))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
