package registryserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/uptide/uptide/internal/testkit/regread"
)

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

func manifest(name, ver string) *fstest.MapFile {
	return file(fmt.Sprintf(`{"name": %q, "version": %q}`, name, ver))
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		fs   fstest.MapFS
		want []string // substrings of the error
	}{
		{
			name: "syntax error names file and line",
			fs:   fstest.MapFS{"a/1.0.0/package.json": file("{\n  \"name\": \"a\",\n  \"version\": \"1.0.0\"\n  oops\n}")},
			want: []string{"a/1.0.0/package.json:4:", "invalid character"},
		},
		{
			name: "name mismatch",
			fs:   fstest.MapFS{"a/1.0.0/package.json": manifest("b", "1.0.0")},
			want: []string{"a/1.0.0/package.json", `name is "b"`},
		},
		{
			name: "version mismatch",
			fs:   fstest.MapFS{"a/1.0.0/package.json": manifest("a", "1.0.1")},
			want: []string{"a/1.0.0/package.json", `version is "1.0.1"`},
		},
		{
			name: "folder not semver",
			fs:   fstest.MapFS{"a/latest/package.json": manifest("a", "1.0.0")},
			want: []string{"a/latest", "not a semver version"},
		},
		{
			name: "loose semver rejected",
			fs:   fstest.MapFS{"a/v1.0/package.json": manifest("a", "1.0.0")},
			want: []string{"a/v1.0", "not a semver version"},
		},
		{
			name: "missing package.json",
			fs:   fstest.MapFS{"a/1.0.0/index.js": file("")},
			want: []string{"a/1.0.0/package.json: missing"},
		},
		{
			name: "package.json not an object",
			fs:   fstest.MapFS{"a/1.0.0/package.json": file("[]")},
			want: []string{"a/1.0.0/package.json"},
		},
		{
			name: "trailing data",
			fs:   fstest.MapFS{"a/1.0.0/package.json": file(`{"name":"a","version":"1.0.0"} {}`)},
			want: []string{"a/1.0.0/package.json", "trailing data"},
		},
		{
			name: "stray file in package folder",
			fs: fstest.MapFS{
				"a/1.0.0/package.json": manifest("a", "1.0.0"),
				"a/notes.txt":          file("x"),
			},
			want: []string{"a/notes.txt", "unexpected file"},
		},
		{
			name: "stray file in scope folder",
			fs:   fstest.MapFS{"@s/readme": file("x")},
			want: []string{"@s/readme", "unexpected file"},
		},
		{
			name: "package without versions",
			fs:   fstest.MapFS{"a/dist-tags.json": file(`{}`)},
			want: []string{"a: no version folders"},
		},
		{
			name: "tag to a missing version",
			fs: fstest.MapFS{
				"a/1.0.0/package.json": manifest("a", "1.0.0"),
				"a/dist-tags.json":     file(`{"next": "2.0.0-rc.1"}`),
			},
			want: []string{"a/dist-tags.json", `"next"`, "2.0.0-rc.1"},
		},
		{
			name: "dist-tags of the wrong shape",
			fs: fstest.MapFS{
				"a/1.0.0/package.json": manifest("a", "1.0.0"),
				"a/dist-tags.json":     file(`{"latest": 1}`),
			},
			want: []string{"a/dist-tags.json", "object of strings"},
		},
		{
			name: "time.json broken",
			fs: fstest.MapFS{
				"a/1.0.0/package.json": manifest("a", "1.0.0"),
				"a/time.json":          file("{\n,"),
			},
			want: []string{"a/time.json:2:"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.fs)
			if err == nil {
				t.Fatal("New succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestLoadLayout(t *testing.T) {
	reg, err := New(fstest.MapFS{
		"README.md":                       file("ignored"),
		"embed.go":                        file("package x"),
		".hidden/1.0.0/package.json":      manifest("x", "1.0.0"),
		"@s/pkg/1.0.0/package.json":       manifest("@s/pkg", "1.0.0"),
		"@s/pkg/1.0.0/lib/deep/index.js":  file("x"),
		"pre/1.0.0-rc.1/package.json":     manifest("pre", "1.0.0-rc.1"),
		"pre/1.0.0-rc.2/package.json":     manifest("pre", "1.0.0-rc.2"),
		"mixed/1.0.0/package.json":        manifest("mixed", "1.0.0"),
		"mixed/1.1.0/package.json":        manifest("mixed", "1.1.0"),
		"mixed/2.0.0-beta.1/package.json": manifest("mixed", "2.0.0-beta.1"),
		"mixed/1.10.0/package.json":       manifest("mixed", "1.10.0"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := reg.Packages(), []string{"@s/pkg", "mixed", "pre"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Packages = %v, want %v", got, want)
	}
	if got, want := reg.Versions("mixed"), []string{"1.0.0", "1.1.0", "1.10.0", "2.0.0-beta.1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Versions = %v, want semver order %v", got, want)
	}
	srv := httptest.NewServer(reg)
	defer srv.Close()
	tests := []struct {
		pkg    string
		latest string
	}{
		{"mixed", "1.10.0"},   // highest non-prerelease, by semver not string order
		{"pre", "1.0.0-rc.2"}, // all prereleases: the highest
	}
	for _, tt := range tests {
		doc := regread.Decode(t, regread.Get(t, srv.URL+"/"+tt.pkg, regread.Abbreviated).Body)
		if got := regread.At(doc, "dist-tags", "latest"); got != tt.latest {
			t.Errorf("%s latest = %v, want %s", tt.pkg, got, tt.latest)
		}
	}
	// Mounted on someone else's server, tarball URLs follow the request host.
	doc := regread.Decode(t, regread.Get(t, srv.URL+"/@s%2fpkg", regread.Abbreviated).Body)
	tgz := regread.At(doc, "versions", "1.0.0", "dist", "tarball").(string)
	if tgz != srv.URL+"/@s/pkg/-/pkg-1.0.0.tgz" {
		t.Errorf("tarball = %s", tgz)
	}
	if _, ok := regread.Untar(t, regread.Get(t, tgz, nil).Body)["package/lib/deep/index.js"]; !ok {
		t.Error("nested file not packed")
	}
}

func TestAdd(t *testing.T) {
	reg, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	err = reg.Add(map[string]any{
		"name": "@bench/pkg-1", "version": "1.2.3",
		"dependencies": map[string]any{"left-pad": "^1.3.0"},
		"scripts":      map[string]any{"postinstall": "node x.js"},
		"description":  "only in the full document",
	}, map[string]string{"index.d.ts": "export declare const x: 1;\n", "package.json": "replaced"})
	if err != nil {
		t.Fatal(err)
	}
	url, err := reg.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if reg.URL() != url || !strings.HasSuffix(url, "/") {
		t.Errorf("URL() = %q, Start = %q", reg.URL(), url)
	}
	doc := regread.Decode(t, regread.Get(t, url+"@bench%2fpkg-1", regread.Abbreviated).Body)
	v := regread.At(doc, "versions", "1.2.3").(map[string]any)
	if v["hasInstallScript"] != true || regread.At(v, "dependencies", "left-pad") != "^1.3.0" || v["description"] != nil {
		t.Errorf("abbreviated version = %v", v)
	}
	entries := regread.Untar(t, regread.Get(t, url+"@bench/pkg-1/-/pkg-1-1.2.3.tgz", nil).Body)
	if pj := string(entries["package/package.json"].Body); !strings.Contains(pj, `"version": "1.2.3"`) {
		t.Errorf("packed package.json = %s", pj)
	}

	bad := []struct {
		name     string
		manifest map[string]any
		files    map[string]string
		want     string
	}{
		{"duplicate", map[string]any{"name": "@bench/pkg-1", "version": "1.2.3"}, nil, "already published"},
		{"no name", map[string]any{"version": "1.0.0"}, nil, `no "name"`},
		{"nil manifest", nil, nil, "nil manifest"},
		{"bad scope", map[string]any{"name": "@scope", "version": "1.0.0"}, nil, "@scope/name"},
		{"bad version", map[string]any{"name": "x", "version": "latest"}, nil, "not semver"},
		{"escaping file", map[string]any{"name": "x", "version": "1.0.0"}, map[string]string{"../x": ""}, "relative slash path"},
		{"unmarshalable", map[string]any{"name": "x", "version": "1.0.0", "f": func() {}}, nil, "not JSON"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			err := reg.Add(tt.manifest, tt.files)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Add error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestSetDistTag(t *testing.T) {
	reg, url := startFixtures(t)
	if err := reg.SetDistTag("react", "canary", "19.1.0"); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetDistTag("react", "x", "1.0.0"); err == nil {
		t.Error("tag to a missing version accepted")
	}
	if err := reg.SetDistTag("nope", "x", "1.0.0"); err == nil {
		t.Error("tag on a missing package accepted")
	}
	if got := regread.At(regread.Decode(t, regread.Get(t, url+"react/canary", nil).Body), "version"); got != "19.1.0" {
		t.Errorf("react/canary = %v", got)
	}
	tags := regread.At(regread.Decode(t, regread.Get(t, url+"react", regread.Abbreviated).Body), "dist-tags")
	if want := map[string]any{"latest": "19.1.0", "canary": "19.1.0"}; !reflect.DeepEqual(tags, want) {
		t.Errorf("dist-tags = %v", tags)
	}
}

func TestStartTwice(t *testing.T) {
	reg, _ := startFixtures(t)
	if _, err := reg.Start(); err == nil {
		t.Error("second Start succeeded")
	}
	reg.Close()
	reg.Close()
	if _, err := http.Get(reg.URL() + "react"); err == nil {
		t.Error("registry still answers after Close")
	}
}
