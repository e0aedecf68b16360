package testregistry

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/uptide/uptide/internal/registryserver"
)

const jsonType = "application/json"

var writeError = registryserver.WriteError

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

// ServeHTTP logs one registry request, injects the package's fault if it
// has one, and otherwise lets the registry answer.
func (r *Registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	name, rest := registryserver.SplitPath(req.URL.Path)
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
	token, noPerVer := r.token, r.noPerVer
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

	authorized := token != "" && req.Header.Get("Authorization") == "Bearer "+token
	if req.URL.Path == "/-/whoami" && authorized {
		rec.Header().Set("Content-Type", jsonType)
		_, _ = io.WriteString(rec, `{"username":"uptide-test"}`+"\n")
		return
	}
	if name != "" && (req.Method == http.MethodGet || req.Method == http.MethodHead) {
		switch {
		case token != "" && !authorized:
			writeError(rec, http.StatusUnauthorized, "Unauthorized")
			return
		case noPerVer && len(rest) == 1:
			writeError(rec, http.StatusNotFound, "Not found")
			return
		case len(rest) == 2 && rest[0] == "-" && r.corrupted(name, rest[1]):
			r.serveCorrupted(rec, req)
			return
		}
	}
	r.Registry.ServeHTTP(rec, req)
}

// corrupted says whether CorruptTarball names the tarball file of name.
func (r *Registry) corrupted(name, file string) bool {
	basename := name[strings.LastIndex(name, "/")+1:]
	ver, ok := strings.CutPrefix(file, basename+"-")
	if ok {
		ver, ok = strings.CutSuffix(ver, ".tgz")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return ok && r.corrupt[name+"@"+ver]
}

// serveCorrupted serves the real tarball with one extra file, so its bytes
// differ from the advertised integrity while it still unpacks.
func (r *Registry) serveCorrupted(w http.ResponseWriter, req *http.Request) {
	body, _, ok := r.normalBody(req)
	if !ok {
		r.Registry.ServeHTTP(w, req)
		return
	}
	data, err := addFile(body, "package/CORRUPTED", "these bytes do not match dist.integrity\n")
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(data)
}

// addFile re-packs a gzip'd tarball with one more file, its entries still
// sorted as a packed tarball's are.
func addFile(tgz []byte, name, content string) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, err
	}
	type entry struct {
		h    *tar.Header
		data []byte
	}
	var entries []entry
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		entries = append(entries, entry{h, data})
	}
	h := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(content)), Typeflag: tar.TypeReg}
	if len(entries) > 0 {
		h.ModTime, h.Format = entries[0].h.ModTime, entries[0].h.Format
	}
	entries = append(entries, entry{h, []byte(content)})
	sort.Slice(entries, func(i, j int) bool { return entries[i].h.Name < entries[j].h.Name })
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		if err := tw.WriteHeader(e.h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
