package lockfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lookup is one question asked of a fixture and the answer it must give.
type lookup struct {
	ws, name, spec string
	want           string // "" means Installed must say false
	pkg            string // the real package, checked when set
	local          bool   // Lookup must find a local entry
}

// workspaceCases hold for every manager's copy of the three-workspace
// repository described in testdata/README.md.
var workspaceCases = []lookup{
	{ws: ".", name: "is-number", spec: "^7.0.0", want: "7.0.0", pkg: "is-number"},
	{ws: ".", name: "lp", spec: "npm:left-pad@^1.3.0", want: "1.3.0", pkg: "left-pad"},
	{ws: ".", name: "is-odd", spec: "^3.0.1", want: "3.0.1"},
	// Two workspaces lock different versions of one dependency.
	{ws: "packages/a", name: "is-number", spec: "^6.0.0", want: "6.0.0"},
	{ws: "packages/b", name: "is-number", spec: "~7.0.0", want: "7.0.0"},
	{ws: "packages/a", name: "react", spec: "^18.2.0", want: "18.3.1"},
	{ws: "packages/b", name: "react", spec: "^17.0.2", want: "17.0.2"},
	// Peer suffixes (react@18.3.1) and (react@17.0.2) are stripped.
	{ws: "packages/a", name: "use-sync-external-store", spec: "^1.2.0", want: "1.7.0"},
	{ws: "packages/b", name: "use-sync-external-store", spec: "^1.2.0", want: "1.7.0"},
	{ws: "packages/a", name: "@isaacs/string-locale-compare", spec: "^1.1.0", want: "1.1.0", pkg: "@isaacs/string-locale-compare"},
	// Aliases, one scoped.
	{ws: "packages/b", name: "lp2", spec: "npm:left-pad@1.2.0", want: "1.2.0", pkg: "left-pad"},
	{ws: "packages/b", name: "slc", spec: "npm:@isaacs/string-locale-compare@1.0.1", want: "1.0.1", pkg: "@isaacs/string-locale-compare"},
	{ws: "packages/b", name: "left-pad", spec: "1.1.3", want: "1.1.3", pkg: "left-pad"},
	// Not in the lockfile.
	{ws: "packages/a", name: "nope", spec: "^1.0.0"},
	// Workspace paths are accepted in any spelling.
	{ws: "./packages/a/", name: "is-number", spec: "^6.0.0", want: "6.0.0"},
	{ws: "", name: "is-number", spec: "^7.0.0", want: "7.0.0"},
}

// singleCases hold for the one-package repositories.
var singleCases = []lookup{
	{ws: ".", name: "is-number", spec: "^7.0.0", want: "7.0.0"},
	{ws: ".", name: "lp", spec: "npm:left-pad@^1.3.0", want: "1.3.0", pkg: "left-pad"},
	{ws: ".", name: "react", spec: "^18.2.0", want: "18.3.1"},
	{ws: ".", name: "use-sync-external-store", spec: "^1.2.0", want: "1.7.0"},
	{ws: ".", name: "slc", spec: "npm:@isaacs/string-locale-compare@1.0.1", want: "1.0.1", pkg: "@isaacs/string-locale-compare"},
	{ws: ".", name: "is-odd", spec: "^3.0.1", want: "3.0.1"},
	{ws: ".", name: "nope", spec: "^1.0.0"},
}

// npm6FileCases hold for fixtures/repos/npm-v1-file: the root links
// packages/a and packages/b with file:, npm 6 installed their dependencies.
var npm6FileCases = []lookup{
	{ws: ".", name: "zod", spec: "^4.1.12", want: "4.1.12"},
	{ws: ".", name: "lodash", spec: "^4.17.21", want: "4.17.21"},
	{ws: ".", name: "pkg-a", spec: "file:packages/a", local: true},
	// Nested under the link's entry: the versions only that package sees.
	{ws: "packages/a", name: "zod", spec: "^3.22.4", want: "3.25.76"},
	{ws: "packages/a", name: "lodash", spec: "4.17.20", want: "4.17.20"},
	{ws: "packages/b", name: "is-number", spec: "^7.0.0", want: "7.0.0"},
	// Hoisted to the top of the tree.
	{ws: "packages/a", name: "is-number", spec: "^6.0.0", want: "6.0.0"},
	{ws: "packages/a", name: "react", spec: "^18.2.0", want: "18.3.1"},
	{ws: "packages/a", name: "@types/react", spec: "18.3.12", want: "18.3.12"},
	{ws: "./packages/a/", name: "zod", spec: "^3.22.4", want: "3.25.76"},
	{ws: "packages/b", name: "@aws-sdk/client-s3", spec: "3.500.0", want: "3.500.0"},
	{ws: "packages/b", name: "express", spec: "^4.21.2", want: "4.21.2"},
	{ws: "packages/b", name: "pkg-a", spec: "file:../a", local: true},
	// npm installs no devDependencies of a file: dependency.
	{ws: "packages/a", name: "@testing-library/react", spec: "^15.0.7"},
}

