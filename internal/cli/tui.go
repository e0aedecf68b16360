package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"

	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/internal/term"
	"github.com/uptide/uptide/tui"
)

// TUIOptions are the inputs of `uptide tui`.
type TUIOptions struct {
	*Globals
	// LLM chooses the provider behind the review queue's proposals.
	LLM LLMFlags
}

func newTUICmd(g *Globals) *cobra.Command {
	o := &TUIOptions{Globals: g}
	cmd := &cobra.Command{
		Use:   "tui",
		Short: "The interactive planner (what `uptide` opens in a terminal)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if ok, why := interactive(o.Globals); !ok {
				return usageError("the planner needs a terminal: %s; run uptide list instead", why)
			}
			eng, err := o.engineFor(&o.LLM)
			if err != nil {
				return err
			}
			return runTUI(cmd.Context(), o.Globals, eng)
		},
	}
	o.LLM.add(cmd.Flags())
	return cmd
}

// newLive is the planner's engine, its review queue over the provider
// the flags choose.
func newLive(g *Globals, llm *LLMFlags) (*tui.Live, error) {
	secrets := redact.FromEnv(g.Env)
	p, err := llm.provider(g.Env, secrets)
	if err != nil {
		return nil, err
	}
	return &tui.Live{Cwd: g.Cwd, Env: g.Env, Secrets: secrets, NewQueue: queueHook(p, llm.MaxCost, g.Cwd, g.Env)}, nil
}

// runDefault is `uptide` without a command: the planner in a terminal,
// otherwise the list, saying why on stderr.
func runDefault(cmd *cobra.Command, g *Globals, llm *LLMFlags) error {
	ok, why := interactive(g)
	if ok {
		eng, err := g.engineFor(llm)
		if err != nil {
			return err
		}
		return runTUI(cmd.Context(), g, eng)
	}
	if !g.JSON {
		fmt.Fprintf(g.Stderr, "uptide: %s, so printing the list (uptide tui opens the planner in a terminal)\n", why)
	}
	return runList(cmd, &ListOptions{Globals: g})
}

// interactive reports whether the planner can run: stdin and stdout are
// terminals and neither --json nor --ci asks for plain output; otherwise
// it says why not.
func interactive(g *Globals) (bool, string) {
	switch {
	case g.JSON:
		return false, "--json asks for JSON"
	case g.CI:
		return false, "--ci asks for plain output"
	case !term.IsTTY(g.Stdout):
		return false, "stdout is not a terminal"
	case !term.IsTTY(g.Stdin):
		return false, "stdin is not a terminal"
	}
	return true, ""
}

// quitGrace bounds how long quitting waits for the engine calls in flight
// to honour their cancelled context.
const quitGrace = 5 * time.Second

// runTUI runs the planner full-screen until the user quits.
func runTUI(ctx context.Context, g *Globals, eng tui.Engine) error {
	out, ok := g.Stdout.(*os.File)
	if !ok {
		return errors.New("the planner needs stdout to be a terminal")
	}
	r := lipgloss.NewRenderer(out)
	if !g.Term.Color {
		r.SetColorProfile(termenv.Ascii)
	}
	// Ask the terminal for its background before Bubble Tea owns stdin,
	// so the answer is not read as keys.
	r.HasDarkBackground()
	app := tui.New(tui.Options{Engine: eng, Context: ctx, Renderer: r})
	p := tea.NewProgram(app, tea.WithAltScreen(), tea.WithContext(ctx), tea.WithOutput(out), tea.WithInput(g.Stdin))
	_, err := p.Run()
	if !app.Wait(quitGrace) {
		fmt.Fprintf(g.Stderr, "uptide: background work did not stop within %v\n", quitGrace)
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // interrupted: a normal way out
	}
	return err
}
