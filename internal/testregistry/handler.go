package testregistry

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/Masterminds/semver/v3"
)

const (
	abbreviatedType = "application/vnd.npm.install-v1+json"
	jsonType        = "application/json"
)

// emptyAudit is what the audit endpoints answer: no advisories, so installs
// that audit by default (npm) finish quietly.
var emptyAudit = []byte(`{"actions":[],"advisories":{},"muted":[],"metadata":{"vulnerabilities":{"info":0,"low":0,"moderate":0,"high":0,"critical":0},"dependencies":0,"devDependencies":0,"optionalDependencies":0,"totalDependencies":0}}` + "\n")

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Flush and Hijack pass through, for the faults that drip or write raw bytes.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *statusRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := s.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("testregistry: the connection cannot be hijacked")
	}
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return hj.Hijack()
}

// ServeHTTP answers one registry request.
func (r *Registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	name, rest := splitPackagePath(req.URL.Path)
	rec := &statusRecorder{ResponseWriter: w}

	r.mu.Lock()
	idx := len(r.log)
	r.log = append(r.log, Request{
		Method:      req.Method,
		Path:        req.URL.Path,
		RawPath:     req.URL.EscapedPath(),
		Accept:      req.Header.Get("Accept"),
		Authorized:  req.Header.Get("Authorization") != "",
		IfNoneMatch: req.Header.Get("If-None-Match"),
	})
	r.perPath[req.URL.Path]++
	if name != "" {
		r.perPkg[name]++
	}
	latency := r.latency
	var f fault
	if ft := r.faults[name]; name != "" && ft != nil {
		f = *ft
		if ft.remaining > 0 {
			ft.remaining--
			if ft.remaining == 0 {
				delete(r.faults, name)
			}
		}
	}
	token := r.token
	r.mu.Unlock()

	defer func() {
		r.mu.Lock()
		r.log[idx].Status = rec.status
		r.mu.Unlock()
	}()

	if !r.wait(req.Context(), latency) {
		return
	}
	switch {
	case f.misbehave != nil:
		if r.misbehave(rec, req, name, rest, f.misbehave) {
			return
		}
	case f.hang:
		select {
		case <-req.Context().Done():
		case <-r.done:
		}
		return
	case f.status != 0:
		writeError(rec, f.status, http.StatusText(f.status))
		return
	}

	if strings.HasPrefix(req.URL.Path, "/-/") {
		r.serveSpecial(rec, req, token)
		return
	}
	if name == "" {
		if req.URL.Path == "/" {
			writeJSON(rec, http.StatusOK, jsonType, []byte("{}\n"))
			return
		}
		writeError(rec, http.StatusNotFound, "Not found")
		return
	}
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		rec.Header().Set("Allow", "GET, HEAD")
		writeError(rec, http.StatusMethodNotAllowed, "Method not allowed")
		return
	}
	if token != "" && req.Header.Get("Authorization") != "Bearer "+token {
		writeError(rec, http.StatusUnauthorized, "Unauthorized")
		return
	}
	switch {
	case len(rest) == 0:
		r.servePackument(rec, req, name)
	case len(rest) == 1:
		r.serveVersion(rec, req, name, rest[0])
	case len(rest) == 2 && rest[0] == "-":
		r.serveTarball(rec, req, name, rest[1])
	default:
		writeError(rec, http.StatusNotFound, "Not found")
	}
}

// splitPackagePath reads the package name and what follows it from a decoded
// path, so "/@scope%2fname" and "/@scope/name" mean the same package.
func splitPackagePath(p string) (string, []string) {
	p = strings.TrimPrefix(p, "/")
	if p == "" || strings.HasPrefix(p, "-/") {
		return "", nil
	}
	segs := strings.Split(strings.TrimSuffix(p, "/"), "/")
	n := 1
	if strings.HasPrefix(segs[0], "@") {
		if len(segs) < 2 || segs[1] == "" {
			return "", nil
		}
		n = 2
	}
	for _, s := range segs[:n] {
		if s == "" {
			return "", nil
		}
	}
	return strings.Join(segs[:n], "/"), segs[n:]
}

// documentFor is the package's document in the form the request accepts;
// found is false when the registry has no such package.
func (r *Registry) documentFor(req *http.Request, name string) (doc *document, found bool, err error) {
	abbreviated := strings.Contains(req.Header.Get("Accept"), abbreviatedType)
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.pkgs[name]
	if p == nil {
		return nil, false, nil
	}
	doc, err = p.document(abbreviated, r.base(req))
	return doc, true, err
}

func (r *Registry) servePackument(w http.ResponseWriter, req *http.Request, name string) {
	doc, found, err := r.documentFor(req, name)
	if !found {
		writeError(w, http.StatusNotFound, "Not found")
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	ctype := jsonType
	if strings.Contains(req.Header.Get("Accept"), abbreviatedType) {
		ctype = abbreviatedType
	}
	w.Header().Set("Vary", "Accept")
	r.mu.Lock()
	maxAge := r.maxAge
	r.mu.Unlock()
	if maxAge > 0 {
		w.Header().Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(maxAge.Seconds())))
	}
	serveCached(w, req, ctype, doc.body, doc.etag)
}

