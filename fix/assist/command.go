package assist

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptide/uptide/internal/proc"
	"github.com/uptide/uptide/internal/redact"
)

// Command is --llm-cmd: any other tool, run once per call with the
// Request as JSON on its stdin, answering a Reply as JSON on its stdout
// ({"text", "inputTokens", "outputTokens", "cost"}). The command is a
// program and its arguments split on spaces, run directly, never through
// a shell (no quoting, no expansion): a wrapper script is the way to
// anything more. It inherits the environment, so it can read its own
// keys, except the registry's credentials, which it has no use for; the
// cost it reports is charged to the budget. Its reply is read up to the
// same 8 MB as an HTTP provider's, what it says on stderr up to 64 KB, and
// every secret Uptide knows is masked in what it printed before that
// enters an error.
type Command struct {
	Argv []string
	Env  []string
	// Secrets are masked in its output and their withheld values kept
	// out of its environment.
	Secrets *redact.Secrets
	// Timeout bounds one run; 0 is five minutes.
	Timeout time.Duration
}

// maxStderr bounds what is kept of a command's stderr: an error shows
// its start.
const maxStderr = 64 << 10

// ParseCommand splits --llm-cmd's value.
func ParseCommand(s string, env []string, secrets *redact.Secrets) (*Command, error) {
	argv := strings.Fields(s)
	if len(argv) == 0 {
		return nil, errors.New("--llm-cmd is empty: give a program (and its arguments) that reads the request JSON on stdin")
	}
	return &Command{Argv: argv, Env: env, Secrets: secrets}, nil
}

// Name implements Provider.
func (c *Command) Name() string { return "command " + filepath.Base(c.Argv[0]) }

// Reserve implements Provider: the command's price is its own; it
// reports the cost of each call, which is charged.
func (c *Command) Reserve(Request) float64 { return 0 }

// Complete implements Provider.
func (c *Command) Complete(ctx context.Context, req Request) (Reply, error) {
	in, err := json.Marshal(req)
	if err != nil {
		return Reply{}, err
	}
	limit := c.Timeout
	if limit == 0 {
		limit = callTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Env = c.Secrets.Env(c.Env)
	cmd.Stdin = bytes.NewReader(in)
	// A reply past the cap is no reply: the command is stopped there
	// rather than read to its end.
	out := &proc.Capped{Max: maxBody, OnExceed: cancel}
	stderr := &proc.Capped{Max: maxStderr}
	cmd.Stdout, cmd.Stderr = out, stderr
	cmd.WaitDelay = 5 * time.Second
	// Its own process group, killed whole on a timeout or a cancel: a
	// wrapper script's children do not outlive it.
	proc.OwnGroup(cmd)
	cmd.Cancel = func() error { proc.KillGroup(cmd); return nil }
	err = cmd.Run()
	proc.KillGroup(cmd) // anything it left behind
	if out.Exceeded() {
		return Reply{}, fmt.Errorf("--llm-cmd %s: its reply is larger than %d MB, the limit of one reply: make it print only the reply JSON on stdout", c.Argv[0], maxBody>>20)
	}
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return Reply{}, fmt.Errorf("--llm-cmd %s did not answer within %v", c.Argv[0], limit)
		}
		// Masked before it is clipped, so no part of a secret is shown.
		return Reply{}, fmt.Errorf("--llm-cmd %s: %v: %s", c.Argv[0], err, clipText(c.Secrets.String(stderr.String()), 300))
	}
	var r Reply
	dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Reply{}, fmt.Errorf("--llm-cmd %s: its stdout is not the reply JSON {\"text\", \"inputTokens\", \"outputTokens\", \"cost\"}: %s", c.Argv[0], c.Secrets.String(err.Error()))
	}
	if r.Cost < 0 {
		return Reply{}, fmt.Errorf("--llm-cmd %s: a negative cost (%v)", c.Argv[0], r.Cost)
	}
	return r, nil
}
