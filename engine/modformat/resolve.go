package modformat

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// ModuleKind is how Node loads a file.
type ModuleKind string

// The module kinds; empty means nothing resolves.
const (
	CommonJS ModuleKind = "commonjs"
	ESM      ModuleKind = "module"
)

// The condition sets Node matches exports against. "default" always
// matches. A Node with require(esm) also matches "module-sync" on both
// sides (22.10+), which packages use to hand require() their ESM build.
var (
	condRequire    = []string{"require", "node"}
	condRequireESM = []string{"require", "module-sync", "node"}
	condImport     = []string{"import", "module-sync", "node"}
)

// EntryLoad is what one loader gets for one entry point.
type EntryLoad struct {
	// File is package-relative ("dist/index.cjs"); empty when the entry
	// does not resolve for this loader.
	File string     `json:"file,omitempty"`
	Kind ModuleKind `json:"kind,omitempty"`
	// Via says how it resolved: `exports["."].require`, "main", or why it
	// did not.
	Via string `json:"via"`
	// KindWhy says why the file is that kind: ".mjs", `"type": "module"`,
	// `dist/esm/package.json "type": "module"`.
	KindWhy string `json:"kindWhy,omitempty"`
}

// resolveEntry follows Node's package entry resolution for subpath under
// the given conditions: the exports field when present (subpath keys,
// patterns, nested conditions in key order, fallback arrays, null
// exclusions), else main (or index.js) for "." and the file itself for a
// deeper subpath.
func resolveEntry(p Package, subpath string, conditions []string) EntryLoad {
	m := p.Manifest
	if m.Exports != nil {
		target, via, ok := exportsTarget(m.Exports, subpath, conditions)
		if !ok {
			return EntryLoad{Via: via}
		}
		file := strings.TrimPrefix(path.Clean(target), "./")
		return classify(p, file, via)
	}
	if subpath == "." {
		if m.Main != "" {
			return classify(p, legacyFile(p, m.Main), "main")
		}
		return classify(p, legacyFile(p, "index"), "index.js (no main, no exports)")
	}
	return classify(p, legacyFile(p, strings.TrimPrefix(subpath, "./")), "file "+subpath)
}

// legacyFile applies require()'s extension and directory search to a main
// or deep path when the files are at hand, and assumes ".js" otherwise.
func legacyFile(p Package, name string) string {
	name = strings.TrimPrefix(path.Clean(strings.TrimPrefix(name, "./")), "./")
	if hasKnownExt(name) && (p.FS == nil || exists(p.FS, name)) {
		return name
	}
	if p.FS != nil {
		for _, c := range []string{name, name + ".js", name + ".json", name + ".node", name + "/index.js", name + "/index.json"} {
			if exists(p.FS, c) {
				return c
			}
		}
		// main points at a directory with its own package.json main.
		if data, err := fs.ReadFile(p.FS, path.Join(name, "package.json")); err == nil {
			var sub struct{ Main string }
			if json.Unmarshal(data, &sub) == nil && sub.Main != "" {
				return path.Join(name, strings.TrimPrefix(sub.Main, "./"))
			}
		}
	}
	if hasKnownExt(name) {
		return name
	}
	return name + ".js"
}

func hasKnownExt(name string) bool {
	switch path.Ext(name) {
	case ".js", ".mjs", ".cjs", ".json", ".node":
		return true
	}
	return false
}

func exists(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && !st.IsDir()
}

// classify decides how Node loads file: by extension, else by the "type" of
// the nearest package.json inside the package (a build folder's own
// {"type": "module"} counts), else the package's own type.
func classify(p Package, file, via string) EntryLoad {
	e := EntryLoad{File: file, Via: via}
	switch path.Ext(file) {
	case ".mjs":
		e.Kind, e.KindWhy = ESM, ".mjs"
		return e
	case ".cjs":
		e.Kind, e.KindWhy = CommonJS, ".cjs"
		return e
	case ".json", ".node":
		e.Kind, e.KindWhy = CommonJS, path.Ext(file)
		return e
	}
	if p.FS != nil {
		for dir := path.Dir(file); dir != "." && dir != "/" && dir != ""; dir = path.Dir(dir) {
			data, err := fs.ReadFile(p.FS, path.Join(dir, "package.json"))
			if err != nil {
				continue
			}
			var nested struct {
				Type *string `json:"type"`
			}
			if json.Unmarshal(data, &nested) != nil || nested.Type == nil {
				continue
			}
			if *nested.Type == "module" {
				e.Kind = ESM
			} else {
				e.Kind = CommonJS
			}
			e.KindWhy = fmt.Sprintf("%s/package.json \"type\": %q", dir, *nested.Type)
			return e
		}
	}
	if p.Manifest.Type == "module" {
		e.Kind, e.KindWhy = ESM, `"type": "module"`
	} else {
		e.Kind = CommonJS
		if p.Manifest.Type == "" {
			e.KindWhy = `no "type" field`
		} else {
			e.KindWhy = fmt.Sprintf(`"type": %q`, p.Manifest.Type)
		}
	}
	return e
}

