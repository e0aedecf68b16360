package typescript

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fakeDriver misbehaves on request, so the Go side's handling of a driver
// that crashes, hangs or answers garbage is tested against a real process.
const fakeDriver = `
const { spawn } = require('child_process');
const out = (m) => process.stdout.write(JSON.stringify(m) + '\n');
const rl = require('readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const r = JSON.parse(line);
  switch (r.method) {
    case 'hello': out({ id: r.id, result: { typescript: '0.0.0-fake' } }); break;
    case 'echo': out({ id: r.id, result: r.params }); break;
    case 'fail': out({ id: r.id, error: { code: 'NO_TYPES', message: 'nothing here' } }); break;
    case 'crash': process.stderr.write('FATAL: heap out of memory\n'); process.exit(3);
    case 'project': process.stderr.write('FATAL: heap out of memory\n'); process.exit(3);
    case 'slowcrash': setTimeout(() => { process.stderr.write('FATAL: heap out of memory\n'); process.exit(3); }, 300); break;
    case 'hang': setInterval(() => {}, 1000); break;
    case 'oom': { const keep = []; for (;;) keep.push(new Array(1 << 16).fill(keep.length)); }
    case 'throw': setTimeout(() => { throw new TypeError('Cannot read properties of undefined (reading \'kind\')'); }); break;
    case 'garbage': process.stdout.write('this is not json\n'); break;
    case 'wrongid': out({ id: r.id + 100, result: {} }); break;
    case 'empty': out({ id: r.id }); break;
    case 'progress': {
      // Five progress lines 100 ms apart, then the answer: longer in all
      // than the timeout, never silent for as long.
      let n = 0;
      const t = setInterval(() => {
        if (++n <= 5) { out({ id: r.id, progress: { done: n, total: 5 } }); return; }
        clearInterval(t);
        out({ id: r.id, result: { n: 5 } });
      }, 100);
      break;
    }
    case 'progress-wrongid': out({ id: r.id + 1, progress: { done: 1 } }); break;
    case 'child': {
      const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      out({ id: r.id, result: { pid: c.pid } });
      break;
    }
  }
});
rl.on('close', () => process.exit(0));
`

func startFake(t *testing.T) *proc { return startFakeHeap(t, DriverHeapMB) }

// startFakeHeap is the fake driver with a heap of heapMB.
func startFakeHeap(t *testing.T, heapMB int) *proc {
	t.Helper()
	requireNode(t)
	bin, _, err := findNode(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "fake.js")
	if err := os.WriteFile(script, []byte(fakeDriver), 0o644); err != nil {
		t.Fatal(err)
	}
	p, version, err := startProc(context.Background(), bin, script, "unused", 30*time.Second, heapMB)
	if err != nil {
		t.Fatal(err)
	}
	if version != "0.0.0-fake" {
		t.Fatalf("hello answered %q", version)
	}
	t.Cleanup(p.close)
	return p
}

