// Package assist owns the assisted fixer: one site of a breaking upgrade
// (a finding, its compiler errors, the enclosing declaration and the rule's
// guide, never source outside that scope) sent to a language model, its
// structured reply (a one-file unified diff and an explanation) checked
// before anyone sees it (one file, applies exactly, no suppression, and
// compiled alone on the upgraded code by a Validator), with the budget,
// the retries and the providers (the Anthropic Messages API, any
// OpenAI-compatible chat-completions endpoint, a command) all over
// net/http or a pipe, no SDK.
package assist

import (
	"context"

	"github.com/uptide/uptide/engine/model"
)

// Site is everything the fixer may send about one site.
type Site struct {
	// ID names the site in the queue and in the patches file: the finding's
	// id (a root-cause anchor's id for its downstream errors).
	ID      string `json:"id"`
	Package string `json:"package"`
	From    string `json:"from"`
	To      string `json:"to"`
	// Rule is the plan rule's id, RuleTitle its title; Guide is the pack's
	// guide text for the rule ("" without a pack).
	Rule      string `json:"rule"`
	RuleTitle string `json:"ruleTitle"`
	Guide     string `json:"guide,omitempty"`
	// Reason is the finding's reason ("useRef now needs an argument").
	Reason string `json:"reason"`
	// File is slash-separated, relative to the repository root; Line the
	// site's line (1-based).
	File string `json:"file"`
	Line int    `json:"line"`
	// Errors are the compiler errors the site stands for, on the upgraded
	// code: a fix must make them disappear.
	Errors []model.Diagnostic `json:"errors"`
	// Scope is the enclosing declaration: the only source sent.
	Scope Scope `json:"scope"`
	// Manual, when set, says why nobody proposes a patch for the site (no
	// migration pack covers the upgrade: the plan's "manual"): it is
	// listed, never sent. The user may still edit it by hand.
	Manual string `json:"manual,omitempty"`
}

// Scope is a range of whole lines of Site.File and their text.
type Scope struct {
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	Text      string `json:"text"`
}

// Validator compiles one patched file alone on the upgraded code (every
// other file as the upgrade left it) and says what the compiler reports
// in the files it checks, as new errors against the upgraded code without
// the patch.
type Validator interface {
	Validate(ctx context.Context, file, content string) (Compiled, error)
}

// Compiled is what a Validator found, as multisets on file, code and
// message: Gone are errors the upgraded code had that the patch removed,
// New the errors the upgraded code did not have before the patch.
type Compiled struct {
	Gone []model.Diagnostic `json:"gone"`
	New  []model.Diagnostic `json:"new"`
}

// Request is one call to a provider: the prompt for one site.
type Request struct {
	// System and User are the prompt's texts; MaxTokens bounds the reply.
	System    string `json:"system"`
	User      string `json:"user"`
	MaxTokens int    `json:"maxTokens"`
	// Site is what the prompt was built from; Attempt counts from 1, and
	// Hint is what the user typed on a retry.
	Site    Site   `json:"site"`
	Attempt int    `json:"attempt"`
	Hint    string `json:"hint,omitempty"`
}

// Reply is a provider's answer: the model's text (the structured reply:
// a JSON object with "diff" and "explanation") and what the call used.
type Reply struct {
	Text         string  `json:"text"`
	InputTokens  int     `json:"inputTokens"`
	OutputTokens int     `json:"outputTokens"`
	Cost         float64 `json:"cost"`
}

// Provider is one way to reach a model: the Anthropic Messages API, an
// OpenAI-compatible chat-completions endpoint, a command, or the demo's
// scripted replies.
type Provider interface {
	// Name says which provider and model, for the screen and the report
	// ("anthropic claude-sonnet-4-5"); never a key.
	Name() string
	// Reserve is the most the request may cost in dollars: what the
	// budget holds back before the call.
	Reserve(req Request) float64
	// Complete makes the call. A *RetryError asks to be tried again after
	// its delay (429, 5xx with Retry-After).
	Complete(ctx context.Context, req Request) (Reply, error)
}
