package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// github is one repository's REST API, with the token of the requests.
type github struct {
	client     *http.Client
	api, token string
	repo       Repo
}

func (c github) url(path string) string {
	return fmt.Sprintf("%s/repos/%s/%s%s", c.api, c.repo.Owner, c.repo.Name, path)
}

// do sends in (JSON, nil for none) to the repository's path and decodes
// the answer into out when GitHub answers want; otherwise the error is
// GitHub's own message and its validation errors, with the method, the
// address and the status (never the token).
func (c github) do(ctx context.Context, method, path string, in any, want int, out any) error {
	client := c.client
	if client == nil {
		client = &http.Client{Timeout: time.Minute}
	}
	var body io.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(data)
	}
	url := c.url(path)
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("User-Agent", "uptide")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if resp.StatusCode == want {
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: GitHub's answer is not what the API documents: %w", method, url, err)
		}
		return nil
	}
	var answer struct {
		Message string `json:"message"`
		Errors  []struct {
			Message string `json:"message"`
			Field   string `json:"field"`
			Code    string `json:"code"`
		} `json:"errors"`
	}
	_ = json.Unmarshal(data, &answer)
	msg := answer.Message
	for _, e := range answer.Errors {
		switch {
		case e.Message != "":
			msg += ": " + e.Message
		case e.Field != "":
			msg += ": " + e.Field + " " + e.Code
		}
	}
	if msg == "" {
		msg = strings.TrimSpace(string(data))
	}
	return fmt.Errorf("%s %s: %s: %s", method, url, resp.Status, msg)
}
