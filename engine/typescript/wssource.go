package typescript

import (
	"encoding/json"
	"fmt"
	"github.com/uptide/uptide/engine/jsonc"
	"github.com/uptide/uptide/internal/lists"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// A dependency on another workspace of the repository is installed as a
// link to its directory, and its manifest points the compiler at its build
// (dist/index.d.ts): whatever the last build left there. A check that reads
// the build judges the dependency's old code against the new target (a
// shared/dist built on zod 3 gives the app zod 4 errors that are not the
// app's). So the compiler is sent to the dependency's sources instead,
// through compilerOptions.paths, in the usage scan, the baseline and the
// overlay alike.

// WorkspaceSources is what a workspace's dependencies on other workspaces
// compile from.
type WorkspaceSources struct {
	// Paths maps a module specifier (a package name, name/subpath, or a
	// name/* pattern) to the absolute source files (or patterns) the
	// compiler reads for it, in the order it tries them.
	Paths map[string][]string
	// Warnings name the dependencies whose build could not be mapped to
	// their sources and is older than them: the compile reads a stale
	// build.
	Warnings []string
}

// sourceExts are the source extensions an emitted file can come from, by
// the emitted file's extension.
var sourceExts = []struct{ built, src []string }{
	{[]string{".d.ts"}, []string{".ts", ".tsx"}},
	{[]string{".d.mts"}, []string{".mts"}},
	{[]string{".d.cts"}, []string{".cts"}},
	{[]string{".js"}, []string{".ts", ".tsx"}},
	{[]string{".jsx"}, []string{".tsx"}},
	{[]string{".mjs"}, []string{".mts"}},
	{[]string{".cjs"}, []string{".cts"}},
}

// FindWorkspaceSources maps the workspace dependencies of the workspace at
// wsDir (inside repoRoot) to their sources: each dependency declared with
// workspace:, link:, portal: or file: to a directory, or installed as a
// link into the repository (npm's workspaces). A types or exports target under the
// dependency's outDir is rewritten under its rootDir (its tsconfig), or
// dist/ to src/ without one; a target whose source does not exist keeps
// the build, with a warning when the build is older than the sources. An
// unreadable manifest maps nothing.
func FindWorkspaceSources(repoRoot, wsDir string) WorkspaceSources {
	out := WorkspaceSources{Paths: map[string][]string{}, Warnings: []string{}}
	root, err := filepath.EvalSymlinks(repoRoot)
	if err != nil {
		return out
	}
	ws, err := filepath.EvalSymlinks(wsDir)
	if err != nil {
		return out
	}
	var man struct {
		Dependencies         map[string]string `json:"dependencies"`
		DevDependencies      map[string]string `json:"devDependencies"`
		PeerDependencies     map[string]string `json:"peerDependencies"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
	}
	if readJSONFile(filepath.Join(ws, "package.json"), &man) != nil {
		return out
	}
	deps := map[string]string{}
	for _, m := range []map[string]string{man.PeerDependencies, man.OptionalDependencies, man.DevDependencies, man.Dependencies} {
		for k, v := range m {
			deps[k] = v
		}
	}
	names := lists.SortedKeys(deps)
	for _, name := range names {
		dir := workspaceDepDir(root, ws, name, deps[name])
		if dir == "" || dir == ws {
			continue
		}
		paths, warning := mapDependency(root, dir, name)
		for k, v := range paths {
			out.Paths[k] = v
		}
		if warning != "" {
			out.Warnings = append(out.Warnings, warning)
		}
	}
	return out
}

// workspaceDepDir is the real directory of a dependency that lives in the
// repository, "" for one installed from elsewhere.
func workspaceDepDir(root, ws, name, spec string) string {
	inRepo := func(dir string) string {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil || !within(root, real) {
			return ""
		}
		rel, _ := filepath.Rel(root, real)
		for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
			if seg == "node_modules" {
				return ""
			}
		}
		if st, err := os.Stat(filepath.Join(real, "package.json")); err != nil || !st.Mode().IsRegular() {
			return ""
		}
		return real
	}
	for _, proto := range []string{"link:", "portal:", "file:", "workspace:"} {
		if p, ok := strings.CutPrefix(spec, proto); ok && (strings.HasPrefix(p, ".") || strings.HasPrefix(p, "/")) {
			if !filepath.IsAbs(p) {
				p = filepath.Join(ws, p)
			}
			if d := inRepo(p); d != "" {
				return d
			}
		}
	}
	// The installed copy: a link into the repository is a workspace.
	for d := ws; within(root, d); d = filepath.Dir(d) {
		p := filepath.Join(d, "node_modules", filepath.FromSlash(name))
		if fi, err := os.Lstat(p); err == nil {
			if fi.Mode()&fs.ModeSymlink == 0 {
				return ""
			}
			return inRepo(p)
		}
		if d == root {
			break
		}
	}
	return ""
}

// depManifest is what mapping reads of a dependency's package.json.
type depManifest struct {
	Name    string          `json:"name"`
	Types   string          `json:"types"`
	Typings string          `json:"typings"`
	Main    string          `json:"main"`
	Exports json.RawMessage `json:"exports"`
}

// mapDependency maps one workspace dependency at dir, installed under name.
func mapDependency(root, dir, name string) (map[string][]string, string) {
	var man depManifest
	if readJSONFile(filepath.Join(dir, "package.json"), &man) != nil {
		return nil, ""
	}
	layout := buildLayoutOf(dir)
	paths := map[string][]string{}
	var stale []string // unmapped targets (dependency-relative)
	for _, e := range entryTargets(man) {
		key := name
		if e.subpath != "." {
			key = name + strings.TrimPrefix(e.subpath, ".")
		}
		var mapped []string
		for _, t := range e.targets {
			if src := layout.source(dir, t); len(src) > 0 {
				mapped = src
				break
			}
		}
		if len(mapped) > 0 {
			paths[key] = mapped
			continue
		}
		for _, t := range e.targets {
			if !strings.Contains(t, "*") {
				stale = append(stale, t)
				break
			}
		}
	}
	return paths, staleWarning(root, dir, name, layout, stale)
}

// entry is one entry point of a package: its subpath ("." or "./utils",
// "./*") and the files its manifest names for it, types first.
type entry struct {
	subpath string
	targets []string
}

// entryTargets lists a manifest's entry points: exports when it has them,
// else types/typings and main for ".".
func entryTargets(man depManifest) []entry {
	var out []entry
	if len(man.Exports) > 0 && string(man.Exports) != "null" {
		var v any
		if json.Unmarshal(man.Exports, &v) == nil {
			subs := map[string]any{}
			switch x := v.(type) {
			case map[string]any:
				conditionsOnly := true
				for k := range x {
					if strings.HasPrefix(k, ".") {
						conditionsOnly = false
					}
				}
				if conditionsOnly {
					subs["."] = x
				} else {
					for k, t := range x {
						if strings.HasPrefix(k, ".") {
							subs[k] = t
						}
					}
				}
			default:
				subs["."] = x
			}
			keys := make([]string, 0, len(subs))
			for k := range subs {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if k == "./package.json" {
					continue
				}
				var ts []string
				conditionTargets(subs[k], &ts)
				if len(ts) > 0 {
					out = append(out, entry{subpath: k, targets: ts})
				}
			}
		}
	}
	hasRoot := false
	for _, e := range out {
		hasRoot = hasRoot || e.subpath == "."
	}
	if !hasRoot {
		var ts []string
		for _, t := range []string{man.Types, man.Typings, man.Main} {
			if t != "" {
				ts = append(ts, t)
			}
		}
		if len(ts) > 0 {
			out = append([]entry{{subpath: ".", targets: ts}}, out...)
		}
	}
	return out
}

// conditionTargets collects the file targets of an exports value: the
// types condition first, then the others in a fixed order.
func conditionTargets(v any, into *[]string) {
	switch x := v.(type) {
	case string:
		*into = append(*into, x)
	case []any:
		for _, e := range x {
			conditionTargets(e, into)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			ti, tj := keys[i] == "types", keys[j] == "types"
			if ti != tj {
				return ti
			}
			return keys[i] < keys[j]
		})
		for _, k := range keys {
			conditionTargets(x[k], into)
		}
	}
}

// buildLayout is where a dependency's build goes and what it is built
// from, relative to the dependency's directory.
type buildLayout struct {
	// outDir and rootDir come from the tsconfig; without an outDir,
	// dist/ is built from src/.
	outDir, rootDir string
	fromConfig      bool
}

// buildLayoutOf reads the dependency's tsconfig.json (and the configs it
// extends by a relative path: the nearest setting wins).
func buildLayoutOf(dir string) buildLayout {
	l := buildLayout{}
	cfg := filepath.Join(dir, "tsconfig.json")
	outSet, rootSet := false, false
	for i := 0; i < 8; i++ {
		data, err := jsonc.ReadFile(cfg)
		if err != nil {
			break
		}
		var doc struct {
			Extends         any `json:"extends"`
			CompilerOptions struct {
				OutDir  *string `json:"outDir"`
				RootDir *string `json:"rootDir"`
			} `json:"compilerOptions"`
		}
		if json.Unmarshal(data, &doc) != nil {
			break
		}
		base := filepath.Dir(cfg)
		if !outSet && doc.CompilerOptions.OutDir != nil {
			outSet = true
			l.outDir = relTo(dir, filepath.Join(base, *doc.CompilerOptions.OutDir))
		}
		if !rootSet && doc.CompilerOptions.RootDir != nil {
			rootSet = true
			l.rootDir = relTo(dir, filepath.Join(base, *doc.CompilerOptions.RootDir))
		}
		ext, _ := doc.Extends.(string)
		if !strings.HasPrefix(ext, ".") {
			break
		}
		next := filepath.Join(base, filepath.FromSlash(ext))
		if !strings.HasSuffix(next, ".json") {
			next += ".json"
		}
		cfg = next
	}
	if outSet && l.outDir != "" && l.outDir != "." {
		l.fromConfig = true
		if !rootSet {
			// The compiler's default is the sources' common directory;
			// src/ when there is one is what that almost always is.
			l.rootDir = "."
			if st, err := os.Stat(filepath.Join(dir, "src")); err == nil && st.IsDir() {
				l.rootDir = "src"
			}
		}
		return l
	}
	return buildLayout{outDir: "dist", rootDir: "src"}
}

// source returns the source files a built target (dependency-relative, as
// the manifest writes it) comes from: the files that exist, or for a
// pattern the patterns for each source extension. nil when it is not under
// the outDir or no source exists.
func (l buildLayout) source(dir, target string) []string {
	t := filepath.ToSlash(filepath.Clean(filepath.FromSlash(strings.TrimPrefix(target, "./"))))
	out := filepath.ToSlash(l.outDir)
	rest, ok := strings.CutPrefix(t, out+"/")
	if !ok {
		return nil
	}
	stem, srcExts := "", []string(nil)
	for _, se := range sourceExts {
		for _, b := range se.built {
			if s, ok := strings.CutSuffix(rest, b); ok && stem == "" {
				stem, srcExts = s, se.src
			}
		}
	}
	if stem == "" {
		return nil
	}
	base := filepath.Join(dir, filepath.FromSlash(l.rootDir), filepath.FromSlash(stem))
	if !within(dir, base) {
		// A source outside the dependency is not the one it was built from.
		return nil
	}
	var found []string
	if strings.Contains(stem, "*") {
		// A pattern: the directory it lives in must exist.
		if st, err := os.Stat(filepath.Dir(base)); err != nil || !st.IsDir() {
			return nil
		}
		for _, e := range srcExts {
			found = append(found, base+e)
		}
		return found
	}
	for _, e := range srcExts {
		if st, err := os.Stat(base + e); err == nil && st.Mode().IsRegular() {
			found = append(found, base+e)
		}
	}
	return found
}

// staleWarning says when the build a dependency is still read through is
// older than the newest source it was built from.
func staleWarning(root, dir, name string, l buildLayout, targets []string) string {
	var built string
	var builtAt time.Time
	for _, t := range targets {
		p := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(t, "./")))
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			built, builtAt = p, fi.ModTime()
			break
		}
	}
	if built == "" {
		return ""
	}
	srcDir := filepath.Join(dir, filepath.FromSlash(l.rootDir))
	outDir := filepath.Join(dir, filepath.FromSlash(l.outDir))
	var newest string
	var newestAt time.Time
	_ = filepath.WalkDir(srcDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != srcDir && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") || p == outDir) {
				return filepath.SkipDir
			}
			return nil
		}
		n := d.Name()
		if strings.HasSuffix(n, ".d.ts") || strings.HasSuffix(n, ".d.mts") || strings.HasSuffix(n, ".d.cts") || !hasSourceExt(n) {
			return nil
		}
		fi, err := d.Info()
		if err == nil && (fi.ModTime().After(newestAt) || (fi.ModTime().Equal(newestAt) && p < newest)) {
			newest, newestAt = p, fi.ModTime()
		}
		return nil
	})
	if newest == "" || !builtAt.Before(newestAt) {
		return ""
	}
	return fmt.Sprintf("workspace dependency %s is read from its build %s, which is older than its source %s and could not be mapped to it: rebuild %s before trusting its part of the compile",
		name, relTo(root, built), relTo(root, newest), name)
}

func hasSourceExt(n string) bool {
	for _, e := range []string{".ts", ".tsx", ".mts", ".cts"} {
		if strings.HasSuffix(n, e) {
			return true
		}
	}
	return false
}

// within reports whether p is root or inside it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// relTo is p relative to base, slash-separated.
func relTo(base, p string) string {
	rel, err := filepath.Rel(base, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}

func readJSONFile(p string, into any) error {
	data, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}
