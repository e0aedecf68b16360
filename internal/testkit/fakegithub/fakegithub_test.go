package fakegithub

import (
	"encoding/json"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func get(t *testing.T, url, token string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}

// A backed repository's refs are its git directory's, read at each
// request; what is missing is GitHub's 404, a wrong token its 401.
func TestRefsAndErrors(t *testing.T) {
	bare := filepath.Join(t.TempDir(), "r.git")
	work := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "--bare", bare}, {"-C", work, "init", "-q", "-b", "main"},
		{"-C", work, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "x"},
		{"-C", work, "push", "-q", bare, "main"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	out, _ := exec.Command("git", "-C", work, "rev-parse", "HEAD").Output()
	sha := strings.TrimSpace(string(out))
	s := Start(t, "tok")
	s.Backed("acme", "app", bare)
	code, body := get(t, s.URL+"/repos/acme/app/git/ref/heads/main", "tok")
	if obj, _ := body["object"].(map[string]any); code != 200 || body["ref"] != "refs/heads/main" || obj["sha"] != sha {
		t.Errorf("GET ref: %d %v", code, body)
	}
	if code, body := get(t, s.URL+"/repos/acme/app/git/ref/heads/gone", "tok"); code != 404 || body["message"] != "Not Found" {
		t.Errorf("GET a missing ref: %d %v", code, body)
	}
	if code, body := get(t, s.URL+"/repos/acme/app/pulls/1", "tok"); code != 404 || body["message"] != "Not Found" {
		t.Errorf("GET a missing pull: %d %v", code, body)
	}
	if code, body := get(t, s.URL+"/repos/acme/app/git/ref/heads/main", "other"); code != 401 || body["message"] != "Bad credentials" {
		t.Errorf("a wrong token: %d %v", code, body)
	}
}
