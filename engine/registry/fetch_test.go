package registry

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFetch(t *testing.T) {
	tests := []struct {
		name              string
		pkg               string
		ask               string
		noVersionEndpoint bool
		wantVersion       string
		wantProbe         bool // the per-version endpoint answered
	}{
		{"exact version", "left-pad", "1.0.0", false, "1.0.0", true},
		{"dist-tag", "left-pad", "next", false, "2.0.0-beta.1", true},
		{"empty means latest", "left-pad", "", false, "1.1.0", true},
		{"v prefix", "left-pad", "v1.0.0", false, "1.0.0", true},
		{"scoped", "@corp/widgets", "3.0.0", false, "3.0.0", true},
		{"fallback to packument", "left-pad", "1.0.0", true, "1.0.0", false},
		{"fallback resolves tags", "left-pad", "next", true, "2.0.0-beta.1", false},
		{"scoped fallback", "@corp/widgets", "latest", true, "3.0.0", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := newFakeRegistry(t)
			reg.noVersionEndpoint = tt.noVersionEndpoint
			reg.add("left-pad", "1.0.0", &fakeVersion{})
			reg.add("left-pad", "2.0.0-beta.1", &fakeVersion{})
			reg.add("left-pad", "1.1.0", &fakeVersion{})
			reg.setTag("left-pad", "next", "2.0.0-beta.1")
			reg.add("@corp/widgets", "3.0.0", &fakeVersion{})
			cacheDir := t.TempDir()
			c := testClient(t, testConfig(t, "registry="+reg.URL()), cacheDir)
			pkg, err := c.Fetch(context.Background(), tt.pkg, tt.ask)
			if err != nil {
				t.Fatal(err)
			}
			defer pkg.Remove()
			if pkg.Name != tt.pkg || pkg.Version != tt.wantVersion || pkg.Manifest.Version != tt.wantVersion {
				t.Errorf("got %s@%s (manifest %s), want %s@%s", pkg.Name, pkg.Version, pkg.Manifest.Version, tt.pkg, tt.wantVersion)
			}
			if dir, base := filepath.Split(pkg.Tarball); filepath.Clean(dir) != filepath.Join(cacheDir, "tarballs", filepath.FromSlash(tt.pkg)) ||
				!strings.HasPrefix(base, tt.wantVersion+"-") || !strings.HasSuffix(base, ".tgz") {
				t.Errorf("Tarball = %s, want %s-<key>.tgz in the cache's tarballs/%s", pkg.Tarball, tt.wantVersion, tt.pkg)
			}
			b, err := os.ReadFile(filepath.Join(pkg.Dir, "package.json"))
			if err != nil || !strings.Contains(string(b), `"version":"`+tt.wantVersion+`"`) {
				t.Errorf("extracted package.json: %s, %v", b, err)
			}
			if _, err := os.Stat(filepath.Join(pkg.Dir, "lib", "util.js")); err != nil {
				t.Errorf("nested file not extracted: %v", err)
			}
			packuments := 0
			for _, r := range reg.seen("/") {
				if !strings.Contains(r.path, "/-/") && strings.Count(strings.Replace(r.path, "%2f", "/", 1), "/") == strings.Count(tt.pkg, "/")+1 {
					packuments++
				}
			}
			if (packuments == 0) != tt.wantProbe {
				t.Errorf("packument requests = %d, per-version endpoint expected to answer: %v", packuments, tt.wantProbe)
			}
			dir := pkg.Dir
			if err := pkg.Remove(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("Remove left %s", dir)
			}
		})
	}
}

