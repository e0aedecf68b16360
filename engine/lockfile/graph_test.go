package lockfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func repoLockfile(t testing.TB, repo, name string) string {
	t.Helper()
	return filepath.Join("..", "..", "fixtures", "repos", repo, name)
}

// Each format's graph links a package to its dependencies' records, and
// its importers to what they declare.
func TestGraphEdges(t *testing.T) {
	for _, tt := range []struct {
		repo, file, from, to string
		format               Format
		importer, decl       string
	}{
		{"npm-v3", "package-lock.json", "node_modules/@ai-sdk/openai", "node_modules/@ai-sdk/provider", NPMv3, ".", "left-pad"},
		{"pnpm-v9", "pnpm-lock.yaml", "@ai-sdk/openai@0.0.70", "@ai-sdk/provider@0.0.26", PnpmV9, "apps/admin", "react"},
		{"yarn-classic", "yarn.lock", "@types/react-dom@18.2.25", "@types/react@19.1.2", YarnV1, "", ""},
		{"yarn-berry", "yarn.lock", "@ai-sdk/openai@npm:0.0.70", "@ai-sdk/provider@npm:0.0.26", YarnBerry, "packages/api", "zod"},
		{"bun", "bun.lock", "@types/react-dom", "@types/react", Bun, "packages/web", "zod"},
	} {
		t.Run(tt.repo, func(t *testing.T) {
			g, err := LoadGraph(repoLockfile(t, tt.repo, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if g.Format != tt.format {
				t.Errorf("format %s, want %s", g.Format, tt.format)
			}
			r := g.Records[tt.from]
			if r == nil {
				t.Fatalf("no record %q in %d records", tt.from, len(g.Records))
			}
			if tt.format != Bun && r.Integrity == "" {
				t.Errorf("%s has no integrity", tt.from)
			}
			if tt.format == Bun && !slices.Contains(r.Edges, tt.to) {
				// bun records a peer, not a dependency: the edge is absent.
				if _, ok := g.Records[tt.to]; !ok {
					t.Errorf("no record %q", tt.to)
				}
			} else if !slices.Contains(r.Edges, tt.to) {
				t.Errorf("%s edges %v, want %s", tt.from, r.Edges, tt.to)
			}
			if !g.Reachable([]string{tt.from})[tt.to] && tt.format != Bun {
				t.Errorf("%s not reachable from %s", tt.to, tt.from)
			}
			if tt.importer != "" {
				if _, ok := g.Importers[tt.importer][tt.decl]; !ok {
					t.Errorf("importer %q: %v, want %s", tt.importer, g.Importers[tt.importer], tt.decl)
				}
				if _, ok := g.ImporterEdges[tt.importer][tt.decl]; !ok {
					t.Errorf("importer %q edges %v, want %s", tt.importer, g.ImporterEdges[tt.importer], tt.decl)
				}
			}
		})
	}
}

// Formatting is not content: a pnpm record is equal across a re-indent,
// and a changed integrity is a changed record.
func TestGraphContent(t *testing.T) {
	data, err := os.ReadFile(repoLockfile(t, "pnpm-v9", "pnpm-lock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := ParseGraph("/r/pnpm-lock.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Importers["catalog:default"]["zod"]; !ok {
		t.Errorf("catalogs are importers: %v", a.Importers["catalog:default"])
	}
	changed := []byte(string(data))
	i := indexOf(changed, "sha512-s0swYhJFS3")
	if i < 0 {
		t.Fatal("fixture changed: no provider integrity")
	}
	changed[i+8] = 'X'
	b, err := ParseGraph("/r/pnpm-lock.yaml", changed)
	if err != nil {
		t.Fatal(err)
	}
	k := "@ai-sdk/provider@0.0.26"
	if a.Records[k].Content == b.Records[k].Content {
		t.Errorf("a changed integrity left %s's content equal", k)
	}
	if a.Records["@ai-sdk/openai@0.0.70"].Content != b.Records["@ai-sdk/openai@0.0.70"].Content {
		t.Error("an unrelated record changed")
	}
}

func indexOf(b []byte, s string) int {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return i
		}
	}
	return -1
}

// Every lockfile fixture the graph reads parses.
func TestGraphReadsEveryFixture(t *testing.T) {
	for _, glob := range []string{"npm-v[23]/*/package-lock.json", "pnpm-v[69]/*/pnpm-lock.yaml", "yarn-*/*/yarn.lock", "bun/*/bun.lock"} {
		paths, _ := filepath.Glob(filepath.Join("testdata", glob))
		if len(paths) == 0 {
			t.Fatalf("no fixtures match %s", glob)
		}
		for _, p := range paths {
			g, err := LoadGraph(p)
			if err != nil {
				t.Errorf("%s: %v", p, err)
				continue
			}
			if len(g.Records) == 0 || len(g.Importers) == 0 && g.Format != YarnV1 {
				t.Errorf("%s: %d records, %d importers", p, len(g.Records), len(g.Importers))
			}
		}
	}
}

func TestGraphRejectsOldFormats(t *testing.T) {
	_, err := LoadGraph(repoLockfile(t, "npm-v1", "package-lock.json"))
	var le *Error
	if !errors.As(err, &le) || le.Hint == "" {
		t.Fatalf("npm v1: %v, want an *Error with a hint", err)
	}
}

// fuzzGraph: no panic, an *Error naming the file, or a graph whose edges
// point at records it has.
func fuzzGraph(t *testing.T, name string, data []byte) {
	file := "/repo/" + name
	g, err := ParseGraph(file, data)
	if err != nil {
		var le *Error
		if !errors.As(err, &le) || le.File != file || le.Msg == "" {
			t.Fatalf("%T %v, want *Error naming %s", err, err, file)
		}
		return
	}
	for k, r := range g.Records {
		if r.Key != k {
			t.Fatalf("record %q keyed %q", r.Key, k)
		}
		for _, e := range r.Edges {
			if _, ok := g.Records[e]; !ok && g.Format != PnpmV6 && g.Format != PnpmV9 {
				t.Fatalf("%s → %s, which is no record", k, e)
			}
		}
	}
}

func graphSeeds(f *testing.F, repo, name string, extra ...string) {
	data, err := os.ReadFile(repoLockfile(f, repo, name))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	for _, e := range extra {
		f.Add([]byte(e))
	}
}

func FuzzGraphNPM(f *testing.F) {
	seed(f, "npm-v[23]/*/package-lock.json")
	graphSeeds(f, "npm-v3", "package-lock.json",
		`{"lockfileVersion":3,"packages":{"":{"dependencies":{"a":"^1"}},"node_modules/a":{"version":"1.0.0","dependencies":{"b":"*"}},"node_modules/a/node_modules/b":{"version":"2.0.0"}}}`)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzGraph(t, "package-lock.json", data) })
}

