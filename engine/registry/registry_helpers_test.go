package registry

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// tarEntry is one member of a test tarball.
type tarEntry struct {
	name     string
	body     string
	typeflag byte
	linkname string
	mode     int64
}

func makeTgz(t testing.TB, entries []tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Typeflag: e.typeflag, Linkname: e.linkname, Mode: e.mode}
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(e.body))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// simpleTgz is a typical npm tarball: package.json and a declaration file.
func simpleTgz(t testing.TB, name, version string) []byte {
	return makeTgz(t, []tarEntry{
		{name: "package/package.json", body: `{"name":"` + name + `","version":"` + version + `","types":"index.d.ts"}`},
		{name: "package/index.d.ts", body: "export declare function parse(s: string): number;\n"},
		{name: "package/lib/util.js", body: "module.exports = {};\n"},
	})
}

func sriOf(b []byte) string {
	s := sha512.Sum512(b)
	return "sha512-" + base64.StdEncoding.EncodeToString(s[:])
}

func shasumOf(b []byte) string {
	s := sha1.Sum(b)
	return hex.EncodeToString(s[:])
}

// fakeVersion is one published version on the fake registry.
type fakeVersion struct {
	tgz       []byte
	integrity string // overrides the computed SRI when set ("-" for none)
	shasum    string // overrides the computed shasum when set ("-" for none)
	tarball   string // overrides the tarball URL when set
	deps      map[string]string
}

type fakePackage struct {
	versions map[string]*fakeVersion
	tags     map[string]string
	times    map[string]string
}

// fakeRegistry serves npm's documents the way the public registry does:
// abbreviated or full packuments with ETags, per-version manifests and
// tarballs under /{name}/-/{base}-{version}.tgz. Hooks let a test inject
// failures or measure what reached it.
type fakeRegistry struct {
	t   testing.TB
	srv *httptest.Server

	// tarballBase, when set, is the URL prefix tarballs are advertised at
	// (another server), instead of this registry.
	tarballBase string
	// noVersionEndpoint makes /{name}/{version} answer 404, as some
	// registries do.
	noVersionEndpoint bool
	// before runs first for every request; returning true means it answered.
	before func(w http.ResponseWriter, r *http.Request) bool

	mu       sync.Mutex
	packages map[string]*fakePackage
	requests []seenRequest
}

type seenRequest struct {
	path, accept, auth, ifNoneMatch string
	status                          int
}

func newFakeRegistry(t testing.TB) *fakeRegistry {
	f := &fakeRegistry{t: t, packages: map[string]*fakePackage{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeRegistry) URL() string { return f.srv.URL + "/" }

func (f *fakeRegistry) add(name, version string, v *fakeVersion) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.packages[name]
	if p == nil {
		p = &fakePackage{versions: map[string]*fakeVersion{}, tags: map[string]string{}, times: map[string]string{}}
		f.packages[name] = p
	}
	if v.tgz == nil {
		v.tgz = simpleTgz(f.t, name, version)
	}
	p.versions[version] = v
	p.tags["latest"] = version
	p.times[version] = "2024-01-0" + string(rune('1'+len(p.versions)%9)) + "T00:00:00.000Z"
}

func (f *fakeRegistry) setTag(name, tag, version string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.packages[name].tags[tag] = version
}

// seen returns the requests whose path starts with prefix.
func (f *fakeRegistry) seen(prefix string) []seenRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []seenRequest
	for _, r := range f.requests {
		if strings.HasPrefix(r.path, prefix) {
			out = append(out, r)
		}
	}
	return out
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) Flush() { s.ResponseWriter.(http.Flusher).Flush() }

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (f *fakeRegistry) serve(w http.ResponseWriter, r *http.Request) {
	rec := &statusRecorder{ResponseWriter: w, status: 200}
	defer func() {
		f.mu.Lock()
		f.requests = append(f.requests, seenRequest{
			path: r.URL.EscapedPath(), accept: r.Header.Get("Accept"), auth: r.Header.Get("Authorization"),
			ifNoneMatch: r.Header.Get("If-None-Match"), status: rec.status,
		})
		f.mu.Unlock()
	}()
	if f.before != nil && f.before(rec, r) {
		return
	}
	f.serveRegistry(rec, r)
}

