// Package botpr is uptide's part of a Renovate or Dependabot pull request
// of the same repository (the composite action, uptide bot-pr): it reads
// which packages the pull request moves from its lockfile, makes each
// migration pack's rule edits in a fix run of its own (check, the rules,
// verification) from the pull request's sources with the base's
// dependencies, takes only their source diffs onto the pull request's
// exact head, verifies that with the pull request's own lockfile, and
// pushes one commit on top of the event's head only when everything
// verified and the head is still the event's; a sticky comment says what
// happened either way.
//
// The GitHub token is used for the API requests and the push and for
// nothing else: installs, tests, tools and the fix runs get an
// environment without it.
package botpr

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/uptide/uptide/fix/publish"
)

// Event is what uptide reads of a pull_request event (GITHUB_EVENT_PATH).
type Event struct {
	Number                     int
	HeadRef, HeadSha, HeadRepo string
	BaseRef, BaseSha, BaseRepo string
	// User is the login that opened the pull request.
	User string
}

// Bots are the authors whose pull requests uptide takes.
var Bots = []string{"renovate[bot]", "dependabot[bot]"}

// ReadEvent reads a pull_request (or pull_request_target) event file.
func ReadEvent(path string) (Event, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Event{}, fmt.Errorf("reading the event: %w (GITHUB_EVENT_PATH names the event file of a workflow run)", err)
	}
	var raw struct {
		PullRequest *publish.Pull `json:"pull_request"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return Event{}, fmt.Errorf("%s is not a GitHub event (JSON): %v", path, err)
	}
	p := raw.PullRequest
	if p == nil || p.Number == 0 || p.Head.Sha == "" || p.Base.Sha == "" || p.Head.Ref == "" {
		return Event{}, fmt.Errorf("%s is not a pull_request event (no pull_request with its number, head and base): run uptide bot-pr on pull_request events", path)
	}
	e := Event{Number: p.Number, HeadRef: p.Head.Ref, HeadSha: p.Head.Sha, BaseRef: p.Base.Ref, BaseSha: p.Base.Sha, User: p.User.Login}
	e.HeadRepo, e.BaseRepo = p.HeadRepo(), p.BaseRepo()
	return e, nil
}

// Refusal is why uptide does not take the event's pull request; "" when
// it does: only a bot's pull request from a branch of the same
// repository.
func (e Event) Refusal() string {
	if e.HeadRepo == "" || e.HeadRepo != e.BaseRepo {
		return fmt.Sprintf("pull request #%d comes from another repository (%s into %s): uptide pushes only to branches of the same repository", e.Number, orNone(e.HeadRepo), e.BaseRepo)
	}
	for _, b := range Bots {
		if e.User == b {
			return ""
		}
	}
	return fmt.Sprintf("pull request #%d is by %s, not by %s: uptide bot-pr takes only their dependency pull requests", e.Number, orNone(e.User), strings.Join(Bots, " or "))
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
