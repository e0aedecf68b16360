package typescript

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/uptide/uptide/internal/cache"
)

// Pinned is the compiler surfaces are extracted with, whatever a repository
// installs, so the surface cache is shared across repositories.
const (
	PinnedName    = "typescript"
	PinnedVersion = "6.0.3"
)

// Compiler is a TypeScript compiler with a JavaScript API the driver can load.
type Compiler struct {
	// Dir is the typescript package directory (it holds lib/typescript.js).
	Dir     string
	Version string
	// FromRepo is true for the repository's own node_modules/typescript.
	FromRepo bool
	// RepoNative is the version of a native TypeScript (7 or newer, no JS
	// API) the repository installs, set when the pinned compiler stands in
	// for it; the judging compile then runs the repository's own tsc.
	RepoNative string
	// RepoTooOld is the version of a TypeScript older than
	// OldestSupported the repository installs, set when the pinned
	// compiler stands in for it in the driver; the judging compile then
	// runs the repository's own tsc, as for a native one.
	RepoTooOld string
	// RepoDir is the node_modules/typescript that was found in the
	// repository, whether it was used or set aside.
	RepoDir string
}

// OldestSupported is the oldest TypeScript whose JavaScript API the driver
// loads (driver/compat.js papers over what changed since).
const OldestSupported = "4.5"

// supportedAPI reports whether a repository's TypeScript version is one the
// driver loads: 4.5 to 6.x (7 is native, with no JavaScript API).
func supportedAPI(version string) (ok, tooOld bool) {
	parts := strings.SplitN(version, ".", 3)
	major, _ := strconv.Atoi(parts[0])
	minor := 0
	if len(parts) > 1 {
		minor, _ = strconv.Atoi(parts[1])
	}
	switch {
	case major < 4 || (major == 4 && minor < 5):
		return false, true
	case major <= 6:
		return true, false
	}
	return false, false
}

// ScriptPath is the compiler's JavaScript API.
func (c *Compiler) ScriptPath() string { return filepath.Join(c.Dir, "lib", "typescript.js") }

// FetchFunc fetches an npm package version (integrity verified by the
// fetcher) and returns the directory it was extracted into. The engine wires
// the registry client here; the directory is copied, not kept.
type FetchFunc func(ctx context.Context, name, version string) (dir string, err error)

// ProgressFunc is told what the resolver is waiting for ("downloading
// typescript@6.0.3"), and again with done set when it is over.
type ProgressFunc func(message string, done bool)

// ResolveCompiler picks the compiler for a repository: its own
// node_modules/typescript (the one in repoDir or the nearest ancestor) when
// it is TypeScript 4.5 to 6.x with a JavaScript API, otherwise the pinned
// compiler, fetched once into the cache. A native TypeScript 7 is recorded in
// RepoNative and the pinned compiler is returned for the driver; an older
// one than 4.5 is recorded in RepoTooOld, likewise. Either way the
// repository's own tsc judges (Adapter.Compile).
func ResolveCompiler(ctx context.Context, repoDir string, fetch FetchFunc, progress ProgressFunc) (*Compiler, error) {
	found, version, err := findRepoTypeScript(repoDir)
	if err != nil {
		return nil, err
	}
	if found != "" {
		ok, tooOld := supportedAPI(version)
		_, scriptErr := os.Stat(filepath.Join(found, "lib", "typescript.js"))
		if ok && scriptErr == nil {
			return &Compiler{Dir: found, Version: version, FromRepo: true, RepoDir: found}, nil
		}
		pinned, err := PinnedCompiler(ctx, fetch, progress)
		if err != nil {
			return nil, err
		}
		c := *pinned
		c.RepoDir = found
		switch {
		case tooOld && scriptErr == nil:
			c.RepoTooOld = version
		case !tooOld:
			c.RepoNative = version
		}
		return &c, nil
	}
	return PinnedCompiler(ctx, fetch, progress)
}

