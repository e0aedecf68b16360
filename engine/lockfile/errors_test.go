package lockfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureFiles are the lockfiles under testdata, with the cases that hold
// for each.
func fixtureFiles(t testing.TB) map[string][]lookup {
	t.Helper()
	out := map[string][]lookup{}
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch d.Name() {
		case "package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock":
			cases := workspaceCases
			if strings.Contains(p, "single") || strings.Contains(p, "npm6") {
				cases = singleCases
			}
			out[p] = cases
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 18 {
		t.Fatalf("found %d fixture lockfiles, want 18", len(out))
	}
	return out
}

func isJSON(p string) bool {
	return strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".lock") && filepath.Base(p) == "bun.lock"
}

// answers asks every case and keeps the registry versions found.
func answers(lf Lockfile, cases []lookup) map[lookup]string {
	out := map[lookup]string{}
	for _, c := range cases {
		if v, ok := lf.Installed(c.ws, c.name, c.spec); ok {
			out[c] = v
		}
	}
	return out
}

// A lockfile cut short must never give a wrong version. Cut in the middle
// of a line, every format reports it. Cut at a line end, JSON formats
// always do; a YAML or yarn file may still be a valid lockfile of fewer
// packages, and then each answer it gives must be the full file's.
func TestTruncated(t *testing.T) {
	for p, cases := range fixtureFiles(t) {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			full, err := Parse(p, data)
			if err != nil {
				t.Fatal(err)
			}
			want := answers(full, cases)
			lines := 0
			for i := 1; i < len(data); i++ {
				// Every line end of a YAML or yarn file (where a cut can
				// still parse), a sample of the rest to keep this fast.
				atLineEnd := data[i-1] == '\n'
				if atLineEnd {
					lines++
					atLineEnd = !isJSON(p) || lines%4 == 0
				}
				midLine := data[i-1] != '\n' && data[i] != '\n' && i%29 == 0
				if !atLineEnd && !midLine {
					continue
				}
				lf, err := Parse(p, data[:i])
				if err != nil {
					var le *Error
					if !errors.As(err, &le) {
						t.Fatalf("cut at %d: %T %v, want *Error", i, err, err)
					}
					if le.File != p || le.Hint == "" || le.Msg == "" {
						t.Fatalf("cut at %d: %+v: want the file, a message and a hint", i, le)
					}
					if le.Line < 0 || le.Line > lineCount(data[:i])+1 {
						t.Fatalf("cut at %d: line %d outside the %d lines read", i, le.Line, lineCount(data[:i]))
					}
					continue
				}
				if midLine || isJSON(p) {
					t.Fatalf("cut at byte %d (line %d, mid-line %v) parsed without error", i, lineCount(data[:i]), midLine)
				}
				for c, v := range answers(lf, cases) {
					if want[c] != v {
						t.Fatalf("cut at byte %d: Installed(%q, %q) = %q, the full file says %q", i, c.ws, c.name, v, want[c])
					}
				}
			}
		})
	}
}

func TestTruncatedErrorNamesFileAndLine(t *testing.T) {
	tests := []struct {
		fixture string
		cut     string // cut just before this text
		line    int
		msg     string
	}{
		{"npm-v3/npm11/package-lock.json", `"node_modules/react"`, 0, "truncated"},
		{"bun/bun1.4.5/bun.lock", `"react": ["react@18.3.1"`, 0, "truncated"},
		{"pnpm-v9/pnpm10/pnpm-lock.yaml", "\npackages:\n", 0, `no "packages" section`},
		{"pnpm-v9/pnpm10/pnpm-lock.yaml", "\nsnapshots:\n", 0, `no "snapshots" section`},
		{"pnpm-v9/pnpm10/pnpm-lock.yaml", "\n  use-sync-external-store@1.7.0(react@18.3.1):", 33, "truncated or badly merged"},
		{"pnpm-v6/pnpm8/pnpm-lock.yaml", "\n  /use-sync-external-store@1.7.0(react@18.3.1):", 33, "truncated or badly merged"},
		{"pnpm-v5/pnpm7/pnpm-lock.yaml", "\n  /use-sync-external-store/1.7.0_react@18.3.1:", 26, "truncated or badly merged"},
		{"pnpm-v9/pnpm10/pnpm-lock.yaml", "9.0'", 1, "middle of a line"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture+"/"+tt.msg, func(t *testing.T) {
			p := filepath.Join("testdata", tt.fixture)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			i := bytes.Index(data, []byte(tt.cut))
			if i < 0 {
				t.Fatalf("%q not in %s", tt.cut, p)
			}
			if tt.cut[0] == '\n' {
				i++
			}
			_, err = Parse(p, data[:i])
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("Parse = %v, want *Error", err)
			}
			want := tt.line
			if want == 0 {
				want = lineCount(data[:i])
			}
			if le.Line != want || !strings.Contains(le.Msg, tt.msg) || le.Hint == "" {
				t.Errorf("got %q (line %d), want line %d and %q with a hint", err, le.Line, want, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), p+":") {
				t.Errorf("Error() = %q does not start with the file", err)
			}
		})
	}
}

