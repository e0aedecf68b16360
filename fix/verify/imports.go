package verify

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// specifierRE finds module specifiers in JavaScript and TypeScript source:
// static imports and exports, side-effect imports, require and dynamic
// import. It reads text, not syntax: a specifier in a comment counts, which
// errs towards "related" and "needs a service", the safe directions.
var specifierRE = regexp.MustCompile(`(?:\bfrom\s*|\bimport\s*|\brequire\s*\(\s*|\bimport\s*\(\s*)['"]([^'"\n]+)['"]`)

// typeOnlyRE finds `import type … from '…'` and `export type … from '…'`:
// erased at compile time, they load nothing.
var typeOnlyRE = regexp.MustCompile(`\b(?:import|export)\s+type\s+[^;'"]*?\bfrom\s*['"]([^'"\n]+)['"]`)

func specifiers(src string) []string {
	var out []string
	for _, m := range specifierRE.FindAllStringSubmatch(src, -1) {
		out = append(out, m[1])
	}
	return out
}

// runtimeSpecifiers are the specifiers of src that load a module when it
// runs: all but the type-only imports and exports.
func runtimeSpecifiers(src string) []string {
	typeOnly := map[int]bool{}
	for _, m := range typeOnlyRE.FindAllStringSubmatchIndex(src, -1) {
		typeOnly[m[2]] = true // where the specifier starts
	}
	var out []string
	for _, m := range specifierRE.FindAllStringSubmatchIndex(src, -1) {
		if !typeOnly[m[2]] {
			out = append(out, src[m[2]:m[3]])
		}
	}
	return out
}

var sourceExts = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

func isSource(name string) bool {
	ext := path.Ext(name)
	for _, e := range sourceExts {
		if ext == e {
			return true
		}
	}
	return false
}

// resolveRelative resolves a relative specifier written in fromFile (slash,
// relative to root) to a file of the repository, as TypeScript and Node
// would: exact, with an extension, a .js written for a .ts, or an index.
// It returns "" when nothing matches or the path leaves the root.
func resolveRelative(root, fromFile, spec string) string {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") && spec != "." && spec != ".." {
		return ""
	}
	base := path.Join(path.Dir(fromFile), spec)
	if base == ".." || strings.HasPrefix(base, "../") {
		return ""
	}
	var candidates []string
	candidates = append(candidates, base)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch ext {
	case ".js", ".jsx":
		candidates = append(candidates, stem+".ts", stem+".tsx")
	case ".mjs":
		candidates = append(candidates, stem+".mts")
	case ".cjs":
		candidates = append(candidates, stem+".cts")
	}
	for _, e := range sourceExts {
		candidates = append(candidates, base+e)
	}
	for _, e := range sourceExts {
		candidates = append(candidates, base+"/index"+e)
	}
	for _, c := range candidates {
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(c))); err == nil && !fi.IsDir() {
			return c
		}
	}
	return ""
}

// relatedTo reports whether the test file (slash, relative to root) is
// about one of the affected files: it is one of them, or reaches one
// through relative imports. The walk is bounded; a file it cannot read
// counts as related, so an unreadable test is never retried into a pass.
func relatedTo(root, testFile string, affected map[string]bool) bool {
	if affected[testFile] {
		return true
	}
	seen := map[string]bool{testFile: true}
	queue := []string{testFile}
	for len(queue) > 0 && len(seen) < 500 {
		f := queue[0]
		queue = queue[1:]
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return true
		}
		for _, s := range specifiers(string(data)) {
			r := resolveRelative(root, f, s)
			if r == "" || seen[r] {
				continue
			}
			if affected[r] {
				return true
			}
			seen[r] = true
			queue = append(queue, r)
		}
	}
	return len(queue) > 0 // stopped by the bound: not known to be unrelated
}
