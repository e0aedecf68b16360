package cli

import (
	"errors"
	"fmt"
)

// Exit codes, the same for every command.
const (
	// ExitOK: nothing breaking, or success.
	ExitOK = 0
	// ExitBreaking: breaking findings (check) or failed verification (fix).
	ExitBreaking = 1
	// ExitIncomplete: bad arguments, an error, or an incomplete analysis.
	ExitIncomplete = 2
)

// exitError carries an exit code up to Main with the message to print.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageError is a bad invocation: exit 2 with the message.
func usageError(format string, args ...any) error {
	return &exitError{code: ExitIncomplete, err: fmt.Errorf(format, args...)}
}

// exitCode is the code an error returned by a command maps to.
func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return ExitIncomplete
}

// silentExit ends the run with a code and nothing more to say: the command
// already rendered its result.
type silentExit int

func (s silentExit) Error() string { return fmt.Sprintf("exit %d", int(s)) }
