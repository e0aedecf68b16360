package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/packs/stripe"
	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// TestGenFromRegistry: the generator fetches the stripe release through
// the registry the npm configuration names (here the in-repo test
// registry, named by npm_config_registry), reads the CHANGELOG.md its
// tarball ships, and writes a snapshot that names the release and the
// tarball's integrity and reads back with its checksum.
func TestGenFromRegistry(t *testing.T) {
	changelog, err := os.ReadFile("../testdata/CHANGELOG.excerpt.md")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := testregistry.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	manifest := map[string]any{"name": "stripe", "version": "17.7.0"}
	if err := reg.Add(manifest, map[string]string{"CHANGELOG.md": string(changelog), "index.js": "module.exports = {};\n"}); err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(map[string]any{"name": "stripe", "version": "17.6.0"}, map[string]string{"index.js": "module.exports = {};\n"}); err != nil {
		t.Fatal(err)
	}
	base, err := reg.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	dir := t.TempDir()
	userrc := filepath.Join(dir, "npmrc")
	if err := os.WriteFile(userrc, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("npm_config_userconfig", userrc)
	t.Setenv("npm_config_registry", base)
	t.Setenv("UPTIDE_CACHE_DIR", filepath.Join(dir, "cache"))
	t.Chdir(dir)

	out := filepath.Join(dir, "changelog.json")
	if err := run([]string{"-version", "17.7.0", "-out", out}, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := stripe.Decode(b)
	if err != nil {
		t.Fatalf("the snapshot written does not read back: %v", err)
	}
	integrity, err := reg.Integrity("stripe", "17.7.0")
	if err != nil {
		t.Fatal(err)
	}
	if snap.Source.Package != "stripe@17.7.0" || snap.Source.Integrity != integrity || snap.Source.File != "CHANGELOG.md" {
		t.Errorf("source %+v, want stripe@17.7.0 with integrity %s", snap.Source, integrity)
	}
	if want := []string{"2023-08-16", "2024-04-10", "2024-09-30.acacia", "2025-02-24.acacia"}; !slices.Equal(snap.Versions, want) {
		t.Errorf("versions %q, want %q", snap.Versions, want)
	}
	if strings.Contains(string(b), base) || strings.Contains(string(b), "127.0.0.1") {
		t.Error("the snapshot names the registry it was fetched from")
	}

	// A release without a CHANGELOG.md is an error naming it, and the
	// snapshot already written stays as it was.
	err = run([]string{"-version", "17.6.0", "-out", out}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "stripe@17.6.0 ships no CHANGELOG.md") {
		t.Errorf("17.6.0: %v", err)
	}
	if again, _ := os.ReadFile(out); string(again) != string(b) {
		t.Error("a failed run changed the snapshot")
	}
}

// TestGenFlags: a local CHANGELOG needs the release it comes from; stray
// arguments and -package without -changelog are refused.
func TestGenFlags(t *testing.T) {
	out := filepath.Join(t.TempDir(), "changelog.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-changelog", "../testdata/CHANGELOG.excerpt.md", "-out", out}, "needs -package stripe@<version>"},
		{[]string{"-package", "stripe@1.0.0", "-out", out}, "-package only goes with -changelog"},
		{[]string{"-out", out, "extra"}, "unexpected arguments"},
		{[]string{"-changelog", "../testdata/CHANGELOG.excerpt.golden.json", "-package", "stripe@17.7.0", "-out", out}, "no release heading"},
	} {
		if err := run(c.args, io.Discard); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("gen %q: %v, want an error with %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused run wrote %s", out)
	}
	if err := run([]string{"-changelog", "../testdata/CHANGELOG.excerpt.md", "-package", "stripe@17.7.0", "-out", out}, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("../testdata/CHANGELOG.excerpt.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := stripe.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	want, err := stripe.Decode(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got.Checksum != want.Checksum || got.Source.Package != "stripe@17.7.0" || got.Source.Integrity != "" || got.Source.SHA256 != want.Source.SHA256 {
		t.Errorf("gen -changelog: %+v checksum %s, want the golden's entries (%s) with no integrity", got.Source, got.Checksum, want.Checksum)
	}
}
