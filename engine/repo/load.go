package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

const (
	manifestFile      = "package.json"
	pnpmWorkspaceFile = "pnpm-workspace.yaml"
)

// skippedDirs are never searched for workspaces: installed packages and VCS
// metadata, as every package manager skips them.
var skippedDirs = map[string]bool{"node_modules": true, "bower_components": true, ".git": true}

// Load reads the repository that contains cwd: the nearest package.json
// upward, or the workspace root above it whose workspace globs include it.
// A broken root manifest or pnpm-workspace.yaml is an error (*InputError);
// a broken workspace manifest is a Problem and the others are still read.
func Load(cwd string) (*model.Repository, error) {
	abs, err := filepath.Abs(cwd)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve %s: %w: pass an existing directory with --cwd", cwd, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w: pass an existing directory with --cwd", abs, err)
	}
	if !fi.IsDir() {
		abs = filepath.Dir(abs)
	}
	pkgDir, ok := nearestManifest(abs)
	if !ok {
		return nil, fmt.Errorf("no package.json in %s or any parent: run uptide inside a JavaScript project (or pass --cwd)", abs)
	}
	root, problems, err := findRoot(pkgDir)
	if err != nil {
		return nil, err
	}
	r, err := loadRoot(root)
	if err != nil {
		return nil, err
	}
	r.Problems = append(r.Problems, problems...)
	sortProblems(r.Problems)
	return r, nil
}

