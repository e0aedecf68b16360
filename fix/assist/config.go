package assist

import (
	"fmt"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/internal/safeurl"
	"net/url"
	"strings"
)

// Config is how the user chose a provider: the flags and the
// environment. Keys come from Env only; they are never printed, logged
// or cached.
type Config struct {
	// URL is --llm-url, Cmd --llm-cmd, Model --model.
	URL, Cmd, Model string
	// MaxCost is --max-cost: dollars per package.
	MaxCost float64
	Env     []string
	// Secrets are masked in every error a provider gives; nil is the
	// secrets of Env. The provider's own key is added to it.
	Secrets *redact.Secrets
}

// DefaultMaxCost is --max-cost's default, in dollars per package.
const DefaultMaxCost = 1.0

// NewProvider picks the provider: --llm-cmd, else --llm-url, else the
// Anthropic API when ANTHROPIC_API_KEY is set, else none (nil, nil):
// every site is manual and no call is made.
func NewProvider(c Config) (Provider, error) {
	if c.MaxCost < 0 {
		return nil, fmt.Errorf("--max-cost %v: give a budget in dollars, 0 or more", c.MaxCost)
	}
	if c.Cmd != "" && c.URL != "" {
		return nil, fmt.Errorf("--llm-cmd and --llm-url both name a provider: give one")
	}
	secrets := c.Secrets
	if secrets == nil {
		secrets = redact.FromEnv(c.Env)
	}
	switch {
	case c.Cmd != "":
		return ParseCommand(c.Cmd, c.Env, secrets)
	case c.URL != "":
		u, err := url.Parse(c.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("--llm-url %q: give the http(s) URL of an OpenAI-compatible API (http://localhost:11434/v1 for Ollama)", safeurl.String(c.URL))
		}
		return &OpenAI{URL: c.URL, Model: c.Model, Key: lookup(c.Env, "OPENAI_API_KEY"), Secrets: secrets}, nil
	}
	if key := lookup(c.Env, "ANTHROPIC_API_KEY"); key != "" {
		return &Anthropic{Key: key, Model: c.Model, BaseURL: lookup(c.Env, "ANTHROPIC_BASE_URL"), Secrets: secrets}, nil
	}
	return nil, nil
}

func lookup(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val // the last one wins, as in exec
		}
	}
	return v
}
