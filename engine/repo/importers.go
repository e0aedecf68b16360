package repo

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/uptide/uptide/engine/model"
)

// maxSourceSize bounds the files the importers scan reads: anything larger
// is generated or bundled code, not the workspace's own sources.
const maxSourceSize = 1 << 20

// sourceExts are the files that can import a package.
var sourceExts = map[string]bool{
	".js": true, ".jsx": true, ".ts": true, ".tsx": true, ".mjs": true, ".cjs": true,
	".mts": true, ".cts": true, ".vue": true, ".svelte": true,
}

// IsSource says whether a file's extension is one of the sources that can
// load a package.
func IsSource(name string) bool { return sourceExts[filepath.Ext(name)] }

// scanSkippedDirs hold installed or generated code, never the workspace's own.
var scanSkippedDirs = map[string]bool{
	"node_modules": true, "dist": true, "build": true, "coverage": true, ".git": true,
}

// NestedWorkspaces returns the paths of the workspaces of r that lie under
// ws (every other workspace for the root), which its importers scan skips:
// their files are theirs.
func NestedWorkspaces(r *model.Repository, ws model.Workspace) []string {
	var out []string
	for _, o := range r.Workspaces {
		if o.Path == ws.Path || o.Path == "." {
			continue
		}
		if ws.Path == "." || strings.HasPrefix(o.Path, ws.Path+"/") {
			out = append(out, o.Path)
		}
	}
	sort.Strings(out)
	return out
}

// ImportingFiles scans the sources of workspace ws (under the repository
// root) for the packages they load: import … from, export … from, bare
// import, require() and import() with a string literal; a subpath
// ('pkg/x', '@s/p/x') counts for its package. It skips node_modules, dist,
// build, coverage, .git, the nested workspaces given (root-relative paths),
// whatever .gitignore excludes (from the work tree's top down), symlinks and
// files over 1 MB. names limits the answer to those packages; nil means
// every package found. The result maps a package to the sorted,
// root-relative, slash-separated files that import it.
//
// It is a text scan, not a parse: an import inside a comment counts, and a
// computed specifier does not.
func ImportingFiles(root string, ws model.Workspace, nested []string, names []string) (map[string][]string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	wsDir := filepath.Join(root, filepath.FromSlash(ws.Path))
	if fi, err := os.Stat(wsDir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("workspace %s: %s is not a directory: reload the repository", ws.Path, wsDir)
	}
	var want map[string]bool
	if names != nil {
		want = make(map[string]bool, len(names))
		for _, n := range names {
			want[n] = true
		}
	}
	skip := map[string]bool{}
	for _, n := range nested {
		skip[filepath.Join(root, filepath.FromSlash(n))] = true
	}

	top := gitTop(root)
	stack := initialIgnores(top, wsDir)
	wsSegs := relSegs(top, wsDir)

	files := make(chan string, 256)
	results := make(chan map[string][]string)
	workers := min(2*runtime.GOMAXPROCS(0), 16)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- scanWorker(root, files, want)
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	walkErr := walkSources(wsDir, wsSegs, stack, skip, files, true)
	close(files)

	merged := map[string][]string{}
	for part := range results {
		for pkg, fs := range part {
			merged[pkg] = append(merged[pkg], fs...)
		}
	}
	if walkErr != nil {
		return nil, walkErr
	}
	for pkg, fs := range merged {
		sort.Strings(fs)
		merged[pkg] = compactStrings(fs)
	}
	return merged, nil
}

// ImportersByWorkspace runs ImportingFiles over every workspace of r, each
// without the workspaces nested under it, so that every source file is read
// once and counted for the workspace that owns it. The result maps a
// workspace path to its ImportingFiles answer.
func ImportersByWorkspace(r *model.Repository, names []string) (map[string]map[string][]string, error) {
	out := make(map[string]map[string][]string, len(r.Workspaces))
	for _, ws := range r.Workspaces {
		files, err := ImportingFiles(r.Root, ws, NestedWorkspaces(r, ws), names)
		if err != nil {
			return nil, err
		}
		out[ws.Path] = files
	}
	return out, nil
}

// initialIgnores loads .git/info/exclude and the .gitignore files of the
// directories from the work tree's top down to the workspace's parent; the
// walk adds the workspace's own and those below it.
func initialIgnores(top, wsDir string) ignoreStack {
	var st ignoreStack
	if f := loadIgnoreFile(filepath.Join(top, ".git", "info", "exclude"), nil); f != nil {
		st = append(st, f)
	}
	segs := relSegs(top, wsDir)
	for i := 0; i < len(segs); i++ {
		dir := filepath.Join(append([]string{top}, segs[:i]...)...)
		if f := loadIgnoreFile(filepath.Join(dir, ".gitignore"), segs[:i:i]); f != nil {
			st = append(st, f)
		}
	}
	return st
}

func relSegs(base, p string) []string {
	rel, err := filepath.Rel(base, p)
	if err != nil || rel == "." {
		return nil
	}
	return strings.Split(filepath.ToSlash(rel), "/")
}