func TestFixtures(t *testing.T) {
	// The workspace dependency a and the linked directory c have no
	// registry version; where the lockfile records them, Lookup says local.
	localA := lookup{ws: "packages/b", name: "a", spec: "workspace:*", local: true}
	localAStar := lookup{ws: "packages/b", name: "a", spec: "*", local: true}
	linkC := lookup{ws: "packages/b", name: "c", spec: "link:../c", local: true}
	fileC := lookup{ws: "packages/b", name: "c", spec: "file:../c", local: true}
	unknownWs := lookup{ws: "packages/zz", name: "is-number", spec: "^7.0.0"}
	staleA := lookup{ws: "packages/a", name: "is-number", spec: "^6.0.1", want: "6.0.0"}

	tests := []struct {
		dir    string
		format Format
		cases  []lookup
	}{
		{"npm-v3/npm11", NPMv3, append(workspaceCases, localAStar, fileC, unknownWs,
			// is-odd's own is-number 6 is nested under it, not a root dependency.
			lookup{ws: ".", name: "is-number", spec: "^7.0.0", want: "7.0.0"})},
		{"npm-v2/npm11", NPMv2, append(workspaceCases, localAStar, fileC, unknownWs)},
		{"npm-v1/npm6", NPMv1, append(singleCases[:len(singleCases):len(singleCases)],
			lookup{ws: ".", name: "c", spec: "file:./c", local: true})},
		// npm 6 with file: packages instead of workspaces (written by
		// fixtures/repos/regen.sh): the packages' dependencies are hoisted
		// to the top of the tree, the conflicting ones nested under the
		// link's entry.
		{"../../../fixtures/repos/npm-v1-file", NPMv1, npm6FileCases},
		{"pnpm-v5/pnpm7", PnpmV5, append(workspaceCases, localA, linkC, unknownWs)},
		{"pnpm-v5/pnpm7-single", PnpmV5, singleCases},
		{"pnpm-v6/pnpm8", PnpmV6, append(workspaceCases, localA, linkC, unknownWs)},
		{"pnpm-v6/pnpm8-single", PnpmV6, singleCases},
		{"pnpm-v9/pnpm10", PnpmV9, append(workspaceCases, localA, linkC, unknownWs)},
		{"pnpm-v9/pnpm10-single", PnpmV9, singleCases},
		// The env document (config dependencies, with left-pad 1.3.0)
		// comes first; the project's graph is the last document.
		{"pnpm-v9/pnpm12-env", PnpmV9, append(workspaceCases, localA, linkC, unknownWs)},
		{"yarn-v1/yarn1", YarnV1, append(workspaceCases, linkC)},
		// A manifest range changed since the install: Yarn 1 has no entry
		// for it; Berry's workspace entry still says which one is locked.
		{"yarn-v1/yarn1", YarnV1, []lookup{{ws: "packages/a", name: "is-number", spec: "^6.0.1"}}},
		{"yarn-berry/yarn2", YarnBerry, append(workspaceCases, localA, linkC, staleA)},
		{"yarn-berry/yarn3", YarnBerry, append(workspaceCases, localA, linkC, staleA)},
		{"yarn-berry/yarn4", YarnBerry, append(workspaceCases, localA, linkC, staleA)},
		{"bun/bun1.1.43", Bun, append(workspaceCases, localA, fileC, unknownWs)},
		{"bun/bun1.2.19", Bun, append(workspaceCases, localA, fileC, unknownWs)},
		{"bun/bun1.4.5", Bun, append(workspaceCases, localA, fileC, unknownWs)},
		// Workspace a is named @acme/a: bun keys its own copies
		// "@acme/a/is-number".
		{"bun/bun1.4.5-scoped", Bun, append(workspaceCases, fileC, unknownWs,
			lookup{ws: "packages/b", name: "@acme/a", spec: "workspace:*", local: true})},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir := filepath.Join("testdata", tt.dir)
			path, err := Find(dir)
			if err != nil || path == "" {
				t.Fatalf("Find(%s) = %q, %v", dir, path, err)
			}
			lf, err := Load(path)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if lf.Format() != tt.format {
				t.Errorf("Format() = %s, want %s", lf.Format(), tt.format)
			}
			if !filepath.IsAbs(lf.Path()) {
				t.Errorf("Path() = %q, want an absolute path", lf.Path())
			}
			for _, c := range tt.cases {
				got, ok := lf.Installed(c.ws, c.name, c.spec)
				if got != c.want || ok != (c.want != "") {
					t.Errorf("Installed(%q, %q, %q) = %q, %v; want %q", c.ws, c.name, c.spec, got, ok, c.want)
				}
				e, found := lf.Lookup(c.ws, c.name, c.spec)
				if c.pkg != "" && e.Package != c.pkg {
					t.Errorf("Lookup(%q, %q).Package = %q, want %q", c.ws, c.name, e.Package, c.pkg)
				}
				if c.local && (!found || !e.Local || e.Version != "") {
					t.Errorf("Lookup(%q, %q) = %+v, %v; want a local entry", c.ws, c.name, e, found)
				}
				if c.want != "" && e.Local {
					t.Errorf("Lookup(%q, %q) = %+v: a registry entry marked local", c.ws, c.name, e)
				}
			}
		})
	}
}

