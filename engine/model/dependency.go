package model

import (
	"path/filepath"
	"strings"
)

// InDependency says whether a diagnostic's file (repository-relative,
// slash) belongs to a dependency: it lies inside a node_modules, or outside
// the repository (an absolute path). Errors there are evidence of a cause
// (a target the compiler cannot read, a dependency's declarations that do
// not type-check), never a site anyone edits.
func InDependency(file string) bool {
	return file != "" && (strings.HasPrefix(file, "/") || strings.HasPrefix(file, "node_modules/") ||
		strings.Contains(file, "/node_modules/") || filepath.IsAbs(filepath.FromSlash(file)))
}

// DependencyOf is the package a dependency's file belongs to (after the
// last node_modules in its path; "" when there is none) and the file's
// path inside it.
func DependencyOf(file string) (pkg, rest string) {
	i := strings.LastIndex("/"+file, "/node_modules/")
	if i < 0 {
		return "", file
	}
	parts := strings.SplitN(("/" + file)[i+len("/node_modules/"):], "/", 3)
	n := 1
	if strings.HasPrefix(parts[0], "@") && len(parts) > 1 {
		n = 2
	}
	return strings.Join(parts[:n], "/"), strings.Join(parts[n:], "/")
}
