// Package publish opens a verified fix run's pull request: it pushes the
// verified commit to the checkout's remote and asks GitHub's REST API for
// the pull request, with the run's body (view/prbody). One gate (Blockers)
// decides whether a run may reach GitHub at all: a run that did not
// verify, a checkout that changed during it, or an uptide built from a
// tree with uncommitted changes never does, whatever --yes says.
//
// The token (GH_TOKEN, GITHUB_TOKEN, else `gh auth token`) is used for the
// one request and never stored or shown: it joins the run's secrets, which
// mask it anywhere it could be printed.
package publish

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"

	"github.com/uptide/uptide/fix"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/view/prbody"
)

// Build is what the running uptide knows of the tree it was built from.
type Build struct {
	// Dirty: the tree had uncommitted changes (vcs.modified).
	Dirty    bool
	Revision string
}

// ThisBuild is the running binary's build. A binary without version
// control stamps (go install of a release, -buildvcs=false) is not known
// to be dirty.
func ThisBuild() Build {
	info, _ := debug.ReadBuildInfo()
	return BuildOf(info)
}

// BuildOf reads a build's version control stamps.
func BuildOf(info *debug.BuildInfo) Build {
	var b Build
	if info == nil {
		return b
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.modified":
			b.Dirty = s.Value == "true"
		case "vcs.revision":
			b.Revision = s.Value
		}
	}
	return b
}

// DirtyBuild is why a dirty build never publishes, said before any work.
const DirtyBuild = "this uptide was built from a tree with uncommitted changes (vcs.modified): it never publishes; build it from a commit"

// Blockers are the reasons a run may not reach GitHub: the one gate for
// opening a pull request and for updating its description. None means it
// may.
func Blockers(r *fix.Report, b Build) []string {
	var out []string
	switch r.Status {
	case fix.StatusVerified:
	case fix.StatusFailed:
		out = append(out, "the run did not verify: "+r.Reason)
	default:
		out = append(out, "the run's verification did not run: "+r.Reason)
	}
	if len(r.Checkout.Changed) > 0 {
		out = append(out, "your checkout changed during the run: "+strings.Join(r.Checkout.Changed, "; "))
	}
	if b.Dirty {
		out = append(out, DirtyBuild)
	}
	if r.Status == fix.StatusVerified && r.Verified == nil && (r.Checkout.Branch == "" || r.Checkout.Sha == "") {
		why := r.Checkout.BranchWhy
		if why == "" {
			why = "no commits"
		}
		out = append(out, "your checkout has no branch of this run to push ("+why+")")
	}
	return out
}

// Options are what opening a pull request needs besides the report.
type Options struct {
	// Dir is a directory in the user's checkout.
	Dir string
	// Env holds GH_TOKEN/GITHUB_TOKEN, GITHUB_API_URL and PATH (for git
	// and gh).
	Env     []string
	Build   Build
	Secrets *redact.Secrets
	// Client is the HTTP client of the request (nil: a default with a
	// time limit).
	Client *http.Client
}

// Open passes the run through the gate, then pushes the verified commit
// to the checkout's remote and opens the pull request. The answer is for
// the report: opened with its address, blocked with the gate's reasons,
// or failed with what failed (the token masked).
func Open(ctx context.Context, r *fix.Report, o Options) *fix.Publish {
	if bl := Blockers(r, o.Build); len(bl) > 0 {
		return &fix.Publish{Status: fix.PublishBlocked, Reason: strings.Join(bl, "; ")}
	}
	url, err := open(ctx, r, o)
	if err != nil {
		return &fix.Publish{Status: fix.PublishFailed, Reason: o.Secrets.String(err.Error())}
	}
	return &fix.Publish{Status: fix.PublishOpened, URL: url}
}

func open(ctx context.Context, r *fix.Report, o Options) (string, error) {
	// Everything that can fail without side effects is settled before the
	// push, so a push is never left without its pull request for want of
	// a token or an address.
	remote, base, err := target(ctx, o)
	if err != nil {
		return "", err
	}
	gh, err := ParseRemote(remote.url)
	if err != nil {
		return "", fmt.Errorf("remote %s: %w", remote.name, err)
	}
	api := apiBase(o.Env, gh.Host)
	token, err := Token(ctx, o.Env, gh.Host)
	if err != nil {
		return "", err
	}
	o.Secrets.Add(token)
	if err := push(ctx, o, remote.name, r.Checkout.Sha, r.Checkout.Branch); err != nil {
		return "", err
	}
	return createPull(ctx, o.Client, api, token, gh, pullRequest{Title: prbody.Title(r), Head: r.Checkout.Branch, Base: base, Body: prbody.Body(r)})
}

func getenv(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// apiBase is GitHub's REST API: GITHUB_API_URL when set (as in GitHub
// Actions, and GitHub Enterprise), else github.com's, else the
// Enterprise server's own /api/v3.
func apiBase(env []string, host string) string {
	if u := getenv(env, "GITHUB_API_URL"); u != "" {
		return strings.TrimRight(u, "/")
	}
	if host == "github.com" {
		return "https://api.github.com"
	}
	return "https://" + host + "/api/v3"
}

// Token is the GitHub token: GH_TOKEN, GITHUB_TOKEN, else what the gh
// CLI is logged in with.
func Token(ctx context.Context, env []string, host string) (string, error) {
	for _, name := range []string{"GH_TOKEN", "GITHUB_TOKEN"} {
		if v := strings.TrimSpace(getenv(env, name)); v != "" {
			return v, nil
		}
	}
	if gh, err := lookPath("gh", getenv(env, "PATH")); err == nil {
		cmd := exec.CommandContext(ctx, gh, "auth", "token", "--hostname", host)
		cmd.Env = env
		if out, err := cmd.Output(); err == nil && strings.TrimSpace(string(out)) != "" {
			return strings.TrimSpace(string(out)), nil
		}
	}
	return "", fmt.Errorf("no GitHub token: set GH_TOKEN or GITHUB_TOKEN, or log in with gh auth login")
}

// lookPath finds a program on the given PATH (the run's, not uptide's).
func lookPath(name, path string) (string, error) {
	for _, dir := range strings.Split(path, string(os.PathListSeparator)) {
		if dir == "" {
			continue
		}
		p := dir + string(os.PathSeparator) + name
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

type pullRequest struct {
	Title string `json:"title"`
	Head  string `json:"head"`
	Base  string `json:"base"`
	Body  string `json:"body"`
}

// createPull is POST /repos/{owner}/{repo}/pulls; its answer's html_url.
func createPull(ctx context.Context, client *http.Client, api, token string, gh Repo, pr pullRequest) (string, error) {
	var answer struct {
		HTMLURL string `json:"html_url"`
	}
	c := github{client: client, api: api, token: token, repo: gh}
	if err := c.do(ctx, http.MethodPost, "/pulls", pr, http.StatusCreated, &answer); err != nil {
		return "", fmt.Errorf("GitHub refused the pull request (%w); the branch %s is pushed", err, pr.Head)
	}
	if answer.HTMLURL == "" {
		return "", fmt.Errorf("GitHub created the pull request but gave no address (POST %s)", c.url("/pulls"))
	}
	return answer.HTMLURL, nil
}
