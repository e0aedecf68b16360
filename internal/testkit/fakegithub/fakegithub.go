// Package fakegithub is a GitHub REST server for tests, speaking the
// part of the API uptide uses exactly as GitHub does, with a bearer
// token (401 "Bad credentials" for another):
//
//   - POST /repos/{owner}/{repo}/pulls: 201 and the pull request; 422 for
//     a missing field or a second pull request of the same head.
//   - GET /repos/{owner}/{repo}/pulls?head=owner:branch&state=…: the list;
//     GET and PATCH /repos/{owner}/{repo}/pulls/{number}.
//   - GET and POST /repos/{owner}/{repo}/issues/{number}/comments, PATCH
//     /repos/{owner}/{repo}/issues/comments/{id}.
//   - GET /repos/{owner}/{repo}/git/ref/heads/{branch}.
//
// A repository can be backed by a git directory (Backed, a local bare
// repository standing for the remote): branch heads, the pull requests'
// head and base shas included, are then read from it at each request, as
// GitHub reads its own, so a push to it moves what the API says. It
// records what it was sent.
package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Pull is one pull request the server holds.
type Pull struct {
	Owner, Repo             string
	Number                  int
	Title, Head, Base, Body string
	// User is the login that opened it (AddPull's; "" for one opened
	// through the API).
	User string
	// Header is the headers of the request that opened it (Authorization
	// included); nil for one added with AddPull.
	Header http.Header
}

// Comment is one comment on an issue or pull request.
type Comment struct {
	ID          int64
	Owner, Repo string
	Issue       int
	Body        string
	User        string
}

// Server is a running fake GitHub API.
type Server struct {
	// URL is the API's base, what GITHUB_API_URL names.
	URL   string
	token string
	// login is who the token is (the author of the comments it makes).
	login    string
	mu       sync.Mutex
	pulls    []Pull
	comments []Comment
	nextID   int64
	backing  map[string]string // owner/repo → git dir
	// requests are "METHOD path" of every request, in order.
	requests []string
}

// Start serves the API on a loopback port until the test ends; token is
// the only one it accepts.
func Start(t testing.TB, token string) *Server {
	t.Helper()
	s := &Server{token: token, login: "github-actions[bot]", nextID: 1000, backing: map[string]string{}}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Backed makes owner/repo's branches those of the git directory gitDir.
func (s *Server) Backed(owner, repo, gitDir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.backing[owner+"/"+repo] = gitDir
}

// AddPull opens a pull request as user (renovate[bot], a person) would,
// without the API; its number.
func (s *Server) AddPull(p Pull) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	p.Number = len(s.pulls) + 1
	s.pulls = append(s.pulls, p)
	return p.Number
}

// AddComment comments on an issue or pull request as user, without the
// API; its id.
func (s *Server) AddComment(c Comment) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	c.ID = s.nextID
	s.comments = append(s.comments, c)
	return c.ID
}

// Pulls are the pull requests as they stand.
func (s *Server) Pulls() []Pull {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Pull{}, s.pulls...)
}

// Comments are the comments as they stand, in the order they were made.
func (s *Server) Comments() []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Comment{}, s.comments...)
}

// Requests are "METHOD /path" of every request so far.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string{}, s.requests...)
}

