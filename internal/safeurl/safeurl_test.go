package safeurl

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:pass@example.invalid/v1?key=s3cret#frag": "https://example.invalid/v1",
		"http://localhost:11434/v1/@scope/x":                   "http://localhost:11434/v1/@scope/x",
		"://bad":                                               "<unparseable URL>",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	err := Error(&url.Error{Op: "Post", URL: "https://h.invalid/x?token=s3cret", Err: errors.New("refused")})
	if strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "refused") {
		t.Errorf("Error kept the query or lost the cause: %v", err)
	}
}
