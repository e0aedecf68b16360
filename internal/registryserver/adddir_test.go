package registryserver

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A package published from a directory keeps its executable files
// executable (a native compiler's binary) and leaves a cache's dot files out.
func TestAddDirKeepsExecutables(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string, mode os.FileMode) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "@native/tool", "version": "1.2.3"}`, 0o644)
	write("lib/tool", "#!/bin/sh\n", 0o755)
	write("lib/readme.txt", "hi\n", 0o644)
	write(".complete", "", 0o644)
	r, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.AddDir(dir); err != nil {
		t.Fatal(err)
	}
	if err := r.AddDir(dir); err == nil {
		t.Error("publishing the same version twice succeeded")
	}
	tb, err := r.pkgs["@native/tool"].versions["1.2.3"].tarball()
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(tb.data))
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]int64{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		modes[h.Name] = h.Mode
	}
	want := map[string]int64{"package/package.json": 0o644, "package/lib/tool": 0o755, "package/lib/readme.txt": 0o644}
	if len(modes) != len(want) {
		t.Errorf("packed %v, want %v", modes, want)
	}
	for n, m := range want {
		if modes[n] != m {
			t.Errorf("%s packed with mode %o, want %o", n, modes[n], m)
		}
	}
}
