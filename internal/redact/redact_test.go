package redact

import (
	"strings"
	"testing"
)

func TestFromEnvPicksSecretNames(t *testing.T) {
	s := FromEnv([]string{
		"ANTHROPIC_API_KEY=sk-ant-123456", "NPM_TOKEN=npm_abcdef", "npm_config_//reg.test/:_authToken=tok-nerf-1",
		"DB_PASSWORD=hunter22", "PATH=/usr/bin:/bin", "HOME=/home/someone", "KEYBOARD=us-intl-x", "GH_TOKEN=abc",
		"SSH_AUTH_SOCK=/tmp/ssh-agent.sock", "FEATURE_AUTH=disabled for now",
	})
	text := "sk-ant-123456 npm_abcdef tok-nerf-1 hunter22 /usr/bin:/bin /home/someone us-intl-x abc /tmp/ssh-agent.sock disabled for now"
	want := "[redacted] [redacted] [redacted] [redacted] /usr/bin:/bin /home/someone us-intl-x abc /tmp/ssh-agent.sock disabled for now"
	if got := s.String(text); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestLongestSecretMaskedWhole(t *testing.T) {
	s := New("secret-1", "secret-1-longer")
	if got := s.String("a secret-1-longer b secret-1", "also-this-one"); got != "a [redacted] b [redacted]" {
		t.Errorf("got %q", got)
	}
	if got := (*Secrets)(nil).String("x also-this-one", "also-this-one"); got != "x [redacted]" {
		t.Errorf("nil set: %q", got)
	}
}

func TestEnvDropsWithheld(t *testing.T) {
	s := New("sk-provider-key")
	s.Withhold("npm-registry-token")
	env := []string{"PATH=/bin", "ANTHROPIC_API_KEY=sk-provider-key", "NPM_TOKEN=npm-registry-token", "npm_config_//r/:_authToken=npm-registry-token"}
	got := strings.Join(s.Env(env), " ")
	if got != "PATH=/bin ANTHROPIC_API_KEY=sk-provider-key" {
		t.Errorf("Env = %s", got)
	}
}

type note string

type report struct {
	Reason  string
	Items   []*item
	ByFile  map[string][]string
	Any     any
	Typed   note
	private string
}

type item struct {
	Output string
	Next   *item
}

func TestWalkMasksEveryString(t *testing.T) {
	s := New("sk-leaked-key")
	loop := &item{Output: "loop sk-leaked-key"}
	loop.Next = loop
	r := &report{
		Reason:  "auth failed with key sk-leaked-key",
		Items:   []*item{{Output: "stderr: sk-leaked-key"}, loop},
		ByFile:  map[string][]string{"a.ts": {"sk-leaked-key"}},
		Any:     "sk-leaked-key",
		Typed:   "sk-leaked-key",
		private: "sk-leaked-key",
	}
	s.Walk(r)
	if strings.Contains(r.Reason+r.Items[0].Output+loop.Output+r.ByFile["a.ts"][0]+r.Any.(string)+string(r.Typed), "sk-leaked-key") {
		t.Errorf("a secret survived: %+v", r)
	}
	if r.private != "sk-leaked-key" {
		t.Error("an unexported field was touched")
	}
}
