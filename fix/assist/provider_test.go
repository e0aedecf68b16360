package assist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/uptide/uptide/internal/redact"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/uptide/uptide/internal/testkit/fakellm"
)

const testKey = "sk-ant-test-0123456789"

func TestMain(m *testing.M) {
	// The command provider's tests run this binary as the command.
	if os.Getenv("UPTIDE_FAKE_LLM_CMD") != "" {
		fakeCommand()
		return
	}
	os.Exit(m.Run())
}

// fakeCommand reads a Request on stdin and answers per its mode.
func fakeCommand() {
	var req Request
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		fmt.Fprintln(os.Stderr, "bad request:", err)
		os.Exit(3)
	}
	switch os.Getenv("UPTIDE_FAKE_LLM_CMD") {
	case "good":
		text := reply(diffOf("src/b.ts", "make()", "make(0)"), "attempt "+fmt.Sprint(req.Attempt)+" for "+req.Site.ID)
		_ = json.NewEncoder(os.Stdout).Encode(Reply{Text: text, InputTokens: 10, OutputTokens: 5, Cost: 0.002})
	case "garbage":
		fmt.Println("not json")
	case "fail":
		fmt.Fprintln(os.Stderr, "the tool broke")
		os.Exit(1)
	case "leak":
		// A provider failing with what it holds: its key, and whatever
		// registry token its environment has.
		fmt.Fprintf(os.Stderr, "auth failed with key %s (registry token %q)\n", os.Getenv("MY_LLM_API_KEY"), os.Getenv("NPM_TOKEN"))
		os.Exit(1)
	case "huge":
		chunk := strings.Repeat("x", 1<<20)
		fmt.Print(`{"text":"`)
		for i := 0; i < 200; i++ {
			fmt.Print(chunk)
		}
		fmt.Print(`"}`)
	}
}

func TestAnthropicWireFormat(t *testing.T) {
	srv := fakellm.New(testKey)
	defer srv.Close()
	srv.Script(fakellm.Step{Text: goodB, InputTokens: 1000, OutputTokens: 200})
	a := &Anthropic{Key: testKey, BaseURL: srv.URL}
	req := NewRequest(site("b", "src/b.ts", 3, errB), 1, "", nil)
	r, err := a.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != goodB || r.InputTokens != 1000 || r.OutputTokens != 200 {
		t.Fatalf("reply %+v", r)
	}
	if want := (1000*3.0 + 200*15.0) / 1e6; r.Cost < want-1e-12 || r.Cost > want+1e-12 {
		t.Fatalf("cost %v, want %v at Sonnet's list price", r.Cost, want)
	}
	got := srv.Requests()[0]
	if got.Path != "/v1/messages" || got.Header.Get("x-api-key") != testKey || got.Header.Get("anthropic-version") != "2023-06-01" ||
		got.Model != DefaultAnthropicModel || got.MaxTokens != req.MaxTokens || got.System != req.System || got.User != req.User {
		t.Fatalf("request %+v", got)
	}
	if strings.Contains(a.Name(), testKey) || strings.Contains(string(got.Body), testKey) {
		t.Fatal("the key is outside its header")
	}
}

func TestAnthropicErrors(t *testing.T) {
	srv := fakellm.New(testKey)
	defer srv.Close()
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	a := &Anthropic{Key: testKey, BaseURL: srv.URL, Now: func() time.Time { return now }}
	req := NewRequest(site("b", "src/b.ts", 3, errB), 1, "", nil)
	for _, tc := range []struct {
		step  fakellm.Step
		retry time.Duration // 0: not retryable
		msg   string
	}{
		{fakellm.Step{Status: 429, ErrorType: "rate_limit_error", ErrorMessage: "slow down", RetryAfter: "7"}, 7 * time.Second, "rate_limit_error: slow down"},
		{fakellm.Step{Status: 529, ErrorType: "overloaded_error", ErrorMessage: "Overloaded", RetryAfter: now.Add(30 * time.Second).Format(http.TimeFormat)}, 30 * time.Second, "529 overloaded_error"},
		{fakellm.Step{Status: 500, ErrorType: "api_error", ErrorMessage: "boom"}, defaultBackoff, "500 api_error: boom"},
		{fakellm.Step{Status: 400, ErrorType: "invalid_request_error", ErrorMessage: "your key " + testKey + " is echoed"}, 0, "[redacted]"},
		{fakellm.Step{Raw: "{not json"}, 0, "not a message"},
	} {
		srv.Script(tc.step)
		_, err := a.Complete(context.Background(), req)
		if err == nil {
			t.Fatalf("%+v: no error", tc.step)
		}
		var re *RetryError
		isRetry := errors.As(err, &re)
		if isRetry != (tc.retry > 0) || (isRetry && re.After != tc.retry) || !strings.Contains(err.Error(), tc.msg) {
			t.Fatalf("%+v: %v (retry %v)", tc.step, err, isRetry)
		}
		if strings.Contains(err.Error(), testKey) {
			t.Fatalf("the key is in an error: %v", err)
		}
	}
	bad := &Anthropic{Key: "wrong", BaseURL: srv.URL}
	if _, err := bad.Complete(context.Background(), req); err == nil || !strings.Contains(err.Error(), "401 authentication_error") {
		t.Fatalf("a wrong key: %v", err)
	}
}

