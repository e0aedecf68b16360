package tui_test

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// screenEngineImports are the engine packages a screen may import: the
// façade, the model it returns, and version arithmetic. The analysis stack
// (check, discover, typescript, match, diff, registry, lockfile, groups,
// repo, …) is the façade's business: a screen that reaches into it draws
// from a second source of truth.
var screenEngineImports = map[string]bool{
	"github.com/uptide/uptide/engine":            true,
	"github.com/uptide/uptide/engine/model":      true,
	"github.com/uptide/uptide/engine/model/path": true,
	"github.com/uptide/uptide/engine/semver":     true,
}

func TestScreensImportOnlyTheEngineFacade(t *testing.T) {
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	packages := 0
	for _, dir := range dirs {
		pkg, err := build.ImportDir(dir, 0)
		if _, none := err.(*build.NoGoError); none {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		packages++
		name := "tui"
		if dir != "." {
			name += "/" + filepath.ToSlash(dir)
		}
		for _, imp := range pkg.Imports {
			if (imp == "github.com/uptide/uptide/engine" || strings.HasPrefix(imp, "github.com/uptide/uptide/engine/")) && !screenEngineImports[imp] {
				t.Errorf("%s imports %s: screens go through the engine façade (github.com/uptide/uptide/engine) and engine/model", name, imp)
			}
		}
	}
	if packages < 10 {
		t.Fatalf("read %d packages under tui/, want every screen's (at least 10)", packages)
	}
}