func TestFetchNotFound(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.add("left-pad", "1.0.0", &fakeVersion{})
	c := testClient(t, testConfig(t, "registry="+reg.URL()), "")
	tests := []struct {
		pkg, ask, want string
	}{
		{"left-pad", "9.9.9", "no version 9.9.9 in the registry (latest is 1.0.0)"},
		{"left-pad", "nightly", `no dist-tag "nightly" (tags: latest)`},
		{"missing", "1.0.0", "404 not found"},
	}
	for _, tt := range tests {
		_, err := c.Fetch(context.Background(), tt.pkg, tt.ask)
		var re *Error
		if !errors.As(err, &re) || re.Status != 404 || !strings.Contains(re.Reason, tt.want) {
			t.Errorf("Fetch(%s, %s) = %v, want 404 %q", tt.pkg, tt.ask, err, tt.want)
		}
	}
}

func TestParseWanted(t *testing.T) {
	tests := []struct {
		in        string
		want      string
		isVersion bool
		wantErr   bool
	}{
		{"1.2.3", "1.2.3", true, false},
		{"v1.2.3", "1.2.3", true, false},
		{"=1.2.3", "1.2.3", true, false},
		{"1.2.3-rc.1+build.5", "1.2.3-rc.1+build.5", true, false},
		{"latest", "latest", false, false},
		{"ts5.4", "ts5.4", false, false},
		{"", "latest", false, false},
		{"^1.2.3", "", false, true},
		{"~1.2", "", false, true},
		{">=1.0.0 <2", "", false, true},
		{"1.x", "", false, true},
		{"1", "", false, true},
		{"1.2", "", false, true},
		{"v2", "", false, true},
		{"*", "", false, true},
		{"x", "", false, true},
		{"1.0.0 || 2.0.0", "", false, true},
		{"a/b", "", false, true},
		{"vv1.2.3", "vv1.2.3", false, false}, // not a range to node-semver, so a tag
	}
	for _, tt := range tests {
		got, isVersion, err := parseWanted(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want || isVersion != tt.isVersion {
			t.Errorf("parseWanted(%q) = %q, %v, %v; want %q, %v, err=%v", tt.in, got, isVersion, err, tt.want, tt.isVersion, tt.wantErr)
		}
	}
}

func TestRangeIsRefusedWithoutARequest(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.add("left-pad", "1.0.0", &fakeVersion{})
	c := testClient(t, testConfig(t, "registry="+reg.URL()), "")
	_, err := c.Fetch(context.Background(), "left-pad", "^1.0.0")
	if err == nil || !strings.Contains(err.Error(), "is a range") {
		t.Fatalf("want a range error, got %v", err)
	}
	if len(reg.seen("/")) != 0 {
		t.Error("a range reached the registry")
	}
}

func TestIntegrity(t *testing.T) {
	good := simpleTgz(t, "left-pad", "1.0.0")
	sha256sum := sha256.Sum256(good)
	tests := []struct {
		name      string
		integrity string
		shasum    string
		wantErr   string
	}{
		{"sha512", "", "", ""},
		{"sha1 shasum only (old registry)", "-", shasumOf(good), ""},
		{"sha256 SRI", "sha256-" + base64.StdEncoding.EncodeToString(sha256sum[:]), "-", ""},
		{"strongest algorithm decides", "sha1-AAAAAAAAAAAAAAAAAAAAAAAAAAA= " + sriOf(good), "-", ""},
		{"several digests, one matches", sriOf([]byte("other")) + " " + sriOf(good), "-", ""},
		{"sha512 mismatch", sriOf([]byte("something else")), "-", "integrity check failed: expected sha512-"},
		{"shasum mismatch", "-", shasumOf([]byte("something else")), "integrity check failed: expected sha1-"},
		{"unsupported algorithm", "md5-AAAA", "-", "no supported algorithm"},
		{"bad shasum", "-", "xyz", "not a sha1 hex digest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := newFakeRegistry(t)
			reg.add("left-pad", "1.0.0", &fakeVersion{tgz: good, integrity: tt.integrity, shasum: tt.shasum})
			cacheDir := t.TempDir()
			pkg, err := testClient(t, testConfig(t, "registry="+reg.URL()), cacheDir).Fetch(context.Background(), "left-pad", "1.0.0")
			cached := filepath.Join(cacheDir, "tarballs", "left-pad")
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				pkg.Remove()
				if _, err := os.Stat(pkg.Tarball); err != nil || filepath.Dir(pkg.Tarball) != cached {
					t.Errorf("verified tarball not cached in %s: %s %v", cached, pkg.Tarball, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("want %q, got %v", tt.wantErr, err)
			}
			// Neither the tarball that failed verification nor a
			// temporary file is left.
			entries, _ := os.ReadDir(cached)
			if len(entries) != 0 {
				t.Errorf("files left in the cache: %v", entries)
			}
		})
	}
}

func TestCachedTarball(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.add("left-pad", "1.0.0", &fakeVersion{})
	cacheDir := t.TempDir()
	cfg := testConfig(t, "registry="+reg.URL())
	fetch := func() {
		t.Helper()
		pkg, err := testClient(t, cfg, cacheDir).Fetch(context.Background(), "left-pad", "1.0.0")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(pkg.Dir, "index.d.ts")); err != nil {
			t.Fatal(err)
		}
		pkg.Remove()
	}
	tarballRequests := func() int { return len(reg.seen("/left-pad/-/")) }

	fetch()
	fetch()
	if n := tarballRequests(); n != 1 {
		t.Fatalf("a verified cached tarball should be reused: %d downloads", n)
	}
	cached, _ := filepath.Glob(filepath.Join(cacheDir, "tarballs", "left-pad", "1.0.0-*.tgz"))
	if len(cached) != 1 {
		t.Fatalf("cached copies of left-pad 1.0.0: %v, want one", cached)
	}
	if err := os.WriteFile(cached[0], []byte("corrupted"), 0o644); err != nil {
		t.Fatal(err)
	}
	fetch()
	if n := tarballRequests(); n != 2 {
		t.Fatalf("a cached tarball failing verification should be downloaded again: %d downloads", n)
	}
	b, _ := os.ReadFile(cached[0])
	if sriOf(b) != sriOf(reg.packages["left-pad"].versions["1.0.0"].tgz) {
		t.Error("the corrupted copy was not replaced")
	}
}

