package typescript

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	subproc "github.com/uptide/uptide/internal/proc"
)

// nodePlatform and nodeArch are Node's process.platform and process.arch
// for Go's GOOS and GOARCH: the native compiler's platform packages are
// named with them (@typescript/typescript-linux-x64).
var (
	nodePlatform = map[string]string{"windows": "win32", "solaris": "sunos", "illumos": "sunos"}
	nodeArch     = map[string]string{"amd64": "x64", "386": "ia32", "ppc64le": "ppc64", "mips64le": "mips64el", "mipsle": "mipsel"}
)

// nativePlatformPackage names the package holding the executable of the
// native compiler whose package is named pkgName, for goos/goarch, and the
// executable's name (typescript/lib/getExePath.js).
func nativePlatformPackage(pkgName, goos, goarch string) (pkg, exe string) {
	base := pkgName
	if i := strings.LastIndex(base, "/"); i >= 0 && strings.HasPrefix(base, "@") {
		base = base[i+1:]
	}
	platform, arch := goos, goarch
	if p, ok := nodePlatform[goos]; ok {
		platform = p
	}
	if a, ok := nodeArch[goarch]; ok {
		arch = a
	}
	exe = "tsgo"
	if base == "typescript" {
		exe = "tsc"
	}
	if goos == "windows" {
		exe += ".exe"
	}
	return "@typescript/" + base + "-" + platform + "-" + arch, exe
}

// NativeTSC is the executable of the native TypeScript (7 or newer) whose
// package directory is typescriptDir: the platform package the package
// lists in its optionalDependencies, found the way Node resolves it from
// there (npm hoists it beside typescript; pnpm links it next to it in the
// virtual store), and its lib/tsc. It says why when there is none.
func NativeTSC(typescriptDir string) (string, error) {
	if typescriptDir == "" {
		return "", errors.New("no typescript package directory")
	}
	manifest := filepath.Join(typescriptDir, "package.json")
	b, err := os.ReadFile(manifest)
	if err != nil {
		return "", err
	}
	var pkg struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Name == "" {
		return "", fmt.Errorf("%s: not a readable package.json", manifest)
	}
	platformPkg, exe := nativePlatformPackage(pkg.Name, runtime.GOOS, runtime.GOARCH)
	dir, err := filepath.Abs(typescriptDir)
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if filepath.Base(d) != "node_modules" {
			cand := filepath.Join(d, "node_modules", filepath.FromSlash(platformPkg), "lib", exe)
			if st, err := os.Stat(cand); err == nil && st.Mode().IsRegular() && (runtime.GOOS == "windows" || st.Mode().Perm()&0o111 != 0) {
				return cand, nil
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("%s is not installed next to %s (its platform package; reinstall typescript without --no-optional)", platformPkg, typescriptDir)
		}
		d = parent
	}
}

// tscJudge is the repository's own tsc when the adapter's compiler stands
// in for it: a native TypeScript (7 or newer, no JavaScript API) or one
// older than OldestSupported. That tsc judges, on generated tsconfigs.
// nil argv: the adapter's compiler judges itself (it is the repository's,
// or a native one whose executable is not installed, and the label says
// so). A TypeScript too old for the driver whose tsc cannot run is an
// error: no other compiler's verdict is the repository's.
func (a *Adapter) tscJudge(ctx context.Context) (argv []string, version string, err error) {
	switch {
	case a.compiler == nil:
		return nil, "", nil
	case a.compiler.RepoNative != "":
		exe, err := NativeTSC(a.compiler.RepoDir)
		if err != nil {
			return nil, "", nil
		}
		return []string{exe}, a.compiler.RepoNative, nil
	case a.compiler.RepoTooOld != "":
		t, err := TSCAt(ctx, a.compiler.RepoDir)
		if err != nil {
			return nil, "", fmt.Errorf("the repo's TypeScript %s judges through its own tsc, which cannot run: %w (reinstall typescript)", a.compiler.RepoTooOld, err)
		}
		return t.Argv, a.compiler.RepoTooOld, nil
	}
	return nil, "", nil
}

// nativeRun is one side's diagnostics from the native tsc.
type nativeRun struct {
	diags []nativeDiag
	took  time.Duration
}

// runNativeTSC runs `tsc -p config --pretty false` (argv is the tsc) in
// dir (file names come back relative to it).
func runNativeTSC(ctx context.Context, argv []string, config, dir string, timeout time.Duration) (*nativeRun, error) {
	start := time.Now()
	name := strings.Join(argv, " ") + " -p " + config
	diags, _, err := runTSC(ctx, append(append([]string{}, argv...), "-p", config, "--pretty", "false"), dir, name, timeout)
	if err != nil {
		return nil, err
	}
	return &nativeRun{diags: diags, took: time.Since(start)}, nil
}

// runTSC runs a tsc command line (argv) in dir and parses what it prints;
// name says which run an error is about. tsc exits 1 or 2 when it reports
// diagnostics; any other failure (a crash, a Go panic, which also exits 2)
// is an error with what tsc printed.
func runTSC(ctx context.Context, argv []string, dir, name string, timeout time.Duration) ([]nativeDiag, []byte, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	// tsc may be a node shim starting the native binary: a cancellation
	// (a timeout, a signal) ends both.
	subproc.OwnGroup(cmd)
	cmd.Cancel = func() error { subproc.KillGroup(cmd); return nil }
	stdout := &subproc.Capped{Max: maxTSCOutput, OnExceed: stop}
	stderr := &tailBuffer{max: 16 << 10}
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	runErr := cmd.Run()
	if stdout.Exceeded() {
		return nil, nil, fmt.Errorf("%s printed more than %d MB of diagnostics, the limit uptide reads, and was stopped", name, maxTSCOutput>>20)
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		if errors.Is(ctxErr, context.DeadlineExceeded) {
			return nil, nil, fmt.Errorf("%s: still running after %s", name, timeout)
		}
		return nil, nil, ctxErr
	}
	code := 0
	if runErr != nil {
		var exit *exec.ExitError
		if !errors.As(runErr, &exit) {
			return nil, nil, fmt.Errorf("run %s: %w", name, runErr)
		}
		code = exit.ExitCode()
	}
	diags, err := readTSC(name, code, stdout.Bytes(), stderr.String())
	if err != nil {
		return nil, nil, err
	}
	return diags, stdout.Bytes(), nil
}

// maxTSCOutput bounds what one tsc run may print: diagnostics of a real
// repository, even a broken one, are a few megabytes.
var maxTSCOutput = 256 << 20

// readTSC reads what one tsc run wrote: its diagnostics, or why the run
// says nothing to trust (an exit status tsc does not give for errors
// found, a failure without a diagnostic, a crash).
func readTSC(name string, code int, stdout []byte, stderr string) ([]nativeDiag, error) {
	errText := strings.TrimSpace(stderr)
	diags, err := parseNativeOutput(stdout)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", name, err)
	case code != 0 && code != 1 && code != 2,
		code != 0 && len(diags) == 0,
		strings.Contains(errText, "panic:") || strings.Contains(errText, "goroutine "):
		detail := errText
		if detail == "" {
			detail = strings.TrimSpace(string(stdout))
		}
		return nil, fmt.Errorf("%s exited %d: %s", name, code, clip(detail, 2000))
	}
	return diags, nil
}
