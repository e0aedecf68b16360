package registryserver

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
)

const fixtureDir = "../../fixtures/registry"

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

func keys(v any) []string {
	m, _ := v.(map[string]any)
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var abbreviated = map[string]string{"Accept": "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*"}

func TestProtocol(t *testing.T) {
	_, url := startFixtures(t)
	tests := []struct {
		name       string
		method     string
		path       string
		header     map[string]string
		wantStatus int
		wantType   string
		check      func(t *testing.T, doc map[string]any)
	}{
		{
			name: "abbreviated packument", path: "react", header: abbreviated,
			wantStatus: 200, wantType: "application/vnd.npm.install-v1+json",
			check: func(t *testing.T, doc map[string]any) {
				if got := keys(doc); !reflect.DeepEqual(got, []string{"dist-tags", "modified", "name", "versions"}) {
					t.Errorf("top-level keys = %v", got)
				}
				if got := keys(doc["versions"]); !reflect.DeepEqual(got, []string{"18.2.0", "18.3.1", "19.0.0", "19.1.0"}) {
					t.Errorf("versions = %v", got)
				}
				if got := at(doc, "dist-tags", "latest"); got != "19.1.0" {
					t.Errorf("latest = %v", got)
				}
				if got := at(doc, "modified"); got != "2025-03-28T19:59:42.053Z" {
					t.Errorf("modified = %v, want time.json's", got)
				}
				if got := at(doc, "versions", "19.1.0", "description"); got != nil {
					t.Errorf("abbreviated version carries description %v", got)
				}
				if got := at(doc, "versions", "19.1.0", "dist", "tarball"); got != url+"react/-/react-19.1.0.tgz" {
					t.Errorf("tarball = %v", got)
				}
			},
		},
		{
			name: "full packument", path: "react",
			wantStatus: 200, wantType: "application/json",
			check: func(t *testing.T, doc map[string]any) {
				if got := at(doc, "time", "18.3.1"); got != "2024-04-26T16:42:56.655Z" {
					t.Errorf("time[18.3.1] = %v", got)
				}
				if got := at(doc, "time", "created"); got != "2011-10-26T17:46:21.942Z" {
					t.Errorf("time.created = %v", got)
				}
				if at(doc, "description") == nil || at(doc, "versions", "18.2.0", "description") == nil {
					t.Error("full document lacks descriptions")
				}
				if got := at(doc, "versions", "18.2.0", "_id"); got != "react@18.2.0" {
					t.Errorf("_id = %v", got)
				}
			},
		},
		{
			name: "scoped name encoded", path: "@types%2freact", header: abbreviated, wantStatus: 200,
			check: func(t *testing.T, doc map[string]any) {
				if doc["name"] != "@types/react" {
					t.Errorf("name = %v", doc["name"])
				}
				if got := at(doc, "versions", "19.1.2", "dist", "tarball"); got != url+"@types/react/-/react-19.1.2.tgz" {
					t.Errorf("tarball = %v", got)
				}
			},
		},
		{name: "scoped name upper-case escape", path: "%40types%2Freact", header: abbreviated, wantStatus: 200},
		{name: "scoped name unencoded", path: "@types/react", header: abbreviated, wantStatus: 200},
		{
			name: "peer dependencies and meta", path: "ai", header: abbreviated, wantStatus: 200,
			check: func(t *testing.T, doc map[string]any) {
				if got := at(doc, "versions", "3.4.0", "dependencies", "@ai-sdk/provider"); got != "0.0.26" {
					t.Errorf("ai 3.4.0 provider pin = %v", got)
				}
				if got := at(doc, "versions", "3.4.0", "peerDependenciesMeta", "zod", "optional"); got != true {
					t.Errorf("peerDependenciesMeta = %v", got)
				}
			},
		},
		{
			name: "deprecated", path: "left-pad", header: abbreviated, wantStatus: 200,
			check: func(t *testing.T, doc map[string]any) {
				if got := at(doc, "versions", "1.3.0", "deprecated"); got != "use String.prototype.padStart()" {
					t.Errorf("deprecated = %v", got)
				}
			},
		},
		{
			name: "prerelease tag", path: "chalk", header: abbreviated, wantStatus: 200,
			check: func(t *testing.T, doc map[string]any) {
				want := map[string]any{"latest": "5.4.1", "next": "6.0.0-beta.1"}
				if got := doc["dist-tags"]; !reflect.DeepEqual(got, want) {
					t.Errorf("dist-tags = %v", got)
				}
			},
		},
		{
			name: "synthesized time in semver order", path: "is-number", wantStatus: 200,
			check: func(t *testing.T, doc map[string]any) {
				want := map[string]any{
					"created":  "2020-01-01T00:00:00.000Z",
					"6.0.0":    "2020-01-01T00:00:00.000Z",
					"7.0.0":    "2020-01-02T00:00:00.000Z",
					"modified": "2020-01-02T00:00:00.000Z",
				}
				if got := doc["time"]; !reflect.DeepEqual(got, want) {
					t.Errorf("time = %v", got)
				}
			},
		},
		{
			name: "version endpoint", path: "react-dom/19.1.0", wantStatus: 200, wantType: "application/json",
			check: func(t *testing.T, doc map[string]any) {
				if got := at(doc, "peerDependencies", "react"); got != "^19.1.0" {
					t.Errorf("peer react = %v", got)
				}
				if at(doc, "dist", "integrity") == nil {
					t.Error("no dist.integrity")
				}
			},
		},
		{
			name: "version endpoint by tag", path: "chalk/next", wantStatus: 200,
			check: func(t *testing.T, doc map[string]any) {
				if doc["version"] != "6.0.0-beta.1" {
					t.Errorf("version = %v", doc["version"])
				}
			},
		},
		{
			name: "scoped version endpoint", path: "@aws-sdk%2fclient-s3/3.600.0", wantStatus: 200,
			check: func(t *testing.T, doc map[string]any) {
				if got := at(doc, "dependencies", "@aws-sdk/core"); got != "3.600.0" {
					t.Errorf("core dependency = %v", got)
				}
			},
		},
		{
			name: "unknown version", path: "react/99.0.0", wantStatus: 404,
			check: func(t *testing.T, doc map[string]any) {
				if doc["error"] != "version not found: 99.0.0" {
					t.Errorf("error = %v", doc["error"])
				}
			},
		},
		{
			name: "unknown package", path: "no-such-package", header: abbreviated, wantStatus: 404,
			check: func(t *testing.T, doc map[string]any) {
				if !reflect.DeepEqual(doc, map[string]any{"error": "Not found"}) {
					t.Errorf("body = %v", doc)
				}
			},
		},
		{name: "tarball with wrong basename", path: "react/-/react-dom-19.1.0.tgz", wantStatus: 404},
		{name: "tarball of unknown version", path: "react/-/react-1.0.0.tgz", wantStatus: 404},
		{name: "bare scope", path: "@types", wantStatus: 404},
		{name: "deeper path", path: "react/19.1.0/extra", wantStatus: 404},
		{name: "write method", method: http.MethodPut, path: "react", wantStatus: 405},
		{name: "ping", path: "-/ping", wantStatus: 200},
		{name: "npm audit bulk", method: http.MethodPost, path: "-/npm/v1/security/advisories/bulk", wantStatus: 200},
		{
			name: "quick audit", method: http.MethodPost, path: "-/npm/v1/security/audits/quick", wantStatus: 200,
			check: func(t *testing.T, doc map[string]any) {
				if at(doc, "metadata", "vulnerabilities", "critical") != float64(0) {
					t.Errorf("audit = %v", doc)
				}
			},
		},
		{name: "unknown side endpoint", path: "-/v1/search", wantStatus: 404},
		{name: "whoami without token", path: "-/whoami", wantStatus: 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := tt.method
			if method == "" {
				method = http.MethodGet
			}
			res, err := do(t, nil, method, url+tt.path, tt.header)
			if err != nil {
				t.Fatal(err)
			}
			if res.status != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", res.status, tt.wantStatus, res.body)
			}
			if tt.wantType != "" && res.header.Get("Content-Type") != tt.wantType {
				t.Errorf("Content-Type = %q, want %q", res.header.Get("Content-Type"), tt.wantType)
			}
			if tt.check != nil {
				tt.check(t, decode(t, res.body))
			}
		})
	}
}