func answer(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

const docs = "https://docs.github.com/rest"

func notFound(w http.ResponseWriter) {
	answer(w, http.StatusNotFound, map[string]string{"message": "Not Found", "documentation_url": docs, "status": "404"})
}

type apiError struct {
	Resource string `json:"resource,omitempty"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code"`
	Message  string `json:"message,omitempty"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.Method+" "+r.URL.Path)
	s.mu.Unlock()
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(parts) < 4 || parts[0] != "repos" {
		notFound(w)
		return
	}
	auth := r.Header.Get("Authorization")
	if auth != "Bearer "+s.token && auth != "token "+s.token {
		answer(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials", "documentation_url": docs, "status": "401"})
		return
	}
	owner, repo, rest := parts[1], parts[2], parts[3:]
	// The API's own address comes from the request: the URL field is
	// written by Start after the server already serves.
	api := "http://" + r.Host
	switch {
	case len(rest) == 1 && rest[0] == "pulls" && r.Method == http.MethodPost:
		s.createPull(w, r, api, owner, repo)
	case len(rest) == 1 && rest[0] == "pulls" && r.Method == http.MethodGet:
		s.listPulls(w, r, api, owner, repo)
	case len(rest) == 2 && rest[0] == "pulls" && (r.Method == http.MethodGet || r.Method == http.MethodPatch):
		s.pull(w, r, api, owner, repo, rest[1])
	case len(rest) == 3 && rest[0] == "issues" && rest[2] == "comments" && (r.Method == http.MethodGet || r.Method == http.MethodPost):
		s.issueComments(w, r, api, owner, repo, rest[1])
	case len(rest) == 3 && rest[0] == "issues" && rest[1] == "comments" && r.Method == http.MethodPatch:
		s.updateComment(w, r, api, owner, repo, rest[2])
	case len(rest) >= 4 && rest[0] == "git" && rest[1] == "ref" && rest[2] == "heads" && r.Method == http.MethodGet:
		s.ref(w, api, owner, repo, strings.Join(rest[3:], "/"))
	default:
		notFound(w)
	}
}

// head is the sha of owner/repo's branch in its backing git directory;
// "" when it has none or is not backed.
func (s *Server) head(owner, repo, branch string) string {
	s.mu.Lock()
	dir := s.backing[owner+"/"+repo]
	s.mu.Unlock()
	if dir == "" {
		return ""
	}
	out, err := exec.Command("git", "--git-dir", dir, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func repoJSON(owner, repo string) map[string]any {
	return map[string]any{"name": repo, "full_name": owner + "/" + repo, "owner": map[string]string{"login": owner},
		"html_url": "https://github.com/" + owner + "/" + repo}
}

func (s *Server) pullJSON(api string, p Pull) map[string]any {
	side := func(ref string) map[string]any {
		return map[string]any{"ref": ref, "label": p.Owner + ":" + ref, "sha": s.head(p.Owner, p.Repo, ref), "repo": repoJSON(p.Owner, p.Repo)}
	}
	return map[string]any{
		"number": p.Number, "state": "open", "title": p.Title, "body": p.Body,
		"html_url": fmt.Sprintf("https://github.com/%s/%s/pull/%d", p.Owner, p.Repo, p.Number),
		"url":      fmt.Sprintf("%s/repos/%s/%s/pulls/%d", api, p.Owner, p.Repo, p.Number),
		"head":     side(p.Head), "base": side(p.Base), "user": map[string]string{"login": p.User},
	}
}

func (s *Server) createPull(w http.ResponseWriter, r *http.Request, api, owner, repo string) {
	var in struct {
		Title string `json:"title"`
		Head  string `json:"head"`
		Base  string `json:"base"`
		Body  string `json:"body"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		answer(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON", "documentation_url": docs, "status": "400"})
		return
	}
	var missing []apiError
	for _, f := range [][2]string{{"base", in.Base}, {"head", in.Head}, {"title", in.Title}} {
		if f[1] == "" {
			missing = append(missing, apiError{Resource: "PullRequest", Field: f[0], Code: "missing_field"})
		}
	}
	if len(missing) > 0 {
		answer(w, http.StatusUnprocessableEntity, map[string]any{"message": "Validation Failed", "errors": missing, "documentation_url": docs, "status": "422"})
		return
	}
	s.mu.Lock()
	for _, p := range s.pulls {
		if p.Owner == owner && p.Repo == repo && p.Head == in.Head {
			s.mu.Unlock()
			answer(w, http.StatusUnprocessableEntity, map[string]any{"message": "Validation Failed", "documentation_url": docs, "status": "422",
				"errors": []apiError{{Resource: "PullRequest", Code: "custom", Message: fmt.Sprintf("A pull request already exists for %s:%s.", p.Owner, p.Head)}}})
			return
		}
	}
	p := Pull{Owner: owner, Repo: repo, Number: len(s.pulls) + 1, Title: in.Title, Head: in.Head, Base: in.Base, Body: in.Body, Header: r.Header.Clone()}
	s.pulls = append(s.pulls, p)
	s.mu.Unlock()
	answer(w, http.StatusCreated, s.pullJSON(api, p))
}

// listPulls is GET …/pulls: head filters by "owner:branch" (a head
// without the owner's prefix matches nothing, as on GitHub), state is
// open (the default), closed or all; every pull here is open.
func (s *Server) listPulls(w http.ResponseWriter, r *http.Request, api, owner, repo string) {
	q := r.URL.Query()
	head, state := q.Get("head"), q.Get("state")
	out := []map[string]any{}
	if state == "closed" {
		answer(w, http.StatusOK, out)
		return
	}
	for _, p := range s.Pulls() {
		if p.Owner != owner || p.Repo != repo || head != "" && head != p.Owner+":"+p.Head {
			continue
		}
		out = append(out, s.pullJSON(api, p))
	}
	answer(w, http.StatusOK, out)
}

func (s *Server) pull(w http.ResponseWriter, r *http.Request, api, owner, repo, number string) {
	n, err := strconv.Atoi(number)
	if err != nil {
		notFound(w)
		return
	}
	var in struct {
		Title *string `json:"title"`
		Body  *string `json:"body"`
	}
	if r.Method == http.MethodPatch {
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			answer(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON", "documentation_url": docs, "status": "400"})
			return
		}
	}
	s.mu.Lock()
	for i := range s.pulls {
		p := &s.pulls[i]
		if p.Owner != owner || p.Repo != repo || p.Number != n {
			continue
		}
		if in.Title != nil {
			p.Title = *in.Title
		}
		if in.Body != nil {
			p.Body = *in.Body
		}
		cp := *p
		s.mu.Unlock()
		answer(w, http.StatusOK, s.pullJSON(api, cp))
		return
	}
	s.mu.Unlock()
	notFound(w)
}

func commentJSON(api string, c Comment) map[string]any {
	return map[string]any{
		"id": c.ID, "body": c.Body, "user": map[string]string{"login": c.User},
		"html_url": fmt.Sprintf("https://github.com/%s/%s/pull/%d#issuecomment-%d", c.Owner, c.Repo, c.Issue, c.ID),
		"url":      fmt.Sprintf("%s/repos/%s/%s/issues/comments/%d", api, c.Owner, c.Repo, c.ID),
	}
}

func (s *Server) issueComments(w http.ResponseWriter, r *http.Request, api, owner, repo, number string) {
	n, err := strconv.Atoi(number)
	if err != nil || !s.hasPull(owner, repo, n) {
		notFound(w)
		return
	}
	if r.Method == http.MethodGet {
		out := []map[string]any{}
		for _, c := range s.Comments() {
			if c.Owner == owner && c.Repo == repo && c.Issue == n {
				out = append(out, commentJSON(api, c))
			}
		}
		answer(w, http.StatusOK, out)
		return
	}
	body, ok := decodeBody(w, r)
	if !ok {
		return
	}
	id := s.AddComment(Comment{Owner: owner, Repo: repo, Issue: n, Body: body, User: s.login})
	answer(w, http.StatusCreated, commentJSON(api, Comment{ID: id, Owner: owner, Repo: repo, Issue: n, Body: body, User: s.login}))
}

func (s *Server) updateComment(w http.ResponseWriter, r *http.Request, api, owner, repo, id string) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		notFound(w)
		return
	}
	body, ok := decodeBody(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	for i := range s.comments {
		c := &s.comments[i]
		if c.Owner == owner && c.Repo == repo && c.ID == n {
			c.Body = body
			cp := *c
			s.mu.Unlock()
			answer(w, http.StatusOK, commentJSON(api, cp))
			return
		}
	}
	s.mu.Unlock()
	notFound(w)
}

