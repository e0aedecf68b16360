package testregistry

// What the fault tests share with the registry server's own tests, to
// read answers the way a client does.

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"sort"
	"testing"
)

const fixtureDir = "../../../fixtures/registry"

// startFixtures serves the real fixture tree on a loopback port.
func startFixtures(t testing.TB) (*Registry, string) {
	t.Helper()
	reg, err := New(os.DirFS(fixtureDir))
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

type response struct {
	status int
	header http.Header
	body   []byte
}

func do(t testing.TB, client *http.Client, method, url string, header map[string]string) (response, error) {
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
		return response{}, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return response{}, err
	}
	return response{status: res.StatusCode, header: res.Header, body: body}, nil
}

func get(t testing.TB, url string, header map[string]string) response {
	t.Helper()
	res, err := do(t, nil, http.MethodGet, url, header)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return res
}

func decode(t testing.TB, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("decode %q: %v", body, err)
	}
	return m
}

// at walks a decoded JSON document by keys.
func at(doc any, keys ...string) any {
	for _, k := range keys {
		m, ok := doc.(map[string]any)
		if !ok {
			return nil
		}
		doc = m[k]
	}
	return doc
}

var abbreviated = map[string]string{"Accept": "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*"}

type entry struct {
	hdr  *tar.Header
	body []byte
}

func untar(t testing.TB, data []byte) map[string]entry {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	tr := tar.NewReader(zr)
	out := map[string]entry{}
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
		out[hdr.Name] = entry{hdr: hdr, body: body}
		order = append(order, hdr.Name)
	}
	if !sort.StringsAreSorted(order) {
		t.Errorf("entries not sorted: %v", order)
	}
	return out
}
