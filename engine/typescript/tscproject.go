package typescript

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/uptide/uptide/engine/jsonc"
	"github.com/uptide/uptide/engine/model"
)

// Upgrading the compiler itself: the sources do not change, the judge does.
// Each tsconfig project is type-checked whole by the installed tsc and by
// the target's, exactly as `tsc -p` does, with emit forced off so nothing
// is ever written into the checkout; what the target adds is the upgrade's.

// TSC is a tsc command line: `node lib/tsc.js` for TypeScript with a
// JavaScript API (before 7), the platform executable for the native one.
type TSC struct {
	Version string
	Argv    []string
	// Dir is the typescript package the command runs.
	Dir string
	// server, when set, runs the command in the run's driver of Dir.
	server *Drivers
	// seeds, when set, keep a SeedBaseline run for a native judgment.
	seeds *Drivers
	// SeedBaseline: the files the run reads do not change while the
	// driver lives (the user's checkout during a fix run), so the errors
	// it finds are also the baseline of the compiles check makes in the
	// same driver (driver/compile.js seedBaseline), or, for a tsc the
	// driver cannot load, of a native judgment's (native_seed.go).
	SeedBaseline bool
}

// Label is "TypeScript 5.8.3".
func (t TSC) Label() string { return "TypeScript " + t.Version }

// TSCAt is the tsc of the typescript package installed in dir.
func TSCAt(ctx context.Context, dir string) (TSC, error) {
	manifest := filepath.Join(dir, "package.json")
	b, err := os.ReadFile(manifest)
	if err != nil {
		return TSC{}, err
	}
	var pkg struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version == "" {
		return TSC{}, fmt.Errorf("%s: not a readable package.json", manifest)
	}
	major, _ := strconv.Atoi(strings.SplitN(pkg.Version, ".", 2)[0])
	if script := filepath.Join(dir, "lib", "tsc.js"); major < 7 {
		if _, err := os.Stat(script); err != nil {
			return TSC{}, fmt.Errorf("%s: TypeScript %s without lib/tsc.js", dir, pkg.Version)
		}
		node, _, err := findNode(ctx)
		if err != nil {
			return TSC{}, err
		}
		return TSC{Version: pkg.Version, Argv: []string{node, script}, Dir: dir}, nil
	}
	exe, err := NativeTSC(dir)
	if err != nil {
		return TSC{}, err
	}
	return TSC{Version: pkg.Version, Argv: []string{exe}, Dir: dir}, nil
}

// FetchTSC is typescript@version from the compiler cache, fetched through
// fetch the first time; for the native compiler (7 and newer) its platform
// package is fetched beside it, where NativeTSC finds it.
func FetchTSC(ctx context.Context, fetch FetchFunc, progress ProgressFunc, version string) (TSC, error) {
	dir, err := cachedPackage(ctx, fetch, progress, "tsc", PinnedName, version, copyPackage, func(ctx context.Context, tmp string) error {
		major, _ := strconv.Atoi(strings.SplitN(version, ".", 2)[0])
		if major < 7 {
			return nil
		}
		platformPkg, exe := nativePlatformPackage(PinnedName, runtime.GOOS, runtime.GOARCH)
		src, err := fetch(ctx, platformPkg, version)
		if err != nil {
			return fmt.Errorf("fetch %s@%s: %w", platformPkg, version, err)
		}
		dst := filepath.Join(tmp, "node_modules", filepath.FromSlash(platformPkg))
		if err := copyPackage(src, dst); err != nil {
			return err
		}
		return os.Chmod(filepath.Join(dst, "lib", exe), 0o755)
	})
	if err != nil {
		return TSC{}, err
	}
	return TSCAt(ctx, dir)
}

// ProjectRun is one tsc run over one project.
type ProjectRun struct {
	// Diagnostics are repository-relative, sorted.
	Diagnostics []model.Diagnostic
	// Files counts the repository's own files in the program (not
	// node_modules, not the compiler's libs).
	Files int
}

// projectFlags keep tsc from writing anything: no emit, no build info, and
// the options that would demand emit turned off.
var projectFlags = []string{"--pretty", "false", "--noEmit", "--incremental", "false", "--composite", "false",
	"--emitDeclarationOnly", "false", "--listFiles"}

