package typescript

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// minNodeMajor is the oldest Node the driver runs on.
const minNodeMajor = 18

// ErrNoNode is returned when node is missing from PATH or too old.
var ErrNoNode = errors.New("node 18 or newer is required on PATH")

// findNode returns the node executable and its version, or an error wrapping
// ErrNoNode that says what was found.
func findNode(ctx context.Context) (string, string, error) {
	bin, err := exec.LookPath("node")
	if err != nil {
		return "", "", fmt.Errorf("%w (node not found)", ErrNoNode)
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return "", "", fmt.Errorf("%w (%s --version failed: %v)", ErrNoNode, bin, err)
	}
	version := strings.TrimSpace(string(out))
	major, ok := nodeMajor(version)
	if !ok {
		return "", "", fmt.Errorf("%w (%s --version printed %q)", ErrNoNode, bin, version)
	}
	if major < minNodeMajor {
		return "", "", fmt.Errorf("%w (found %s at %s)", ErrNoNode, version, bin)
	}
	return bin, version, nil
}

// nodeMajor parses "v20.11.1".
func nodeMajor(v string) (int, bool) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	head, _, _ := strings.Cut(v, ".")
	if head == "" || strings.Trim(head, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(head)
	return n, err == nil
}
