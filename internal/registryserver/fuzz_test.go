package registryserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
)

// FuzzServe throws arbitrary paths, methods and headers at the handler: it
// must answer every one with a known status and, for JSON, a valid document.
func FuzzServe(f *testing.F) {
	reg, err := New(os.DirFS(fixtureDir))
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range []string{
		"/react", "/@types%2freact", "/@types/react/19.1.2", "/react/-/react-19.1.0.tgz",
		"/@aws-sdk/core/-/core-3.500.0.tgz", "/-/ping", "/-/npm/v1/security/audits/quick",
		"/", "//", "/@", "/@/x", "/a/-/", "/chalk/next", "/react/-/react-.tgz", "/%40types%2Freact/",
	} {
		f.Add("GET", p, abbreviatedType, "")
		f.Add("POST", p, "", `"x"`)
	}
	known := map[int]bool{200: true, 304: true, 401: true, 404: true, 405: true}
	f.Fuzz(func(t *testing.T, method, rawPath, accept, ifNoneMatch string) {
		u, err := url.ParseRequestURI(rawPath)
		if err != nil || method == "" || strings.ContainsAny(method, " \t\r\n") {
			return
		}
		req := &http.Request{Method: method, URL: u, Header: http.Header{}, Host: "registry.test"}
		req.Header.Set("Accept", accept)
		req.Header.Set("If-None-Match", ifNoneMatch)
		req = req.WithContext(t.Context())
		rec := httptest.NewRecorder()
		reg.ServeHTTP(rec, req)
		if !known[rec.Code] {
			t.Fatalf("%s %q: status %d", method, rawPath, rec.Code)
		}
		ctype := rec.Header().Get("Content-Type")
		if rec.Code != 304 && ctype != "application/octet-stream" && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %q: invalid JSON %q", method, rawPath, rec.Body.Bytes())
		}
	})
}
