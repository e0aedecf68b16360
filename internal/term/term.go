// Package term owns what Uptide knows about the terminal it writes to: whether
// a stream is a TTY, whether color is allowed (NO_COLOR, --no-color, --ci),
// its width, and the live progress line drawn on stderr.
package term

import (
	"io"
	"os"
	"strconv"

	xterm "golang.org/x/term"

	"github.com/uptide/uptide/internal/environ"
)

// IsTTY reports whether the stream s (a reader or a writer) is a terminal:
// only an *os.File can be.
func IsTTY(s any) bool {
	f, ok := s.(*os.File)
	return ok && xterm.IsTerminal(int(f.Fd()))
}

// Settings is how output should look, decided once per run.
type Settings struct {
	// Color allows ANSI colors on stdout.
	Color bool
	// Progress allows a live progress line on stderr.
	Progress bool
	// Width is the width to lay tables out in.
	Width int
}

// Decide works out the settings from the flags, the environment and the
// streams: --ci and pipes get plain output and no progress; NO_COLOR and
// --no-color turn color off.
func Decide(stdout, stderr io.Writer, ci, noColor bool, env environ.Env) Settings {
	// Without a terminal nothing limits the width; 160 keeps lines readable.
	s := Settings{Width: 160}
	outTTY := IsTTY(stdout)
	_, noColorEnv := env.Lookup("NO_COLOR")
	s.Color = outTTY && !ci && !noColor && !noColorEnv && env.Get("TERM") != "dumb"
	s.Progress = IsTTY(stderr) && !ci
	if w := width(stdout); w > 0 {
		s.Width = w
	} else if c, err := strconv.Atoi(env.Get("COLUMNS")); err == nil && c > 20 {
		s.Width = c
	}
	return s
}

func width(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	c, _, err := xterm.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return c
}
