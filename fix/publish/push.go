package publish

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptide/uptide/fix"
)

// Push is verify --push: the gate (Blockers, the one fix --pr passes),
// then the verified commit pushed from dir (the private clone holding it)
// to the remote the checkout's branch tracks, else origin, else the
// checkout's only remote. Never forced: the remote takes it only as a
// fast-forward of its branch (or as a new branch). o.Dir is the checkout.
func Push(ctx context.Context, r *fix.Report, dir string, o Options) *fix.Publish {
	if bl := Blockers(r, o.Build); len(bl) > 0 {
		return &fix.Publish{Status: fix.PublishBlocked, Reason: strings.Join(bl, "; ")}
	}
	v := r.Verified
	name, err := pushRemote(ctx, o, v.Branch)
	if err != nil {
		return &fix.Publish{Status: fix.PublishFailed, Reason: o.Secrets.String(err.Error())}
	}
	// The clone has the checkout's remotes (their addresses, rewrites and
	// credential settings), and the commit.
	if err := push(ctx, Options{Dir: dir, Env: o.Env, Secrets: o.Secrets}, name, v.Sha, v.Branch); err != nil {
		return &fix.Publish{Status: fix.PublishFailed, Reason: o.Secrets.String(err.Error()) + " (nothing is ever force-pushed: pull the remote's commits into the branch, then verify again)",
			Remote: name, Branch: v.Branch, Sha: v.Sha}
	}
	return &fix.Publish{Status: fix.PublishPushed, Remote: name, Branch: v.Branch, Sha: v.Sha}
}

// pushRemote is the remote a branch of the checkout pushes to: the one it
// tracks, else origin, else the only one.
func pushRemote(ctx context.Context, o Options, branch string) (string, error) {
	if name, err := gitOut(ctx, o, "config", "--get", "branch."+branch+".remote"); err == nil && name != "" && name != "." {
		return name, nil
	}
	if name := fallbackRemote(ctx, o); name != "" {
		return name, nil
	}
	return "", fmt.Errorf("%s tracks no remote, and your checkout has no origin: nowhere to push (git branch --set-upstream-to names one)", branch)
}
