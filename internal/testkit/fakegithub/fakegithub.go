// Package fakegithub is a GitHub REST server for tests, speaking the
// part of the API uptide uses exactly as GitHub does: POST
// /repos/{owner}/{repo}/pulls with a bearer token, 201 and the pull
// request, 401 for a wrong token, 422 for a missing field or a second
// pull request of the same head. It records what it was sent.
package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Pull is one pull request the server was asked for.
type Pull struct {
	Owner, Repo             string
	Number                  int
	Title, Head, Base, Body string
	// Header is the request's headers (Authorization included).
	Header http.Header
}

// Server is a running fake GitHub API.
type Server struct {
	// URL is the API's base, what GITHUB_API_URL names.
	URL   string
	token string
	mu    sync.Mutex
	pulls []Pull
}

// Start serves the API on a loopback port until the test ends; token is
// the only one it accepts.
func Start(t testing.TB, token string) *Server {
	t.Helper()
	s := &Server{token: token}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Pulls are the pull requests opened so far.
func (s *Server) Pulls() []Pull {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Pull{}, s.pulls...)
}

func answer(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

type apiError struct {
	Resource string `json:"resource,omitempty"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code"`
	Message  string `json:"message,omitempty"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(parts) != 4 || parts[0] != "repos" || parts[3] != "pulls" {
		answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	if r.Method != http.MethodPost {
		answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	auth := r.Header.Get("Authorization")
	if auth != "Bearer "+s.token && auth != "token "+s.token {
		answer(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials"})
		return
	}
	var in struct {
		Title string `json:"title"`
		Head  string `json:"head"`
		Base  string `json:"base"`
		Body  string `json:"body"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		answer(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	var missing []apiError
	for field, v := range map[string]string{"head": in.Head, "base": in.Base, "title": in.Title} {
		if v == "" {
			missing = append(missing, apiError{Resource: "PullRequest", Field: field, Code: "missing_field"})
		}
	}
	if len(missing) > 0 {
		answer(w, http.StatusUnprocessableEntity, map[string]any{"message": "Validation Failed", "errors": missing})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.pulls {
		if p.Owner == parts[1] && p.Repo == parts[2] && p.Head == in.Head {
			answer(w, http.StatusUnprocessableEntity, map[string]any{"message": "Validation Failed",
				"errors": []apiError{{Resource: "PullRequest", Code: "custom", Message: fmt.Sprintf("A pull request already exists for %s:%s.", p.Owner, p.Head)}}})
			return
		}
	}
	p := Pull{Owner: parts[1], Repo: parts[2], Number: len(s.pulls) + 1, Title: in.Title, Head: in.Head, Base: in.Base, Body: in.Body, Header: r.Header.Clone()}
	s.pulls = append(s.pulls, p)
	html := fmt.Sprintf("https://github.com/%s/%s/pull/%d", p.Owner, p.Repo, p.Number)
	answer(w, http.StatusCreated, map[string]any{
		"number": p.Number, "state": "open", "title": p.Title, "body": p.Body, "html_url": html,
		"url":  fmt.Sprintf("http://%s/repos/%s/%s/pulls/%d", r.Host, p.Owner, p.Repo, p.Number),
		"head": map[string]string{"ref": p.Head}, "base": map[string]string{"ref": p.Base},
	})
}