func TestUnknownVersion(t *testing.T) {
	tests := []struct {
		fixture, old, new string
		line              int
		msg               string
	}{
		{"npm-v3/npm11/package-lock.json", `"lockfileVersion": 3`, `"lockfileVersion": 4`, 4, "lockfileVersion 4"},
		{"npm-v2/npm11/package-lock.json", `"lockfileVersion": 2`, `"lockfileVersion": "2"`, 4, `lockfileVersion "2"`},
		{"pnpm-v9/pnpm10/pnpm-lock.yaml", `lockfileVersion: '9.0'`, `lockfileVersion: '10.0'`, 1, `"10.0"`},
		{"pnpm-v5/pnpm7/pnpm-lock.yaml", `lockfileVersion: 5.4`, `lockfileVersion: 4.0`, 1, `"4.0"`},
		{"pnpm-v5/pnpm7/pnpm-lock.yaml", `lockfileVersion: 5.4`, `shrinkwrapVersion: 3`, 1, "pnpm 2"},
		{"pnpm-v9/pnpm12-env/pnpm-lock.yaml", "---\nlockfileVersion: '9.0'\n\nsettings", "---\nlockfileVersion: '11.0'\n\nsettings", 22, `"11.0"`},
		{"yarn-v1/yarn1/yarn.lock", "# yarn lockfile v1", "# yarn lockfile v2", 2, "v2"},
		{"yarn-berry/yarn4/yarn.lock", "version: 10\n  cacheKey", "version: 99\n  cacheKey", 5, `"99"`},
		{"bun/bun1.4.5/bun.lock", `"lockfileVersion": 2`, `"lockfileVersion": 7`, 2, "lockfileVersion 7"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture+tt.new, func(t *testing.T) {
			p := filepath.Join("testdata", tt.fixture)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(data, []byte(tt.old)) {
				t.Fatalf("%q not in %s", tt.old, p)
			}
			data = bytes.Replace(data, []byte(tt.old), []byte(tt.new), 1)
			_, err = Parse(p, data)
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("Parse = %v, want *Error", err)
			}
			if le.File != p || le.Line != tt.line || !strings.Contains(le.Msg, tt.msg) || le.Hint == "" {
				t.Errorf("got %+v; want line %d, %q and a hint", le, tt.line, tt.msg)
			}
		})
	}
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		name, file, content string
		line                int
		msg                 string
	}{
		{"empty pnpm", "pnpm-lock.yaml", "", 0, "empty"},
		{"empty npm", "package-lock.json", "  \n", 0, "empty"},
		{"empty bun", "bun.lock", "", 0, "empty"},
		{"empty yarn", "yarn.lock", "\n", 0, "empty"},
		{"npm not an object", "package-lock.json", "[1]\n", 1, "JSON array"},
		{"npm wrong type", "package-lock.json", "{\"lockfileVersion\": 3,\n\"packages\": {\"node_modules/x\": {\"version\": 1}}}\n", 2, "version"},
		{"npm v3 without packages", "package-lock.json", "{\"lockfileVersion\": 3}\n", 1, "no \"packages\""},
		{"pnpm bad yaml", "pnpm-lock.yaml", "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies: [\n", 4, "not valid YAML"},
		{"pnpm stray text", "pnpm-lock.yaml", "lockfileVersion: '9.0'\n<<<<<<< HEAD\n", 2, "top-level"},
		{"pnpm no version", "pnpm-lock.yaml", "importers: {}\n", 1, "no lockfileVersion"},
		{"pnpm dep without version", "pnpm-lock.yaml", "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      x:\n        specifier: ^1\n", 5, "no version"},
		{"pnpm duplicate key", "pnpm-lock.yaml", "lockfileVersion: '9.0'\nimporters: {}\nimporters: {}\n", 3, "twice"},
		{"pnpm importers a list", "pnpm-lock.yaml", "lockfileVersion: '9.0'\nimporters:\n  - a\n", 3, "not a mapping"},
		{"yarn conflict", "yarn.lock", "# yarn lockfile v1\n\n<<<<<<< HEAD\nx@^1:\n  version \"1.0.0\"\n", 3, "ending in `:`"},
		{"yarn entry without version", "yarn.lock", "# yarn lockfile v1\n\nx@^1:\n  resolved \"u\"\ny@^1:\n  version \"1.0.0\"\n", 3, "no version"},
		{"yarn open quote", "yarn.lock", "\"x@^1:\n  version \"1.0.0\"\n", 1, "never closes"},
		{"yarn indented first", "yarn.lock", "  version \"1.0.0\"\n", 1, "before any entry"},
		{"berry no metadata", "yarn.lock", "__metadata:\n  cacheKey: 8\n", 1, "no version"},
		{"berry entry without resolution", "yarn.lock", "__metadata:\n  version: 8\n\n\"x@npm:^1\":\n  version: 1.0.0\n", 4, "no resolution"},
		{"bun missing root", "bun.lock", "{\"lockfileVersion\": 1, \"workspaces\": {}, \"packages\": {}}\n", 1, "root workspace"},
		{"bun bad package", "bun.lock", "{\"lockfileVersion\": 1,\n\"workspaces\": {\"\": {}},\n\"packages\": {\"x\": {\"a\": 1}}}\n", 3, "not an array"},
		{"bun trailing garbage", "bun.lock", "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}}}\n}\n", 2, "JSON"},
		{"binary bun", "bun.lockb", "\x00\x01", 0, "binary"},
		// Random bytes: no line of them is a lockfile's, whatever their
		// last byte (most random files end mid-line: never "truncated").
		{"pnpm random bytes", "pnpm-lock.yaml", "\xa7\x13\x9b\x02\x88\xc1", 1, "not a pnpm lockfile: this line holds binary data (byte 0xa7)"},
		{"pnpm NUL on a later line", "pnpm-lock.yaml", "lockfileVersion: '9.0'\n\nimporters:\x00\n", 3, "not a pnpm lockfile: this line holds binary data (byte 0x00)"},
		{"pnpm invalid UTF-8", "pnpm-lock.yaml", "lockfileVersion: '9.0'\nimporters: \xff\xfe", 2, "not a pnpm lockfile: this line holds binary data (byte 0xff)"},
		{"yarn random bytes", "yarn.lock", "# yarn lockfile v1\n\n\x9c\x8f\x01\x7f", 3, "not a yarn lockfile: this line holds binary data (byte 0x9c)"},
		{"berry random bytes", "yarn.lock", "__metadata:\n  version: 8\n\x1b[31m\n", 3, "not a yarn lockfile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join("/repo", tt.file)
			_, err := Parse(file, []byte(tt.content))
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("Parse = %v, want *Error", err)
			}
			if le.File != file || le.Line != tt.line || !strings.Contains(le.Msg, tt.msg) || le.Hint == "" {
				t.Errorf("got %+v; want line %d, %q and a hint", le, tt.line, tt.msg)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	tests := []struct {
		e    Error
		want string
	}{
		{Error{File: "/r/pnpm-lock.yaml", Line: 12, Msg: "bad", Hint: "run pnpm install"}, "/r/pnpm-lock.yaml:12: bad: run pnpm install"},
		{Error{File: "/r/bun.lockb", Msg: "binary"}, "/r/bun.lockb: binary"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}
