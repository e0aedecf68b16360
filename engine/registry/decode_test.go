package registry

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/uptide/uptide/engine/model"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "packuments", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodePackument(t *testing.T) {
	tests := []struct {
		file  string
		check func(t *testing.T, p *model.Packument)
	}{
		{"abbreviated.json", func(t *testing.T, p *model.Packument) {
			want := model.Release{
				Name: "@corp/widgets", Version: "2.0.0",
				Dependencies:         map[string]string{"tslib": "^2.6.0"},
				PeerDependencies:     map[string]string{"react": "^18.0.0", "react-dom": "^18.0.0"},
				PeerDependenciesMeta: map[string]model.PeerMeta{"react-dom": {Optional: true}},
				Engines:              map[string]string{"node": ">=18"},
				Dist: model.Dist{
					Tarball:   "https://registry.example.test/@corp/widgets/-/widgets-2.0.0.tgz",
					Integrity: "sha512-9KxVAmW1w6Yy5z9vfHk9mA1d0uHq0k8K6m9qB3o6G0YqfJ5k8qYQe5VvR1vQm0mVQm8m0m0m0m0m0m0m0m0m0A==",
					Shasum:    "3f2d5e1b2c0a9f8e7d6c5b4a39281706f5e4d3c2",
				},
			}
			if diff := cmp.Diff(want, p.Versions["2.0.0"]); diff != "" {
				t.Errorf("2.0.0 (-want +got):\n%s", diff)
			}
			if p.Versions["2.1.0"].Deprecated != "use 3.x" || p.Versions["2.1.0"].OptionalDependencies["fsevents"] != "~2.3.3" {
				t.Errorf("2.1.0: %+v", p.Versions["2.1.0"])
			}
			if diff := cmp.Diff(map[string]string{"latest": "2.1.0", "next": "3.0.0-rc.1"}, p.DistTags); diff != "" {
				t.Errorf("dist-tags (-want +got):\n%s", diff)
			}
			if p.Time != nil {
				t.Errorf("abbreviated documents have no times: %v", p.Time)
			}
		}},
		{"full.json", func(t *testing.T, p *model.Packument) {
			want := map[string]string{"1.0.0": "2022-03-01T00:00:00.000Z", "1.1.0": "2023-06-01T00:00:00.000Z"}
			if diff := cmp.Diff(want, p.Time); diff != "" {
				t.Errorf("time keeps versions only (-want +got):\n%s", diff)
			}
			if p.Versions["1.1.0"].Engines["npm"] != ">=8" {
				t.Errorf("1.1.0: %+v", p.Versions["1.1.0"])
			}
		}},
		{"legacy.json", func(t *testing.T, p *model.Packument) {
			old := p.Versions["0.1.0"]
			if old.Dependencies != nil || old.Engines != nil || old.Deprecated != "" || old.Dist.Shasum == "" {
				t.Errorf("array-shaped fields should read as absent: %+v", old)
			}
			v2 := p.Versions["0.2.0"]
			if diff := cmp.Diff(map[string]string{"a": "*"}, v2.Dependencies); diff != "" {
				t.Errorf("non-string dependency values skipped (-want +got):\n%s", diff)
			}
			if v2.Deprecated != "deprecated" {
				t.Errorf("deprecated: true should read as deprecated: %q", v2.Deprecated)
			}
			if _, ok := p.Versions["0.3.0"]; ok {
				t.Error("a version that is not an object should be dropped")
			}
			if diff := cmp.Diff(map[string]string{"latest": "0.2.0"}, p.DistTags); diff != "" {
				t.Errorf("dist-tags (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(map[string]string{"0.1.0": "2011-01-01T00:00:00.000Z"}, p.Time); diff != "" {
				t.Errorf("time (-want +got):\n%s", diff)
			}
		}},
		{"unpublished.json", func(t *testing.T, p *model.Packument) {
			if p.Name != "gone" || len(p.Versions) != 0 || len(p.DistTags) != 0 {
				t.Errorf("unpublished package: %+v", p)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			p, err := decodePackument(readFixture(t, tt.file), "fallback-name")
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, p)
		})
	}
}

func TestDecodePackumentErrors(t *testing.T) {
	for _, body := range []string{"", "[]", `"string"`, "{", "null", `{"versions":{"1.0.0":{"name":}}}`} {
		if _, err := decodePackument([]byte(body), "x"); err == nil {
			t.Errorf("%q decoded without error", body)
		}
	}
	p, err := decodePackument([]byte(`{"versions":[1,2]}`), "x")
	if err != nil || p.Name != "x" || len(p.Versions) != 0 {
		t.Errorf("versions as a list should read as none: %+v %v", p, err)
	}
}

func TestParseIntegrity(t *testing.T) {
	tests := []struct {
		sri, shasum string
		wantAlgo    string
		wantNil     bool
		wantErr     bool
	}{
		{"sha512-" + b64(64), "", "sha512", false, false},
		{"sha1-" + b64(20) + " sha512-" + b64(64), "", "sha512", false, false},
		{"sha384-" + b64(48) + "?opt", "", "sha384", false, false},
		{"sha256-" + b64(32), "", "sha256", false, false},
		{"sha512-tooShort", "0123456789abcdef0123456789abcdef01234567", "sha1", false, false},
		{"", "0123456789abcdef0123456789abcdef01234567", "sha1", false, false},
		{"", "", "", true, false},
		{"md5-" + b64(16), "", "", false, true},
		{"", "not-hex", "", false, true},
	}
	for _, tt := range tests {
		c, err := parseIntegrity(tt.sri, tt.shasum)
		switch {
		case tt.wantErr:
			if err == nil {
				t.Errorf("parseIntegrity(%q, %q) should fail", tt.sri, tt.shasum)
			}
		case tt.wantNil:
			if c != nil || err != nil {
				t.Errorf("parseIntegrity(%q, %q) = %v, %v; want nil", tt.sri, tt.shasum, c, err)
			}
		case err != nil || c == nil || c.algo != tt.wantAlgo:
			t.Errorf("parseIntegrity(%q, %q) = %v, %v; want %s", tt.sri, tt.shasum, c, err, tt.wantAlgo)
		}
	}
}

func b64(n int) string {
	return sri("x", make([]byte, n))[2:]
}
