package publish

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
)

// Repo is a GitHub repository named by a remote's address.
type Repo struct {
	Host, Owner, Name string
}

// ParseRemote reads owner and repository from a remote's address:
// https://host/owner/repo(.git), ssh://git@host/owner/repo.git and
// git@host:owner/repo.git. A local path names no GitHub repository.
func ParseRemote(remote string) (Repo, error) {
	var host, path string
	if u, err := url.Parse(remote); err == nil && u.Scheme != "" && u.Host != "" {
		host, path = u.Hostname(), u.Path
	} else if at, rest, ok := strings.Cut(remote, ":"); ok && !strings.Contains(at, "/") && len(at) > 1 {
		// scp-like: [user@]host:owner/repo
		if _, h, ok := strings.Cut(at, "@"); ok {
			at = h
		}
		host, path = at, rest
	}
	parts := strings.Split(strings.TrimSuffix(strings.Trim(path, "/"), ".git"), "/")
	if host == "" || len(parts) < 2 || parts[len(parts)-2] == "" || parts[len(parts)-1] == "" {
		return Repo{}, fmt.Errorf("%s is not the address of a GitHub repository (https://github.com/owner/repo or git@github.com:owner/repo)", remote)
	}
	return Repo{Host: host, Owner: parts[len(parts)-2], Name: parts[len(parts)-1]}, nil
}

type remote struct{ name, url string }

// target is where the pull request goes: the remote and branch the
// checkout's current branch tracks, else origin (or the only remote) and
// the current branch's name. The branch fix made starts from there.
func target(ctx context.Context, o Options) (remote, string, error) {
	branch, err := gitOut(ctx, o, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		return remote{}, "", fmt.Errorf("your checkout is on no branch (detached HEAD): no base for the pull request")
	}
	name, _ := gitOut(ctx, o, "config", "--get", "branch."+branch+".remote")
	base := branch
	if merge, err := gitOut(ctx, o, "config", "--get", "branch."+branch+".merge"); err == nil && name != "" && name != "." {
		base = strings.TrimPrefix(merge, "refs/heads/")
	} else {
		if name = fallbackRemote(ctx, o); name == "" {
			return remote{}, "", fmt.Errorf("your checkout's branch %s tracks no remote, and it has no origin: nowhere to push (git branch --set-upstream-to names one)", branch)
		}
	}
	r, err := remoteNamed(ctx, o, name)
	return r, base, err
}

// remoteNamed is the remote with its address as configured, not as
// insteadOf rewrites it: the configured one names the repository.
func remoteNamed(ctx context.Context, o Options, name string) (remote, error) {
	u, err := gitOut(ctx, o, "config", "--get", "remote."+name+".pushurl")
	if err != nil || u == "" {
		if u, err = gitOut(ctx, o, "config", "--get", "remote."+name+".url"); err != nil || u == "" {
			return remote{}, fmt.Errorf("remote %s has no address", name)
		}
	}
	return remote{name: name, url: u}, nil
}

// fallbackRemote is the remote of a branch that tracks none: origin, else
// the checkout's only remote; "" when there is no such one.
func fallbackRemote(ctx context.Context, o Options) string {
	names, _ := gitOut(ctx, o, "remote")
	list := strings.Fields(names)
	for _, n := range list {
		if n == "origin" {
			return n
		}
	}
	if len(list) == 1 {
		return list[0]
	}
	return ""
}

// push sends the verified commit to the remote's branch: that commit and
// not whatever the local ref points at now, never forced, and with the
// repository's hooks off (no script of the user's runs).
func push(ctx context.Context, o Options, remote, sha, branch string) error {
	hooks, err := os.MkdirTemp("", "uptide-hooks-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(hooks)
	if _, err := gitOut(ctx, o, "-c", "core.hooksPath="+hooks, "push", "--quiet", remote, sha+":refs/heads/"+branch); err != nil {
		return fmt.Errorf("pushing %s to %s: %w", branch, remote, err)
	}
	return nil
}

// gitOut runs git in the checkout, without prompting for anything.
func gitOut(ctx context.Context, o Options, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", o.Dir}, args...)...)
	cmd.Env = append(append([]string{}, o.Env...), "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
			return "", fmt.Errorf("git %s: %s", args[0], o.Secrets.String(strings.TrimSpace(string(ee.Stderr))))
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
