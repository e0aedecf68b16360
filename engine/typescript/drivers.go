package typescript

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
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
	closed  bool
}

// NewDrivers returns drivers started on first use.
func NewDrivers() *Drivers {
	return &Drivers{drivers: map[string]*Adapter{}, ids: map[string]string{}}
}

// Adapter is the run's adapter of compiler, started on first use.
func (s *Drivers) Adapter(compiler *Compiler) (*Adapter, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	id, err := s.identity(compiler.Dir, compiler.Version)
	if err != nil {
		return nil, err
	}
	if a, ok := s.drivers[id]; ok {
		return a, nil
	}
	a := New(compiler, Options{})
	s.drivers[id] = a
	return a, nil
}

// Serve is t run in the driver of its compiler when it has a JavaScript
// API, t unchanged otherwise (the native compiler, or nil drivers).
func (s *Drivers) Serve(t TSC) TSC {
	if s == nil || t.Dir == "" {
		return t
	}
	if major, _ := strconv.Atoi(strings.SplitN(t.Version, ".", 2)[0]); major >= 7 {
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

// run is RunProject's tsc -p in the driver of t's compiler.
func (s *Drivers) run(ctx context.Context, t TSC, root, config, name string, timeout time.Duration) ([]nativeDiag, []byte, error) {
	a, err := s.Adapter(&Compiler{Dir: t.Dir, Version: t.Version, FromRepo: true, RepoDir: t.Dir})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	params := map[string]any{"cwd": root, "config": config, "args": projectFlags, "typescriptDir": t.Dir}
	var ans projectAnswer
	if err := a.callWithin(ctx, "project", params, name, &ans, timeout); err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, err
	}
	diags, err := readTSC(name, ans.ExitCode, []byte(ans.Stdout), "")
	if err != nil {
		return nil, nil, err
	}
	return diags, []byte(ans.Stdout), nil
}

// identity names a compiler by version and the digest of its
// lib/typescript.js, remembered per file path, size and modification time.
func (s *Drivers) identity(dir, version string) (string, error) {
	script := filepath.Join(dir, "lib", "typescript.js")
	st, err := os.Stat(script)
	if err != nil {
		return "", fmt.Errorf("TypeScript %s without lib/typescript.js: %w", version, err)
	}
	stamp := fmt.Sprintf("%s %d %d", script, st.Size(), st.ModTime().UnixNano())
	if id, ok := s.ids[stamp]; ok {
		return id, nil
	}
	f, err := os.Open(script)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", script, err)
	}
	id := version + " " + hex.EncodeToString(h.Sum(nil))
	s.ids[stamp] = id
	return id, nil
}
