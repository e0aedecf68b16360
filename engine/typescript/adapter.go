package typescript

import (
	"bufio"
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/cache"
)

// AdapterName is the surface cache's adapter key and Surface.Adapter.
const AdapterName = "typescript"

// surfaceRevision is this adapter's part of the surface cache key, next to
// model.SurfaceSchemaVersion: bump it when the driver extracts differently
// (2: augmentations of the package's own modules are the package's names,
// not scoped foreign ones; 3: a deprecation's code span is its replacement
// whole or not at all; 4: an alias naming an own interface carries its
// members), so no cache keeps what an older driver read.
const surfaceRevision = 4

// DefaultRequestTimeout bounds one driver request. Extraction of the largest
// declaration sets takes seconds; minutes mean the driver is stuck.
const DefaultRequestTimeout = 3 * time.Minute

// NoTypesError is returned for a package with no declaration files: it has
// no TypeScript surface at all, which is a result to report, not an empty
// surface.
type NoTypesError struct {
	Package string
	Version string
	Reason  string
}

func (e *NoTypesError) Error() string {
	return fmt.Sprintf("%s@%s has no TypeScript declarations: %s", e.Package, e.Version, e.Reason)
}

// Options tune an Adapter.
type Options struct {
	// RequestTimeout bounds each driver request; zero means
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
	// NoSurfaceCache extracts every time and never writes the cache (for
	// package directories whose name@version does not identify their content).
	NoSurfaceCache bool
}

// Adapter runs one driver process with one compiler for a whole run. It is
// safe for concurrent use; requests are answered one at a time.
type Adapter struct {
	compiler *Compiler
	opts     Options

	mu      sync.Mutex
	proc    *proc
	version string
	closed  bool
}

// New returns an Adapter that starts its driver on first use. Surfaces are
// cached per name and version across repositories, so compiler should be
// the pinned one (PinnedCompiler) for ExtractSurface.
func New(compiler *Compiler, opts Options) *Adapter {
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = DefaultRequestTimeout
	}
	return &Adapter{compiler: compiler, opts: opts}
}

// CompilerVersion starts the driver if needed and reports the version of
// TypeScript it loaded.
func (a *Adapter) CompilerVersion(ctx context.Context) (string, error) {
	if _, err := a.driver(ctx); err != nil {
		return "", err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.version, nil
}

// driver returns the running driver, starting it (again, after a crash or a
// timeout killed the previous one).
func (a *Adapter) driver(ctx context.Context) (*proc, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return nil, errClosed
	}
	if a.proc != nil {
		a.proc.mu.Lock()
		broken := a.proc.broken
		a.proc.mu.Unlock()
		if broken == nil {
			return a.proc, nil
		}
		a.proc.close()
		a.proc = nil
	}
	nodeBin, _, err := findNode(ctx)
	if err != nil {
		return nil, err
	}
	mainJS, err := installDriver()
	if err != nil {
		return nil, err
	}
	p, version, err := startProc(ctx, nodeBin, mainJS, a.compiler.ScriptPath(), a.opts.RequestTimeout, DriverHeapMB)
	if err != nil {
		return nil, err
	}
	a.proc, a.version = p, version
	return p, nil
}

// Close stops the driver process and everything it started.
func (a *Adapter) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	if a.proc != nil {
		a.proc.close()
		a.proc = nil
	}
	return nil
}

func (a *Adapter) call(ctx context.Context, method string, params any, subject string, out any) error {
	return a.request(ctx, method, params, subject, out, a.opts.RequestTimeout, nil)
}

// Release tells a driver that outlives a check (typescript.Drivers) to
// drop the programs and caches only check reads, keeping the parsed files
// the next compiles share. A driver not running has nothing to drop.
func (a *Adapter) Release(ctx context.Context) error {
	a.mu.Lock()
	running := a.proc != nil
	a.mu.Unlock()
	if !running {
		return nil
	}
	var out struct{}
	return a.call(ctx, "release", nil, "the programs check kept", &out)
}

// callWithin is call with its own time limit.
func (a *Adapter) callWithin(ctx context.Context, method string, params any, subject string, out any, timeout time.Duration) error {
	return a.request(ctx, method, params, subject, out, timeout, nil)
}

// callProgress is call for a request whose progress lines go to onProgress.
func (a *Adapter) callProgress(ctx context.Context, method string, params any, subject string, out any, onProgress func(json.RawMessage)) error {
	return a.request(ctx, method, params, subject, out, a.opts.RequestTimeout, onProgress)
}

func (a *Adapter) request(ctx context.Context, method string, params any, subject string, out any, timeout time.Duration, onProgress func(json.RawMessage)) error {
	p, err := a.driver(ctx)
	if err != nil {
		return err
	}
	raw, err := p.callProgress(ctx, method, params, timeout, subject, onProgress)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &DriverError{Subject: subject, Method: method, Code: CodeMalformed, Message: "answer does not decode: " + err.Error()}
	}
	return nil
}

