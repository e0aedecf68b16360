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
