package managers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"
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