func TestDriverFailures(t *testing.T) {
	tests := []struct {
		method   string
		timeout  time.Duration
		code     string
		contains string
	}{
		{method: "fail", code: "NO_TYPES", contains: "nothing here"},
		{method: "crash", code: CodeCrashed, contains: fmt.Sprintf("out of memory at its %d MB heap limit", DriverHeapMB)},
		{method: "throw", code: CodeCrashed, contains: "TypeError: Cannot read properties of undefined (reading 'kind')"},
		{method: "hang", timeout: 300 * time.Millisecond, code: CodeTimeout, contains: "no answer after 300ms"},
		{method: "garbage", code: CodeMalformed, contains: "this is not json"},
		{method: "wrongid", code: CodeMalformed, contains: "malformed answer"},
		{method: "empty", code: CodeMalformed, contains: "malformed answer"},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			p := startFake(t)
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 30 * time.Second
			}
			_, err := p.call(context.Background(), tt.method, nil, timeout, "left-pad@1.3.0")
			var de *DriverError
			if !errors.As(err, &de) {
				t.Fatalf("want a DriverError, got %v", err)
			}
			if de.Code != tt.code {
				t.Errorf("code %s, want %s (%v)", de.Code, tt.code, err)
			}
			if !strings.Contains(err.Error(), "left-pad@1.3.0") || !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %q should name the package and say %q", err, tt.contains)
			}
			if tt.code == "NO_TYPES" {
				// An answered error leaves the driver usable.
				if _, err := p.call(context.Background(), "echo", map[string]int{"x": 1}, timeout, "next"); err != nil {
					t.Errorf("driver unusable after an error answer: %v", err)
				}
				return
			}
			// Anything else leaves it stopped: later calls fail at once.
			if _, err := p.call(context.Background(), "echo", nil, timeout, "next@1.0.0"); err == nil || !strings.Contains(err.Error(), "stopped earlier") {
				t.Errorf("call after a %s: %v, want a 'stopped earlier' error", tt.method, err)
			}
		})
	}
}

// A driver that runs out of its heap dies at the limit it was given, and
// says so in one line naming the request's subject and the limit: none of
// V8's heap report or native stack.
func TestDriverOutOfMemoryInOneLine(t *testing.T) {
	p := startFakeHeap(t, 64)
	_, err := p.call(context.Background(), "oom", nil, time.Minute, "bombkit@2.0.0")
	var de *DriverError
	if !errors.As(err, &de) || de.Code != CodeCrashed {
		t.Fatalf("want a CRASHED DriverError, got %v", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "bombkit@2.0.0") || !strings.Contains(msg, "out of memory at its 64 MB heap limit") {
		t.Errorf("%q should name the package and the limit", msg)
	}
	if strings.Contains(msg, "\n") || strings.Contains(msg, "Last few GCs") || strings.Contains(msg, "node::") || len(msg) > 300 {
		t.Errorf("not one line:\n%s", msg)
	}
}

func TestHeapFlag(t *testing.T) {
	if flag, mb := heapFlag([]string{"PATH=/bin", "NODE_OPTIONS=--enable-source-maps"}, 4096); flag != "--max-old-space-size=4096" || mb != 4096 {
		t.Errorf("got %q %d", flag, mb)
	}
	if flag, mb := heapFlag([]string{"NODE_OPTIONS=--max-old-space-size=8192"}, 4096); flag != "" || mb != 0 {
		t.Errorf("NODE_OPTIONS's own limit should stand: got %q %d", flag, mb)
	}
}

func TestDriverEchoAndCancel(t *testing.T) {
	p := startFake(t)
	raw, err := p.call(context.Background(), "echo", map[string]string{"a": "b"}, 30*time.Second, "x")
	if err != nil || string(raw) != `{"a":"b"}` {
		t.Fatalf("echo: %s, %v", raw, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.call(ctx, "hang", nil, 30*time.Second, "y@1.0.0"); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("cancelled call: %v", err)
	}
}

// A request that reports progress is bounded by its silences, not its
// length; progress for another request is a malformed answer.
func TestDriverProgress(t *testing.T) {
	p := startFake(t)
	var got []string
	raw, err := p.callProgress(context.Background(), "progress", nil, 350*time.Millisecond, "zod@4.1.12", func(m json.RawMessage) {
		got = append(got, string(m))
	})
	if err != nil || string(raw) != `{"n":5}` {
		t.Fatalf("progress request: %s, %v", raw, err)
	}
	want := []string{`{"done":1,"total":5}`, `{"done":2,"total":5}`, `{"done":3,"total":5}`, `{"done":4,"total":5}`, `{"done":5,"total":5}`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("progress lines %v, want %v", got, want)
	}
	// Without a callback the lines are read and dropped.
	if _, err := p.call(context.Background(), "progress", nil, 30*time.Second, "x"); err != nil {
		t.Errorf("progress without a callback: %v", err)
	}
	_, err = p.call(context.Background(), "progress-wrongid", nil, 30*time.Second, "y@1.0.0")
	var de *DriverError
	if !errors.As(err, &de) || de.Code != CodeMalformed {
		t.Errorf("progress for another request: %v, want %s", err, CodeMalformed)
	}
}

func TestNodeVersion(t *testing.T) {
	tests := []struct {
		version string
		major   int
		ok      bool
	}{
		{"v20.11.1", 20, true},
		{"v18.0.0\n", 18, true},
		{"22", 22, true},
		{"vx.1", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		major, ok := nodeMajor(tt.version)
		if major != tt.major || ok != tt.ok {
			t.Errorf("nodeMajor(%q) = %d, %v; want %d, %v", tt.version, major, ok, tt.major, tt.ok)
		}
	}
}

func TestNodeMissingOrOld(t *testing.T) {
	t.Run("missing", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, _, err := findNode(context.Background())
		if !errors.Is(err, ErrNoNode) || !strings.Contains(err.Error(), "node 18 or newer is required on PATH") {
			t.Fatalf("got %v", err)
		}
		a := New(&Compiler{Dir: t.TempDir()}, Options{NoSurfaceCache: true})
		defer a.Close()
		if _, err := a.ExtractSurface(context.Background(), t.TempDir(), "x", "1.0.0"); !errors.Is(err, ErrNoNode) {
			t.Fatalf("ExtractSurface without node: %v", err)
		}
	})
	t.Run("too old", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "node"), []byte("#!/bin/sh\necho v16.20.2\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", dir)
		_, _, err := findNode(context.Background())
		if !errors.Is(err, ErrNoNode) || !strings.Contains(err.Error(), "v16.20.2") {
			t.Fatalf("got %v", err)
		}
	})
}

