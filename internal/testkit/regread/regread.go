// Package regread reads a registry's answers the way a client does: the
// registry server's tests and the test registry's fault tests share it.
package regread

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"sort"
	"testing"
)

// Server is a registry a test starts: the server's own or the test
// registry over it.
type Server interface {
	Start() (string, error)
	Close()
}

// StartFixtures serves the fixture tree at dir on a loopback port with
// the registry newServer makes, closed when the test ends.
func StartFixtures[S Server](t testing.TB, newServer func(fs.FS) (S, error), dir string) (S, string) {
	t.Helper()
	reg, err := newServer(os.DirFS(dir))
	if err != nil {
		t.Fatalf("load fixtures: %v", err)
	}
	url, err := reg.Start()
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(reg.Close)
	return reg, url
}

// Response is an answer, read whole.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends a request with the given headers (client nil: the default
// one) and reads the answer whole.
func Do(t testing.TB, client *http.Client, method, url string, header map[string]string) (Response, error) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return Response{}, err
	}
	return Response{Status: res.StatusCode, Header: res.Header, Body: body}, nil
}

// Get is a GET that must be answered.
func Get(t testing.TB, url string, header map[string]string) Response {
	t.Helper()
	res, err := Do(t, nil, http.MethodGet, url, header)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return res
}

// Decode reads a JSON document.
func Decode(t testing.TB, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("decode %q: %v", body, err)
	}
	return m
}

// At walks a decoded JSON document by keys.
func At(doc any, keys ...string) any {
	for _, k := range keys {
		m, ok := doc.(map[string]any)
		if !ok {
			return nil
		}
		doc = m[k]
	}
	return doc
}

// Keys are a decoded object's keys, sorted.
func Keys(v any) []string {
	m, _ := v.(map[string]any)
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Abbreviated asks for the abbreviated packument, as npm does.
var Abbreviated = map[string]string{"Accept": "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*"}

// Entry is a file of a tarball.
type Entry struct {
	Hdr  *tar.Header
	Body []byte
}

// Untar reads a gzipped tarball by name, and fails t unless its entries
// come sorted (the registry packs them so, for stable integrity).
func Untar(t testing.TB, data []byte) map[string]Entry {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	tr := tar.NewReader(zr)
	out := map[string]Entry{}
	var order []string
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("untar: %v", err)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[hdr.Name] = Entry{Hdr: hdr, Body: body}
		order = append(order, hdr.Name)
	}
	if !sort.StringsAreSorted(order) {
		t.Errorf("entries not sorted: %v", order)
	}
	return out
}