// RunProject type-checks the project whose tsconfig is config (absolute)
// with t, in root (the repository; diagnostics come back relative to it).
func (t TSC) RunProject(ctx context.Context, root, config string, timeout time.Duration) (*ProjectRun, error) {
	name := t.Label() + " tsc -p " + relOr(root, config)
	var diags []nativeDiag
	var stdout []byte
	var err error
	if t.server != nil {
		diags, stdout, err = t.server.run(ctx, t, root, config, name, timeout)
	} else {
		argv := append(append(append([]string{}, t.Argv...), "-p", config), projectFlags...)
		var seed func([]nativeDiag, error)
		if t.SeedBaseline && t.seeds != nil {
			seed = t.seeds.seeding(t.Argv, root, config)
		}
		diags, stdout, err = runTSC(ctx, argv, root, name, timeout)
		if seed != nil {
			seed(diags, err)
		}
	}
	if err != nil {
		return nil, err
	}
	run := &ProjectRun{Diagnostics: []model.Diagnostic{}}
	roots := repoRoots(root)
	inRepo := func(p string) (string, bool) {
		for _, r := range roots {
			if rel, ok := under(r, p); ok {
				return rel, true
			}
		}
		return "", false
	}
	for _, line := range strings.Split(string(stdout), "\n") {
		p := strings.TrimSpace(line)
		if !filepath.IsAbs(p) || locatedLine.MatchString(p) {
			continue
		}
		if rel, ok := inRepo(p); ok && !strings.Contains("/"+rel, "/node_modules/") {
			run.Files++
		}
	}
	for _, d := range diags {
		if d.Category != "error" {
			continue
		}
		file := d.File
		if file != "" {
			abs := file
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(root, abs)
			}
			if rel, ok := inRepo(abs); ok {
				file = rel
			} else {
				file = filepath.ToSlash(abs)
			}
		}
		run.Diagnostics = append(run.Diagnostics, model.Diagnostic{File: file, Line: d.Line, Column: d.Column, Code: d.Code, Message: relMessage(roots, d.Message)})
	}
	slices.SortStableFunc(run.Diagnostics, model.CompareDiagnostics)
	return run, nil
}

// repoRoots are root and, when a symlink leads to it, its real path: tsc
// names files and writes messages with either.
func repoRoots(root string) []string {
	if real, err := filepath.EvalSymlinks(root); err == nil && real != root {
		return []string{root, real}
	}
	return []string{root}
}

// relMessage writes the paths inside the repository that a message names
// ("Could not find a declaration file for module 'x'. '/…/node_modules/x/
// index.js' implicitly has an 'any' type.") relative to it, so the same
// error reads the same in the checkout and in a clone of it.
func relMessage(roots []string, msg string) string {
	// The longer first: /private/var/x holds /var/x.
	roots = append([]string(nil), roots...)
	sort.Slice(roots, func(i, j int) bool { return len(roots[i]) > len(roots[j]) })
	for _, r := range roots {
		msg = strings.ReplaceAll(msg, filepath.ToSlash(r)+"/", "")
	}
	return msg
}

// NewUnderTarget is what the target compiler reports that the installed
// one does not, as multisets on file, line, column and code: the sources
// are the same on both sides, and compilers reword their messages between
// versions, so the message is not part of the key.
func NewUnderTarget(base, target []model.Diagnostic) []model.Diagnostic {
	type key struct {
		file         string
		line, column int
		code         int
	}
	left := map[key]int{}
	for _, d := range base {
		left[key{d.File, d.Line, d.Column, d.Code}]++
	}
	out := []model.Diagnostic{}
	for _, d := range target {
		k := key{d.File, d.Line, d.Column, d.Code}
		if left[k] > 0 {
			left[k]--
			continue
		}
		out = append(out, d)
	}
	return out
}

// under is p relative to root, slash-separated, when p is inside root.
func under(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func relOr(root, p string) string {
	if rel, ok := under(root, p); ok {
		return rel
	}
	return filepath.ToSlash(p)
}

// programConfigNames are the names of a directory's program config, in
// the order tsserver (the editor's compiler) looks for them: a
// tsconfig.json wins over a jsconfig.json beside it. A jsconfig.json is a
// tsconfig the compiler gives JavaScript defaults (allowJs, skipLibCheck,
// noEmit, maxNodeModuleJsDepth 2) because of its name.
var programConfigNames = []string{"tsconfig.json", "jsconfig.json"}

// ProgramConfig is the config dir's program is read with: its
// tsconfig.json, else its jsconfig.json; "" when it has neither.
func ProgramConfig(dir string) string {
	for _, name := range programConfigNames {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// Projects is config itself, or, for a solution-style tsconfig, the
// projects it references (nested solutions followed a few levels down).
func Projects(config string) []string { return projectsOf(config, 0) }

func projectsOf(config string, depth int) []string {
	data, err := jsonc.ReadFile(config)
	if err != nil {
		return nil
	}
	var doc struct {
		Files      *[]string `json:"files"`
		Include    *[]string `json:"include"`
		References []struct {
			Path string `json:"path"`
		} `json:"references"`
	}
	if json.Unmarshal(data, &doc) != nil || len(doc.References) == 0 || depth > 4 {
		return []string{config}
	}
	solution := doc.Files != nil && len(*doc.Files) == 0 && (doc.Include == nil || len(*doc.Include) == 0)
	if !solution {
		return []string{config}
	}
	var out []string
	for _, r := range doc.References {
		p := filepath.Join(filepath.Dir(config), filepath.FromSlash(r.Path))
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			p = filepath.Join(p, "tsconfig.json")
		}
		out = append(out, projectsOf(p, depth+1)...)
	}
	return out
}