// walkSources sends every source file under dir that is not skipped.
func walkSources(dir string, segs []string, stack ignoreStack, skip map[string]bool, out chan<- string, top bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if top {
			return fmt.Errorf("cannot read %s: %w", dir, err)
		}
		return nil // an unreadable subdirectory has nothing to scan
	}
	for _, e := range entries {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			if f := loadIgnoreFile(filepath.Join(dir, ".gitignore"), segs); f != nil {
				stack = append(stack[:len(stack):len(stack)], f)
			}
			break
		}
	}
	for _, e := range entries {
		name := e.Name()
		t := e.Type()
		if t&os.ModeSymlink != 0 {
			continue
		}
		isDir := e.IsDir()
		if isDir && scanSkippedDirs[name] {
			continue
		}
		if !isDir && !sourceExts[filepath.Ext(name)] {
			continue
		}
		child := append(segs[:len(segs):len(segs)], name)
		if stack.ignored(child, isDir) {
			continue
		}
		path := filepath.Join(dir, name)
		if isDir {
			if skip[path] {
				continue
			}
			if err := walkSources(path, child, stack, skip, out, false); err != nil {
				return err
			}
			continue
		}
		if t.IsRegular() {
			out <- path
		}
	}
	return nil
}

// scanWorker reads files with one reusable buffer and records, per package,
// the files that import it.
func scanWorker(root string, files <-chan string, want map[string]bool) map[string][]string {
	found := map[string][]string{}
	var buf []byte
	seen := map[string]bool{}
	for path := range files {
		data, ok := ReadSource(path, &buf)
		if !ok {
			continue
		}
		clear(seen)
		rel := ""
		scanImports(data, func(spec string) {
			pkg := packageOf(spec)
			if pkg == "" || seen[pkg] || (want != nil && !want[pkg]) {
				return
			}
			seen[pkg] = true
			if rel == "" {
				r, _ := filepath.Rel(root, path)
				rel = filepath.ToSlash(r)
			}
			found[pkg] = append(found[pkg], rel)
		})
	}
	return found
}

// ReadSource reads a source file of at most 1 MiB into *buf (reused across
// calls); false for a larger, growing or unreadable file.
func ReadSource(path string, buf *[]byte) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() > maxSourceSize {
		return nil, false
	}
	need := int(fi.Size()) + 1
	if cap(*buf) < need {
		*buf = make([]byte, need)
	}
	b := (*buf)[:cap(*buf)]
	n := 0
	for n < len(b) {
		m, err := f.Read(b[n:])
		n += m
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false
		}
		if n > maxSourceSize {
			return nil, false // grew while being read
		}
	}
	return b[:n], true
}

// scanImports calls found with every module specifier the text loads.
func scanImports(data []byte, found func(spec string)) {
	scanLoads(data, false, func(spec string, _ bool) { found(spec) })
}

// ScanLoads calls found with every module specifier the text loads (a
// string literal after from, import, import( or require(), and whether the
// statement it ends is an export … from. A text scan, not a parse: an
// import in a comment counts, a computed specifier does not.
func ScanLoads(data []byte, found func(spec string, reexport bool)) {
	scanLoads(data, true, found)
}

// scanLoads is ScanLoads; the statement's keyword is looked for only when
// the caller asks (it reads back up to 4 KiB at each from).
func scanLoads(data []byte, reexports bool, found func(spec string, reexport bool)) {
	i := 0
	for i < len(data) {
		j := bytes.IndexAny(data[i:], `'"`)
		if j < 0 {
			return
		}
		q := i + j
		quote := data[q]
		end := q + 1
		for end < len(data) && data[end] != quote && data[end] != '\n' {
			if data[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(data) || data[end] != quote {
			i = q + 1 // unterminated: not a string after all
			continue
		}
		k := skipSpaceBack(data, q)
		switch {
		case k > 0 && data[k-1] == '(':
			k = skipSpaceBack(data, k-1)
			if endsWithWord(data, k, "require") || endsWithWord(data, k, "import") {
				found(string(data[q+1:end]), false)
			}
		case endsWithWord(data, k, "from"):
			found(string(data[q+1:end]), reexports && statementKeyword(data, k-len("from")) == "export")
		case endsWithWord(data, k, "import"):
			found(string(data[q+1:end]), false)
		}
		i = end + 1
	}
}

// statementKeyword is the import or export keyword nearest before k: the
// one opening the statement whose from clause ends at k.
func statementKeyword(data []byte, k int) string {
	lo := max(0, k-4096)
	for p := k; p > lo; p-- {
		for _, w := range []string{"export", "import"} {
			if endsWithWord(data, p, w) && (p == len(data) || !isIdent(data[p])) {
				return w
			}
		}
	}
	return ""
}

func skipSpaceBack(data []byte, k int) int {
	for k > 0 {
		switch data[k-1] {
		case ' ', '\t', '\n', '\r':
			k--
		default:
			return k
		}
	}
	return k
}

// endsWithWord reports whether data[:k] ends with word as a whole
// identifier (not part of a longer name, not a member like x.require).
func endsWithWord(data []byte, k int, word string) bool {
	start := k - len(word)
	if start < 0 || string(data[start:k]) != word {
		return false
	}
	return start == 0 || !(isIdent(data[start-1]) || data[start-1] == '.')
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// packageOf returns the package a bare specifier loads ("@s/p" for
// "@s/p/x", "p" for "p/x"); "" for relative, absolute, node: and other
// non-package specifiers.
func packageOf(spec string) string {
	if spec == "" || strings.ContainsAny(spec, " \t\\") {
		return ""
	}
	switch spec[0] {
	case '.', '/', '#', '~':
		return ""
	}
	var pkg string
	if spec[0] == '@' {
		parts := strings.SplitN(spec, "/", 3)
		if len(parts) < 2 {
			return ""
		}
		pkg = parts[0] + "/" + parts[1]
	} else {
		pkg, _, _ = strings.Cut(spec, "/")
	}
	if !validPackageName(pkg) {
		return ""
	}
	return pkg
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