// ExtractSurface returns the public API surface of the package in pkgDir,
// from the surface cache when the same files of name@version were
// extracted before.
func (a *Adapter) ExtractSurface(ctx context.Context, pkgDir, name, version string) (*model.Surface, error) {
	var cacheFile string
	if !a.opts.NoSurfaceCache {
		f, err := surfaceCachePath(name, version)
		if err != nil {
			return nil, err
		}
		// A package that cannot be read whole is extracted, not cached:
		// the driver says what is wrong with it.
		if digest, err := packageDigest(pkgDir); err == nil {
			cacheFile = f + "-" + digest[:32] + ".gob"
			if s, ok := readCachedSurface(cacheFile, name, version); ok {
				return s, nil
			}
		}
	}
	subject := name + "@" + version
	var out struct {
		EntryPoints       []string            `json:"entryPoints"`
		Symbols           []model.Symbol      `json:"symbols"`
		ExportEqualsRoots map[string][]string `json:"exportEqualsRoots"`
		UMD               bool                `json:"umd"`
	}
	err := a.call(ctx, "surface", map[string]string{"pkgDir": pkgDir, "name": name}, subject, &out)
	var de *DriverError
	if errors.As(err, &de) && de.Code == "NO_TYPES" {
		return nil, &NoTypesError{Package: name, Version: version, Reason: de.Message}
	}
	if err != nil {
		return nil, err
	}
	s := &model.Surface{
		Package:           name,
		Version:           version,
		Adapter:           AdapterName,
		SchemaVersion:     model.SurfaceSchemaVersion,
		EntryPoints:       out.EntryPoints,
		Symbols:           out.Symbols,
		ExportEqualsRoots: out.ExportEqualsRoots,
		UMD:               out.UMD,
	}
	if s.EntryPoints == nil {
		s.EntryPoints = []string{}
	}
	if s.Symbols == nil {
		s.Symbols = []model.Symbol{}
	}
	if err := normalizeSurface(s); err != nil {
		return nil, &DriverError{Subject: subject, Method: "surface", Code: CodeMalformed, Message: err.Error()}
	}
	if cacheFile != "" {
		if err := writeCachedSurface(cacheFile, s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

var knownKinds = map[model.SymbolKind]bool{
	model.KindClass: true, model.KindFunction: true, model.KindVariable: true, model.KindInterface: true,
	model.KindEnum: true, model.KindTypeAlias: true, model.KindNamespace: true, model.KindModule: true,
	model.KindMethod: true, model.KindProperty: true, model.KindConstructor: true, model.KindCallSignature: true,
	model.KindIndexSignature: true, model.KindEnumMember: true,
}

// normalizeSurface sorts symbols by path (byte order, whatever order the
// driver used) and rejects what no correct driver produces.
func normalizeSurface(s *model.Surface) error {
	sort.SliceStable(s.Symbols, func(i, j int) bool { return s.Symbols[i].Path < s.Symbols[j].Path })
	for i := range s.Symbols {
		sym := &s.Symbols[i]
		if sym.Path == "" {
			return fmt.Errorf("symbol %d has no path", i)
		}
		if i > 0 && s.Symbols[i-1].Path == sym.Path {
			return fmt.Errorf("path %s appears twice", sym.Path)
		}
		if !knownKinds[sym.Kind] {
			return fmt.Errorf("%s: unknown kind %q", sym.Path, sym.Kind)
		}
		if sym.ExportedFrom == nil {
			sym.ExportedFrom = []string{}
		}
	}
	return nil
}

// validName accepts npm package names as the cache layout needs them: no
// path tricks, at most one scope. Capitals are allowed: packages published
// before npm forbade them (JSONStream) are still installed.
var validName = regexp.MustCompile(`^(@[A-Za-z0-9][A-Za-z0-9._~-]*/)?[A-Za-z0-9._~-][A-Za-z0-9._~-]*$`)

// validVersion accepts semver-ish strings without path separators.
var validVersion = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z.+_-]*$`)

// surfaceCachePath is the stem of name@version's cache entries, one per
// content (packageDigest) under that version.
func surfaceCachePath(name, version string) (string, error) {
	if !validName.MatchString(name) || strings.HasSuffix(name, "/.") || strings.HasSuffix(name, "/..") || name == "." || name == ".." {
		return "", fmt.Errorf("surface cache: %q is not an npm package name", name)
	}
	if !validVersion.MatchString(version) {
		return "", fmt.Errorf("surface cache: %q is not a package version", version)
	}
	dir, err := cache.Dir("surfaces", AdapterName, "v"+strconv.Itoa(model.SurfaceSchemaVersion)+"."+strconv.Itoa(surfaceRevision), filepath.FromSlash(name))
	if err != nil {
		return "", fmt.Errorf("surface cache: %w", err)
	}
	return filepath.Join(dir, version), nil
}

// readCachedSurface returns a cached surface when it is readable and was
// written for the same package, version and schema; anything else is a miss
// and gets overwritten. The cache is gob, not JSON: stripe's 23,000 symbols
// decode in about 15 ms instead of 60, and a cache hit is the common path.
func readCachedSurface(file, name, version string) (*model.Surface, bool) {
	f, err := os.Open(file)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	var s model.Surface
	if err := gob.NewDecoder(bufio.NewReader(f)).Decode(&s); err != nil {
		return nil, false
	}
	if s.Package != name || s.Version != version || s.Adapter != AdapterName || s.SchemaVersion != model.SurfaceSchemaVersion {
		return nil, false
	}
	if s.EntryPoints == nil || s.Symbols == nil || normalizeSurface(&s) != nil {
		return nil, false
	}
	return &s, true
}

func writeCachedSurface(file string, s *model.Surface) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(s); err != nil {
		return err
	}
	b := buf.Bytes()
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".tmp-")
	if err != nil {
		return fmt.Errorf("surface cache: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("surface cache: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("surface cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("surface cache: %w", err)
	}
	return nil
}
