package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// addLinkedPackages adds, as packages of the repository, the directories
// inside it that a package declares as a file: dependency: the monorepo
// shape from before npm workspaces ("pkg-a": "file:packages/a"). npm links
// such a directory and installs its dependencies into the same tree,
// hoisted to the root's node_modules and, when they conflict, nested under
// the directory (npm 6 records those under the link's entry of a v1
// lockfile, npm 7+ under "packages/a/node_modules/x"), so the lockfile
// answers for it as for a workspace. The directory's own dependencies are
// what its code imports, and would otherwise never be listed.
//
// Only npm is followed: pnpm, Yarn and bun record no per-directory entry
// for a file: dependency outside their workspaces, so their lockfile could
// not say what such a directory has installed.
func addLinkedPackages(r *model.Repository, catalogHome string) {
	if r.PackageManager != "npm" {
		return
	}
	known := map[string]bool{}
	for _, w := range r.Workspaces {
		known[w.Path] = true
	}
	// Breadth first, in declaration order, so a directory is attributed to
	// the nearest package that links it and the result does not depend on
	// map order.
	for i := 0; i < len(r.Workspaces); i++ {
		from := r.Workspaces[i]
		var found []string
		for _, d := range from.Declarations {
			dir, ok := linkedDir(r.Root, from.Path, d)
			if ok && !known[dir] {
				known[dir] = true
				found = append(found, dir)
			}
		}
		sort.Strings(found)
		for _, dir := range found {
			file := filepath.Join(r.Root, filepath.FromSlash(dir), manifestFile)
			relFile := dir + "/" + manifestFile
			data, err := os.ReadFile(file)
			if err != nil {
				r.Problems = append(r.Problems, model.Problem{File: relFile,
					Message: fmt.Sprintf("cannot read the manifest of this file: dependency of %s (%v): check its permissions", from.Manifest, err)})
				continue
			}
			m := manifestOrProblem(r, relFile, data, "this linked package")
			if m == nil {
				continue
			}
			ws := buildWorkspace(r, dir, file, m, catalogHome)
			ws.LinkedFrom = from.Path
			r.Workspaces = append(r.Workspaces, ws)
		}
	}
	// The root first, then by path, as the workspaces globs give them.
	sort.SliceStable(r.Workspaces, func(i, j int) bool {
		a, b := r.Workspaces[i].Path, r.Workspaces[j].Path
		if a == "." || b == "." {
			return a == "." && b != "."
		}
		return a < b
	})
}

// linkedDir is the repository-relative slash path of the directory a
// file: declaration of the package in fromDir points at, when that is a
// directory inside the repository, outside node_modules, with a
// package.json. Tarballs, directories outside the repository and link:
// (which npm does not know) are not followed.
func linkedDir(root, fromDir string, d model.Declaration) (string, bool) {
	if d.Kind != model.SpecFile {
		return "", false
	}
	s := strings.TrimSpace(d.Spec)
	if strings.HasPrefix(s, "file:") {
		s = strings.TrimPrefix(s, "file:")
		if strings.HasPrefix(s, "//") {
			return "", false // file:// URLs name a location outside the repository's layout
		}
	} else if !isFilePath(s) {
		return "", false
	}
	if s == "" || isTarballPath(s) || strings.HasPrefix(s, "~") || filepath.IsAbs(s) || strings.HasPrefix(s, "/") {
		return "", false
	}
	abs := filepath.Join(root, filepath.FromSlash(fromDir), filepath.FromSlash(strings.ReplaceAll(s, `\`, "/")))
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if inSkippedDir(strings.Split(rel, "/")) {
		return "", false
	}
	if !isFile(filepath.Join(abs, manifestFile)) {
		return "", false
	}
	return rel, true
}