// findRepoTypeScript walks up from dir to the first node_modules/typescript.
func findRepoTypeScript(dir string) (string, string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	for {
		candidate := filepath.Join(abs, "node_modules", "typescript")
		manifest := filepath.Join(candidate, "package.json")
		if b, err := os.ReadFile(manifest); err == nil {
			var pkg struct {
				Version string `json:"version"`
			}
			if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version == "" {
				return "", "", fmt.Errorf("%s: not a readable package.json (%v): reinstall typescript", manifest, err)
			}
			if real, err := filepath.EvalSymlinks(candidate); err == nil {
				candidate = real
			}
			return candidate, pkg.Version, nil
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", "", nil
		}
		abs = parent
	}
}

// PinnedCompiler returns typescript@6.0.3 from the cache, fetching it through
// fetch the first time.
func PinnedCompiler(ctx context.Context, fetch FetchFunc, progress ProgressFunc) (*Compiler, error) {
	return CachedCompiler(ctx, PinnedVersion, fetch, progress)
}

// CachedCompiler returns typescript@version from the compiler cache, fetching
// it through fetch the first time, as the pinned one is. version is exact
// ("4.7.4"): the tests pin the older compilers the driver must support.
func CachedCompiler(ctx context.Context, version string, fetch FetchFunc, progress ProgressFunc) (*Compiler, error) {
	dir, err := cachedPackage(ctx, fetch, progress, "compilers", PinnedName, version, copyCompiler, nil)
	if err != nil {
		return nil, err
	}
	return &Compiler{Dir: dir, Version: version}, nil
}

// cachedPackage is name@version in the cache folder kind, fetched through
// fetch the first time and copied there by copy; more, when set, adds to the
// package's folder before it is marked complete (the native compiler's
// platform package).
func cachedPackage(ctx context.Context, fetch FetchFunc, progress ProgressFunc, kind, name, version string,
	copy func(src, dst string) error, more func(ctx context.Context, tmp string) error) (string, error) {
	if version == "" || strings.ContainsAny(version, `/\ `) || strings.HasPrefix(version, ".") {
		return "", fmt.Errorf("compiler cache: %q is not an exact version of %s", version, name)
	}
	parent, err := cache.Dir(kind)
	if err != nil {
		return "", fmt.Errorf("compiler cache: %w", err)
	}
	label := name + "@" + version
	dir := filepath.Join(parent, label)
	if cache.Complete(dir) {
		return dir, nil
	}
	if fetch == nil {
		return "", fmt.Errorf("%s is not in the cache (%s) and no registry is available to fetch it", label, dir)
	}
	if progress != nil {
		progress("downloading "+label, false)
		defer progress("downloading "+label, true)
	}
	src, err := fetch(ctx, name, version)
	if err != nil {
		return "", fmt.Errorf("fetch %s: %w", label, err)
	}
	if err := checkCompilerPackage(src, name, version); err != nil {
		return "", fmt.Errorf("fetched %s: %w", label, err)
	}
	return cache.Fill(parent, label, func(tmp string) error {
		if err := copy(src, tmp); err != nil {
			return fmt.Errorf("compiler cache: %w", err)
		}
		if more != nil {
			return more(ctx, tmp)
		}
		return nil
	})
}

func checkCompilerPackage(dir, name, version string) error {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return err
	}
	var pkg struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, "package.json"), err)
	}
	if pkg.Name != name || pkg.Version != version {
		return fmt.Errorf("%s holds %s@%s, not %s@%s", dir, pkg.Name, pkg.Version, name, version)
	}
	return nil
}

// driverFile: the driver loads the file (package.json, the JS API and the
// lib declaration files; not tsserver, tsc or the locales).
func driverFile(rel string) bool {
	rel = filepath.ToSlash(rel)
	if rel == "package.json" || rel == "LICENSE.txt" || rel == "lib/typescript.js" {
		return true
	}
	return strings.HasPrefix(rel, "lib/lib.") && strings.HasSuffix(rel, ".d.ts") && !strings.Contains(rel[4:], "/")
}

// copyCompiler copies what the driver loads.
func copyCompiler(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil || d.IsDir() || !driverFile(rel) || !d.Type().IsRegular() {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return copyFile(p, out)
	})
}

// copyPackage copies every regular file of a package, keeping the
// executable bit (the native compiler is an executable).
func copyPackage(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := copyFile(p, out); err != nil {
			return err
		}
		if info, err := d.Info(); err == nil && info.Mode()&0o111 != 0 {
			return os.Chmod(out, 0o755)
		}
		return nil
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
