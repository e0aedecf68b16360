package cli

import (
	"io"

	"github.com/uptide/uptide/internal/environ"
	"github.com/uptide/uptide/tui"
)

// Factory is what every command is built from: the streams, the
// environment and the planner's engine. main builds the process's; a test
// builds its own, so no command reads the process's streams or environment
// (HOME, the XDG and cache directories, NO_COLOR, TERM, COLUMNS, tokens,
// npm_config_*, PATH) and no test changes them.
type Factory struct {
	IO  IO
	Env Env
	// Planner builds the planner's engine over the repository g names,
	// its review queue over the provider llm chooses; nil builds the live
	// one (the engine, fix and the registry).
	Planner func(g *Globals, llm *LLMFlags) (tui.Engine, error)
}

// IO is the streams a command reads and writes. Whether one is a terminal
// is asked of the stream itself (term.IsTTY): only an *os.File can be, so
// a test's buffers never are.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// Env is the environment the commands read, in os.Environ's form; the
// children they run get it too.
type Env = environ.Env

// engineFor is the planner's engine: the factory's, else the live one.
func (g *Globals) engineFor(llm *LLMFlags) (tui.Engine, error) {
	if g.planner != nil {
		return g.planner(g, llm)
	}
	return newLive(g, llm)
}
