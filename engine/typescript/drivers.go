package typescript

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/uptide/uptide/internal/cache"
)

// Drivers are the drivers of one run, one per compiler, shared by whoever
// the run hands them to: check's judging adapter of the repository's own
// compiler (Adapter) and the fix runner's `tsc -p` compiles (Serve) load
// the compiler once and share the parsed files whose text has not changed
// (driver/sources.js). For the compiles this means the one before an
// upgrade, the one after it and each patch validation are each a fresh
// program and a fresh checker, with tsc's own diagnostics and output, but
// parse and bind only what changed. Two installations of the same compiler
// (the checkout's and a clone's copy of it: same version, same
// lib/typescript.js) share a driver. Safe for concurrent use; a driver
// answers one request at a time. Use NewDrivers, and Close it.
type Drivers struct {
	mu      sync.Mutex
	drivers map[string]*Adapter // by compiler identity
	ids     map[string]string   // typescript.js "path size mtime" → identity
	seeds   map[seedKey]*seedRun
	closed  bool
}

// NewDrivers returns drivers started on first use.
func NewDrivers() *Drivers {
	return &Drivers{drivers: map[string]*Adapter{}, ids: map[string]string{}}
}

// Adapter is the run's adapter of compiler, started on first use. The
// driver loads a copy of the compiler kept in the cache under its identity,
// never an installation the run may change (a clone's node_modules the
// upgrade rewrites when the package is typescript itself).
func (s *Drivers) Adapter(compiler *Compiler) (*Adapter, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if v := compiler.Version; v == "" || strings.ContainsAny(v, `/\ `) || strings.HasPrefix(v, ".") {
		return nil, fmt.Errorf("%s: %q is not a TypeScript version", compiler.Dir, v)
	}
	// The installation itself, not the link to it pnpm makes.
	src := compiler.Dir
	if real, err := filepath.EvalSymlinks(src); err == nil {
		src = real
	}
	id, err := s.identity(src, compiler.Version)
	if err != nil {
		return nil, err
	}
	if a, ok := s.drivers[id]; ok {
		return a, nil
	}
	parent, err := cache.Dir("compilers")
	if err != nil {
		return nil, fmt.Errorf("compiler cache: %w", err)
	}
	dir, err := cache.Fill(parent, "local-"+id, func(tmp string) error {
		if err := copyCompiler(src, tmp); err != nil {
			return fmt.Errorf("compiler cache: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	loaded := *compiler
	loaded.Dir = dir
	a := New(&loaded, Options{})
	s.drivers[id] = a
	return a, nil
}

// Serve is t run in the driver of its compiler when it has a JavaScript
// API; otherwise (the native compiler, one older than the driver) tsc
// itself runs, and a run with SeedBaseline is kept for check's native
// judgment (native_seed.go). nil drivers leave t unchanged.
func (s *Drivers) Serve(t TSC) TSC {
	if s == nil || t.Dir == "" {
		return t
	}
	if ok, _ := supportedAPI(t.Version); !ok {
		t.seeds = s
		return t
	}
	t.server = s
	return t
}

// Close stops every driver.
func (s *Drivers) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, a := range s.drivers {
		_ = a.Close()
	}
	s.drivers = map[string]*Adapter{}
	return nil
}

// projectAnswer is the driver's `project` answer: what tsc would have
// written to stdout, and its exit status.
type projectAnswer struct {
	Stdout   string `json:"stdout"`
	ExitCode int    `json:"exitCode"`
}

// run is RunProject's tsc -p in the driver of t's compiler. When the
// driver fails (it crashed, say out of memory with check's programs beside
// the compile, or the compiler threw) or cannot start (no copy of the
// compiler could be made), tsc itself runs the project.
func (s *Drivers) run(ctx context.Context, t TSC, root, config, name string, timeout time.Duration) ([]nativeDiag, []byte, error) {
	if timeout <= 0 {
		timeout = 24 * time.Hour // as tsc's: none
	}
	argv := append(append(append([]string{}, t.Argv...), "-p", config), projectFlags...)
	a, err := s.Adapter(&Compiler{Dir: t.Dir, Version: t.Version, FromRepo: true, RepoDir: t.Dir})
	if err != nil {
		if errors.Is(err, errClosed) {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		return runTSC(ctx, argv, root, name, timeout) // no copy of the compiler to load
	}
	// tsc names its default libraries under its real path.
	asDir := t.Dir
	if real, err := filepath.EvalSymlinks(t.Dir); err == nil {
		asDir = real
	}
	params := map[string]any{"cwd": root, "config": config, "args": projectFlags, "typescriptDir": asDir}
	if t.SeedBaseline {
		params["seedBaseline"] = true
	}
	var ans projectAnswer
	err = a.callWithin(ctx, "project", params, name, &ans, timeout)
	var de *DriverError
	switch {
	case ctx.Err() != nil:
		return nil, nil, ctx.Err()
	case errors.As(err, &de) && de.Code != CodeTimeout && de.Code != "BAD_REQUEST":
		return runTSC(ctx, argv, root, name, timeout)
	case err != nil:
		return nil, nil, err
	}
	diags, err := readTSC(name, ans.ExitCode, []byte(ans.Stdout), "")
	if err != nil {
		return nil, nil, err
	}
	return diags, []byte(ans.Stdout), nil
}

// identity names a compiler by version and the digest of the files the
// driver loads from it (lib/typescript.js and the lib declarations),
// remembered per typescript.js path, size and modification time.
func (s *Drivers) identity(dir, version string) (string, error) {
	script := filepath.Join(dir, "lib", "typescript.js")
	st, err := os.Stat(script)
	if err != nil {
		return "", fmt.Errorf("TypeScript %s without lib/typescript.js: %w", version, err)
	}
	stamp := fmt.Sprintf("%s %s %d %d", script, version, st.Size(), st.ModTime().UnixNano())
	if id, ok := s.ids[stamp]; ok {
		return id, nil
	}
	var files []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || d.IsDir() || !driverFile(rel) || filepath.ToSlash(rel) == "LICENSE.txt" {
			return err
		}
		files = append(files, rel)
		return nil
	})
	if err == nil && len(files) < 2 {
		err = errors.New("no lib/typescript.js and lib declarations found")
	}
	if err != nil {
		return "", fmt.Errorf("reading TypeScript %s in %s: %w", version, dir, err)
	}
	// The content's hash, read from the cache while no file's size or
	// modification time changed: hashing the 13 MB is on every run's way
	// to its first compile.
	memo := fileStamps(dir, version, files)
	if id, ok := readIdentity(memo); ok {
		s.ids[stamp] = id
		return id, nil
	}
	h := sha256.New()
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			return "", fmt.Errorf("reading TypeScript %s in %s: %w", version, dir, err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(data))
		h.Write(data)
	}
	id := "typescript@" + version + "-" + hex.EncodeToString(h.Sum(nil))[:16]
	s.ids[stamp] = id
	writeIdentity(memo, id)
	return id, nil
}

// fileStamps is the cache file holding the identity of the compiler files
// under dir while each keeps its size and modification time; "" without
// a cache.
func fileStamps(dir, version string, files []string) string {
	parent, err := cache.Dir("compilers", "ids")
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", dir, version)
	for _, rel := range files {
		st, err := os.Stat(filepath.Join(dir, rel))
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00", filepath.ToSlash(rel), st.Size(), st.ModTime().UnixNano())
	}
	return filepath.Join(parent, hex.EncodeToString(h.Sum(nil))[:32])
}

func readIdentity(memo string) (string, bool) {
	if memo == "" {
		return "", false
	}
	b, err := os.ReadFile(memo)
	id := string(b)
	if err != nil || !strings.HasPrefix(id, "typescript@") || strings.ContainsAny(id, "/\\ \n") {
		return "", false
	}
	return id, true
}

func writeIdentity(memo, id string) {
	if memo == "" {
		return
	}
	tmp := fmt.Sprintf("%s.%d.tmp", memo, os.Getpid())
	if os.WriteFile(tmp, []byte(id), 0o644) == nil {
		_ = os.Rename(tmp, memo)
	}
}