// A request waiting for another caller's request on a shared driver that
// crashes goes to a new driver instead of failing with it: Adapter.driver
// waits for the request in flight before it judges the process.
func TestAdapterRequestAfterAnotherCrashed(t *testing.T) {
	a := New(pinnedCompiler(t), Options{NoSurfaceCache: true})
	t.Cleanup(func() { a.Close() })
	a.proc = startFake(t)
	crashed := make(chan error, 1)
	go func() {
		var out any
		crashed <- a.call(context.Background(), "slowcrash", nil, "first", &out)
	}()
	time.Sleep(100 * time.Millisecond) // the crash request holds the driver
	var hello struct {
		TypeScript string `json:"typescript"`
	}
	if err := a.call(context.Background(), "hello", nil, "second", &hello); err != nil {
		t.Fatalf("the waiting request failed with the other's crash: %v", err)
	}
	if hello.TypeScript != PinnedVersion {
		t.Errorf("answered by %q, want a new driver of TypeScript %s", hello.TypeScript, PinnedVersion)
	}
	var de *DriverError
	if err := <-crashed; !errors.As(err, &de) || de.Code != CodeCrashed {
		t.Errorf("the crashing request: %v, want CRASHED", err)
	}
}

// An answer longer than a line may be stops the driver with a crash that
// says so, instead of growing uptide's memory with the line.
func TestDriverAnswerOverTheLimit(t *testing.T) {
	defer func(max int) { maxDriverLine = max }(maxDriverLine)
	maxDriverLine = 1 << 20
	p := startFake(t)
	_, err := p.call(context.Background(), "echo", map[string]string{"a": strings.Repeat("x", 2<<20)}, 30*time.Second, "big@1.0.0")
	var de *DriverError
	if !errors.As(err, &de) || de.Code != CodeCrashed || !strings.Contains(err.Error(), "longer than 1 MB") || !strings.Contains(err.Error(), "big@1.0.0") {
		t.Fatalf("an answer over the limit: %v, want a crash naming the limit and the subject", err)
	}
}
