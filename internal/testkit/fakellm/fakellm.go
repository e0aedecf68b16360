// Package fakellm is the tests' language model: an HTTP server speaking
// the Anthropic Messages API (POST /v1/messages) and the OpenAI
// chat-completions API (POST /chat/completions, /v1/chat/completions)
// exactly as the real ones do — content blocks, usage, error bodies,
// 429 and 529 with Retry-After — answering from a script, and recording
// every request so tests can see what was sent (the key header, the
// scope-only source, the retry's feedback). Requests that break the wire
// format are answered 400 as the real APIs would.
package fakellm

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Step is one scripted answer.
type Step struct {
	// Text is the model's reply (a good, malformed, suppressing,
	// multi-file or non-compiling one); it becomes one text content block
	// or the choice's message.
	Text string
	// InputTokens and OutputTokens are the usage reported; 0 counts the
	// prompt and the text at four characters a token.
	InputTokens, OutputTokens int
	// Status, when not 200, answers with the API's error body: ErrorType
	// ("rate_limit_error", "overloaded_error", "api_error",
	// "authentication_error") and ErrorMessage, and RetryAfter as the
	// Retry-After header when set.
	Status       int
	ErrorType    string
	ErrorMessage string
	RetryAfter   string
	// Raw, when set, is the body as is (a broken answer).
	Raw string
}

// Request is one request the server received.
type Request struct {
	API    string // "anthropic" or "openai"
	Path   string
	Header http.Header
	Body   []byte
	// Model, System, User and MaxTokens are read from the body.
	Model     string
	System    string
	User      string
	MaxTokens int
}

// Server is the fake API.
type Server struct {
	*httptest.Server
	// Key is the key the server expects: x-api-key for Anthropic, a
	// bearer token for OpenAI when set. "" accepts any (a local server).
	Key string

	mu       sync.Mutex
	script   []Step
	bySite   map[string][]Step
	requests []Request
}

// New starts a server expecting key; Close stops it.
func New(key string) *Server {
	s := &Server{Key: key, bySite: map[string][]Step{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.anthropic)
	mux.HandleFunc("POST /chat/completions", s.openai)
	mux.HandleFunc("POST /v1/chat/completions", s.openai)
	s.Server = httptest.NewServer(mux)
	return s
}

// Script queues answers for requests no For script matches, in order.
func (s *Server) Script(steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, steps...)
}

// For queues answers for requests whose user prompt contains match
// (a site's "File: src/b.ts (site at line 3)"), so concurrent requests
// for different sites get their own.
func (s *Server) For(match string, steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bySite[match] = append(s.bySite[match], steps...)
}

// Requests are the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// record keeps req, answered or refused.
func (s *Server) record(req Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
}

// next picks req's answer.
func (s *Server) next(req Request) Step {
	s.mu.Lock()
	defer s.mu.Unlock()
	longest := ""
	for m, steps := range s.bySite {
		if len(steps) > 0 && strings.Contains(req.User, m) && len(m) > len(longest) {
			longest = m
		}
	}
	if longest != "" {
		st := s.bySite[longest][0]
		s.bySite[longest] = s.bySite[longest][1:]
		return st
	}
	if len(s.script) > 0 {
		st := s.script[0]
		s.script = s.script[1:]
		return st
	}
	return Step{Status: 500, ErrorType: "api_error", ErrorMessage: "fakellm: no scripted answer left for this request"}
}

