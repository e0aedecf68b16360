package typescript

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptide/uptide/internal/cache"
	subproc "github.com/uptide/uptide/internal/proc"
)

// DriverError is an error the driver answered with, or a failure of the
// driver process itself, always naming what it was working on.
type DriverError struct {
	// Subject is what the request was about ("zod@4.1.12", a directory).
	Subject string
	Method  string
	// Code is the driver's (NO_TYPES, BAD_REQUEST, INTERNAL, TOO_LARGE) or one of
	// CRASHED, TIMEOUT, MALFORMED for failures of the process.
	Code    string
	Message string
}

func (e *DriverError) Error() string {
	return fmt.Sprintf("TypeScript driver, %s of %s: %s", e.Method, e.Subject, e.Message)
}

// Process failure codes.
const (
	CodeCrashed   = "CRASHED"
	CodeTimeout   = "TIMEOUT"
	CodeMalformed = "MALFORMED"
)

// proc is one running driver. Requests are serialized: node answers them one
// at a time anyway, and a serial protocol makes a malformed or missing answer
// attributable to exactly one request.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	quit   chan struct{}
	exited chan struct{}
	stderr *tailBuffer
	heapMB int // the heap limit it was given, 0 for NODE_OPTIONS's

	waitErr  error       // set before exited is closed
	maxLine  int         // maxDriverLine when it started
	overlong atomic.Bool // the reader stopped it at maxLine

	mu     sync.Mutex
	nextID int64
	broken error
}

type request struct {
	ID     int64  `json:"id"`
	Method string `json:"method"`
	Params any    `json:"params"`
}

type response struct {
	ID     *int64          `json:"id"`
	Result json.RawMessage `json:"result"`
	// Progress is set on the lines a long request sends before its answer.
	Progress json.RawMessage `json:"progress"`
	Error    *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// DriverHeapMB bounds the driver's main heap, where the compiler holds the
// programs of a run: what tsc gets by default on a large machine, named, so
// a runaway program ends at a known limit and says which. A user who gives
// node more (--max-old-space-size in NODE_OPTIONS, for a monorepo that
// needs it) keeps that instead.
const DriverHeapMB = 4096

// heapFlag is the --max-old-space-size flag the driver runs with and the
// limit it sets (0: NODE_OPTIONS sets its own, which stands).
func heapFlag(env []string, mb int) (string, int) {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "NODE_OPTIONS="); ok && strings.Contains(v, "--max-old-space-size") {
			return "", 0
		}
	}
	return fmt.Sprintf("--max-old-space-size=%d", mb), mb
}

// startProc runs `node main.js typescript.js` with a heap of heapMB and
// waits for its hello. V8's heap flag is process-wide and would override
// each comparison worker's own limit (compare_pool.js), which is what
// bounds a runaway relation check: main.js clears it once its own heap is
// sized, before any worker starts.
func startProc(ctx context.Context, nodeBin, mainJS, typescriptJS string, timeout time.Duration, heapMB int) (*proc, string, error) {
	env := os.Environ()
	// Node 22.1+ keeps compiled code here, which saves most of the time
	// spent compiling the 9 MB compiler on every start; older nodes ignore it.
	if dir, err := cache.Dir("driver", "compile-cache"); err == nil {
		env = append(env, "NODE_COMPILE_CACHE="+dir)
	}
	flag, limit := heapFlag(env, heapMB)
	args := []string{mainJS, typescriptJS}
	if flag != "" {
		args = append([]string{flag}, args...)
	}
	cmd := exec.Command(nodeBin, args...)
	cmd.Env = env
	subproc.OwnGroup(cmd)
	subproc.DieWithParent(cmd)
	p := &proc{
		cmd:     cmd,
		heapMB:  limit,
		lines:   make(chan []byte),
		quit:    make(chan struct{}),
		exited:  make(chan struct{}),
		stderr:  &tailBuffer{max: 16 << 10},
		maxLine: maxDriverLine,
	}
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, "", err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	p.stdin = stdin
	if err := cmd.Start(); err != nil {
		return nil, "", fmt.Errorf("start the TypeScript driver: %w", err)
	}
	go p.read(stdout)
	var hello struct {
		TypeScript string `json:"typescript"`
	}
	raw, err := p.call(ctx, "hello", nil, timeout, typescriptJS)
	if err == nil {
		err = json.Unmarshal(raw, &hello)
	}
	if err != nil {
		p.close()
		return nil, "", err
	}
	return p, hello.TypeScript, nil
}

// maxDriverLine bounds one line of the driver's answers: the largest real
// surface (googleapis, 168 MB of declarations) answers in far less, and a
// line without end would otherwise grow uptide's memory with it.
var maxDriverLine = 512 << 20

func (p *proc) read(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 1<<20)
	for {
		line, err := readLine(r, p.maxLine)
		if errors.Is(err, errLineTooLong) {
			p.overlong.Store(true)
			subproc.KillGroup(p.cmd)
			_, _ = io.Copy(io.Discard, r)
			break
		}
		if len(bytes.TrimSpace(line)) > 0 {
			select {
			case p.lines <- line:
			case <-p.quit:
				_, _ = io.Copy(io.Discard, r)
				err = io.EOF
			}
		}
		if err != nil {
			break
		}
	}
	p.waitErr = p.cmd.Wait()
	close(p.exited)
}