// TestAbbreviatedFieldsOnly keeps the abbreviated document to the fields npm
// documents for it, so a client that needs time or descriptions must ask for
// the full one, as against the real registry.
func TestAbbreviatedFieldsOnly(t *testing.T) {
	reg, url := startFixtures(t)
	allowed := map[string]bool{"dist": true, "hasInstallScript": true}
	for _, f := range abbreviatedFields {
		allowed[f] = true
	}
	for _, name := range reg.Packages() {
		doc := decode(t, get(t, url+name, abbreviated).body)
		for v, m := range doc["versions"].(map[string]any) {
			for k := range m.(map[string]any) {
				if !allowed[k] {
					t.Errorf("%s@%s: abbreviated version has %q", name, v, k)
				}
			}
		}
	}
}

func TestTarballMatchesDist(t *testing.T) {
	reg, url := startFixtures(t)
	for _, name := range reg.Packages() {
		doc := decode(t, get(t, url+name, abbreviated).body)
		for v := range doc["versions"].(map[string]any) {
			dist := at(doc, "versions", v, "dist").(map[string]any)
			res := get(t, dist["tarball"].(string), nil)
			if res.status != 200 || res.header.Get("Content-Type") != "application/octet-stream" {
				t.Fatalf("%s@%s tarball: %d %s", name, v, res.status, res.header.Get("Content-Type"))
			}
			s512 := sha512.Sum512(res.body)
			if got := "sha512-" + base64.StdEncoding.EncodeToString(s512[:]); got != dist["integrity"] {
				t.Errorf("%s@%s integrity = %s, document says %s", name, v, got, dist["integrity"])
			}
			s1 := sha1.Sum(res.body)
			if got := hex.EncodeToString(s1[:]); got != dist["shasum"] {
				t.Errorf("%s@%s shasum = %s, document says %s", name, v, got, dist["shasum"])
			}
			entries := untar(t, res.body)
			var m map[string]any
			if err := json.Unmarshal(entries["package/package.json"].body, &m); err != nil {
				t.Fatalf("%s@%s: packed package.json: %v", name, v, err)
			}
			if m["name"] != name || m["version"] != v {
				t.Errorf("%s@%s: packed package.json says %v@%v", name, v, m["name"], m["version"])
			}
		}
	}
}

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

