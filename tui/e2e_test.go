package tui_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmuxSession runs a command in a detached tmux session on a private
// server socket, so the test never touches the user's tmux.
type tmuxSession struct {
	t      *testing.T
	socket string
}

func startTmux(t *testing.T, width, height int, command string) *tmuxSession {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("the end-to-end test runs the real binary under tmux, which is not installed: apt-get install tmux")
	}
	s := &tmuxSession{t: t, socket: fmt.Sprintf("uptide-e2e-%d", os.Getpid())}
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	s.run("new-session", "-d", "-s", "e2e", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), command)
	return s
}

func (s *tmuxSession) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (s *tmuxSession) screen() string { return s.run("capture-pane", "-p", "-t", "e2e") }

// keys types keys one at a time, as a person does: keys arriving in one
// read reach Bubble Tea as one message ("jjj"), which no binding matches.
func (s *tmuxSession) keys(keys ...string) {
	for _, k := range keys {
		s.run("send-keys", "-t", "e2e", k)
		time.Sleep(100 * time.Millisecond)
	}
}

// waitFor polls the screen until it shows text; the deadline only turns a
// hang into a failure.
func (s *tmuxSession) waitFor(text string) string {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		screen := s.screen()
		if strings.Contains(screen, text) {
			return screen
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waiting for %q; the screen is:\n%s", text, screen)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestEndToEndDemo runs `uptide demo` as a user would, in a terminal.
func TestEndToEndDemo(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "uptide")
	build := exec.Command("go", "build", "-o", bin, "github.com/uptide/uptide/cmd/uptide")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	s := startTmux(t, 100, 30, fmt.Sprintf("%q demo; echo \"uptide exited $?\"; sleep 60", bin))

	home := s.waitFor(" behind, ")
	if !strings.Contains(home, "▾ react (2 packages)") || !strings.Contains(home, "INSTALLED → TARGET") {
		t.Fatalf("the home screen lacks the react group:\n%s", home)
	}

	s.keys("j", "j", "j", "Enter") // the ai group's lead, ai
	details := s.waitFor("Companions")
	if !strings.Contains(details, "ai 3.4.0 → 4.0.0") || !strings.Contains(details, "Release group ai (3 packages)") {
		t.Fatalf("details of ai expected:\n%s", details)
	}

	s.keys("Escape")
	s.waitFor("INSTALLED → TARGET")

	s.keys("g", "Space", "c")
	s.waitFor("not analyzed: check is not")

	s.keys("q")
	s.waitFor("uptide exited 0")
}