func TestFind(t *testing.T) {
	write := func(dir string, names ...string) {
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name    string
		files   []string
		want    string
		wantErr bool
	}{
		{name: "none", files: nil, want: ""},
		{name: "pnpm first", files: []string{"yarn.lock", "pnpm-lock.yaml", "package-lock.json"}, want: "pnpm-lock.yaml"},
		{name: "shrinkwrap over package-lock", files: []string{"package-lock.json", "npm-shrinkwrap.json"}, want: "npm-shrinkwrap.json"},
		{name: "yarn", files: []string{"yarn.lock"}, want: "yarn.lock"},
		{name: "bun text", files: []string{"bun.lock", "bun.lockb"}, want: "bun.lock"},
		{name: "binary bun alone", files: []string{"bun.lockb"}, wantErr: true},
		{name: "binary bun beside another", files: []string{"bun.lockb", "yarn.lock"}, want: "yarn.lock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(dir, tt.files...)
			got, err := Find(dir)
			if tt.wantErr {
				var le *Error
				if !asError(err, &le) || le.File != filepath.Join(dir, "bun.lockb") || le.Hint == "" {
					t.Fatalf("Find = %q, %v; want an *Error naming bun.lockb with a hint", got, err)
				}
				if !contains(err.Error(), "bun install --save-text-lockfile") {
					t.Errorf("error %q does not say how to write bun.lock", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if tt.want != "" {
				want = filepath.Join(dir, tt.want)
			}
			if got != want {
				t.Errorf("Find = %q, want %q", got, want)
			}
		})
	}
}

func TestFindAllOrder(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"bun.lock", "yarn.lock", "package-lock.json"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := FindAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "package-lock.json"), filepath.Join(dir, "yarn.lock"), filepath.Join(dir, "bun.lock")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FindAll (-want +got):\n%s", diff)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "pnpm-lock.yaml"))
	var le *Error
	if !asError(err, &le) || le.Hint == "" || !contains(le.File, "pnpm-lock.yaml") {
		t.Fatalf("Load of a missing file = %v; want an *Error naming it with a hint", err)
	}
}

func TestParseUnknownName(t *testing.T) {
	_, err := Parse("/r/shrinkwrap.yaml", []byte("x\n"))
	var le *Error
	if !asError(err, &le) || le.File != "/r/shrinkwrap.yaml" {
		t.Fatalf("Parse of an unknown name = %v", err)
	}
}

func asError(err error, target **Error) bool { return errors.As(err, target) }

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// A lockfile checked out with CRLF line ends, or saved with a byte-order
// mark, says the same as the one the manager wrote.
func TestLineEndingsAndBOM(t *testing.T) {
	for p, cases := range fixtureFiles(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		full, err := Parse(p, data)
		if err != nil {
			t.Fatal(err)
		}
		want := answers(full, cases)
		variants := map[string][]byte{
			"crlf": bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")),
			"bom":  append([]byte("\xef\xbb\xbf"), data...),
		}
		for name, v := range variants {
			lf, err := Parse(p, v)
			if err != nil {
				t.Errorf("%s (%s): %v", p, name, err)
				continue
			}
			if diff := cmp.Diff(want, answers(lf, cases)); diff != "" {
				t.Errorf("%s (%s) answers differ (-want +got):\n%s", p, name, diff)
			}
		}
	}
}

func TestShrinkwrapName(t *testing.T) {
	data, err := os.ReadFile("testdata/npm-v3/npm11/package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	lf, err := Parse("/r/npm-shrinkwrap.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := lf.Installed("packages/a", "is-number", "^6.0.0"); lf.Format() != NPMv3 || v != "6.0.0" || !ok {
		t.Errorf("shrinkwrap: %s, Installed = %q, %v", lf.Format(), v, ok)
	}
}