func (f *fakeRegistry) serveRegistry(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.EscapedPath(), "/")
	if i := strings.Index(path, "/-/"); i >= 0 {
		f.serveTarball(w, path[:i], path[i+3:])
		return
	}
	var name, version string
	if strings.HasPrefix(path, "@") && strings.Contains(strings.ToLower(path), "%2f") {
		name, _ = url.PathUnescape(path)
	} else {
		segs := strings.Split(path, "/")
		n := 1
		if strings.HasPrefix(path, "@") {
			n = 2
		}
		if len(segs) < n {
			http.NotFound(w, r)
			return
		}
		name = strings.Join(segs[:n], "/")
		if len(segs) > n {
			version, _ = url.PathUnescape(strings.Join(segs[n:], "/"))
		}
	}
	f.mu.Lock()
	p := f.packages[name]
	f.mu.Unlock()
	if p == nil {
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"error":"Not found"}`))
		return
	}
	if version != "" {
		if f.noVersionEndpoint {
			http.NotFound(w, r)
			return
		}
		f.mu.Lock()
		if v, ok := p.tags[version]; ok {
			version = v
		}
		v := p.versions[version]
		f.mu.Unlock()
		if v == nil {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`"version not found: ` + version + `"`))
			return
		}
		writeJSON(w, f.manifest(name, version, v, true))
		return
	}
	full := !strings.Contains(r.Header.Get("Accept"), "application/vnd.npm.install-v1+json")
	body := f.packument(name, p, full)
	sum := sha1.Sum(body)
	etag := `W/"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if full {
		w.Header().Set("Content-Type", "application/json")
	} else {
		w.Header().Set("Content-Type", "application/vnd.npm.install-v1+json")
	}
	_, _ = w.Write(body)
}

func (f *fakeRegistry) serveTarball(w http.ResponseWriter, name, file string) {
	name, _ = url.PathUnescape(name)
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.packages[name]
	if p == nil {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	base := name[strings.LastIndex(name, "/")+1:]
	version := strings.TrimSuffix(strings.TrimPrefix(file, base+"-"), ".tgz")
	v := p.versions[version]
	if v == nil {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(v.tgz)
}

func (f *fakeRegistry) tarballURL(name, version string) string {
	base := f.tarballBase
	if base == "" {
		base = f.srv.URL
	}
	return base + "/" + name + "/-/" + name[strings.LastIndex(name, "/")+1:] + "-" + version + ".tgz"
}

// manifest is a version document as npm publishes it; the full form has
// the fields the abbreviated one omits.
func (f *fakeRegistry) manifest(name, version string, v *fakeVersion, full bool) map[string]any {
	dist := map[string]any{
		"integrity":    sriOf(v.tgz),
		"shasum":       shasumOf(v.tgz),
		"tarball":      f.tarballURL(name, version),
		"fileCount":    3,
		"unpackedSize": 1234,
		"signatures":   []any{map[string]any{"keyid": "SHA256:test", "sig": "MEUCIQ"}},
	}
	if v.integrity != "" {
		dist["integrity"] = v.integrity
	}
	if v.shasum != "" {
		dist["shasum"] = v.shasum
	}
	for _, k := range []string{"integrity", "shasum"} {
		if dist[k] == "-" {
			delete(dist, k)
		}
	}
	if v.tarball != "" {
		dist["tarball"] = v.tarball
	}
	m := map[string]any{
		"name":           name,
		"version":        version,
		"dependencies":   v.deps,
		"engines":        map[string]any{"node": ">=18"},
		"dist":           dist,
		"_hasShrinkwrap": false,
	}
	if full {
		m["_id"] = name + "@" + version
		m["description"] = "a test package"
		m["license"] = "MIT"
		m["main"] = "index.js"
		m["types"] = "index.d.ts"
		m["maintainers"] = []any{map[string]any{"name": "someone", "email": "someone@example.test"}}
		m["_npmUser"] = map[string]any{"name": "someone", "email": "someone@example.test"}
	}
	return m
}

func (f *fakeRegistry) packument(name string, p *fakePackage, full bool) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	versions := map[string]any{}
	for v, fv := range p.versions {
		versions[v] = f.manifest(name, v, fv, full)
	}
	doc := map[string]any{
		"name":      name,
		"dist-tags": p.tags,
		"versions":  versions,
		"modified":  "2024-02-01T00:00:00.000Z",
	}
	if full {
		times := map[string]any{"created": "2023-01-01T00:00:00.000Z", "modified": "2024-02-01T00:00:00.000Z"}
		for v, t := range p.times {
			times[v] = t
		}
		doc["time"] = times
		doc["_id"] = name
		doc["_rev"] = "12-abc"
		doc["readme"] = "# " + name
	}
	b, err := json.Marshal(doc)
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// testConfig is a Config naming reg as the default registry, built the
// way users write it: through .npmrc text.
func testConfig(t testing.TB, npmrc string) *Config {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".npmrc"), []byte(npmrc), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig("", []string{"HOME=" + home, "PATH="})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testClient is a client over cfg with its own cache and no retry delay.
func testClient(t testing.TB, cfg *Config, cacheDir string, opts ...func(*Options)) *Client {
	t.Helper()
	if cacheDir == "" {
		cacheDir = t.TempDir()
	}
	o := Options{Config: cfg, CacheDir: cacheDir}
	for _, f := range opts {
		f(&o)
	}
	c := New(o)
	c.retryDelay = 0
	return c
}