func FuzzGraphPnpm(f *testing.F) {
	seed(f, "pnpm-v[69]/*/pnpm-lock.yaml")
	graphSeeds(f, "pnpm-v9", "pnpm-lock.yaml",
		"lockfileVersion: '6.0'\ndependencies:\n  a:\n    specifier: ^1\n    version: 1.0.0\npackages:\n  /a@1.0.0:\n    resolution: {integrity: sha512-x}\n    dependencies:\n      b: 2.0.0\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzGraph(t, "pnpm-lock.yaml", data) })
}

func FuzzGraphYarn(f *testing.F) {
	graphSeeds(f, "yarn-classic", "yarn.lock",
		"# yarn lockfile v1\n\na@^1:\n  version \"1.0.0\"\n  dependencies:\n    b \"^2\"\n\nb@^2:\n  version \"2.0.0\"\n")
	graphSeeds(f, "yarn-berry", "yarn.lock")
	seed(f, "yarn-*/*/yarn.lock")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzGraph(t, "yarn.lock", data) })
}

func FuzzGraphBun(f *testing.F) {
	graphSeeds(f, "bun", "bun.lock")
	seed(f, "bun/*/bun.lock")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzGraph(t, "bun.lock", data) })
}

// A name in two fields of one workspace reads the same every time: the
// field that installs it (dependencies over a peer or dev declaration).
func TestImporterDeclOfANameInTwoFields(t *testing.T) {
	resolve := func(string) (string, bool) { return "", false }
	for i := 0; i < 50; i++ {
		decl, _ := importerDecl(map[string]string{"react": "^19.0.0"}, map[string]string{"react": "19.1.0", "zod": "^4"}, nil,
			map[string]string{"react": ">=18", "zod": "*"}, resolve)
		if decl["react"] != "dependencies ^19.0.0" || decl["zod"] != "devDependencies ^4" {
			t.Fatalf("run %d: %v", i, decl)
		}
	}
}
