package registryserver

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/uptide/uptide/internal/testkit/regread"
)

const fixtureDir = "../../fixtures/registry"

// startFixtures serves the real fixture tree on a loopback port.
func startFixtures(t testing.TB) (*Registry, string) {
	t.Helper()
	return regread.StartFixtures(t, New, fixtureDir)
}

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
			name: "abbreviated packument", path: "react", header: regread.Abbreviated,
			wantStatus: 200, wantType: "application/vnd.npm.install-v1+json",
			check: func(t *testing.T, doc map[string]any) {
				if got := regread.Keys(doc); !reflect.DeepEqual(got, []string{"dist-tags", "modified", "name", "versions"}) {
					t.Errorf("top-level keys = %v", got)
				}
				if got := regread.Keys(doc["versions"]); !reflect.DeepEqual(got, []string{"18.2.0", "18.3.1", "19.0.0", "19.1.0"}) {
					t.Errorf("versions = %v", got)
				}
				if got := regread.At(doc, "dist-tags", "latest"); got != "19.1.0" {
					t.Errorf("latest = %v", got)
				}
				if got := regread.At(doc, "modified"); got != "2025-03-28T19:59:42.053Z" {
					t.Errorf("modified = %v, want time.json's", got)
				}
				if got := regread.At(doc, "versions", "19.1.0", "description"); got != nil {
					t.Errorf("abbreviated version carries description %v", got)
				}
				if got := regread.At(doc, "versions", "19.1.0", "dist", "tarball"); got != url+"react/-/react-19.1.0.tgz" {
					t.Errorf("tarball = %v", got)
				}
			},
		},
		{
			name: "full packument", path: "react",
			wantStatus: 200, wantType: "application/json",
			check: func(t *testing.T, doc map[string]any) {
				if got := regread.At(doc, "time", "18.3.1"); got != "2024-04-26T16:42:56.655Z" {
					t.Errorf("time[18.3.1] = %v", got)
				}
				if got := regread.At(doc, "time", "created"); got != "2011-10-26T17:46:21.942Z" {
					t.Errorf("time.created = %v", got)
				}
				if regread.At(doc, "description") == nil || regread.At(doc, "versions", "18.2.0", "description") == nil {
					t.Error("full document lacks descriptions")
				}
				if got := regread.At(doc, "versions", "18.2.0", "_id"); got != "react@18.2.0" {
					t.Errorf("_id = %v", got)
				}
			},
		},
		{
			name: "scoped name encoded", path: "@types%2freact", header: regread.Abbreviated, wantStatus: 200,
			check: func(t *testing.T, doc map[string]any) {
				if doc["name"] != "@types/react" {
					t.Errorf("name = %v", doc["name"])
				}
				if got := regread.At(doc, "versions", "19.1.2", "dist", "tarball"); got != url+"@types/react/-/react-19.1.2.tgz" {
					t.Errorf("tarball = %v", got)
				}
			},
		},
		{name: "scoped name upper-case escape", path: "%40types%2Freact", header: regread.Abbreviated, wantStatus: 200},
		{name: "scoped name unencoded", path: "@types/react", header: regread.Abbreviated, wantStatus: 200},
		{
			name: "peer dependencies and meta", path: "ai", header: regread.Abbreviated, wantStatus: 200,
			check: func(t *testing.T, doc map[string]any) {
				if got := regread.At(doc, "versions", "3.4.0", "dependencies", "@ai-sdk/provider"); got != "0.0.26" {
					t.Errorf("ai 3.4.0 provider pin = %v", got)
				}
				if got := regread.At(doc, "versions", "3.4.0", "peerDependenciesMeta", "zod", "optional"); got != true {
					t.Errorf("peerDependenciesMeta = %v", got)
				}
			},
		},
		{
			name: "deprecated", path: "left-pad", header: regread.Abbreviated, wantStatus: 200,
			check: func(t *testing.T, doc map[string]any) {
				if got := regread.At(doc, "versions", "1.3.0", "deprecated"); got != "use String.prototype.padStart()" {
					t.Errorf("deprecated = %v", got)
				}
			},
		},
		{
			name: "prerelease tag", path: "chalk", header: regread.Abbreviated, wantStatus: 200,
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
				if got := regread.At(doc, "peerDependencies", "react"); got != "^19.1.0" {
					t.Errorf("peer react = %v", got)
				}
				if regread.At(doc, "dist", "integrity") == nil {
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
				if got := regread.At(doc, "dependencies", "@aws-sdk/core"); got != "3.600.0" {
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
			name: "unknown package", path: "no-such-package", header: regread.Abbreviated, wantStatus: 404,
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
				if regread.At(doc, "metadata", "vulnerabilities", "critical") != float64(0) {
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
			res, err := regread.Do(t, nil, method, url+tt.path, tt.header)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", res.Status, tt.wantStatus, res.Body)
			}
			if tt.wantType != "" && res.Header.Get("Content-Type") != tt.wantType {
				t.Errorf("Content-Type = %q, want %q", res.Header.Get("Content-Type"), tt.wantType)
			}
			if tt.check != nil {
				tt.check(t, regread.Decode(t, res.Body))
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
		doc := regread.Decode(t, regread.Get(t, url+name, regread.Abbreviated).Body)
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
		doc := regread.Decode(t, regread.Get(t, url+name, regread.Abbreviated).Body)
		for v := range doc["versions"].(map[string]any) {
			dist := regread.At(doc, "versions", v, "dist").(map[string]any)
			res := regread.Get(t, dist["tarball"].(string), nil)
			if res.Status != 200 || res.Header.Get("Content-Type") != "application/octet-stream" {
				t.Fatalf("%s@%s tarball: %d %s", name, v, res.Status, res.Header.Get("Content-Type"))
			}
			s512 := sha512.Sum512(res.Body)
			if got := "sha512-" + base64.StdEncoding.EncodeToString(s512[:]); got != dist["integrity"] {
				t.Errorf("%s@%s integrity = %s, document says %s", name, v, got, dist["integrity"])
			}
			s1 := sha1.Sum(res.Body)
			if got := hex.EncodeToString(s1[:]); got != dist["shasum"] {
				t.Errorf("%s@%s shasum = %s, document says %s", name, v, got, dist["shasum"])
			}
			entries := regread.Untar(t, res.Body)
			var m map[string]any
			if err := json.Unmarshal(entries["package/package.json"].Body, &m); err != nil {
				t.Fatalf("%s@%s: packed package.json: %v", name, v, err)
			}
			if m["name"] != name || m["version"] != v {
				t.Errorf("%s@%s: packed package.json says %v@%v", name, v, m["name"], m["version"])
			}
		}
	}
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
	entries := regread.Untar(t, tb.data)
	if len(entries) != 3 || tb.fileCount != 3 {
		t.Fatalf("entries = %d, fileCount = %d", len(entries), tb.fileCount)
	}
	for name, e := range entries {
		if !strings.HasPrefix(name, "package/") {
			t.Errorf("%s: not under package/", name)
		}
		if e.Hdr.Mode != 0o644 || !e.Hdr.ModTime.Equal(packMTime) || e.Hdr.Uid != 0 || e.Hdr.Uname != "" {
			t.Errorf("%s: mode %o mtime %v uid %d uname %q", name, e.Hdr.Mode, e.Hdr.ModTime, e.Hdr.Uid, e.Hdr.Uname)
		}
		if want := files[strings.TrimPrefix(name, "package/")]; !bytes.Equal(e.Body, want) {
			t.Errorf("%s: body %q, want %q", name, e.Body, want)
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
	first := regread.Get(t, url+"zod", regread.Abbreviated)
	etag := first.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	full := regread.Get(t, url+"zod", nil)
	if full.Header.Get("ETag") == etag {
		t.Error("abbreviated and full documents share an ETag")
	}
	if full.Header.Get("Vary") != "Accept" {
		t.Errorf("Vary = %q", full.Header.Get("Vary"))
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
			for k, v := range regread.Abbreviated {
				h[k] = v
			}
			res := regread.Get(t, url+"zod", h)
			if res.Status != tt.want {
				t.Fatalf("status = %d, want %d", res.Status, tt.want)
			}
			if tt.want == 304 && len(res.Body) != 0 {
				t.Errorf("304 with a body of %d bytes", len(res.Body))
			}
			if res.Header.Get("ETag") != etag {
				t.Errorf("ETag = %q, want %q", res.Header.Get("ETag"), etag)
			}
		})
	}

	t.Run("publish changes the tag", func(t *testing.T) {
		if err := reg.Add(map[string]any{"name": "zod", "version": "4.2.0"}, nil); err != nil {
			t.Fatal(err)
		}
		h := map[string]string{"If-None-Match": etag}
		for k, v := range regread.Abbreviated {
			h[k] = v
		}
		res := regread.Get(t, url+"zod", h)
		if res.Status != 200 || res.Header.Get("ETag") == etag {
			t.Fatalf("after publish: status %d ETag %q", res.Status, res.Header.Get("ETag"))
		}
		if got := regread.At(regread.Decode(t, res.Body), "dist-tags", "latest"); got != "4.2.0" {
			t.Errorf("latest = %v", got)
		}
	})

	t.Run("tarball", func(t *testing.T) {
		res := regread.Get(t, url+"zod/-/zod-4.0.0.tgz", nil)
		again := regread.Get(t, url+"zod/-/zod-4.0.0.tgz", map[string]string{"If-None-Match": res.Header.Get("ETag")})
		if again.Status != 304 {
			t.Errorf("tarball revalidation: %d", again.Status)
		}
	})
}