// Two registries serving different tarballs under one name@version (a
// mirror and its origin): each Fetch gives the bytes its registry serves,
// with one cache between them; a verified copy of each is kept side by
// side, and a copy the registry gives no digest for is never taken for
// another registry's.
func TestCachedTarballPerRegistry(t *testing.T) {
	for _, verified := range []bool{true, false} {
		t.Run(fmt.Sprintf("verified=%v", verified), func(t *testing.T) {
			cacheDir := t.TempDir()
			regs := map[string]*fakeRegistry{}
			for _, who := range []string{"origin", "mirror"} {
				v := &fakeVersion{tgz: makeTgz(t, []tarEntry{
					{name: "package/package.json", body: `{"name":"left-pad","version":"1.0.0","types":"index.d.ts"}`},
					{name: "package/index.d.ts", body: "export declare const servedBy: '" + who + "';\n"},
				})}
				if !verified {
					v.integrity, v.shasum = "-", "-"
				}
				regs[who] = newFakeRegistry(t)
				regs[who].add("left-pad", "1.0.0", v)
			}
			for i, who := range []string{"origin", "mirror", "origin", "mirror", "origin", "mirror"} {
				c := testClient(t, testConfig(t, "registry="+regs[who].URL()), cacheDir)
				fetch := c.Fetch
				if i >= 2 {
					fetch = c.Shared
				}
				pkg, err := fetch(context.Background(), "left-pad", "1.0.0")
				if err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(filepath.Join(pkg.Dir, "index.d.ts"))
				pkg.Remove()
				if err != nil || !strings.Contains(string(b), "'"+who+"'") {
					t.Fatalf("fetched from the %s (call %d): %s %v", who, i, b, err)
				}
			}
			for who, reg := range regs {
				if n := len(reg.seen("/left-pad/-/")); n != 1 {
					t.Errorf("the %s's tarball was downloaded %d times, want once: the other registry's copy replaced it", who, n)
				}
			}
		})
	}
}

