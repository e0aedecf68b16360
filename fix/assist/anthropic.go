package assist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/uptide/uptide/internal/redact"
	"net/http"
	"strings"
	"time"
)

// DefaultAnthropicModel is the model asked when --model names none.
const DefaultAnthropicModel = "claude-sonnet-4-6"

// anthropicVersion is the Messages API version the requests speak.
const anthropicVersion = "2023-06-01"

// Anthropic calls the Anthropic Messages API over net/http.
type Anthropic struct {
	// Key is the API key (ANTHROPIC_API_KEY); it goes in the x-api-key
	// header and nowhere else.
	Key   string
	Model string
	// Secrets are masked in its errors, besides Key.
	Secrets *redact.Secrets
	// BaseURL is the API's root, "https://api.anthropic.com" unless
	// ANTHROPIC_BASE_URL moves it (as the official clients allow).
	BaseURL string
	Client  *http.Client
	// Now is the clock for Retry-After dates; nil is time.Now.
	Now func() time.Time
}

func (a *Anthropic) model() string {
	if a.Model == "" {
		return DefaultAnthropicModel
	}
	return a.Model
}

// Name implements Provider.
func (a *Anthropic) Name() string { return "anthropic " + a.model() + priceNote(a.model()) }

// Reserve implements Provider.
func (a *Anthropic) Reserve(req Request) float64 {
	p, _ := PriceOf(a.model())
	return reserveFor(p, req)
}

type anthropicRequest struct {
	Model     string             `json:"model"`
	MaxTokens int                `json:"max_tokens"`
	System    string             `json:"system,omitempty"`
	Messages  []anthropicMessage `json:"messages"`
}

type anthropicMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type anthropicResponse struct {
	Type    string `json:"type"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
	Usage      struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// Complete implements Provider: one POST to /v1/messages.
func (a *Anthropic) Complete(ctx context.Context, req Request) (Reply, error) {
	if a.Key == "" {
		return Reply{}, errors.New("anthropic: ANTHROPIC_API_KEY is empty")
	}
	base := strings.TrimRight(a.BaseURL, "/")
	if base == "" {
		base = "https://api.anthropic.com"
	}
	body := anthropicRequest{Model: a.model(), MaxTokens: req.MaxTokens, System: req.System,
		Messages: []anthropicMessage{{Role: "user", Content: req.User}}}
	status, h, raw, err := post(ctx, a.Client, base+"/v1/messages",
		map[string]string{"x-api-key": a.Key, "anthropic-version": anthropicVersion}, body)
	if err != nil {
		return Reply{}, fmt.Errorf("anthropic: %s", a.Secrets.String(err.Error(), a.Key))
	}
	var r anthropicResponse
	jerr := json.Unmarshal(raw, &r)
	if status != http.StatusOK {
		var typ, msg string
		if jerr == nil && r.Error != nil {
			typ, msg = r.Error.Type, r.Error.Message
		}
		return Reply{}, httpFailure("anthropic", status, h, raw, typ, msg, a.Secrets, a.Key, a.now)
	}
	if jerr != nil {
		return Reply{}, fmt.Errorf("anthropic: the answer is not a message: %v", jerr)
	}
	var text strings.Builder
	for _, c := range r.Content {
		if c.Type == "text" {
			text.WriteString(c.Text)
		}
	}
	p, _ := PriceOf(a.model())
	reply := Reply{Text: text.String(), InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens,
		Cost: p.Cost(r.Usage.InputTokens, r.Usage.OutputTokens)}
	if r.StopReason == "max_tokens" {
		reply.Text += "\n[the reply was cut at the token limit]"
	}
	return reply, nil
}

func (a *Anthropic) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

// priceNote marks a model whose cost the estimates cannot know.
func priceNote(model string) string {
	if _, ok := PriceOf(model); ok {
		return ""
	}
	return " (no list price known: costs count as $0)"
}