func (r *Registry) serveVersion(w http.ResponseWriter, req *http.Request, name, spec string) {
	r.mu.Lock()
	p := r.pkgs[name]
	disabled := r.noPerVer
	var v *version
	if p != nil {
		v = p.versions[spec]
		if v == nil {
			v = p.versions[p.distTags()[spec]]
		}
	}
	base := r.base(req)
	r.mu.Unlock()
	switch {
	case p == nil || disabled:
		writeError(w, http.StatusNotFound, "Not found")
		return
	case v == nil:
		writeError(w, http.StatusNotFound, "version not found: "+spec)
		return
	}
	m, err := v.fullManifest(base)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	body, err := marshal(m)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	serveCached(w, req, jsonType, body, etagOf(body))
}

func (r *Registry) serveTarball(w http.ResponseWriter, req *http.Request, name, file string) {
	basename := name[strings.LastIndex(name, "/")+1:]
	ver, ok := strings.CutPrefix(file, basename+"-")
	if ok {
		ver, ok = strings.CutSuffix(ver, ".tgz")
	}
	r.mu.Lock()
	var v *version
	if p := r.pkgs[name]; p != nil && ok {
		v = p.versions[ver]
	}
	corrupt := r.corrupt[name+"@"+ver]
	r.mu.Unlock()
	if v == nil {
		writeError(w, http.StatusNotFound, "Not found")
		return
	}
	t, err := v.tarball()
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	data := t.data
	if corrupt {
		if data, err = v.corrupted(); err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
	}
	serveCached(w, req, "application/octet-stream", data, etagOf(data))
}

func (r *Registry) serveSpecial(w http.ResponseWriter, req *http.Request, token string) {
	switch p := req.URL.Path; {
	case p == "/-/ping" || p == "/-/v1/ping":
		writeJSON(w, http.StatusOK, jsonType, []byte("{}\n"))
	case p == "/-/npm/v1/security/advisories/bulk" && req.Method == http.MethodPost:
		r.serveAdvisories(w, req)
	case strings.HasPrefix(p, "/-/npm/v1/security/audits") && req.Method == http.MethodPost:
		writeJSON(w, http.StatusOK, jsonType, emptyAudit)
	case p == "/-/whoami":
		if token == "" || req.Header.Get("Authorization") != "Bearer "+token {
			writeError(w, http.StatusUnauthorized, "Unauthorized")
			return
		}
		writeJSON(w, http.StatusOK, jsonType, []byte(`{"username":"uptide-test"}`+"\n"))
	default:
		writeError(w, http.StatusNotFound, "Not found")
	}
}

// base is the URL dist.tarball points under: the started listener's, or the
// request's own host when mounted on someone else's server.
func (r *Registry) base(req *http.Request) string {
	if r.baseURL != "" {
		return r.baseURL
	}
	return "http://" + req.Host + "/"
}

func serveCached(w http.ResponseWriter, req *http.Request, ctype string, body []byte, etag string) {
	w.Header().Set("ETag", etag)
	if etagMatches(req.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	writeJSON(w, http.StatusOK, ctype, body)
}

func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, ctype string, body []byte) {
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	body, _ := marshal(map[string]string{"error": msg})
	writeJSON(w, status, jsonType, body)
}

// serveAdvisories answers the bulk advisory endpoint as the npm registry
// does: the request is {name: [versions]} (gzip-compressed when
// Content-Encoding says so), the answer {name: [advisory]} with, per
// package asked, the advisories whose vulnerable range covers one of the
// versions asked; packages without one are left out.
func (r *Registry) serveAdvisories(w http.ResponseWriter, req *http.Request) {
	var body io.Reader = io.LimitReader(req.Body, 16<<20)
	if strings.EqualFold(req.Header.Get("Content-Encoding"), "gzip") {
		zr, err := gzip.NewReader(body)
		if err != nil {
			writeError(w, http.StatusBadRequest, "bad gzip body: "+err.Error())
			return
		}
		defer zr.Close()
		body = zr
	}
	var ask map[string][]string
	// An empty body asks about nothing.
	if err := json.NewDecoder(body).Decode(&ask); err != nil && !errors.Is(err, io.EOF) {
		writeError(w, http.StatusBadRequest, "the body is not {name: [versions]}: "+err.Error())
		return
	}
	out := map[string][]json.RawMessage{}
	r.mu.Lock()
	for name, versions := range ask {
		p := r.pkgs[name]
		if p == nil {
			continue
		}
		for _, raw := range p.advisories {
			var a struct {
				Range string `json:"vulnerable_versions"`
			}
			if json.Unmarshal(raw, &a) != nil {
				continue
			}
			for _, v := range versions {
				if semverSatisfies(v, a.Range) {
					out[name] = append(out[name], raw)
					break
				}
			}
		}
	}
	r.mu.Unlock()
	data, err := json.Marshal(out)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, jsonType, append(data, '\n'))
}

// semverSatisfies says whether version v is in the npm range r.
func semverSatisfies(v, r string) bool {
	c, err := semver.NewConstraint(r)
	if err != nil {
		return false
	}
	sv, err := semver.NewVersion(v)
	return err == nil && c.Check(sv)
}
