package managers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/lockfile"
)

// The guard on every format: a changed record outside the moved subtree
// is named; the same change inside it (the record itself, or one reachable
// from a moved package) is allowed.
func TestScopeViolationsPerFormat(t *testing.T) {
	const isNumberSRI = "sha512-pOwrBXjDZp0CV+BXnEAApg1tAZHs9P9F/+8QTDy/tMD4c5VKTW/kr6FvrxcHKL17YLDyvJ0sHFNKoEFI5r04lg=="
	for _, tt := range []struct {
		repo, file, old, new string
		outside, inside      string // a moved package that leaves it outside / puts it inside the subtree
		want                 string
	}{
		{"npm-v3", "package-lock.json", isNumberSRI, "sha512-changed", "zod", "is-number", "is-number 6.0.0 changed"},
		{"pnpm-v9", "pnpm-lock.yaml", isNumberSRI, "sha512-changed", "zod", "is-number", "is-number 6.0.0 changed"},
		{"yarn-classic", "yarn.lock", "sha512-0GtmcFhuxpRt6", "sha512-changed", "zod", "lodash", "lodash 4.17.20 changed"},
		// The provider is reachable from @ai-sdk/openai: moving openai lets it change.
		{"yarn-berry", "yarn.lock", "10c0/579afddb076fddb5", "10c0/changed", "zod", "@ai-sdk/openai", "@ai-sdk/provider 0.0.26 changed"},
		{"bun", "bun.lock", isNumberSRI, "sha512-changed", "zod", "is-number", "is-number 6.0.0 changed"},
	} {
		t.Run(tt.repo, func(t *testing.T) {
			file := filepath.Join("..", "..", "fixtures", "repos", tt.repo, tt.file)
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), tt.old) {
				t.Fatalf("the fixture no longer holds %q", tt.old)
			}
			before, err := lockfile.ParseGraph(file, data)
			if err != nil {
				t.Fatal(err)
			}
			if bad := scopeViolations(before, before, map[string]bool{tt.outside: true}); len(bad) != 0 {
				t.Fatalf("an unchanged lockfile has violations: %q", bad)
			}
			after, err := lockfile.ParseGraph(file, []byte(strings.Replace(string(data), tt.old, tt.new, 1)))
			if err != nil {
				t.Fatal(err)
			}
			bad := scopeViolations(before, after, map[string]bool{tt.outside: true})
			if len(bad) != 1 || !strings.HasPrefix(bad[0], tt.want) {
				t.Errorf("moving %s: %q, want one entry starting %q", tt.outside, bad, tt.want)
			}
			if bad := scopeViolations(before, after, map[string]bool{tt.inside: true}); len(bad) != 0 {
				t.Errorf("moving %s: %q, want none (inside the subtree)", tt.inside, bad)
			}
		})
	}
}

