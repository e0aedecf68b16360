package publish

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// Session is a checkout's GitHub repository with the token of its
// requests, for the bot-PR action: the pull request's head, the sticky
// comment, the push. The token stays here: nothing else uptide runs gets
// it, and it is never written to a git configuration.
type Session struct {
	c github
	o Options
}

// Connect opens the session of the repository of o.Dir's remote named
// remote (origin in a workflow's checkout, which is on no branch).
func Connect(ctx context.Context, o Options, remote string) (*Session, error) {
	rem, err := remoteNamed(ctx, o, remote)
	if err != nil {
		return nil, err
	}
	c, err := connect(ctx, o, rem)
	if err != nil {
		return nil, err
	}
	return &Session{c: c, o: o}, nil
}

// Repo is the repository the session speaks for.
func (s *Session) Repo() Repo { return s.c.repo }

// PullHead is the sha GitHub says pull request n's head is at now.
func (s *Session) PullHead(ctx context.Context, n int) (string, error) {
	var p Pull
	if err := s.c.do(ctx, http.MethodGet, fmt.Sprintf("/pulls/%d", n), nil, http.StatusOK, &p); err != nil {
		return "", fmt.Errorf("reading pull request #%d: %s", n, s.o.Secrets.String(err.Error()))
	}
	return p.Head.Sha, nil
}

// Sticky puts body on pull request n as uptide's one comment: the
// comment holding marker (a hidden HTML comment) is updated, else one is
// created. It returns the comment's address.
func (s *Session) Sticky(ctx context.Context, n int, marker, body string) (string, error) {
	if !strings.Contains(body, marker) {
		body = marker + "\n" + body
	}
	type comment struct {
		ID      int64  `json:"id"`
		Body    string `json:"body"`
		HTMLURL string `json:"html_url"`
	}
	for page := 1; page <= 20; page++ {
		var list []comment
		if err := s.c.do(ctx, http.MethodGet, fmt.Sprintf("/issues/%d/comments?per_page=100&page=%d", n, page), nil, http.StatusOK, &list); err != nil {
			return "", fmt.Errorf("reading the comments of #%d: %s", n, s.o.Secrets.String(err.Error()))
		}
		for _, c := range list {
			if strings.Contains(c.Body, marker) {
				var done comment
				if err := s.c.do(ctx, http.MethodPatch, fmt.Sprintf("/issues/comments/%d", c.ID), map[string]string{"body": body}, http.StatusOK, &done); err != nil {
					return "", fmt.Errorf("updating uptide's comment on #%d: %s", n, s.o.Secrets.String(err.Error()))
				}
				return done.HTMLURL, nil
			}
		}
		if len(list) < 100 {
			break
		}
	}
	var done comment
	if err := s.c.do(ctx, http.MethodPost, fmt.Sprintf("/issues/%d/comments", n), map[string]string{"body": body}, http.StatusCreated, &done); err != nil {
		return "", fmt.Errorf("commenting on #%d: %s", n, s.o.Secrets.String(err.Error()))
	}
	return done.HTMLURL, nil
}

// Push sends sha to the remote's branch from the repository in dir: a
// normal push, never forced, so a branch that moved since refuses it.
// The token reaches git for this one process as an HTTP header (the way
// actions/checkout authenticates), through the environment: never on a
// command line, never in a configuration file.
func (s *Session) Push(ctx context.Context, dir, remote, sha, branch string) error {
	o := s.o
	o.Dir = dir
	hooks, err := os.MkdirTemp("", "uptide-hooks-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(hooks)
	u := "https://" + s.c.repo.Host + "/"
	auth := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + s.c.token))
	s.o.Secrets.Add(auth)
	o.Env = append(append([]string{}, o.Env...), "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=http."+u+".extraheader", "GIT_CONFIG_VALUE_0=AUTHORIZATION: basic "+auth)
	if _, err := gitOut(ctx, o, "-c", "core.hooksPath="+hooks, "push", "--quiet", remote, sha+":refs/heads/"+branch); err != nil {
		return fmt.Errorf("pushing to %s's %s: %w", (&url.URL{Scheme: "https", Host: s.c.repo.Host, Path: s.c.repo.Owner + "/" + s.c.repo.Name}).String(), branch, err)
	}
	return nil
}