// Shared extracts a tarball once into the cache: a later call, from
// another client as from another run, reads that same copy, Remove keeps
// it, and a cache that cannot hold it gives a temporary copy instead.
func TestSharedCopyIsExtractedOnce(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.add("@corp/widgets", "3.0.0", &fakeVersion{})
	cacheDir := t.TempDir()
	cfg := testConfig(t, "registry="+reg.URL())
	first, err := testClient(t, cfg, cacheDir).Shared(context.Background(), "@corp/widgets", "3.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if rel, _ := filepath.Rel(cacheDir, first.Dir); !strings.HasPrefix(filepath.ToSlash(rel), "unpacked/@corp/widgets/3.0.0-") {
		t.Fatalf("Dir = %s, want unpacked/@corp/widgets/3.0.0-<key> in the cache", first.Dir)
	}
	if err := first.Remove(); err != nil {
		t.Fatal(err)
	}
	// A file only this copy has: the next call finds it, so it did not
	// extract again.
	if err := os.WriteFile(filepath.Join(first.Dir, "seen"), nil, 0o644); err != nil {
		t.Fatalf("Remove deleted the shared copy: %v", err)
	}
	second, err := testClient(t, cfg, cacheDir).Shared(context.Background(), "@corp/widgets", "3.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if second.Dir != first.Dir {
		t.Fatalf("second call's Dir = %s, want the first's %s", second.Dir, first.Dir)
	}
	if _, err := os.Stat(filepath.Join(second.Dir, "seen")); err != nil {
		t.Fatalf("the second call extracted again: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(first.Dir), tempPrefix+"*")); len(left) != 0 {
		t.Errorf("extractions left beside the kept copy: %v", left)
	}
	fetched, err := testClient(t, cfg, cacheDir).Fetch(context.Background(), "@corp/widgets", "3.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if fetched.Dir == first.Dir {
		t.Fatal("Fetch gave the shared copy, which its caller may write into and Remove")
	}
	fetched.Remove()

	blocked := t.TempDir()
	if err := os.WriteFile(filepath.Join(blocked, "unpacked"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tmp, err := testClient(t, cfg, blocked).Shared(context.Background(), "@corp/widgets", "3.0.0")
	if err != nil {
		t.Fatalf("a cache that cannot keep the copy: %v", err)
	}
	if strings.HasPrefix(tmp.Dir, blocked) {
		t.Fatalf("Dir = %s, inside a cache that cannot hold it", tmp.Dir)
	}
	if _, err := os.Stat(filepath.Join(tmp.Dir, "package.json")); err != nil {
		t.Fatal(err)
	}
	if err := tmp.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp.Dir); !os.IsNotExist(err) {
		t.Errorf("Remove left the temporary copy %s", tmp.Dir)
	}
}

func TestFetchRejectsHostileTarball(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.add("evil", "1.0.0", &fakeVersion{tgz: makeTgz(t, []tarEntry{
		{name: "package/package.json", body: "{}"},
		{name: "package/../../escaped.txt", body: "pwned"},
	})})
	c := testClient(t, testConfig(t, "registry="+reg.URL()), "")
	_, err := c.Fetch(context.Background(), "evil", "1.0.0")
	if !errors.Is(err, errUnsafeTarball) || !strings.Contains(err.Error(), "climbs out") {
		t.Fatalf("want an unsafe-tarball error, got %v", err)
	}
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+"*", "escaped.txt"))
	if len(matches) != 0 {
		t.Errorf("files written for a rejected tarball: %v", matches)
	}
}