func TestOpenAIWireFormat(t *testing.T) {
	srv := fakellm.New("")
	defer srv.Close()
	req := NewRequest(site("b", "src/b.ts", 3, errB), 1, "", nil)
	for _, tc := range []struct{ url, path, key string }{
		{srv.URL + "/v1", "/v1/chat/completions", ""},
		{srv.URL + "/v1/", "/v1/chat/completions", "sk-openai"},
		{srv.URL + "/chat/completions", "/chat/completions", ""},
	} {
		srv.Script(fakellm.Step{Text: goodB, InputTokens: 10, OutputTokens: 20})
		o := &OpenAI{URL: tc.url, Model: "qwen2.5-coder", Key: tc.key}
		r, err := o.Complete(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		reqs := srv.Requests()
		got := reqs[len(reqs)-1]
		if got.Path != tc.path || got.System != req.System || got.User != req.User || got.Model != "qwen2.5-coder" {
			t.Fatalf("%s: request %+v", tc.url, got)
		}
		if auth := got.Header.Get("authorization"); (tc.key == "" && auth != "") || (tc.key != "" && auth != "Bearer "+tc.key) {
			t.Fatalf("%s: authorization %q", tc.url, auth)
		}
		if r.Text != goodB || r.InputTokens != 10 || r.OutputTokens != 20 || r.Cost != 0 {
			t.Fatalf("reply %+v (a local model costs 0)", r)
		}
		if !strings.Contains(o.Name(), "no list price known") {
			t.Fatalf("name %q does not say the cost is unknown", o.Name())
		}
	}
	srv.Script(fakellm.Step{Status: 503, ErrorType: "server_error", ErrorMessage: "loading model", RetryAfter: "1"})
	_, err := (&OpenAI{URL: srv.URL + "/v1"}).Complete(context.Background(), req)
	var re *RetryError
	if !errors.As(err, &re) || re.After != time.Second || !strings.Contains(err.Error(), "loading model") {
		t.Fatalf("503: %v", err)
	}
	paid := &OpenAI{URL: srv.URL, Model: "gpt-4o-mini"}
	srv.Script(fakellm.Step{Text: goodB, InputTokens: 1e6, OutputTokens: 1e6})
	if r, err := paid.Complete(context.Background(), req); err != nil || r.Cost < 0.7499 || r.Cost > 0.7501 {
		t.Fatalf("gpt-4o-mini: %+v %v", r, err)
	}
}

// The fixer over the real Anthropic client and the fake API: a 429 is
// waited out as its Retry-After says, the prompt holds the scope and
// nothing outside it, the retry carries the compiler's message.
func TestFixerOverHTTP(t *testing.T) {
	srv := fakellm.New(testKey)
	defer srv.Close()
	nope := reply(diffOf("src/a.ts", "import { make }", "import { make, nope }"), "import more")
	srv.Script(
		fakellm.Step{Status: 429, ErrorType: "rate_limit_error", ErrorMessage: "Number of requests has exceeded your rate limit", RetryAfter: "3"},
		fakellm.Step{Text: nope},
		fakellm.Step{Text: goodOne},
	)
	var slept []time.Duration
	f := &Fixer{Provider: &Anthropic{Key: testKey, BaseURL: srv.URL}, Validator: &ruleValidator{}, Read: readTest, Budget: NewBudget(1),
		Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}
	s := site("one", "src/a.ts", 4, errOne)
	lines := strings.SplitAfter(testFiles["src/a.ts"], "\n")
	s.Scope = Scope{StartLine: 3, EndLine: 5, Text: strings.Join(lines[2:5], "")}
	p, err := f.Propose(context.Background(), s, 1, MaxAttempts, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Valid || len(p.Attempts) != 2 || len(slept) != 1 || slept[0] != 3*time.Second {
		t.Fatalf("proposal %+v, slept %v", p, slept)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (a 429, two attempts)", len(reqs))
	}
	for _, r := range reqs {
		// The file's other lines never go out (a retry quotes the model's
		// own diff back, nothing more).
		prompt, _, _ := strings.Cut(r.User, "Your previous reply")
		if !strings.Contains(prompt, "    4 |   return make();") || strings.Contains(r.User, "export function two") || strings.Contains(prompt, "import {") {
			t.Fatalf("the prompt is not the scope alone:\n%s", r.User)
		}
	}
	if !strings.Contains(reqs[2].User, "has no exported member 'nope'") || !strings.Contains(reqs[2].User, "Attempt 2 of 3") {
		t.Fatalf("the retry lacks the compiler's new message:\n%s", reqs[2].User)
	}
	if p.Cost <= 0 || f.Budget.Spent() != p.Cost {
		t.Fatalf("cost %v, spent %v", p.Cost, f.Budget.Spent())
	}
}

func TestCommandProvider(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	req := NewRequest(site("b", "src/b.ts", 3, errB), 2, "", nil)
	for _, tc := range []struct{ mode, want string }{
		{"good", "attempt 2 for b"},
		{"garbage", "not the reply JSON"},
		{"fail", "the tool broke"},
	} {
		c, err := ParseCommand(exe+" -test.run=^$", append(os.Environ(), "UPTIDE_FAKE_LLM_CMD="+tc.mode), nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := c.Complete(context.Background(), req)
		got := r.Text
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tc.want) {
			t.Fatalf("%s: %q, want %q", tc.mode, got, tc.want)
		}
		if tc.mode == "good" && (r.Cost != 0.002 || r.InputTokens != 10) {
			t.Fatalf("reply %+v", r)
		}
	}
	if _, err := ParseCommand("  ", nil, nil); err == nil {
		t.Fatal("an empty --llm-cmd was taken")
	}
}

// What a command prints on stderr reaches an error masked of every secret
// Uptide knows, and the registry's credentials never reach its
// environment; its own key does.
func TestCommandMasksSecrets(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "UPTIDE_FAKE_LLM_CMD=leak", "MY_LLM_API_KEY=sk-llm-0123456789", "NPM_TOKEN=npm_registry_0123")
	secrets := redact.FromEnv(env)
	secrets.Withhold("npm_registry_0123") // as fix adds the .npmrc's credentials
	c, err := ParseCommand(exe+" -test.run=^$", env, secrets)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), NewRequest(site("b", "src/b.ts", 3, errB), 1, "", nil))
	if err == nil {
		t.Fatal("a failing command gave no error")
	}
	msg := err.Error()
	if strings.Contains(msg, "sk-llm-0123456789") || !strings.Contains(msg, "auth failed with key [redacted]") {
		t.Errorf("the provider's key is not masked: %s", msg)
	}
	if !strings.Contains(msg, `(registry token "")`) {
		t.Errorf("the registry token reached the command's environment: %s", msg)
	}
}

