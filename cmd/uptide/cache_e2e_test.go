package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/uptide/uptide/internal/testkit/testregistry"
)

// mirrorTree is a registry of mirrorkit 1.0.0 and a 2.0.0 that adds
// added(): two registries built from it with different names serve two
// different tarballs under mirrorkit@2.0.0, as a mirror and its origin can.
func mirrorTree(added string) fstest.MapFS {
	manifest := func(v string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`{"name":"mirrorkit","version":"` + v + `","types":"index.d.ts"}`)}
	}
	return fstest.MapFS{
		"mirrorkit/1.0.0/package.json": manifest("1.0.0"),
		"mirrorkit/1.0.0/index.d.ts":   {Data: []byte("export declare function base(): void;\n")},
		"mirrorkit/2.0.0/package.json": manifest("2.0.0"),
		"mirrorkit/2.0.0/index.d.ts":   {Data: []byte("export declare function base(): void;\nexport declare function " + added + "(): void;\n")},
	}
}

// Surfaces are cached by what they are read from: after a diff against
// one registry, the same name@version from another registry serving other
// bytes is diffed from those bytes, with one cache between the two runs.
func TestDiffSurfaceCacheFollowsTheTarball(t *testing.T) {
	home, cacheDir := t.TempDir(), t.TempDir()
	if err := os.Symlink(sharedCompilers(t), filepath.Join(cacheDir, "compilers")); err != nil {
		t.Fatal(err)
	}
	added := []string{"fromOrigin", "fromMirror", "fromOrigin"}
	for i, name := range added {
		reg, err := testregistry.New(mirrorTree(name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(reg.Close)
		r := run(t, env{home: home, cache: cacheDir, registry: reg.URL()}, t.TempDir(), "diff", "mirrorkit", "1.0.0", "2.0.0", "--json")
		var rep struct {
			Changes []struct {
				Path string `json:"path"`
				Kind string `json:"kind"`
			} `json:"changes"`
		}
		decode(t, r, &rep)
		var paths []string
		for _, c := range rep.Changes {
			paths = append(paths, c.Path+" "+c.Kind)
		}
		if !slices.Equal(paths, []string{name + " added"}) {
			t.Errorf("run %d, against the registry whose 2.0.0 adds %s: changes %q\n%s", i+1, name, paths, r.stderr)
		}
	}
}