func TestRemoveRefusesForeignDirectories(t *testing.T) {
	victim := t.TempDir()
	for _, p := range []*Package{
		{Dir: victim},
		{Dir: victim, tempRoot: filepath.Dir(victim)},
		{Dir: filepath.Join(os.TempDir(), tempPrefix+"x", "..", ".."), tempRoot: os.TempDir()},
	} {
		if err := p.Remove(); err == nil {
			t.Errorf("Remove of %s succeeded", p.Dir)
		}
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatal("victim directory was removed")
	}
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name      string
		entries   []tarEntry
		limits    extractLimits
		wantFiles map[string]string // relative path → content
		wantErr   string
	}{
		{
			name: "package prefix stripped",
			entries: []tarEntry{
				{name: "package/", typeflag: tar.TypeDir},
				{name: "package/package.json", body: "{}"},
				{name: "package/dist/index.d.ts", body: "export {};"},
			},
			wantFiles: map[string]string{"package.json": "{}", "dist/index.d.ts": "export {};"},
		},
		{
			name: "another top-level folder is stripped too",
			entries: []tarEntry{
				{name: "node/package.json", body: "{}"},
				{name: "node/./lib//a.js", body: "a"},
			},
			wantFiles: map[string]string{"package.json": "{}", "lib/a.js": "a"},
		},
		{
			name: "links, devices and top-level files skipped",
			entries: []tarEntry{
				{name: "package/package.json", body: "{}"},
				{name: "package/link", typeflag: tar.TypeSymlink, linkname: "/etc/passwd"},
				{name: "package/hard", typeflag: tar.TypeLink, linkname: "package/package.json"},
				{name: "package/fifo", typeflag: tar.TypeFifo},
				{name: "stray.txt", body: "x"},
			},
			wantFiles: map[string]string{"package.json": "{}"},
		},
		{
			name:    "parent traversal",
			entries: []tarEntry{{name: "package/../../x", body: "x"}},
			wantErr: "climbs out",
		},
		{
			name:    "traversal before the prefix",
			entries: []tarEntry{{name: "../package/x", body: "x"}},
			wantErr: "climbs out",
		},
		{
			name:    "backslash traversal",
			entries: []tarEntry{{name: `package\..\..\x`, body: "x"}},
			wantErr: "climbs out",
		},
		{
			name:    "absolute path",
			entries: []tarEntry{{name: "/etc/package/x", body: "x"}},
			wantErr: "absolute path",
		},
		{
			name:    "drive letter",
			entries: []tarEntry{{name: "C:/package/x", body: "x"}},
			wantErr: "absolute path",
		},
		{
			name:    "total size bounded",
			entries: []tarEntry{{name: "package/a", body: strings.Repeat("a", 600)}, {name: "package/b", body: strings.Repeat("b", 600)}},
			limits:  extractLimits{maxBytes: 1000, maxEntries: 10},
			wantErr: "more than",
		},
		{
			name:    "entry count bounded",
			entries: []tarEntry{{name: "package/a"}, {name: "package/b"}, {name: "package/c"}},
			limits:  extractLimits{maxBytes: 1000, maxEntries: 2},
			wantErr: "more than 2 entries",
		},
		{
			name:    "a declaration file bounded inside the total",
			entries: []tarEntry{{name: "package/index.d.ts", body: strings.Repeat("declare const x: 1;\n", 30)}},
			limits:  extractLimits{maxBytes: 1000, maxEntries: 10, maxTypeFile: 500, maxTypes: 800},
			wantErr: "index.d.ts is 600 bytes of TypeScript, more than the 500 bytes a file may have",
		},
		{
			name: "the package's declarations bounded",
			entries: []tarEntry{{name: "package/a.d.mts", body: strings.Repeat("a", 400)}, {name: "package/b.ts", body: strings.Repeat("b", 300)},
				{name: "package/c.js", body: strings.Repeat("c", 200)}, {name: "package/d.d.cts", body: strings.Repeat("d", 200)}},
			limits:  extractLimits{maxBytes: 2000, maxEntries: 10, maxTypeFile: 500, maxTypes: 800},
			wantErr: "more than 800 bytes of TypeScript in the package",
		},
		{
			name:      "JavaScript is not counted as declarations",
			entries:   []tarEntry{{name: "package/a.d.ts", body: strings.Repeat("a", 400)}, {name: "package/b.js", body: strings.Repeat("b", 900)}},
			limits:    extractLimits{maxBytes: 2000, maxEntries: 10, maxTypeFile: 500, maxTypes: 800},
			wantFiles: map[string]string{"a.d.ts": strings.Repeat("a", 400), "b.js": strings.Repeat("b", 900)},
		},
		{
			name:    "file where a directory is needed",
			entries: []tarEntry{{name: "package/a", body: "x"}, {name: "package/a/b", body: "y"}},
			wantErr: "package/a/b",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := tt.limits
			if lim.maxEntries == 0 {
				lim = defaultExtractLimits
			}
			parent := t.TempDir()
			dest := filepath.Join(parent, "dest")
			if err := os.Mkdir(dest, 0o755); err != nil {
				t.Fatal(err)
			}
			err := extractTarball(strings.NewReader(string(makeTgz(t, tt.entries))), dest, lim)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want error %q, got %v", tt.wantErr, err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			assertOnlyDest(t, parent)
			if tt.wantErr != "" {
				return
			}
			got := map[string]string{}
			_ = filepath.WalkDir(dest, func(path string, d os.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() {
					b, _ := os.ReadFile(path)
					rel, _ := filepath.Rel(dest, path)
					got[filepath.ToSlash(rel)] = string(b)
				}
				return err
			})
			if len(got) != len(tt.wantFiles) {
				t.Errorf("files = %v, want %v", got, tt.wantFiles)
			}
			for k, v := range tt.wantFiles {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

// assertOnlyDest checks that extraction wrote nothing beside dest and
// created nothing but regular files and directories in it.
func assertOnlyDest(t *testing.T, parent string) {
	t.Helper()
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 || entries[0].Name() != "dest" {
		t.Errorf("extraction wrote outside its destination: %v", entries)
	}
	_ = filepath.WalkDir(filepath.Join(parent, "dest"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !d.Type().IsRegular() {
			t.Errorf("extraction created %s of type %v", path, d.Type())
		}
		return err
	})
}

func TestExtractModes(t *testing.T) {
	dest := t.TempDir()
	err := extractTarball(strings.NewReader(string(makeTgz(t, []tarEntry{
		{name: "package/bin/cli.js", body: "#!/usr/bin/env node", mode: 0o4777},
		{name: "package/readme.md", body: "hi", mode: 0o666},
	}))), dest, defaultExtractLimits)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]os.FileMode{"bin/cli.js": 0o755, "readme.md": 0o644} {
		fi, err := os.Stat(filepath.Join(dest, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode() & os.ModePerm; got&^want != 0 || fi.Mode()&os.ModeSetuid != 0 {
			t.Errorf("%s mode %v, want at most %v and no setuid", name, fi.Mode(), want)
		}
	}
}

func TestExtractNotGzip(t *testing.T) {
	if err := extractTarball(strings.NewReader("plain text"), t.TempDir(), defaultExtractLimits); err == nil || !strings.Contains(err.Error(), "not a gzip") {
		t.Fatalf("want a not-gzip error, got %v", err)
	}
}

func TestConcurrentFetchesDownloadOnce(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.add("left-pad", "1.0.0", &fakeVersion{})
	c := testClient(t, testConfig(t, "registry="+reg.URL()), "")
	const n = 8
	type result struct {
		p   *Package
		err error
	}
	results := make(chan result, n)
	for range n {
		go func() {
			p, err := c.Fetch(context.Background(), "left-pad", "1.0.0")
			results <- result{p, err}
		}()
	}
	dirs := map[string]bool{}
	for range n {
		r := <-results
		if r.err != nil {
			t.Fatal(r.err)
		}
		dirs[r.p.Dir] = true
		defer r.p.Remove()
	}
	if len(dirs) != n {
		t.Errorf("each Fetch should get its own directory: %d distinct", len(dirs))
	}
	if got := len(reg.seen("/left-pad/-/")); got != 1 {
		t.Errorf("tarball downloaded %d times, want 1", got)
	}
}