// A reply past the 8 MB cap is a clear error, the command stopped.
func TestCommandReplyIsCapped(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseCommand(exe+" -test.run=^$", append(os.Environ(), "UPTIDE_FAKE_LLM_CMD=huge"), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), NewRequest(site("b", "src/b.ts", 3, errB), 1, "", nil))
	if err == nil || !strings.Contains(err.Error(), "its reply is larger than 8 MB, the limit of one reply") {
		t.Fatalf("want the cap's error, got %v", err)
	}
}

func TestNewProvider(t *testing.T) {
	for _, tc := range []struct {
		c    Config
		want string // the provider's name prefix; "" none; "error: …"
	}{
		{Config{}, ""},
		{Config{Env: []string{"ANTHROPIC_API_KEY=" + testKey}}, "anthropic claude-sonnet-4-6"},
		{Config{Model: "claude-haiku-4-5", Env: []string{"ANTHROPIC_API_KEY=" + testKey}}, "anthropic claude-haiku-4-5"},
		{Config{URL: "http://localhost:11434/v1", Model: "qwen2.5-coder", Env: []string{"ANTHROPIC_API_KEY=" + testKey}}, "openai-compatible qwen2.5-coder at http://localhost:11434/v1"},
		{Config{Cmd: "my-llm --json", URL: "http://x"}, "error: --llm-cmd and --llm-url"},
		{Config{Cmd: "/usr/local/bin/my-llm --json"}, "command my-llm"},
		{Config{URL: "localhost:11434"}, "error: --llm-url"},
		{Config{URL: "http://user:secret@host/v1?key=secret"}, "openai-compatible (the server's default model) at http://host/v1"},
		{Config{MaxCost: -1}, "error: --max-cost"},
	} {
		p, err := NewProvider(tc.c)
		got := ""
		switch {
		case err != nil:
			got = "error: " + err.Error()
		case p != nil:
			got = p.Name()
		}
		if !strings.HasPrefix(got, tc.want) || (tc.want == "" && got != "") {
			t.Fatalf("%+v: %q, want %q", tc.c, got, tc.want)
		}
		if strings.Contains(got, testKey) || strings.Contains(got, "secret") {
			t.Fatalf("a secret in %q", got)
		}
	}
}

