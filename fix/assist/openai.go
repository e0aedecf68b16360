package assist

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/internal/safeurl"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// OpenAI calls any OpenAI-compatible chat-completions endpoint over
// net/http: OpenAI itself, or a local Ollama, llama.cpp server, vLLM or
// LM Studio, which need no key.
type OpenAI struct {
	// URL is --llm-url: the API root (".../v1") or the chat-completions
	// URL itself.
	URL   string
	Model string
	// Key (OPENAI_API_KEY) is sent as a bearer token when set.
	Key string
	// Secrets are masked in its errors, besides Key.
	Secrets *redact.Secrets
	Client  *http.Client
	Now     func() time.Time
}

func (o *OpenAI) endpoint() string {
	u, err := url.Parse(o.URL)
	if err != nil {
		return o.URL // NewProvider refused it already
	}
	p := strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(p, "/chat/completions") {
		p += "/chat/completions"
	}
	u.Path, u.RawPath = p, ""
	return u.String()
}

// Name implements Provider.
func (o *OpenAI) Name() string {
	m := o.Model
	if m == "" {
		m = "(the server's default model)"
	}
	return "openai-compatible " + m + " at " + safeurl.String(o.URL) + priceNote(o.Model)
}

// Reserve implements Provider.
func (o *OpenAI) Reserve(req Request) float64 {
	p, _ := PriceOf(o.Model)
	return reserveFor(p, req)
}

type openAIRequest struct {
	Model     string          `json:"model,omitempty"`
	Messages  []openAIMessage `json:"messages"`
	MaxTokens int             `json:"max_tokens,omitempty"`
}

type openAIMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type openAIResponse struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error *struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	} `json:"error"`
}

// Complete implements Provider: one POST to chat/completions.
func (o *OpenAI) Complete(ctx context.Context, req Request) (Reply, error) {
	headers := map[string]string{}
	if o.Key != "" {
		headers["authorization"] = "Bearer " + o.Key
	}
	body := openAIRequest{Model: o.Model, MaxTokens: req.MaxTokens, Messages: []openAIMessage{
		{Role: "system", Content: req.System}, {Role: "user", Content: req.User}}}
	status, h, raw, err := post(ctx, o.Client, o.endpoint(), headers, body)
	if err != nil {
		return Reply{}, fmt.Errorf("%s", o.Secrets.String(err.Error(), o.Key))
	}
	var r openAIResponse
	jerr := json.Unmarshal(raw, &r)
	if status != http.StatusOK {
		var typ, msg string
		if jerr == nil && r.Error != nil {
			typ, msg = r.Error.Type, r.Error.Message
		}
		return Reply{}, httpFailure(safeurl.String(o.endpoint()), status, h, raw, typ, msg, o.Secrets, o.Key, o.Now)
	}
	if jerr != nil || len(r.Choices) == 0 {
		return Reply{}, fmt.Errorf("%s: the answer has no choices (%v)", safeurl.String(o.endpoint()), jerr)
	}
	p, _ := PriceOf(o.Model)
	reply := Reply{Text: r.Choices[0].Message.Content, InputTokens: r.Usage.PromptTokens, OutputTokens: r.Usage.CompletionTokens,
		Cost: p.Cost(r.Usage.PromptTokens, r.Usage.CompletionTokens)}
	if r.Choices[0].FinishReason == "length" {
		reply.Text += "\n[the reply was cut at the token limit]"
	}
	return reply, nil
}