func nearestManifest(dir string) (string, bool) {
	for d := dir; ; {
		if isFile(filepath.Join(d, manifestFile)) {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// readManifest reads a workspace's package.json, opening only a regular
// file: a FIFO would block the read forever.
func readManifest(file string) ([]byte, error) {
	fi, err := os.Stat(file)
	switch {
	case err != nil:
		return nil, fmt.Errorf("cannot read the manifest (%v): check its permissions", err)
	case fi.IsDir():
		return nil, errors.New("package.json is a directory, not a file: put the workspace's manifest there or take the folder out of the workspaces")
	case !fi.Mode().IsRegular():
		return nil, errors.New("package.json is not a regular file: put the workspace's manifest there or take the folder out of the workspaces")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("cannot read the manifest (%v): check its permissions", err)
	}
	return data, nil
}

// manifestOrProblem parses the manifest at relFile; one that does not
// parse is a problem on r saying that what ("this workspace") is left out
// until it does, and nil.
func manifestOrProblem(r *model.Repository, relFile string, data []byte, what string) *manifest {
	m, perr := parseManifest(data)
	if perr != nil {
		r.Problems = append(r.Problems, model.Problem{File: relFile, Line: perr.Line,
			Message: perr.Msg + "; " + what + " is left out until then"})
		return nil
	}
	return m
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// findRoot returns the workspace root that owns the package in pkgDir: the
// package itself when it declares workspaces, else the nearest ancestor
// whose workspace globs include it, else the package itself.
func findRoot(pkgDir string) (string, []model.Problem, error) {
	if isFile(filepath.Join(pkgDir, pnpmWorkspaceFile)) {
		return pkgDir, nil, nil
	}
	if data, err := os.ReadFile(filepath.Join(pkgDir, manifestFile)); err == nil {
		if m, perr := parseManifest(data); perr == nil && m.hasWorkspaces {
			return pkgDir, nil, nil
		}
	}
	var problems []model.Problem
	for dir := filepath.Dir(pkgDir); ; dir = filepath.Dir(dir) {
		rel, err := filepath.Rel(dir, pkgDir)
		if err != nil {
			break
		}
		segs := strings.Split(filepath.ToSlash(rel), "/")
		var patterns []string
		hasConfig := false
		if p := filepath.Join(dir, pnpmWorkspaceFile); isFile(p) {
			data, err := os.ReadFile(p)
			if err != nil {
				return "", nil, fmt.Errorf("cannot read %s: %w", p, err)
			}
			pw, perr := parsePnpmWorkspace(data)
			if perr != nil {
				perr.File = p
				return "", nil, perr
			}
			hasConfig = true
			patterns = append(patterns, pw.packages...)
		}
		if p := filepath.Join(dir, manifestFile); isFile(p) {
			if data, err := os.ReadFile(p); err == nil {
				m, perr := parseManifest(data)
				switch {
				case perr != nil:
					problems = append(problems, model.Problem{File: p, Line: perr.Line,
						Message: "could not tell whether this is the workspace root of " + pkgDir + ": " + perr.Msg})
				case m.hasWorkspaces:
					hasConfig = true
					patterns = append(patterns, m.workspaces...)
				}
			}
		}
		if hasConfig && !inSkippedDir(segs) && newWorkspaceGlobs(patterns).matches(segs) {
			return dir, problems, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return pkgDir, problems, nil
}

func inSkippedDir(segs []string) bool {
	for _, s := range segs {
		if skippedDirs[s] {
			return true
		}
	}
	return false
}

// loadRoot reads the repository whose root directory is root.
func loadRoot(root string) (*model.Repository, error) {
	r := &model.Repository{Root: root, Workspaces: []model.Workspace{}}
	rootManifestPath := filepath.Join(root, manifestFile)
	var rootManifest *manifest
	if data, err := os.ReadFile(rootManifestPath); err == nil {
		m, perr := parseManifest(data)
		if perr != nil {
			perr.File = rootManifestPath
			return nil, perr
		}
		if m.workspacesErr != "" {
			return nil, &InputError{File: rootManifestPath, Line: keyLine(m.data, "workspaces"), Msg: m.workspacesErr}
		}
		rootManifest = m
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read %s: %w", rootManifestPath, err)
	}

	var pw *pnpmWorkspace
	pwPath := filepath.Join(root, pnpmWorkspaceFile)
	if data, err := os.ReadFile(pwPath); err == nil {
		var perr *InputError
		if pw, perr = parsePnpmWorkspace(data); perr != nil {
			perr.File = pwPath
			return nil, perr
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read %s: %w", pwPath, err)
	}

	field := ""
	if rootManifest != nil {
		field = rootManifest.packageManager
	}
	pm, pmProblem := detectPackageManager(root, field)
	r.PackageManager, r.PackageManagerField = pm, field
	if pmProblem != "" {
		r.Problems = append(r.Problems, model.Problem{File: manifestFile, Line: keyLine(rootManifest.data, "packageManager"), Message: pmProblem})
	}

	// pnpm reads pnpm-workspace.yaml; npm, yarn and bun read package.json.
	// A repository carrying both follows its package manager.
	var patterns []string
	switch {
	case pw != nil && (pm == "pnpm" || rootManifest == nil || !rootManifest.hasWorkspaces):
		patterns = pw.packages
	case rootManifest != nil && rootManifest.hasWorkspaces:
		patterns = rootManifest.workspaces
	}

	catalogs := map[string]map[string]string{}
	if rootManifest != nil {
		mergeCatalogs(catalogs, rootManifest.catalogs)
	}
	if pw != nil {
		mergeCatalogs(catalogs, pw.catalogs)
	}
	if len(catalogs) > 0 {
		r.Catalogs = catalogs
	}
	catalogHome := "the root package.json"
	if pw != nil {
		catalogHome = pnpmWorkspaceFile
	}

	dirs, err := findWorkspaceDirs(root, newWorkspaceGlobs(patterns))
	if err != nil {
		return nil, err
	}
	if rootManifest != nil {
		r.Workspaces = append(r.Workspaces, buildWorkspace(r, ".", rootManifestPath, rootManifest, catalogHome))
	}
	for _, dir := range dirs {
		file := filepath.Join(root, filepath.FromSlash(dir), manifestFile)
		relFile := dir + "/" + manifestFile
		data, err := readManifest(file)
		if err != nil {
			r.Problems = append(r.Problems, model.Problem{File: relFile, Message: "unreadable workspace: " + err.Error() + "; this workspace is left out until then"})
			continue
		}
		m := manifestOrProblem(r, relFile, data, "this workspace")
		if m == nil {
			continue
		}
		r.Workspaces = append(r.Workspaces, buildWorkspace(r, dir, file, m, catalogHome))
	}
	addLinkedPackages(r, catalogHome)
	sortProblems(r.Problems)
	return r, nil
}

func mergeCatalogs(dst, src map[string]map[string]string) {
	for name, entries := range src {
		if dst[name] == nil {
			dst[name] = map[string]string{}
		}
		for k, v := range entries {
			dst[name][k] = v
		}
	}
}

// buildWorkspace turns a parsed manifest into a workspace, resolving catalog
// specifiers and recording every unusable entry as a Problem on r.
func buildWorkspace(r *model.Repository, dir, file string, m *manifest, catalogHome string) model.Workspace {
	relFile := manifestFile
	if dir != "." {
		relFile = dir + "/" + manifestFile
	}
	ws := model.Workspace{Path: dir, Name: m.name, Version: m.version, Private: m.private,
		Manifest: file, Declarations: []model.Declaration{}}
	for _, p := range m.problems {
		r.Problems = append(r.Problems, model.Problem{File: relFile, Line: p.line, Message: p.msg})
	}
	for _, d := range m.deps {
		spec := ClassifySpec(d.name, d.spec)
		decl := model.Declaration{Name: d.name, Package: spec.Package, Type: d.typ, Spec: d.spec,
			Kind: spec.Kind, Range: spec.Range, Catalog: spec.Catalog}
		problem := spec.Problem
		if spec.Kind == model.SpecCatalog {
			decl, problem = resolveCatalog(decl, r.Catalogs, catalogHome)
		}
		if problem != "" {
			r.Problems = append(r.Problems, model.Problem{File: relFile, Line: keyLine(m.data, string(d.typ), d.name),
				Message: fmt.Sprintf("%s %q: %s", d.name, d.spec, problem)})
		}
		ws.Declarations = append(ws.Declarations, decl)
	}
	return ws
}

func resolveCatalog(decl model.Declaration, catalogs map[string]map[string]string, home string) (model.Declaration, string) {
	entries, ok := catalogs[decl.Catalog]
	if !ok {
		return decl, fmt.Sprintf("catalog %q is not defined in %s: define it there or write a version range", decl.Catalog, home)
	}
	value, ok := entries[decl.Name]
	if !ok {
		return decl, fmt.Sprintf("catalog %q in %s has no entry for %s: add one or write a version range", decl.Catalog, home, decl.Name)
	}
	inner := ClassifySpec(decl.Name, value)
	if inner.Kind == model.SpecCatalog {
		return decl, fmt.Sprintf("catalog %q entry %q is itself a catalog: reference: write a version range there", decl.Catalog, value)
	}
	decl.Kind, decl.Package, decl.Range = inner.Kind, inner.Package, inner.Range
	problem := ""
	if inner.Problem != "" {
		problem = fmt.Sprintf("catalog %q entry %q: %s", decl.Catalog, value, inner.Problem)
	}
	return decl, problem
}

// detectPackageManager reads the packageManager field ("pnpm@9.12.0+sha512…"),
// else the lockfile present in root, else npm.
func detectPackageManager(root, field string) (string, string) {
	problem := ""
	if field != "" {
		name, _, _ := strings.Cut(strings.TrimSpace(field), "@")
		switch strings.ToLower(name) {
		case "npm", "pnpm", "yarn", "bun":
			return strings.ToLower(name), ""
		}
		problem = fmt.Sprintf("packageManager %q names no package manager Uptide knows (npm, pnpm, yarn, bun): the lockfile decides instead", field)
	}
	// Another manager's lockfile wins over npm's: a package-lock.json left
	// beside one is the commonest stray.
	for _, l := range model.Lockfiles() {
		if l.Writer != "npm" && isFile(filepath.Join(root, l.Name)) {
			return l.Writer, problem
		}
	}
	return "npm", problem
}

// findWorkspaceDirs walks root for directories with a package.json that the
// globs include, pruning every subtree no glob can reach. Paths are
// slash-separated, relative to root, sorted; the root itself is not listed.
func findWorkspaceDirs(root string, globs workspaceGlobs) ([]string, error) {
	if len(globs.include) == 0 {
		return nil, nil
	}
	var dirs []string
	var walk func(dir string, segs []string) error
	walk = func(dir string, segs []string) error {
		entries, err := os.ReadDir(dir)
		if err != nil {
			if len(segs) == 0 {
				return fmt.Errorf("cannot read %s: %w", dir, err)
			}
			return nil // an unreadable subdirectory holds nothing we can read
		}
		for _, e := range entries {
			// Symlinked directories are not followed: they can loop, and a
			// workspace is a real directory in every layout we know.
			if !e.IsDir() || skippedDirs[e.Name()] {
				continue
			}
			child := append(segs[:len(segs):len(segs)], e.Name())
			path := filepath.Join(dir, e.Name())
			// Any package.json, a directory or a FIFO too: a workspace
			// whose manifest cannot be read is reported, never dropped
			// (its name would then look like a registry package's).
			if _, err := os.Lstat(filepath.Join(path, manifestFile)); err == nil && globs.matches(child) {
				dirs = append(dirs, strings.Join(child, "/"))
			}
			if globs.descend(child) {
				if err := walk(path, child); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(root, nil); err != nil {
		return nil, err
	}
	sort.Strings(dirs)
	return dirs, nil
}

func sortProblems(ps []model.Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].File != ps[j].File {
			return ps[i].File < ps[j].File
		}
		if ps[i].Line != ps[j].Line {
			return ps[i].Line < ps[j].Line
		}
		return ps[i].Message < ps[j].Message
	})
}
