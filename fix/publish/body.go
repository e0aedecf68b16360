package publish

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/uptide/uptide/fix"
)

// Updated is the status of a description replaced by UpdateBody.
const Updated = "updated"

// Pull is what uptide reads of a pull request, from GitHub's API or from a
// workflow's pull_request event (botpr).
type Pull struct {
	Number  int    `json:"number"`
	HTMLURL string `json:"html_url"`
	Body    string `json:"body"`
	User    struct {
		Login string `json:"login"`
	} `json:"user"`
	Head, Base struct {
		Ref  string `json:"ref"`
		Sha  string `json:"sha"`
		Repo *struct {
			FullName string `json:"full_name"`
		} `json:"repo"`
	}
}

// HeadRepo is the full name of the repository the head branch is in; ""
// when its fork was deleted.
func (p Pull) HeadRepo() string {
	if p.Head.Repo == nil {
		return ""
	}
	return p.Head.Repo.FullName
}

// BaseRepo is the full name of the repository the pull request goes to.
func (p Pull) BaseRepo() string {
	if p.Base.Repo == nil {
		return ""
	}
	return p.Base.Repo.FullName
}

// UpdateBody replaces the description of the run's pull request with
// body (the run's stored pr-body.md). The run passes the gate first; then
// the pull request must be the run's: open on the checkout's remote's
// repository, its head the run's branch in that same repository, at the
// commit the run verified. A pull request whose head moved since is
// described by no run yet, and keeps its description.
func UpdateBody(ctx context.Context, r *fix.Report, body string, o Options) *fix.Publish {
	if bl := Blockers(r, o.Build); len(bl) > 0 {
		return &fix.Publish{Status: fix.PublishBlocked, Reason: strings.Join(bl, "; ")}
	}
	rem, _, err := target(ctx, o)
	var c github
	if err == nil {
		c, err = connect(ctx, o, rem)
	}
	if err != nil {
		return &fix.Publish{Status: fix.PublishFailed, Reason: o.Secrets.String(err.Error())}
	}
	branch, sha := r.Checkout.Branch, r.Checkout.Sha
	var pulls []Pull
	q := "/pulls?state=open&per_page=100&head=" + url.QueryEscape(c.repo.Owner+":"+branch)
	if err := c.do(ctx, http.MethodGet, q, nil, http.StatusOK, &pulls); err != nil {
		return &fix.Publish{Status: fix.PublishFailed, Reason: o.Secrets.String("finding the pull request: " + err.Error())}
	}
	full := c.repo.Owner + "/" + c.repo.Name
	var p *Pull
	for i := range pulls {
		if pulls[i].Head.Ref == branch && pulls[i].HeadRepo() == full {
			p = &pulls[i]
		}
	}
	if p == nil {
		return &fix.Publish{Status: fix.PublishFailed, Reason: fmt.Sprintf("%s has no open pull request of the run's branch %s (uptide fix --pr opens one)", full, branch)}
	}
	if p.Head.Sha != sha {
		return &fix.Publish{Status: fix.PublishBlocked, URL: p.HTMLURL, Reason: fmt.Sprintf("the pull request's head is %s, the run verified %s: its description stays until a run of that head verified",
			short(p.Head.Sha), short(sha))}
	}
	var done Pull
	if err := c.do(ctx, http.MethodPatch, fmt.Sprintf("/pulls/%d", p.Number), map[string]string{"body": body}, http.StatusOK, &done); err != nil {
		return &fix.Publish{Status: fix.PublishFailed, URL: p.HTMLURL, Reason: o.Secrets.String("updating the description: " + err.Error())}
	}
	return &fix.Publish{Status: Updated, URL: done.HTMLURL}
}

// connect is the remote's GitHub repository and the token of its
// requests (masked from here on).
func connect(ctx context.Context, o Options, remote remote) (github, error) {
	gh, err := ParseRemote(remote.url)
	if err != nil {
		return github{}, fmt.Errorf("remote %s: %w", remote.name, err)
	}
	token, err := Token(ctx, o.Env, gh.Host)
	if err != nil {
		return github{}, err
	}
	o.Secrets.Add(token)
	return github{client: o.Client, api: apiBase(o.Env, gh.Host), token: token, repo: gh}, nil
}

func short(sha string) string { return sha[:min(len(sha), 12)] }
