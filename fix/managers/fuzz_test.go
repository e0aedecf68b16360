package managers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/uptide/uptide/engine/lockfile"
)

// The textual editors read outside input (package.json,
// pnpm-workspace.yaml): no panic, and an edit of valid input is valid.
func FuzzSetJSONString(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*", "package.json"))
	more, _ := filepath.Glob(filepath.Join("testdata", "*", "*", "*", "package.json"))
	for _, p := range append(paths, more...) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"dependencies":{"zod":"1","x":[1,{"y":null}]},"z":true}`))
	f.Add([]byte(`{"dependencies":{"zod":"1","slugkit":"1","zod":"2"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"zod", "slugkit"} {
			out, err := setJSONString(data, "^2.0.0", "dependencies", name)
			if err == nil && json.Valid(data) && !json.Valid(out) {
				t.Fatalf("valid input edited into invalid JSON:\n%s", out)
			}
			out, err = addJSONDependency(data, "dependencies", "new-dep", "^1.0.0")
			if err == nil && json.Valid(data) && !json.Valid(out) {
				t.Fatalf("valid input, invalid JSON after adding:\n%s", out)
			}
			out, err = removeJSONMember(data, "dependencies", name)
			if err == nil && json.Valid(data) {
				var doc struct {
					Dependencies map[string]any `json:"dependencies"`
				}
				if uerr := json.Unmarshal(out, &doc); uerr != nil {
					t.Fatalf("valid input, invalid JSON after removing %s: %v\n%s", name, uerr, out)
				}
				if _, still := doc.Dependencies[name]; still {
					t.Fatalf("%s still declared after removing it:\n%s", name, out)
				}
			}
		}
	})
}

func FuzzSetCatalogEntry(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "pnpm-catalog", "pnpm-workspace.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	data, err = os.ReadFile(filepath.Join("..", "..", "fixtures", "repos", "pnpm-v9", "pnpm-workspace.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("catalog: {zod: \"^3\", kleur: ^4}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in any
		valid := yaml.Unmarshal(data, &in) == nil
		for _, c := range [][2]string{{"default", "zod"}, {"react18", "react"}} {
			out, err := setCatalogEntry(data, c[0], c[1], "^9.9.9")
			if err != nil {
				continue
			}
			var v any
			if valid && yaml.Unmarshal(out, &v) != nil {
				t.Fatalf("edited into invalid YAML:\n%s", out)
			}
		}
	})
}

// The guard reads the lockfile the manager wrote: whatever it holds, no
// panic, and the same answer twice (hoisted walks npm's keys up).
func FuzzScopeViolationsNPM(f *testing.F) {
	file := filepath.Join("..", "..", "fixtures", "repos", "npm-v3", "package-lock.json")
	data, err := os.ReadFile(file)
	if err != nil {
		f.Fatal(err)
	}
	before, err := lockfile.ParseGraph(file, data)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"lockfileVersion":3,"packages":{"":{},"node_modules/a/node_modules/zod":{"version":"3.22.4"},"node_modules/zod":{"version":"3.22.4"},"a/node_modules/":{},"node_modules/node_modules/x":{"version":"1"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		after, err := lockfile.ParseGraph(file, data)
		if err != nil {
			return
		}
		moved := map[string]bool{"zod": true}
		bad := scopeViolations(before, after, moved)
		if again := scopeViolations(before, after, moved); strings.Join(again, "\n") != strings.Join(bad, "\n") {
			t.Fatalf("two answers:\n%q\n%q", bad, again)
		}
		beyondOwn(before, after, before, moved)
		beyondOwn(after, before, after, moved)
	})
}

// A fetched manager's manifest is the registry's: its bin never names a
// file outside the package.
func FuzzBinScript(f *testing.F) {
	f.Add(`{"bin":{"pnpm":"bin/pnpm.cjs"}}`)
	f.Add(`{"bin":{"yarn":"../../etc/passwd"}}`)
	f.Add(`{"bin":"cli.js"}`)
	f.Add(`{"bin":{"pnpm":"/abs/pnpm.cjs"}}`)
	f.Fuzz(func(t *testing.T, manifest string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, command := range []string{"pnpm", "yarn"} {
			script, err := binScript(dir, command)
			if err != nil {
				continue
			}
			if rel, err := filepath.Rel(dir, script); err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
				t.Fatalf("bin %q names %s, outside %s", manifest, script, dir)
			}
		}
	})
}
