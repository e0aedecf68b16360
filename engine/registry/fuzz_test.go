package registry

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
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

// FuzzExtract feeds the extractor hostile archives. Extraction may fail but
// never panics, never writes outside its destination and never creates
// anything but files and directories.
//
// The input is mostly a compact list of entries the harness writes as a
// tar (tarSpec): a raw tar is 512 bytes per header plus padding and a
// 1 KB trailer, and the fuzzer spent its minute minimising the first
// 2-3 KB input that found new coverage instead of exploring. What is
// hostile in a tarball is its entries' names, types, links, modes and
// sizes, which the compact form reaches in a few bytes; archive/tar's own
// header parsing has its own fuzz target in the Go tree. kind&3 also
// lets the same bytes be a raw tar stream (gzipped by the harness) or a
// raw .tgz.
func FuzzExtract(f *testing.F) {
	const (
		kindSpec = iota
		kindTar
		kindTgz
	)
	for _, spec := range []string{
		"5p/",
		"0p/package.json||{}\n5p/lib/",
		"0p/../../x||x",
		"0/abs/x||x",
		"0C:/x||x",
		"0p/a\\..\\..\\x||x",
		"2p/l|../../etc\n0p/l/x||x",
		"1p/h|/etc/passwd",
		"0p/a||x\n0p/a/b||x",
		"5p/d/\n0p/d||x",
		"3p/dev|\n4p/blk|\n6p/fifo|",
		"0p/bin||#!/bin/sh",
		"7p/cont||x",
		"0p/é||x",                                // a PAX header: the name is not ASCII
		"0p/" + strings.Repeat("a", 101) + "||x", // a PAX header: too long for ustar
	} {
		f.Add([]byte(spec), byte(kindSpec))
		f.Add([]byte(spec), byte(kindSpec|4)) // executable modes
	}
	f.Add(tarSpec([]byte("0p/a||x")), byte(kindTar))
	f.Add(makeTgz(f, []tarEntry{{name: "p/a", body: "x"}}), byte(kindTgz))
	lim := extractLimits{maxBytes: 1 << 20, maxEntries: 200}
	// Stored, not deflated, by one writer per worker: a gzip writer's
	// allocation costs more than the extraction it feeds.
	writers := sync.Pool{New: func() any {
		gz, _ := gzip.NewWriterLevel(nil, gzip.NoCompression)
		return gz
	}}
	// One base directory for all runs: t.TempDir per run would dominate
	// the cost of an execution.
	base := f.TempDir()
	var runs atomic.Int64
	f.Fuzz(func(t *testing.T, data []byte, kind byte) {
		run := strconv.FormatInt(runs.Add(1), 10)
		parent := filepath.Join(base, run)
		defer os.RemoveAll(parent)
		dest := filepath.Join(parent, "dest")
		if err := os.MkdirAll(dest, 0o755); err != nil {
			t.Fatal(err)
		}
		in := data
		switch kind & 3 {
		case kindSpec:
			in = tarSpecMode(data, kind&4 != 0)
		}
		if kind&3 != kindTgz {
			var buf bytes.Buffer
			gz := writers.Get().(*gzip.Writer)
			gz.Reset(&buf)
			_, _ = gz.Write(in)
			_ = gz.Close()
			writers.Put(gz)
			in = buf.Bytes()
		}
		_ = extractTarball(bytes.NewReader(in), dest, lim)
		// Runs in one worker follow one another: base holds this run's
		// folder only, parent its destination only, whatever an entry
		// climbed to.
		for _, dir := range []string{base, parent} {
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 || entries[0].Name() != run && entries[0].Name() != "dest" {
				t.Fatalf("wrote outside the destination, into %s: %v", dir, entries)
			}
		}
		_ = filepath.WalkDir(dest, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !d.Type().IsRegular() {
				t.Fatalf("created %s of type %v", path, d.Type())
			}
			return err
		})
	})
}

// tarSpec writes a tar from a compact list of entries, one a line:
// the type flag byte, then name|linkname|body (a body's "\n" is a newline).
// No end-of-archive blocks: a stream that ends on a header boundary ends
// the archive.
func tarSpec(spec []byte) []byte { return tarSpecMode(spec, false) }

func tarSpecMode(spec []byte, exec bool) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, line := range bytes.Split(spec, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		fields := strings.SplitN(string(line[1:]), "|", 3)
		for len(fields) < 3 {
			fields = append(fields, "")
		}
		body := strings.ReplaceAll(fields[2], `\n`, "\n")
		h := &tar.Header{Typeflag: line[0], Name: fields[0], Linkname: fields[1], Mode: 0o644}
		if exec {
			h.Mode = 0o4755
		}
		if h.Typeflag == tar.TypeReg || h.Typeflag == tar.TypeCont || h.Typeflag == tar.TypeGNUSparse {
			h.Size = int64(len(body))
		}
		if tw.WriteHeader(h) != nil {
			break
		}
		if h.Size > 0 {
			_, _ = tw.Write([]byte(body))
		}
	}
	_ = tw.Flush()
	return buf.Bytes()
}
