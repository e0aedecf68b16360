package assist

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Structured is the reply the prompt asks for.
type Structured struct {
	Diff        string `json:"diff"`
	Explanation string `json:"explanation"`
}

// ParseReply reads a model's structured reply: the JSON object alone, or
// inside a Markdown code fence, or the first object in text around it
// (models add a sentence despite the prompt). A reply without a diff is
// an error saying what was wrong, fed back on the retry.
func ParseReply(text string) (Structured, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return Structured{}, errors.New("the reply was empty")
	}
	var candidates []string
	candidates = append(candidates, t)
	candidates = append(candidates, fenced(t)...)
	if i := strings.Index(t, "{"); i >= 0 {
		candidates = append(candidates, t[i:])
	}
	var firstErr error
	for _, c := range candidates {
		var s Structured
		dec := json.NewDecoder(strings.NewReader(c))
		if err := dec.Decode(&s); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if strings.TrimSpace(s.Diff) == "" {
			return Structured{}, errors.New(`the reply's JSON has no "diff"`)
		}
		s.Diff = strings.TrimLeft(s.Diff, "\n")
		if !strings.HasSuffix(s.Diff, "\n") {
			s.Diff += "\n"
		}
		s.Explanation = strings.TrimSpace(s.Explanation)
		return s, nil
	}
	return Structured{}, fmt.Errorf(`the reply is not the JSON object {"diff", "explanation"} (%v)`, firstErr)
}

// fenced are the bodies of the reply's ``` code fences, in order.
func fenced(t string) []string {
	var out []string
	for {
		i := strings.Index(t, "```")
		if i < 0 {
			return out
		}
		rest := t[i+3:]
		// the fence's info string ("json") ends at the first newline
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			return out
		}
		body := rest[nl+1:]
		j := strings.Index(body, "```")
		if j < 0 {
			return append(out, body)
		}
		out = append(out, body[:j])
		t = body[j+3:]
	}
}