func tokens(st Step, prompt string) (int, int) {
	in, out := st.InputTokens, st.OutputTokens
	if in == 0 {
		in = len(prompt)/4 + 1
	}
	if out == 0 {
		out = len(st.Text)/4 + 1
	}
	return in, out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("content-type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func anthropicError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
}

func (s *Server) anthropic(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var in struct {
		Model     string `json:"model"`
		MaxTokens int    `json:"max_tokens"`
		System    string `json:"system"`
		Messages  []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	jerr := json.Unmarshal(body, &in)
	req := Request{API: "anthropic", Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Model: in.Model,
		System: in.System, MaxTokens: in.MaxTokens}
	if len(in.Messages) > 0 {
		req.User = in.Messages[len(in.Messages)-1].Content
	}
	s.record(req)
	switch {
	case r.Header.Get("x-api-key") == "":
		anthropicError(w, 401, "authentication_error", "x-api-key header is required")
		return
	case s.Key != "" && r.Header.Get("x-api-key") != s.Key:
		anthropicError(w, 401, "authentication_error", "invalid x-api-key")
		return
	case r.Header.Get("anthropic-version") == "":
		anthropicError(w, 400, "invalid_request_error", "anthropic-version: header is required")
		return
	case !strings.HasPrefix(r.Header.Get("content-type"), "application/json"):
		anthropicError(w, 400, "invalid_request_error", "content-type must be application/json")
		return
	}
	if jerr != nil {
		anthropicError(w, 400, "invalid_request_error", "the body is not JSON: "+jerr.Error())
		return
	}
	switch {
	case in.Model == "":
		anthropicError(w, 400, "invalid_request_error", "model: Field required")
		return
	case in.MaxTokens <= 0:
		anthropicError(w, 400, "invalid_request_error", "max_tokens: Field required")
		return
	case len(in.Messages) == 0 || in.Messages[0].Role != "user":
		anthropicError(w, 400, "invalid_request_error", "messages: the first message must use the user role")
		return
	}
	st := s.next(req)
	if answered(w, st, anthropicError) {
		return
	}
	inTok, outTok := tokens(st, in.System+req.User)
	writeJSON(w, 200, map[string]any{
		"id": fmt.Sprintf("msg_fake%d", len(s.Requests())), "type": "message", "role": "assistant", "model": in.Model,
		"content":       []map[string]string{{"type": "text", "text": st.Text}},
		"stop_reason":   "end_turn",
		"stop_sequence": nil,
		"usage":         map[string]int{"input_tokens": inTok, "output_tokens": outTok},
	})
}

func openAIError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}})
}

func (s *Server) openai(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var in struct {
		Model     string `json:"model"`
		MaxTokens int    `json:"max_tokens"`
		Messages  []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	jerr := json.Unmarshal(body, &in)
	req := Request{API: "openai", Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Model: in.Model, MaxTokens: in.MaxTokens}
	for _, m := range in.Messages {
		switch m.Role {
		case "system":
			req.System = m.Content
		case "user":
			req.User = m.Content
		}
	}
	s.record(req)
	if s.Key != "" && r.Header.Get("authorization") != "Bearer "+s.Key {
		openAIError(w, 401, "invalid_request_error", "Incorrect API key provided.")
		return
	}
	if jerr != nil || len(in.Messages) == 0 {
		openAIError(w, 400, "invalid_request_error", "'messages' is a required property")
		return
	}
	st := s.next(req)
	if answered(w, st, openAIError) {
		return
	}
	inTok, outTok := tokens(st, req.System+req.User)
	writeJSON(w, 200, map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion", "model": in.Model,
		"choices": []map[string]any{{"index": 0, "message": map[string]string{"role": "assistant", "content": st.Text}, "finish_reason": "stop"}},
		"usage":   map[string]int{"prompt_tokens": inTok, "completion_tokens": outTok, "total_tokens": inTok + outTok},
	})
}

// answered writes a step that is not a reply: its raw body as it stands,
// or its error status in the API's own error shape (with Retry-After when
// the step has one). False when the step is a reply to write.
func answered(w http.ResponseWriter, st Step, apiError func(http.ResponseWriter, int, string, string)) bool {
	switch {
	case st.Raw != "":
		w.Header().Set("content-type", "application/json")
		w.WriteHeader(max(st.Status, 200))
		io.WriteString(w, st.Raw)
	case st.Status != 0 && st.Status != 200:
		if st.RetryAfter != "" {
			w.Header().Set("retry-after", st.RetryAfter)
		}
		apiError(w, st.Status, st.ErrorType, st.ErrorMessage)
	default:
		return false
	}
	return true
}