func TestTarballLayoutIsFixed(t *testing.T) {
	files := map[string][]byte{
		"package.json": []byte(`{"name":"x","version":"1.0.0"}`),
		"index.js":     []byte("module.exports = 1;\n"),
		"lib/deep/" + strings.Repeat("long-name-", 12) + ".d.ts": []byte("export {};\n"),
	}
	tb, err := pack(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	entries := untar(t, tb.data)
	if len(entries) != 3 || tb.fileCount != 3 {
		t.Fatalf("entries = %d, fileCount = %d", len(entries), tb.fileCount)
	}
	for name, e := range entries {
		if !strings.HasPrefix(name, "package/") {
			t.Errorf("%s: not under package/", name)
		}
		if e.hdr.Mode != 0o644 || !e.hdr.ModTime.Equal(packMTime) || e.hdr.Uid != 0 || e.hdr.Uname != "" {
			t.Errorf("%s: mode %o mtime %v uid %d uname %q", name, e.hdr.Mode, e.hdr.ModTime, e.hdr.Uid, e.hdr.Uname)
		}
		if want := files[strings.TrimPrefix(name, "package/")]; !bytes.Equal(e.body, want) {
			t.Errorf("%s: body %q, want %q", name, e.body, want)
		}
	}
	zr, err := gzip.NewReader(bytes.NewReader(tb.data))
	if err != nil {
		t.Fatal(err)
	}
	if !zr.ModTime.IsZero() || zr.Name != "" {
		t.Errorf("gzip header carries mtime %v name %q", zr.ModTime, zr.Name)
	}
}

// TestIntegrityIsStable pins the bytes of one fixture tarball. Fixture
// lockfiles written by real package managers record this integrity; if this
// test fails, every lockfile under fixtures/repos is invalid and must be
// regenerated (fixtures/repos/regen.sh), so change the packer only on purpose.
func TestIntegrityIsStable(t *testing.T) {
	const want = "sha512-VDJ9SmbOP7wIErPPHwB0ADi/mB2rfbe9XtOQ/7uHUnGuHqKwUqbVVKpCt9GL1lbaEJETwAKCRJz5SuNpwKtOww=="
	a, err := New(os.DirFS(fixtureDir))
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.Integrity("left-pad", "1.3.0")
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("left-pad@1.3.0 integrity = %s, want %s", got, want)
	}

	// The same files through another fs.FS (as embedded for `uptide demo`)
	// and in another registry give the same bytes.
	mem := fstest.MapFS{}
	for _, p := range []string{"package.json", "index.js", "index.d.ts"} {
		data, err := os.ReadFile(fixtureDir + "/left-pad/1.3.0/" + p)
		if err != nil {
			t.Fatal(err)
		}
		mem["left-pad/1.3.0/"+p] = &fstest.MapFile{Data: data}
	}
	b, err := New(mem)
	if err != nil {
		t.Fatal(err)
	}
	if other, _ := b.Integrity("left-pad", "1.3.0"); other != got {
		t.Errorf("MapFS integrity %s differs from DirFS %s", other, got)
	}
}

