package lockfile

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// npmFixtures are every package-lock.json under testdata and the fixture
// repositories, as the real npm wrote them.
func npmFixtures(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, root := range []string{"testdata", "../../fixtures/repos"} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if d.Name() == "package-lock.json" || d.Name() == "npm-shrinkwrap.json" {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 5 {
		t.Fatalf("found %d npm lockfiles", len(out))
	}
	return out
}

// sameNPM reports how the streamed lockfile differs from the parsed one in
// anything Lookup can tell.
func sameNPM(t *testing.T, streamed, parsed *npmLockfile) {
	t.Helper()
	if streamed.format != parsed.format || streamed.version != parsed.version {
		t.Fatalf("format %s v%d, parsed %s v%d", streamed.format, streamed.version, parsed.format, parsed.version)
	}
	if len(streamed.packages) != len(parsed.packages) {
		t.Fatalf("%d packages, parsed %d", len(streamed.packages), len(parsed.packages))
	}
	for loc, p := range parsed.packages {
		name := loc
		if i := strings.LastIndex(loc, "node_modules/"); i >= 0 {
			name = loc[i+len("node_modules/"):]
		}
		if got, want := streamed.packages[loc].entry(name), p.entry(name); got != want {
			t.Errorf("%s: streamed %+v, parsed %+v", loc, got, want)
		}
	}
	if !reflect.DeepEqual(streamed.deps, parsed.deps) || !reflect.DeepEqual(streamed.workspaces, parsed.workspaces) {
		t.Error("the v1 trees differ")
	}
}

// Load streams a package-lock.json; what it finds must be what the whole
// file parsed says, for every lockfile npm wrote, with a byte-order mark
// and with CRLF line ends.
func TestLoadNPMStreamsLikeParse(t *testing.T) {
	for _, p := range npmFixtures(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for variant, v := range map[string][]byte{
			"as written": data,
			"bom":        append([]byte("\xef\xbb\xbf"), data...),
			"crlf":       bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")),
		} {
			t.Run(p+"/"+variant, func(t *testing.T) {
				file := filepath.Join(t.TempDir(), "package-lock.json")
				if err := os.WriteFile(file, v, 0o644); err != nil {
					t.Fatal(err)
				}
				streamed, err := decodeNPMStream(file, bytes.NewReader(bytes.TrimPrefix(v, []byte("\xef\xbb\xbf"))))
				if err != nil {
					t.Fatalf("the stream fell back on a valid lockfile: %v", err)
				}
				parsed, err := Parse(file, v)
				if err != nil {
					t.Fatal(err)
				}
				sameNPM(t, streamed, parsed.(*npmLockfile))
				loaded, err := Load(file)
				if err != nil {
					t.Fatal(err)
				}
				sameNPM(t, loaded.(*npmLockfile), parsed.(*npmLockfile))
			})
		}
	}
}

// A broken file gets the whole-file parser's error, line included.
func TestLoadNPMBrokenKeepsParseErrors(t *testing.T) {
	data, err := os.ReadFile("testdata/npm-v3/npm11/package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	cut := bytes.Index(data, []byte(`"node_modules/react"`))
	for name, v := range map[string][]byte{
		"truncated":       data[:cut],
		"unknown version": bytes.Replace(data, []byte(`"lockfileVersion": 3`), []byte(`"lockfileVersion": 9`), 1),
		"empty":           nil,
		"not an object":   []byte("[]"),
		"trailing data":   append(append([]byte{}, data...), "{}"...),
		"link not a bool": bytes.Replace(data, []byte(`"link": true`), []byte(`"link": "yes"`), 1),
	} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "package-lock.json")
			if err := os.WriteFile(file, v, 0o644); err != nil {
				t.Fatal(err)
			}
			_, perr := Parse(file, v)
			_, lerr := Load(file)
			if perr == nil && name != "link not a bool" {
				t.Fatalf("Parse accepted the %s file", name)
			}
			if (perr == nil) != (lerr == nil) || perr != nil && perr.Error() != lerr.Error() {
				t.Fatalf("Load: %v\nParse: %v", lerr, perr)
			}
		})
	}
}

// FuzzNPMStream: whatever the stream accepts, the whole-file parser
// accepts too and reads the same.
func FuzzNPMStream(f *testing.F) {
	// The fixtures cut down to a few entries each (smallNPM): whole, the
	// fuzzer spends its time minimising them instead of exploring.
	for _, p := range npmFixtures(f) {
		if data, err := os.ReadFile(p); err == nil && len(data) < 64<<10 {
			f.Add(smallNPM(f, data))
		}
	}
	f.Add([]byte(`{"lockfileVersion":2,"dependencies":{"a":{"version":"1.0.0"}},"packages":{"node_modules/a":{"version":"1.0.0"}}}`))
	f.Add([]byte(`{"dependencies":{"a":{"version":"file:packages/a","dependencies":{"b":{"version":"2.0.0"}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		streamed, err := decodeNPMStream("package-lock.json", bytes.NewReader(data))
		if err != nil {
			return
		}
		parsed, err := Parse("package-lock.json", data)
		if err != nil {
			t.Fatalf("the stream accepted what Parse refuses: %v", err)
		}
		sameNPM(t, streamed, parsed.(*npmLockfile))
	})
}
