package typescript

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// nativeSide is an overlay materialized for the native tsc: a real
// directory tree, so what a linked package imports resolves inside it
// (tsc follows real paths, and the overlay's links point into the cache).
type nativeSide struct {
	Name string
	// Root holds node_modules (the copies) and, when a types package is
	// mapped, typeroots (one entry per mapped @types package).
	Root string
	// Packages are the mapped names, as the driver's mapping has them.
	Packages []string
	// TypeRoot is Root/typeroots when it exists, else "".
	TypeRoot string
	// dirs are the linked directories tsc may still print (a symlinked
	// JavaScript file's real path), with their names in the overlay.
	dirs map[string]string
}

// tsFile says whether a file is one tsc reads as TypeScript (declarations
// included): those are copied, so their imports resolve from the copy.
func tsFile(name string) bool {
	for _, ext := range []string{".ts", ".tsx", ".mts", ".cts"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// resolvableFile is a file module resolution may land on without tsc
// reading it as TypeScript (an untyped package's JavaScript, JSON): linked,
// so an import of it resolves as it does in the overlay.
func resolvableFile(name string) bool {
	for _, ext := range []string{".js", ".jsx", ".mjs", ".cjs", ".json"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// materialize lays out the overlay o under dir for a native run: the
// targets, companions and fetched packages are copied (package.json files
// and TypeScript files; other resolvable files are linked), the
// consumer's own copies stay links (their dependencies are where they are
// installed, as in the driver's overlay), and each mapped @types package
// gets an entry in dir/typeroots, which goes first in typeRoots so type
// reference directives and automatic inclusion take the overlay's copy.
func materialize(o *Overlay, name, dir string) (*nativeSide, error) {
	m := o.driverMapping()
	side := &nativeSide{Name: name, Root: dir, Packages: m.Packages, dirs: map[string]string{}}
	nm := filepath.Join(dir, "node_modules")
	for _, l := range o.Links() {
		if err := checkPackageName(l.Name); err != nil {
			return nil, err
		}
		at := filepath.Join(nm, filepath.FromSlash(l.Name))
		if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
			return nil, fmt.Errorf("native overlay: %w", err)
		}
		if l.Origin == OriginInstalled {
			if err := os.Symlink(l.Dir, at); err != nil {
				return nil, fmt.Errorf("native overlay: link %s: %w", l.Name, err)
			}
			continue
		}
		side.dirs[l.Dir] = "node_modules/" + l.Name
		if err := copyPackageTypes(l.Dir, at); err != nil {
			return nil, fmt.Errorf("native overlay: copy %s from %s: %w", l.Name, l.Dir, err)
		}
	}
	for _, p := range m.Packages {
		bare, ok := strings.CutPrefix(p, "@types/")
		if !ok || bare == "" || strings.Contains(bare, "/") {
			continue
		}
		target := filepath.Join(nm, "@types", bare)
		if _, err := os.Stat(target); err != nil {
			continue
		}
		side.TypeRoot = filepath.Join(dir, "typeroots")
		if err := os.MkdirAll(side.TypeRoot, 0o755); err != nil {
			return nil, fmt.Errorf("native overlay: %w", err)
		}
		if err := os.Symlink(target, filepath.Join(side.TypeRoot, bare)); err != nil {
			return nil, fmt.Errorf("native overlay: type root %s: %w", bare, err)
		}
	}
	return side, nil
}

// copyPackageTypes copies src's package.json and TypeScript files to dst
// (hard links where the file system allows) and links its other
// resolvable files. Symbolic links inside the package are followed for
// files and skipped for directories (no cycles).
func copyPackageTypes(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		name := d.Name()
		copyIt := name == "package.json" || tsFile(name)
		if !copyIt && !resolvableFile(name) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			if err != nil || !st.Mode().IsRegular() {
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		if !copyIt {
			return os.Symlink(p, out)
		}
		if err := os.Link(p, out); err == nil {
			return nil
		}
		return copyFile(p, out)
	})
}

// nativeUnit is one project of the driver's native plan.
type nativeUnit struct {
	// Config is the tsconfig the generated one extends ("" for none).
	Config string `json:"config"`
	// Files are the files in scope as the tsconfig lists them; Roots adds
	// what is global without being imported.
	Files     []string            `json:"files"`
	Roots     []string            `json:"roots"`
	Paths     map[string][]string `json:"paths"`
	TypeRoots []string            `json:"typeRoots"`
	RootDirs  []string            `json:"rootDirs"`
	AllowJs   bool                `json:"allowJs"`
	// SkipLibCheck: the unit has no tsconfig, and the driver's defaults
	// for such a program skip checking declaration files.
	SkipLibCheck bool `json:"skipLibCheck"`
	// NoConfig: the unit has no tsconfig at all; its modules resolve as
	// Node loads them, as the driver's program for it does.
	NoConfig bool `json:"noConfig"`
	// Seedable: tsc -p of Config judges the unit's files as its generated
	// tsconfig does (native_seed.go).
	Seedable bool `json:"seedable"`
	Sides    map[string]struct {
		Paths map[string][]string `json:"paths"`
	} `json:"sides"`
}

type nativePlanAnswer struct {
	Kind  string       `json:"kind"`
	Units []nativeUnit `json:"units"`
}

type nativePlanParams struct {
	RepoRoot  string            `json:"repoRoot"`
	Workspace string            `json:"workspace"`
	TSConfig  string            `json:"tsconfig,omitempty"`
	Files     []string          `json:"files"`
	Sides     []nativeSideParam `json:"sides"`
	// SourcePaths: the workspace dependencies' sources (FindWorkspaceSources).
	SourcePaths map[string][]string `json:"sourcePaths,omitempty"`
	// Judge is the judging tsc's version: one that predates exports maps
	// gets the sides' packages mapped as whole directories.
	Judge string `json:"judge"`
}

type nativeSideParam struct {
	Name     string   `json:"name"`
	Root     string   `json:"root"`
	Packages []string `json:"packages"`
}

// mergePaths is the workspace's paths plus the side's entries for names the
// workspace does not map itself: the generated tsconfig's paths replace the
// extended one's wholesale, so none may be dropped, and a name the
// repository maps is resolved by its mapping on both sides, as in the
// driver.
func mergePaths(workspace, side map[string][]string) map[string][]string {
	out := make(map[string][]string, len(workspace)+len(side))
	for k, v := range workspace {
		out[k] = append([]string(nil), v...)
	}
	for k, v := range side {
		if _, mine := out[k]; !mine {
			out[k] = append([]string(nil), v...)
		}
	}
	return out
}

// generatedConfig is a tsconfig for one native run: the workspace's
// options, only the roots as files, nothing emitted or written (no build
// info, no declarations: composite and incremental off), and the side's
// paths and type root first.
type generatedConfig struct {
	Extends         string         `json:"extends,omitempty"`
	Files           []string       `json:"files"`
	Include         []string       `json:"include"`
	CompilerOptions map[string]any `json:"compilerOptions"`
}

// nativeTSConfig renders the tsconfig of unit u on a side (nil: the
// installed packages).
func nativeTSConfig(u nativeUnit, side *nativeSide) ([]byte, error) {
	opts := map[string]any{
		"noEmit":              true,
		"composite":           false,
		"incremental":         false,
		"tsBuildInfoFile":     nil,
		"outFile":             nil,
		"declaration":         false,
		"emitDeclarationOnly": false,
		"declarationMap":      false,
		"sourceMap":           false,
		"inlineSourceMap":     false,
	}
	// The default type roots follow the tsconfig's directory, which the
	// generated one moves: they are always given.
	typeRoots := []string{}
	var sidePaths map[string][]string
	if side != nil {
		if side.TypeRoot != "" {
			typeRoots = append(typeRoots, side.TypeRoot)
		}
		sidePaths = u.Sides[side.Name].Paths
	}
	typeRoots = append(typeRoots, u.TypeRoots...)
	opts["typeRoots"] = typeRoots
	if paths := mergePaths(u.Paths, sidePaths); len(paths) > 0 {
		opts["paths"] = paths
	}
	if len(u.RootDirs) > 0 {
		opts["rootDirs"] = u.RootDirs
	}
	if u.AllowJs {
		// As the driver judges: JavaScript in the program is checked on
		// both sides.
		opts["allowJs"] = true
		opts["checkJs"] = true
	}
	if u.SkipLibCheck {
		opts["skipLibCheck"] = true
	}
	if u.NoConfig {
		// The native compiler is newer than 4.7: Node's resolution is
		// nodenext (its own default would be the bundler's).
		opts["module"] = "nodenext"
		opts["moduleResolution"] = "nodenext"
	}
	roots := append([]string(nil), u.Roots...)
	sort.Strings(roots)
	cfg := generatedConfig{Extends: u.Config, Files: roots, Include: []string{}, CompilerOptions: opts}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