func TestETag(t *testing.T) {
	reg, url := startFixtures(t)
	first := get(t, url+"zod", abbreviated)
	etag := first.header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	full := get(t, url+"zod", nil)
	if full.header.Get("ETag") == etag {
		t.Error("abbreviated and full documents share an ETag")
	}
	if full.header.Get("Vary") != "Accept" {
		t.Errorf("Vary = %q", full.header.Get("Vary"))
	}
	tests := []struct {
		name        string
		ifNoneMatch string
		want        int
	}{
		{"same tag", etag, 304},
		{"weak form", "W/" + etag, 304},
		{"in a list", `"other", ` + etag, 304},
		{"star", "*", 304},
		{"stale tag", `"stale"`, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{"If-None-Match": tt.ifNoneMatch}
			for k, v := range abbreviated {
				h[k] = v
			}
			res := get(t, url+"zod", h)
			if res.status != tt.want {
				t.Fatalf("status = %d, want %d", res.status, tt.want)
			}
			if tt.want == 304 && len(res.body) != 0 {
				t.Errorf("304 with a body of %d bytes", len(res.body))
			}
			if res.header.Get("ETag") != etag {
				t.Errorf("ETag = %q, want %q", res.header.Get("ETag"), etag)
			}
		})
	}

	t.Run("publish changes the tag", func(t *testing.T) {
		if err := reg.Add(map[string]any{"name": "zod", "version": "4.2.0"}, nil); err != nil {
			t.Fatal(err)
		}
		h := map[string]string{"If-None-Match": etag}
		for k, v := range abbreviated {
			h[k] = v
		}
		res := get(t, url+"zod", h)
		if res.status != 200 || res.header.Get("ETag") == etag {
			t.Fatalf("after publish: status %d ETag %q", res.status, res.header.Get("ETag"))
		}
		if got := at(decode(t, res.body), "dist-tags", "latest"); got != "4.2.0" {
			t.Errorf("latest = %v", got)
		}
	})

	t.Run("tarball", func(t *testing.T) {
		res := get(t, url+"zod/-/zod-4.0.0.tgz", nil)
		again := get(t, url+"zod/-/zod-4.0.0.tgz", map[string]string{"If-None-Match": res.header.Get("ETag")})
		if again.status != 304 {
			t.Errorf("tarball revalidation: %d", again.status)
		}
	})
}
