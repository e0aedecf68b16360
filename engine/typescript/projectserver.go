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

// ProjectServer runs `tsc -p` for compilers with a JavaScript API (before
// 7) in a driver kept for the whole of a caller's run, one per compiler:
// the fix runner's compile before an upgrade, the one after it and each
// patch validation load the compiler once, and each run parses and binds
// only the files whose text changed since the previous one (the driver's
// project.js). Every run is still a fresh program and a fresh checker, with
// tsc's own diagnostics and output. Two installations of the same compiler
// (the checkout's and a clone's copy of it: same version, same
// lib/typescript.js) share a driver. It is safe for concurrent use; a
// driver answers one run at a time. The zero value is not usable: use
// NewProjectServer, and Close it.
type ProjectServer struct {
	mu      sync.Mutex
	drivers map[string]*Adapter // by compiler identity
	ids     map[string]string   // typescript.js "path size mtime" → identity
	closed  bool
}

// NewProjectServer returns a server that starts drivers on first use.
func NewProjectServer() *ProjectServer {
	return &ProjectServer{drivers: map[string]*Adapter{}, ids: map[string]string{}}
}

// Serve is t run by s when the compiler has a JavaScript API, t unchanged
// otherwise (the native compiler, or a nil server).
func (s *ProjectServer) Serve(t TSC) TSC {
	if s == nil || t.Dir == "" {
		return t
	}
	if major, _ := strconv.Atoi(strings.SplitN(t.Version, ".", 2)[0]); major >= 7 {
		return t
	}
	t.server = s
	return t
}

// Close stops every driver the server started.
func (s *ProjectServer) Close() error {
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

// run is RunProject's tsc -p in the driver for t's compiler.
func (s *ProjectServer) run(ctx context.Context, t TSC, root, config, name string, timeout time.Duration) ([]nativeDiag, []byte, error) {
	a, err := s.driverFor(t, timeout)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	params := map[string]any{"cwd": root, "config": config, "args": projectFlags, "typescriptDir": t.Dir}
	var ans projectAnswer
	if err := a.call(ctx, "project", params, name, &ans); err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	diags, err := readTSC(name, ans.ExitCode, []byte(ans.Stdout), "")
	if err != nil {
		return nil, nil, err
	}
	return diags, []byte(ans.Stdout), nil
}

// driverFor is the driver of t's compiler, started on first use.
func (s *ProjectServer) driverFor(t TSC, timeout time.Duration) (*Adapter, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	id, err := s.identity(t)
	if err != nil {
		return nil, err
	}
	if a, ok := s.drivers[id]; ok {
		return a, nil
	}
	a := New(&Compiler{Dir: t.Dir, Version: t.Version}, Options{RequestTimeout: timeout})
	s.drivers[id] = a
	return a, nil
}

// identity names a compiler by version and the digest of its
// lib/typescript.js, remembered per file path, size and modification time.
func (s *ProjectServer) identity(t TSC) (string, error) {
	script := filepath.Join(t.Dir, "lib", "typescript.js")
	st, err := os.Stat(script)
	if err != nil {
		return "", fmt.Errorf("TypeScript %s without lib/typescript.js: %w", t.Version, err)
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
	id := t.Version + " " + hex.EncodeToString(h.Sum(nil))
	s.ids[stamp] = id
	return id, nil
}
