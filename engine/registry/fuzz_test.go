package registry

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

func FuzzParseNpmrc(f *testing.F) {
	f.Add([]byte("registry=http://r.test/\n@corp:registry=http://corp.test/\n//r.test/:_authToken=${TOKEN}\n"))
	f.Add([]byte("; comment\n[section]\nkey = \"quoted;value\"\nalways-auth\n_auth=dXNlcjpwYXNz==\n"))
	f.Add([]byte("//h:8080/p/:username=u\n//h:8080/p/:_password=cGFzcw==\nkey=a\\;b # c\n\\${X}=${Y?}\n"))
	env := map[string]string{"TOKEN": "t", "Y": "y"}
	f.Fuzz(func(t *testing.T, data []byte) {
		l := parseNpmrc(data, "fuzz/.npmrc", env)
		for _, e := range l.entries {
			if e.key == "" || e.line <= 0 {
				t.Fatalf("bad entry %+v", e)
			}
		}
		c := &Config{s: &configState{user: l}}
		if err := c.resolve(); err != nil {
			return // an invalid registry URL is an error, not a panic
		}
		for _, r := range append([]string{c.DefaultRegistry}, mapValues(c.Scoped)...) {
			if r == "" {
				continue
			}
			if r[len(r)-1] != '/' {
				t.Fatalf("registry %q does not end in /", r)
			}
		}
		_ = c.String()
		_ = c.RegistryFor("@corp/x")
	})
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func FuzzDecodePackument(f *testing.F) {
	for _, name := range []string{"abbreviated.json", "full.json", "legacy.json", "unpublished.json"} {
		f.Add(readFixture(f, name))
	}
	f.Add([]byte(`{"versions":{"1.0.0":null,"2.0.0":{"dist":[]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := decodePackument(data, "fallback")
		if err != nil {
			return
		}
		if p.Name == "" || p.DistTags == nil || p.Versions == nil {
			t.Fatalf("incomplete packument: %+v", p)
		}
		for v, r := range p.Versions {
			if r.Version == "" || r.Name == "" {
				t.Fatalf("version %q without name/version: %+v", v, r)
			}
		}
		// What the cache keeps reads back as the same document.
		var cache bytes.Buffer
		if err := writePackumentCache(&cache, "etag", time.Unix(0, 0), p); err != nil {
			t.Fatal(err)
		}
		back, err := decodeCached(readCacheBody(t, cache.Bytes()))
		if err != nil {
			t.Fatalf("the cache written for %+v does not read back: %v", p, err)
		}
		if !reflect.DeepEqual(back, p) {
			t.Fatalf("cache round trip:\n%+v\n%+v", p, back)
		}
		_, _ = decodeRelease(data)
	})
}

// readCacheBody is the document part of a cache file.
func readCacheBody(t *testing.T, file []byte) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "doc.json")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	c := readPackumentCache(path)
	if c.body == nil || c.etag != "etag" {
		t.Fatalf("unreadable cache file %q", file)
	}
	return c.body
}

// FuzzExtract feeds arbitrary tar streams (gzipped by the harness, so the
// fuzzer explores tar headers rather than deflate) and arbitrary bytes as
// a .tgz. Extraction may fail but never panics, never writes outside its
// destination and never creates anything but files and directories.
func FuzzExtract(f *testing.F) {
	tarOf := func(entries []tarEntry) []byte {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		for _, e := range entries {
			h := &tar.Header{Name: e.name, Typeflag: e.typeflag, Linkname: e.linkname, Mode: 0o644}
			if h.Typeflag == 0 {
				h.Typeflag = tar.TypeReg
				h.Size = int64(len(e.body))
			}
			_ = tw.WriteHeader(h)
			_, _ = tw.Write([]byte(e.body))
		}
		_ = tw.Close()
		return buf.Bytes()
	}
	f.Add(tarOf([]tarEntry{{name: "package/package.json", body: "{}"}, {name: "package/lib/", typeflag: tar.TypeDir}}), false)
	f.Add(tarOf([]tarEntry{{name: "package/../../x", body: "x"}}), false)
	f.Add(tarOf([]tarEntry{{name: "package/l", typeflag: tar.TypeSymlink, linkname: "../../etc"}, {name: "package/l/x", body: "x"}}), false)
	f.Add(tarOf([]tarEntry{{name: "/abs/x", body: "x"}, {name: "p/h", typeflag: tar.TypeLink, linkname: "/etc/passwd"}}), false)
	f.Add(makeTgz(f, []tarEntry{{name: "package/a.d.ts", body: "export {}"}}), true)
	lim := extractLimits{maxBytes: 1 << 20, maxEntries: 200}
	// One base directory for all runs: t.TempDir per run would dominate
	// the cost of an execution.
	base := f.TempDir()
	var runs atomic.Int64
	f.Fuzz(func(t *testing.T, data []byte, raw bool) {
		parent := filepath.Join(base, strconv.FormatInt(runs.Add(1), 10))
		defer os.RemoveAll(parent)
		dest := filepath.Join(parent, "dest")
		if err := os.MkdirAll(dest, 0o755); err != nil {
			t.Fatal(err)
		}
		in := data
		if !raw {
			var buf bytes.Buffer
			gz := gzip.NewWriter(&buf)
			_, _ = gz.Write(data)
			_ = gz.Close()
			in = buf.Bytes()
		}
		_ = extractTarball(bytes.NewReader(in), dest, lim)
		entries, _ := os.ReadDir(parent)
		if len(entries) != 1 || entries[0].Name() != "dest" {
			t.Fatalf("wrote outside the destination: %v", entries)
		}
		_ = filepath.WalkDir(dest, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !d.Type().IsRegular() {
				t.Fatalf("created %s of type %v", path, d.Type())
			}
			return err
		})
	})
}
