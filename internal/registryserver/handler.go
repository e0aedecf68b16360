package registryserver

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// ServeHTTP answers one registry request.
func (r *Registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	name, rest := SplitPath(req.URL.Path)
	if strings.HasPrefix(req.URL.Path, "/-/") {
		r.serveSpecial(w, req)
		return
	}
	if name == "" {
		if req.URL.Path == "/" {
			writeJSON(w, http.StatusOK, jsonType, []byte("{}\n"))
			return
		}
		WriteError(w, http.StatusNotFound, "Not found")
		return
	}
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		WriteError(w, http.StatusMethodNotAllowed, "Method not allowed")
		return
	}
	switch {
	case len(rest) == 0:
		r.servePackument(w, req, name)
	case len(rest) == 1:
		r.serveVersion(w, req, name, rest[0])
	case len(rest) == 2 && rest[0] == "-":
		r.serveTarball(w, req, name, rest[1])
	default:
		WriteError(w, http.StatusNotFound, "Not found")
	}
}

// SplitPath reads the package name and what follows it from a decoded
// path, so "/@scope%2fname" and "/@scope/name" mean the same package.
func SplitPath(p string) (string, []string) {
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
		WriteError(w, http.StatusNotFound, "Not found")
		return
	}
	if err != nil {
		WriteError(w, http.StatusInternalServerError, err.Error())
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
	case p == nil:
		WriteError(w, http.StatusNotFound, "Not found")
		return
	case v == nil:
		WriteError(w, http.StatusNotFound, "version not found: "+spec)
		return
	}
	m, err := v.fullManifest(base)
	if err != nil {
		WriteError(w, http.StatusInternalServerError, err.Error())
		return
	}
	body, err := marshal(m)
	if err != nil {
		WriteError(w, http.StatusInternalServerError, err.Error())
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
	r.mu.Unlock()
	if v == nil {
		WriteError(w, http.StatusNotFound, "Not found")
		return
	}
	t, err := v.tarball()
	if err != nil {
		WriteError(w, http.StatusInternalServerError, err.Error())
		return
	}
	serveCached(w, req, "application/octet-stream", t.data, etagOf(t.data))
}

func (r *Registry) serveSpecial(w http.ResponseWriter, req *http.Request) {
	switch p := req.URL.Path; {
	case p == "/-/ping" || p == "/-/v1/ping":
		writeJSON(w, http.StatusOK, jsonType, []byte("{}\n"))
	case p == "/-/npm/v1/security/advisories/bulk" && req.Method == http.MethodPost:
		r.serveAdvisories(w, req)
	case strings.HasPrefix(p, "/-/npm/v1/security/audits") && req.Method == http.MethodPost:
		writeJSON(w, http.StatusOK, jsonType, emptyAudit)
	case p == "/-/whoami":
		// No one is logged in to a registry without accounts.
		WriteError(w, http.StatusUnauthorized, "Unauthorized")
	default:
		WriteError(w, http.StatusNotFound, "Not found")
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

// WriteError answers status with the registry's JSON error body.
func WriteError(w http.ResponseWriter, status int, msg string) {
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
			WriteError(w, http.StatusBadRequest, "bad gzip body: "+err.Error())
			return
		}
		defer zr.Close()
		body = zr
	}
	var ask map[string][]string
	// An empty body asks about nothing.
	if err := json.NewDecoder(body).Decode(&ask); err != nil && !errors.Is(err, io.EOF) {
		WriteError(w, http.StatusBadRequest, "the body is not {name: [versions]}: "+err.Error())
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
		WriteError(w, http.StatusInternalServerError, err.Error())
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
