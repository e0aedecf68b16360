package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/internal/term"
	"github.com/uptide/uptide/tui"
)

// Globals are the flags every command shares.
type Globals struct {
	Cwd     string
	JSON    bool
	CI      bool
	NoColor bool
	Verbose bool

	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Env is the environment the commands read and give the children they
	// run (package managers, node, git); never the process's own.
	Env  Env
	Term term.Settings
	// planner builds the planner's engine (Factory.Planner).
	planner func(g *Globals, llm *LLMFlags) (tui.Engine, error)
	start   time.Time
	// enveloped is set once a --json envelope is on stdout: a run
	// prints one, never a second for an error after it.
	enveloped bool
}

// stopSignals all mean "stop": Ctrl-C, a CI cancellation, `timeout` and
// `docker stop` (SIGTERM), a closed terminal (SIGHUP). Each cancels the run
// the same way, so every child's process group is killed and fix keeps its
// clone and run record, where dying at once would orphan them.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// Main runs the command line of the process (its arguments, built into
// f by main) until a stop signal, and returns the process exit code.
func Main(f Factory, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	// A second signal has its default effect, ending uptide at once: the
	// way out of a run stuck where a cancellation cannot reach.
	context.AfterFunc(ctx, stop)
	return f.Run(ctx, args)
}

// Run runs the command line with the given arguments over f's streams and
// environment.
func (f Factory) Run(ctx context.Context, args []string) int {
	stdout, stderr := f.IO.Out, f.IO.Err
	g := &Globals{Stdin: f.IO.In, Stdout: stdout, Stderr: stderr, Env: f.Env, planner: f.Planner, start: time.Now()}
	root := newRoot(g)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	var s silentExit
	if errors.As(err, &s) {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "uptide: interrupted (%v)\n", context.Cause(ctx))
		}
		// The command rendered its result and keeps its code.
		return int(s)
	}
	code := exitCode(err)
	var msg string
	if ctx.Err() != nil {
		// Whatever failed after the cancellation failed because of it.
		code, msg = ExitIncomplete, fmt.Sprintf("interrupted (%v)", context.Cause(ctx))
	} else {
		// An error may carry what a child printed.
		msg = redact.FromEnv(g.Env).String(err.Error())
	}
	fmt.Fprintf(stderr, "uptide: %s\n", msg)
	if g.JSON && !g.enveloped {
		// A CI job parsing stdout gets the failure as an envelope, not
		// an empty stream; the message on stderr stays for a person.
		// uptide without a command prints list's envelope under --json.
		name := "list"
		if cmd != nil && cmd != root {
			name = cmd.Name()
		}
		_ = g.writeEnvelope(Envelope{SchemaVersion: SchemaVersion, Command: name, ExitCode: code, Error: msg})
	}
	return code
}

func newRoot(g *Globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "uptide",
		Short: "See what an npm dependency upgrade breaks in your code before you upgrade",
		Long: "Uptide lists the dependencies of a JavaScript/TypeScript repository, installed → available,\n" +
			"with the release groups that must move together and the companions an upgrade drags along.",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if g.Cwd == "" {
				wd, err := os.Getwd()
				if err != nil {
					return err
				}
				g.Cwd = wd
			}
			g.Term = term.Decide(g.Stdout, g.Stderr, g.CI, g.NoColor, g.Env)
			return nil
		},
	}
	root.CompletionOptions.DisableDefaultCmd = true
	f := root.PersistentFlags()
	f.StringVar(&g.Cwd, "cwd", "", "run as if started in `DIR`")
	f.BoolVar(&g.JSON, "json", false, "print one JSON envelope on stdout")
	f.BoolVar(&g.CI, "ci", false, "plain output: no color, no progress line")
	f.BoolVar(&g.NoColor, "no-color", false, "no color (NO_COLOR is honoured too)")
	f.BoolVar(&g.Verbose, "verbose", false, "phase timings on stderr")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError("%v", err) })

	llm := &LLMFlags{}
	llm.add(root.Flags())
	root.RunE = func(cmd *cobra.Command, _ []string) error { return runDefault(cmd, g, llm) }
	root.AddCommand(newListCmd(g), newDiffCmd(g), newCheckCmd(g), newPlanCmd(g), newFixCmd(g), newVerifyCmd(g), newCleanCmd(g), newPRBodyCmd(g), newBotPRCmd(g), newDemoCmd(g), newTUICmd(g))
	return root
}

// elapsed is the time since the run started, for headers and --verbose.
func (g *Globals) elapsed() time.Duration { return time.Since(g.start) }
