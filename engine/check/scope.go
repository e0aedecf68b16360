package check

import (
	"github.com/uptide/uptide/engine/repo"
	"github.com/uptide/uptide/internal/lists"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// The compile's scope is the usage files, the files loading the package,
// and the files importing any of those: a wrapper whose inferred return
// type comes from the package changes under its callers, which never name
// the package (src/server.ts calling src/schema.ts's parse helper). The
// importers of the importers are not taken, except through a re-export: a
// file that only passes a scope file's exports on (export * from
// './schema') adds no error of its own, so the files importing it are the
// ones that see the change. Every other package the upgrade moves (a
// companion: next when react 19 takes it along) is in scope the same way:
// the files importing it, by its name or a subpath, and those reaching them.

// scopeTSExts can hold an import a TypeScript program follows; scopeJSExts
// only when the workspace's program includes JavaScript (allowJs).
var (
	scopeTSExts = []string{".ts", ".tsx", ".mts", ".cts"}
	scopeJSExts = []string{".js", ".jsx", ".mjs", ".cjs"}
)

// scopeSkippedDirs hold installed or generated code, never the workspace's
// own sources.
var scopeSkippedDirs = map[string]bool{
	"node_modules": true, "dist": true, "build": true, "coverage": true, ".git": true,
}

// importEdge is one relative load of a source file: the repository-relative
// files the specifier can resolve to, and whether it re-exports.
type importEdge struct {
	candidates []string
	reexport   bool
}

// importGraph is the relative (and aliased) loads between one workspace's
// source files, read once and asked for the dependents of several scopes:
// the unit's own files and each companion's importers.
type importGraph struct {
	edges map[string][]importEdge
	files []string // sorted
}

// scanImportGraph reads the loads of every source file of workspace ws
// (under root, nested workspaces skipped; JavaScript too when js). A
// relative specifier is resolved by name, the way the compiler probes it:
// the file itself, its TypeScript counterpart (./schema.js is schema.ts),
// each extension, then index.*; a non-relative one goes through the
// tsconfig's paths and baseUrl (aliases) first.
func scanImportGraph(root, ws string, nested []string, js bool, aliases scopeAliases) *importGraph {
	exts := scopeTSExts
	if js {
		exts = append(append([]string{}, scopeTSExts...), scopeJSExts...)
	}
	wsDir := filepath.Join(root, filepath.FromSlash(ws))
	skip := map[string]bool{}
	for _, n := range nested {
		skip[filepath.Join(root, filepath.FromSlash(n))] = true
	}
	graph := map[string][]importEdge{}
	var buf []byte
	_ = filepath.WalkDir(wsDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != wsDir && (scopeSkippedDirs[d.Name()] || skip[p]) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !hasExt(d.Name(), exts) {
			return nil
		}
		data, ok := repo.ReadSource(p, &buf)
		if !ok {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		dir := path.Dir(rel)
		repo.ScanLoads(data, func(spec string, reexport bool) {
			if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == ".." {
				graph[rel] = append(graph[rel], importEdge{candidates: resolveCandidates(path.Join(dir, spec), exts), reexport: reexport})
				return
			}
			var c []string
			for _, b := range aliases.bases(spec) {
				c = append(c, resolveCandidates(b, exts)...)
			}
			if len(c) > 0 {
				graph[rel] = append(graph[rel], importEdge{candidates: c, reexport: reexport})
			}
		})
		return nil
	})
	files := lists.SortedKeys(graph)
	return &importGraph{edges: graph, files: files}
}

// dependents are the repository-relative files importing one of scope,
// directly or through a chain of re-exporting files, sorted and without
// scope's own files.
func (g *importGraph) dependents(scope []string) []string {
	if len(scope) == 0 {
		return nil
	}
	in := map[string]bool{}
	// through are the files whose importers are in scope: the scope itself
	// and every file re-exporting one of them.
	through := map[string]bool{}
	for _, f := range scope {
		in[f] = true
		through[f] = true
	}
	var out []string
	for changed := true; changed; {
		changed = false
		for _, f := range g.files {
			for _, e := range g.edges[f] {
				if !slicesAny(e.candidates, through) {
					continue
				}
				if !in[f] {
					in[f] = true
					out = append(out, f)
					changed = true
				}
				if e.reexport && !through[f] {
					through[f] = true
					changed = true
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func slicesAny(c []string, set map[string]bool) bool {
	for _, s := range c {
		if set[s] {
			return true
		}
	}
	return false
}

func hasExt(name string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(name, e) {
			return true
		}
	}
	return false
}

// resolveCandidates lists the files a relative specifier (already joined
// to the importer's directory) can name.
func resolveCandidates(base string, exts []string) []string {
	out := []string{base}
	// ESM-style TypeScript imports name the emitted file.
	for js, ts := range map[string][]string{
		".js": {".ts", ".tsx"}, ".jsx": {".tsx"}, ".mjs": {".mts"}, ".cjs": {".cts"},
	} {
		if stem, ok := strings.CutSuffix(base, js); ok {
			for _, t := range ts {
				out = append(out, stem+t)
			}
		}
	}
	for _, e := range exts {
		out = append(out, base+e, base+"/index"+e)
	}
	return out
}