// decodeBody reads a comment's {"body": …}: 422 without one, as GitHub.
func decodeBody(w http.ResponseWriter, r *http.Request) (string, bool) {
	var in struct {
		Body *string `json:"body"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		answer(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON", "documentation_url": docs, "status": "400"})
		return "", false
	}
	if in.Body == nil || *in.Body == "" {
		answer(w, http.StatusUnprocessableEntity, map[string]any{"message": "Validation Failed", "documentation_url": docs, "status": "422",
			"errors": []apiError{{Resource: "IssueComment", Field: "body", Code: "missing_field"}}})
		return "", false
	}
	return *in.Body, true
}

func (s *Server) hasPull(owner, repo string, n int) bool {
	for _, p := range s.Pulls() {
		if p.Owner == owner && p.Repo == repo && p.Number == n {
			return true
		}
	}
	return false
}

// ref is GET …/git/ref/heads/{branch}, from the backing git directory.
func (s *Server) ref(w http.ResponseWriter, api, owner, repo, branch string) {
	sha := s.head(owner, repo, branch)
	if sha == "" {
		notFound(w)
		return
	}
	answer(w, http.StatusOK, map[string]any{
		"ref": "refs/heads/" + branch, "url": fmt.Sprintf("%s/repos/%s/%s/git/refs/heads/%s", api, owner, repo, branch),
		"object": map[string]string{"sha": sha, "type": "commit", "url": fmt.Sprintf("%s/repos/%s/%s/git/commits/%s", api, owner, repo, sha)},
	})
}