// An importer declaration of a package that did not move is guarded too.
func TestScopeViolationsImporters(t *testing.T) {
	file := filepath.Join("..", "..", "fixtures", "repos", "pnpm-v9", "pnpm-lock.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	before, err := lockfile.ParseGraph(file, data)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(data), "  .:\n    devDependencies:\n      is-number:\n        specifier: ^6.0.0", "  .:\n    devDependencies:\n      is-number:\n        specifier: ~6.0.0", 1)
	if changed == string(data) {
		t.Fatal("the fixture's root importer changed shape")
	}
	after, err := lockfile.ParseGraph(file, []byte(changed))
	if err != nil {
		t.Fatal(err)
	}
	if bad := scopeViolations(before, after, map[string]bool{"zod": true}); len(bad) != 1 || !strings.HasPrefix(bad[0], "importer .: is-number") {
		t.Errorf("%q, want the root's is-number declaration", bad)
	}
	if bad := scopeViolations(before, after, map[string]bool{"is-number": true}); len(bad) != 0 {
		t.Errorf("moving is-number: %q", bad)
	}
}

// The guard counts from what the manager does on its own: a rewrite the
// untouched checkout gets too is the manager's, and only a change beyond
// it is the upgrade's.
func TestBeyondOwn(t *testing.T) {
	const isNumberSRI = "sha512-pOwrBXjDZp0CV+BXnEAApg1tAZHs9P9F/+8QTDy/tMD4c5VKTW/kr6FvrxcHKL17YLDyvJ0sHFNKoEFI5r04lg=="
	file := filepath.Join("..", "..", "fixtures", "repos", "npm-v3", "package-lock.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	graph := func(s string) *lockfile.Graph {
		g, err := lockfile.ParseGraph(file, []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	if !strings.Contains(string(data), isNumberSRI) || !strings.Contains(string(data), `"node_modules/lodash": {`) {
		t.Fatal("the fixture no longer holds is-number's integrity and lodash")
	}
	before := graph(string(data))
	// The manager's own run changes is-number's record; the upgrade (of
	// zod) installs the same.
	normText := strings.Replace(string(data), isNumberSRI, "sha512-rewritten", 1)
	own, bad := beyondOwn(before, graph(normText), graph(normText), map[string]bool{"zod": true})
	if len(own) != 1 || !strings.HasPrefix(own[0], "is-number 6.0.0 changed") || len(bad) != 0 {
		t.Errorf("own %q bad %q, want is-number's rewrite as the manager's own and nothing against the upgrade", own, bad)
	}
	// The upgrade's install also drops lodash: that one is the upgrade's.
	i := strings.Index(normText, `"node_modules/lodash": {`)
	j := i + strings.Index(normText[i:], "},") + len("},")
	afterText := normText[:i] + normText[j:]
	own, bad = beyondOwn(before, graph(normText), graph(afterText), map[string]bool{"zod": true})
	if len(own) != 1 || len(bad) != 1 || !strings.HasPrefix(bad[0], "lodash ") || !strings.HasSuffix(bad[0], " removed") {
		t.Errorf("own %q bad %q, want lodash's removal against the upgrade", own, bad)
	}
	// Nothing of the manager's own: the guard is the plain one.
	own, bad = beyondOwn(before, before, graph(normText), map[string]bool{"zod": true})
	if len(own) != 0 || len(bad) != 1 || !strings.HasPrefix(bad[0], "is-number 6.0.0 changed") {
		t.Errorf("own %q bad %q, want is-number's change against the upgrade", own, bad)
	}
}

// A repository naming no manager version gets the newest release of the
// line that writes its lockfile: read from the lockfiles the real managers
// wrote.
func TestPinnedRelease(t *testing.T) {
	for _, tt := range []struct{ repo, file, name, want string }{
		{"pnpm-v9", "pnpm-lock.yaml", "pnpm", "9.15.9"},
		{"yarn-classic", "yarn.lock", "yarn", "1.22.22"},
		{"yarn-berry", "yarn.lock", "yarn-berry", "4.18.1"},
		{"npm-v3", "package-lock.json", "npm", ""},
	} {
		file := filepath.Join("..", "..", "fixtures", "repos", tt.repo, tt.file)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lf, err := lockfile.Parse(file, data)
		if err != nil {
			t.Fatal(err)
		}
		if got := testManager(t, tt.name).Pinned(lf.Format(), data); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.repo, got, tt.want)
		}
	}
	yarn3 := []byte("# yarn\n\n__metadata:\n  version: 6\n  cacheKey: 8\n")
	if got := yarnBerry.Pinned(lockfile.YarnBerry, yarn3); got != "3.8.7" {
		t.Errorf("a Yarn 3 lockfile: %q, want 3.8.7", got)
	}
}

// npm hoisting an upgraded dependency lets the nested copies of the same
// install go: express 5 puts debug 4.4.3 at the root, so the debug 4.4.3
// nested under @babel/core is removed, and its dependent resolves the
// same install from the root. A nested copy whose nearest ancestor copy
// is another version (or that has none) is still a change.
func TestHoistedCopyIsTheSameInstall(t *testing.T) {
	rec := func(key, name, version, sri string) *lockfile.Record {
		return &lockfile.Record{Key: key, Name: name, Version: version, Integrity: sri, Content: key + version + sri}
	}
	after := &lockfile.Graph{Format: lockfile.NPMv3, Records: map[string]*lockfile.Record{
		"node_modules/debug":                       rec("node_modules/debug", "debug", "4.4.3", "sha512-d4"),
		"node_modules/jest/node_modules/debug":     rec("node_modules/jest/node_modules/debug", "debug", "3.2.7", "sha512-d3"),
		"packages/a/node_modules/left-pad":         rec("packages/a/node_modules/left-pad", "left-pad", "1.3.0", "sha512-l"),
		"node_modules/@babel/core/node_modules/ms": rec("node_modules/@babel/core/node_modules/ms", "ms", "2.1.3", "sha512-m"),
	}}
	for _, tt := range []struct {
		removed *lockfile.Record
		want    bool
	}{
		{rec("node_modules/@babel/core/node_modules/debug", "debug", "4.4.3", "sha512-d4"), true},
		{rec("packages/a/node_modules/debug", "debug", "4.4.3", "sha512-d4"), true},
		{rec("node_modules/jest/node_modules/x/node_modules/debug", "debug", "4.4.3", "sha512-d4"), false}, // jest's 3.2.7 is nearer
		{rec("node_modules/@babel/core/node_modules/debug", "debug", "4.4.2", "sha512-d42"), false},
		{rec("node_modules/@babel/core/node_modules/chalk", "chalk", "4.1.2", "sha512-c"), false},
		{rec("node_modules/debug", "debug", "4.4.3", "sha512-d4"), false},
	} {
		if got := hoisted(after, tt.removed); got != tt.want {
			t.Errorf("hoisted(%s %s) = %v, want %v", tt.removed.Key, tt.removed.Version, got, tt.want)
		}
	}
}