var errLineTooLong = errors.New("line too long")

// readLine reads up to and including the next newline, or fails with
// errLineTooLong once the line passes max bytes (what was read of it is
// dropped).
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// call sends one request and waits for its answer, the timeout, or ctx. On
// anything but an answer the process is killed: its state is unknown.
func (p *proc) call(ctx context.Context, method string, params any, timeout time.Duration, subject string) (json.RawMessage, error) {
	return p.callProgress(ctx, method, params, timeout, subject, nil)
}

// callProgress is call for a request that reports progress: each progress
// line goes to onProgress and restarts the timeout, which then bounds the
// silence between two lines rather than the whole request.
func (p *proc) callProgress(ctx context.Context, method string, params any, timeout time.Duration, subject string, onProgress func(json.RawMessage)) (json.RawMessage, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fail := func(code, msg string) error {
		err := &DriverError{Subject: subject, Method: method, Code: code, Message: msg}
		p.broken = err
		p.kill()
		return err
	}
	if p.broken != nil {
		return nil, &DriverError{Subject: subject, Method: method, Code: CodeCrashed, Message: "the driver stopped earlier: " + p.broken.Error()}
	}
	p.nextID++
	id := p.nextID
	body, err := json.Marshal(request{ID: id, Method: method, Params: params})
	if err != nil {
		return nil, err
	}
	body = append(body, '\n')
	written := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(body)
		written <- err
	}()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case err := <-written:
			if err != nil {
				<-p.exited
				return nil, fail(CodeCrashed, "the driver stopped reading requests: "+p.exitText())
			}
			written = nil
		case line := <-p.lines:
			var resp response
			err := json.Unmarshal(line, &resp)
			if err == nil && resp.ID != nil && *resp.ID == id && resp.Progress != nil && resp.Error == nil && resp.Result == nil {
				if onProgress != nil {
					onProgress(resp.Progress)
				}
				// Since Go 1.23 a reset timer never delivers a stale tick.
				timer.Reset(timeout)
				continue
			}
			if err != nil || resp.ID == nil || *resp.ID != id || (resp.Error == nil && resp.Result == nil) {
				return nil, fail(CodeMalformed, fmt.Sprintf("malformed answer %q", truncate(string(line), 200)))
			}
			if resp.Error != nil {
				return nil, &DriverError{Subject: subject, Method: method, Code: resp.Error.Code, Message: resp.Error.Message}
			}
			return resp.Result, nil
		case <-p.exited:
			return nil, fail(CodeCrashed, "the driver exited: "+p.exitText())
		case <-timer.C:
			return nil, fail(CodeTimeout, fmt.Sprintf("no answer after %s; the driver was stopped", timeout))
		case <-ctx.Done():
			return nil, fail(CodeCrashed, "cancelled: "+ctx.Err().Error())
		}
	}
}

// exitText is how the driver ended, in one line: its exit status and what
// its stderr says of the cause, never the dump itself (V8's heap report
// and native stack when it runs out of memory, a JavaScript stack).
func (p *proc) exitText() string {
	msg := "unknown exit"
	select {
	case <-p.exited:
		if p.waitErr != nil {
			msg = p.waitErr.Error()
		} else {
			msg = "exit status 0"
		}
	default:
	}
	if p.overlong.Load() {
		return fmt.Sprintf("it printed an answer longer than %d MB, the limit of one answer, and was stopped", p.maxLine>>20)
	}
	if cause := crashCause(p.stderr.String(), p.heapMB); cause != "" {
		msg += "; " + cause
	}
	return msg
}

// crashCause is the one line of a dying node's stderr that says why: out
// of memory (with the heap limit), else the first error line, else the
// last line that is not part of a stack.
func crashCause(stderr string, heapMB int) string {
	if strings.Contains(stderr, "heap out of memory") || strings.Contains(stderr, "Reached heap limit") {
		if heapMB == 0 {
			return "out of memory at the heap limit NODE_OPTIONS sets"
		}
		return fmt.Sprintf("out of memory at its %d MB heap limit", heapMB)
	}
	last := ""
	for _, line := range strings.Split(stderr, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "", strings.HasPrefix(line, "at "), strings.HasPrefix(line, "Node.js v"), strings.Trim(line, "^ ") == "":
			continue
		case errorLine.MatchString(line):
			return truncate(line, 300)
		}
		last = line
	}
	return truncate(last, 300)
}

// errorLine is how node prints an uncaught error or a fatal one.
var errorLine = regexp.MustCompile(`^(?:[A-Z]\w*Error\b|FATAL\b|Error\b)`)

func (p *proc) kill() {
	subproc.KillGroup(p.cmd)
	select {
	case <-p.quit:
	default:
		close(p.quit)
	}
}

// close ends the driver: stdin closed first so it can exit on its own, then
// its process group killed so nothing it started outlives it.
func (p *proc) close() {
	_ = p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(time.Second):
	}
	p.kill()
	<-p.exited
}

// tailBuffer keeps the last max bytes written: the end of a crashing
// driver's stderr is what explains it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

var errClosed = errors.New("the TypeScript adapter is closed")