// A server that cannot be reached is an error naming it without the
// secrets a URL may carry.
func TestUnreachableProviderHidesSecrets(t *testing.T) {
	srv := fakellm.New("")
	url := srv.URL
	srv.Close()
	o := &OpenAI{URL: strings.Replace(url, "http://", "http://user:pw-secret@", 1) + "/v1?api_key=q-secret", Key: "sk-secret"}
	_, err := o.Complete(context.Background(), NewRequest(site("b", "src/b.ts", 3, errB), 1, "", nil))
	if err == nil || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("%v", err)
	}
}

// A key the API refuses stops the queue: the sites not yet asked are
// manual without a call.
func TestRefusedKeyStopsTheQueue(t *testing.T) {
	srv := fakellm.New(testKey)
	defer srv.Close()
	f := &Fixer{Provider: &Anthropic{Key: "sk-wrong", BaseURL: srv.URL}, Validator: &ruleValidator{}, Read: readTest, Budget: NewBudget(1)}
	q := NewQueue(context.Background(), []Site{site("one", "src/a.ts", 4, errOne), site("two", "src/a.ts", 8, errTwo), site("b", "src/b.ts", 3, errB)}, f)
	defer q.Close()
	items := waitFor(t, q, "all settled", settled)
	calls := len(srv.Requests())
	if calls > Concurrency {
		t.Fatalf("%d calls after a refused key, want at most the %d under way", calls, Concurrency)
	}
	asked := 0
	for _, it := range items {
		if it.Status != Manual || !strings.Contains(it.Reason, "401 authentication_error") {
			t.Fatalf("%s: %v (%s)", it.Site.ID, it.Status, it.Reason)
		}
		asked += it.Attempts
	}
	if asked != calls || !strings.Contains(items[2].Reason, "no call was made") {
		t.Fatalf("attempts %d, calls %d; b: %s", asked, calls, items[2].Reason)
	}
}

// An HTTP provider's answer past the same 8 MB cap is the same clear
// error, not a truncated document that fails to decode.
func TestHTTPReplyIsCapped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("content-type", "application/json")
		chunk := []byte(strings.Repeat("x", 1<<20))
		for i := 0; i < 9; i++ {
			_, _ = w.Write(chunk)
		}
	}))
	defer srv.Close()
	o := &OpenAI{URL: srv.URL + "/v1"}
	_, err := o.Complete(context.Background(), NewRequest(site("b", "src/b.ts", 3, errB), 1, "", nil))
	if err == nil || !strings.Contains(err.Error(), "the answer is larger than 8 MB, the limit of one reply") {
		t.Fatalf("want the cap's error, got %v", err)
	}
}
