package tui_test

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// waitLimit only turns a hang into a failure; under -race on a loaded
// two-core machine the first frame alone can take seconds.
const waitLimit = 90 * time.Second

// ptyTerm runs a program on a pseudo-terminal and keeps an emulated screen
// of what it draws, so a test sees what a person would, without tmux or any
// other program the machine might lack.
type ptyTerm struct {
	t    testing.TB
	cmd  *exec.Cmd
	ptmx *os.File

	mu  sync.Mutex
	emu *vt.Emulator

	// drawn receives a token after each chunk of output reaches the screen.
	drawn chan struct{}
	// drained is closed when the program's output has ended.
	drained chan struct{}
	// exited is closed when the program has exited; waitErr is then set.
	exited  chan struct{}
	waitErr error
	// limit, when set, replaces waitLimit: a wait that spans a whole fix
	// run needs longer.
	limit time.Duration
}

// startPTY starts bin on a width×height terminal with only env as its
// environment.
func startPTY(t testing.TB, width, height int, env []string, bin string, args ...string) *ptyTerm {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(width), Rows: uint16(height)})
	if err != nil {
		t.Fatalf("starting %s on a pseudo-terminal: %v", bin, err)
	}
	p := &ptyTerm{
		t: t, cmd: cmd, ptmx: ptmx,
		emu:     vt.NewEmulator(width, height),
		drawn:   make(chan struct{}, 1),
		drained: make(chan struct{}),
		exited:  make(chan struct{}),
	}
	go p.draw()
	go p.answer()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(p.stop)
	return p
}

// draw feeds the program's output to the emulated screen until the
// terminal closes (EIO on Linux once the program has exited).
func (p *ptyTerm) draw() {
	defer close(p.drained)
	buf := make([]byte, 32*1024)
	for {
		n, err := p.ptmx.Read(buf)
		if n > 0 {
			p.mu.Lock()
			_, _ = p.emu.Write(buf[:n])
			p.mu.Unlock()
			select {
			case p.drawn <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// answer sends the emulator's replies to the program's queries (cursor
// position, background color) back as a terminal would: the program waits
// for them, and the emulator blocks until they are read.
func (p *ptyTerm) answer() {
	buf := make([]byte, 1024)
	for {
		n, err := p.emu.Read(buf)
		if n > 0 {
			if _, werr := p.ptmx.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// stop kills the program if it still runs and releases the terminal.
func (p *ptyTerm) stop() {
	select {
	case <-p.exited:
	default:
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
	_ = p.ptmx.Close()
	select {
	case <-p.drained:
	case <-time.After(waitLimit):
		p.t.Errorf("the terminal's output did not end after the program exited")
	}
	// Ends answer; Emulator.Close would race with its Read.
	if c, ok := p.emu.InputPipe().(io.Closer); ok {
		_ = c.Close()
	}
}

// screen is the emulated screen, one line per row, trailing spaces trimmed.
func (p *ptyTerm) screen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Split(p.emu.String(), "\n")
}

// keyBytes are what a terminal sends for the keys the test presses.
var keyBytes = map[string]string{"Enter": "\r", "Escape": "\x1b", "Space": " ", "PageDown": "\x04"}

// press types one key and waits until the screen shows it took effect:
// keys arriving in one read reach Bubble Tea as one message ("jjj"), which
// no binding matches, so the next key must not be sent before this one was
// handled.
func (p *ptyTerm) press(key, what string, done func(screen []string) bool) []string {
	p.t.Helper()
	b, ok := keyBytes[key]
	if !ok {
		b = key
	}
	if _, err := p.ptmx.WriteString(b); err != nil {
		p.t.Fatalf("typing %s: %v", key, err)
	}
	return p.waitUntil(what+" after "+key, done)
}

// waitFor waits until the screen shows text.
func (p *ptyTerm) waitFor(text string) []string {
	p.t.Helper()
	return p.waitUntil(strings.TrimSpace(text), func(screen []string) bool {
		return strings.Contains(strings.Join(screen, "\n"), text)
	})
}

// waitUntil re-reads the screen each time output arrives until done
// accepts it; it fails at once if the program exits first.
func (p *ptyTerm) waitUntil(what string, done func(screen []string) bool) []string {
	p.t.Helper()
	limit := waitLimit
	if p.limit > 0 {
		limit = p.limit
	}
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for {
		screen := p.screen()
		if done(screen) {
			return screen
		}
		select {
		case <-p.drawn:
		case <-p.exited:
			select {
			case <-p.drained:
			case <-time.After(waitLimit):
			}
			if screen := p.screen(); done(screen) {
				return screen
			}
			p.t.Fatalf("waiting for %s, the program exited (%v); the screen is:\n%s", what, p.waitErr, strings.Join(p.screen(), "\n"))
		case <-deadline.C:
			p.t.Fatalf("waiting for %s, nothing came within %v; the screen is:\n%s", what, limit, strings.Join(p.screen(), "\n"))
		}
	}
}

// exitCode waits for the program to exit and returns its exit code.
func (p *ptyTerm) exitCode() int {
	p.t.Helper()
	select {
	case <-p.exited:
	case <-time.After(waitLimit):
		p.t.Fatalf("the program did not exit within %v; the screen is:\n%s", waitLimit, strings.Join(p.screen(), "\n"))
	}
	var exit *exec.ExitError
	if p.waitErr != nil && !errors.As(p.waitErr, &exit) {
		p.t.Fatalf("waiting for the program: %v", p.waitErr)
	}
	return p.cmd.ProcessState.ExitCode()
}
