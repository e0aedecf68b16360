package managers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// How to run each manager has one home: its file here. Nothing else in fix
// tests a manager's name or spells its flags and settings, so a new
// manager, or a changed command, is one file's change.
func TestManagerKnowledgeHasOneHome(t *testing.T) {
	home := map[string]bool{"manager.go": true, "npm.go": true, "pnpm.go": true, "yarn.go": true, "bun.go": true}
	knowledge := regexp.MustCompile(`^(npm|pnpm|yarn|yarn-berry|bun)$|--frozen-lockfile|--ignore-scripts|--immutable|npm_config_|YARN_`)
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		if filepath.Base(filepath.Dir(path)) == "managers" && home[d.Name()] {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if v, err := strconv.Unquote(lit.Value); err == nil && knowledge.MatchString(v) {
				t.Errorf("%s: %q is a package manager's: ask its Manager (fix/managers)", fset.Position(lit.Pos()), v)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every manager is registered under its name and has every command of the
// transaction.
func TestEveryManagerIsRegistered(t *testing.T) {
	for _, m := range []Manager{npm, pnpm, yarnClassic, yarnBerry, bun} {
		if got, ok := ByName(m.Name()); !ok || got != m {
			t.Errorf("%s is not registered under its name", m.Name())
		}
		if len(m.InstallArgs()) == 0 || len(m.FrozenArgs()) == 0 || len(m.RestoreArgs()) == 0 || len(m.LockfileOnlyArgs()) == 0 {
			t.Errorf("%s lacks a command", m.Name())
		}
	}
}
