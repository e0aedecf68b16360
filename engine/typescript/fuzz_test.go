package typescript

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// The cache file is outside input as far as a run is concerned (another
// version, a damaged disk): reading it must never panic, and whatever it
// accepts must satisfy the surface invariants.
func FuzzReadCachedSurface(f *testing.F) {
	header := model.Surface{Package: "x", Version: "1.0.0", Adapter: AdapterName, SchemaVersion: model.SurfaceSchemaVersion, EntryPoints: []string{"."}}
	for _, symbols := range [][]model.Symbol{
		{{Path: "a", Kind: model.KindFunction, Signature: "(): void", ExportedFrom: []string{"."}}},
		{{Path: "b", Kind: model.KindClass}, {Path: "a", Kind: model.KindClass, Deprecated: &model.Deprecation{Message: "use b", Replacement: "b"}}},
		{{Path: "a", Kind: "nope"}},
		{{Path: "a", Kind: model.KindClass}, {Path: "a", Kind: model.KindClass}},
	} {
		s := header
		s.Symbols = symbols
		f.Add(gobBytes(f, &s))
	}
	f.Add([]byte("{not gob"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(dir, "s.json")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, ok := readCachedSurface(file, "x", "1.0.0")
		if !ok {
			return
		}
		for i, sym := range s.Symbols {
			if sym.Path == "" || !knownKinds[sym.Kind] || sym.ExportedFrom == nil {
				t.Fatalf("accepted symbol %+v", sym)
			}
			if i > 0 && s.Symbols[i-1].Path >= sym.Path {
				t.Fatalf("accepted unsorted or duplicate paths")
			}
		}
		if _, err := json.Marshal(s); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzNodeMajor(f *testing.F) {
	for _, s := range []string{"v20.11.1", "v18.0.0\n", "22", "", "v", "v-1.2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, ok := nodeMajor(s); ok && n < 0 {
			t.Fatalf("nodeMajor(%q) = %d", s, n)
		}
	})
}

// A published package.json is outside input: whatever its exports,
// typesVersions or types fields hold, the driver answers (a surface, NoTypes
// or a bad-request error), never an internal error or a crash.
func FuzzPackageManifest(f *testing.F) {
	manifests, _ := filepath.Glob(filepath.Join(pairsDir, "*", "[ab]", "package.json"))
	for _, m := range manifests {
		if b, err := os.ReadFile(m); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"exports": 5}`))
	f.Add([]byte(`{"exports": {".": [null, {"types": ["./index.d.ts"]}]}, "typesVersions": {"*": 1}}`))
	f.Add([]byte(`{"exports": {"./*": {"types": "./../*.d.ts"}}}`))
	a := sharedAdapter(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, manifest []byte) {
		dir := t.TempDir()
		files := map[string]string{
			"package.json":     string(manifest),
			"index.d.ts":       "export declare function f(): void;\n",
			"dist/index.d.mts": "export declare const g: number;\n",
			"ts4/index.d.ts":   "export interface H { x: string }\n",
			"sub/package.json": `{"types": "../index.d.ts"}`,
		}
		for rel, content := range files {
			writeFile(t, dir, rel, content)
		}
		_, err := a.ExtractSurface(ctx, dir, "fuzzed", "1.0.0")
		var de *DriverError
		if errors.As(err, &de) && de.Code != "BAD_REQUEST" {
			t.Fatalf("manifest %q: %v", manifest, err)
		}
	})
}