// exportsTarget resolves subpath through an exports field. via describes
// the matched key path, or why nothing matched.
func exportsTarget(exports *jsonValue, subpath string, conditions []string) (target, via string, ok bool) {
	var entry *jsonValue
	var key, star string
	if exports.isSubpathMap() {
		var found bool
		entry, key, star, found = matchSubpath(exports, subpath)
		if !found {
			return "", fmt.Sprintf("exports has no %q entry", subpath), false
		}
	} else {
		if subpath != "." {
			return "", fmt.Sprintf("exports only exports \".\", not %q", subpath), false
		}
		entry, key = exports, "."
	}
	label := fmt.Sprintf("exports[%q]", key)
	t, path, res := targetResolve(entry, star, conditions, 0)
	switch res {
	case resolved:
		return t, label + path, true
	case excluded:
		return "", label + path + " is null (excluded)", false
	default:
		return "", fmt.Sprintf("%s has no condition among %s, default", label, strings.Join(conditions, ", ")), false
	}
}

// matchSubpath finds the exports key for subpath: an exact key, else the
// pattern with the longest prefix before its "*".
func matchSubpath(m *jsonValue, subpath string) (entry *jsonValue, key, star string, ok bool) {
	if v, found := m.get(subpath); found && !strings.Contains(subpath, "*") {
		return v, subpath, "", true
	}
	best := -1
	for i, k := range m.keys {
		pre, post, isPattern := strings.Cut(k, "*")
		if !isPattern || strings.Contains(post, "*") {
			continue
		}
		if !strings.HasPrefix(subpath, pre) || !strings.HasSuffix(subpath, post) || len(subpath) < len(pre)+len(post) {
			continue
		}
		if best < 0 || len(pre) > len(strings.SplitN(m.keys[best], "*", 2)[0]) {
			best = i
			star = subpath[len(pre) : len(subpath)-len(post)]
		}
	}
	if best < 0 {
		return nil, "", "", false
	}
	return &m.vals[best], m.keys[best], star, true
}

type resolveResult uint8

const (
	unmatched resolveResult = iota
	resolved
	excluded
)

// targetResolve is Node's PACKAGE_TARGET_RESOLVE: conditions in key order,
// arrays as fallbacks over invalid targets, null as an exclusion.
func targetResolve(v *jsonValue, star string, conditions []string, depth int) (string, string, resolveResult) {
	if depth > maxExportsDepth {
		return "", "", unmatched
	}
	switch v.kind {
	case jsonString:
		if !strings.HasPrefix(v.str, "./") || invalidSegment(v.str) {
			return "", "", unmatched
		}
		return strings.ReplaceAll(v.str, "*", star), "", resolved
	case jsonNull:
		return "", "", excluded
	case jsonArray:
		for i := range v.arr {
			t, p, r := targetResolve(&v.arr[i], star, conditions, depth+1)
			if r != unmatched {
				return t, fmt.Sprintf("[%d]%s", i, p), r
			}
		}
	case jsonObject:
		for i, k := range v.keys {
			if k != "default" && !contains(conditions, k) {
				continue
			}
			t, p, r := targetResolve(&v.vals[i], star, conditions, depth+1)
			if r != unmatched {
				return t, "." + k + p, r
			}
		}
	}
	return "", "", unmatched
}

// invalidSegment rejects targets Node refuses: climbing out of the package
// or into node_modules.
func invalidSegment(s string) bool {
	for seg := range strings.SplitSeq(strings.TrimPrefix(s, "./"), "/") {
		if seg == ".." || seg == "." || seg == "node_modules" {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
