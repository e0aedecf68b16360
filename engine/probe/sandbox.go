package probe

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/proc"
)

//go:embed js/*.cjs
var scripts embed.FS

// DefaultTimeout bounds one copy's probe: a load that takes longer is
// killed with everything it started, and the copy is inconclusive.
const DefaultTimeout = 15 * time.Second

// maxOutput bounds what a package may print while it loads.
const maxOutput = 4 << 20

// sandbox is one child Node loading one package from dir, where
// node_modules/<name> is the copy under probe.
type sandbox struct {
	node    nodeBinary
	dir     string
	name    string
	reads   []string // directories the load may read besides dir
	timeout time.Duration
}

// outcome is what a sandboxed load reported.
type outcome struct {
	require, imp model.RuntimeLoad
	denied       []string
	timedOut     bool
}

// writeScripts puts the probe and its preload into dir.
func writeScripts(dir string) error {
	for _, n := range []string{"probe.cjs", "preload.cjs"} {
		b, err := scripts.ReadFile("js/" + n)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			return fmt.Errorf("writing the probe into %s: %w", dir, err)
		}
	}
	return nil
}

// argv is the child's command line: the permission model with reads
// limited to the probe's directory and the copy's dependency tree, no
// writes, child processes, workers, addons or WASI (none is allowed), the
// network preload, and a bounded heap.
func (s sandbox) argv() ([]string, error) {
	flag, ok := s.node.permissionFlag()
	if !ok {
		return nil, errors.New(s.node.noPermissionModel())
	}
	argv := []string{s.node.path, flag}
	for _, d := range append([]string{s.dir}, s.reads...) {
		if strings.Contains(d, ",") {
			return nil, fmt.Errorf("the path %s holds a comma, which Node's --allow-fs-read cannot take", d)
		}
		argv = append(argv, "--allow-fs-read="+d)
	}
	return append(argv,
		"--no-addons",
		"--max-old-space-size=512",
		"--require", filepath.Join(s.dir, "preload.cjs"),
		filepath.Join(s.dir, "probe.cjs"), s.name,
	), nil
}

// run starts the child in its own process group with an empty
// environment, hands it the nonce on stdin, and reads its report. A child
// still running at the timeout is killed with its group.
func (s sandbox) run(ctx context.Context) (outcome, error) {
	argv, err := s.argv()
	if err != nil {
		return outcome{}, err
	}
	nonceBytes := make([]byte, 16)
	if _, err := rand.Read(nonceBytes); err != nil {
		return outcome{}, err
	}
	nonce := "uptide-probe-" + hex.EncodeToString(nonceBytes) + ":"
	timeout := s.timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.dir
	// Stripped: nothing of the user's environment (tokens, NODE_OPTIONS,
	// NODE_PATH) reaches the package.
	cmd.Env = []string{}
	cmd.Stdin = strings.NewReader(nonce + "\n")
	stdout := &proc.Capped{Max: maxOutput}
	stderr := &proc.Capped{Max: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	proc.OwnGroup(cmd)
	proc.DieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return outcome{}, fmt.Errorf("starting %s: %w", s.node.path, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var out outcome
	select {
	case <-done:
	case <-runCtx.Done():
		proc.KillGroup(cmd)
		<-done
		if ctx.Err() != nil {
			return outcome{}, ctx.Err()
		}
		out.timedOut = true
	}
	proc.KillGroup(cmd) // anything the package left running
	parseReport(stdout.Bytes(), nonce, &out)
	if !out.timedOut && !out.require.Got() && !out.require.Threw {
		// The child died before it could say anything (a crash, an
		// exit the package forced): its stderr is the only account.
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = "the probe exited without a report"
		}
		return out, errors.New(lastLines(msg, 5))
	}
	return out, nil
}

// parseReport reads the nonce-prefixed lines; anything else the package
// printed is ignored.
func parseReport(stdout []byte, nonce string, out *outcome) {
	type step struct {
		Step   string            `json:"step"`
		Load   model.RuntimeLoad `json:"load"`
		Denied []string          `json:"denied"`
	}
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 64<<10), maxOutput)
	sawRequire, sawImport := false, false
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, nonce) {
			continue
		}
		var st step
		if json.Unmarshal([]byte(line[len(nonce):]), &st) != nil {
			continue
		}
		out.denied = st.Denied
		switch st.Step {
		case "require":
			out.require, sawRequire = st.Load, true
		case "import":
			out.imp, sawImport = st.Load, true
		case "error":
			if !sawRequire {
				out.require, sawRequire = st.Load, true
			} else {
				out.imp, sawImport = st.Load, true
			}
		}
	}
	unfinished := model.RuntimeLoad{Threw: true, Code: "UNFINISHED", Message: "the load never finished (a top-level await that never settles)"}
	if out.timedOut {
		unfinished = model.RuntimeLoad{TimedOut: true, Message: "still loading when the probe was killed"}
	}
	if !sawRequire {
		out.require = unfinished
		if !out.timedOut {
			out.require = model.RuntimeLoad{}
		}
	}
	if !sawImport && (sawRequire || out.timedOut) {
		out.imp = unfinished
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
