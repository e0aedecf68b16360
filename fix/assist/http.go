package assist

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/uptide/uptide/internal/redact"
	"github.com/uptide/uptide/internal/safeurl"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxBody bounds a provider's answer.
const maxBody = 8 << 20

// callTimeout bounds one call; a reply of a few thousand tokens takes
// well under a minute.
const callTimeout = 5 * time.Minute

// defaultBackoff is the delay before trying again when a 429 or 5xx says
// no Retry-After.
const defaultBackoff = 2 * time.Second

// post sends body as JSON and returns the status, the headers and the
// answer's bytes. The error never holds a header's value.
func post(ctx context.Context, client *http.Client, url string, headers map[string]string, body any) (int, http.Header, []byte, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return 0, nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("%s: %w", safeurl.String(url), err)
	}
	req.Header.Set("content-type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return 0, nil, nil, &RetryError{After: defaultBackoff, Err: fmt.Errorf("%s did not answer within %v", safeurl.String(url), callTimeout)}
		}
		// The cause without the URL's query or user info, where keys
		// may hide; never a header.
		return 0, nil, nil, safeurl.Error(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return resp.StatusCode, resp.Header, nil, fmt.Errorf("%s: reading the answer: %w", safeurl.String(url), err)
	}
	if len(raw) > maxBody {
		return resp.StatusCode, resp.Header, nil, fmt.Errorf("%s: the answer is larger than %d MB, the limit of one reply", safeurl.String(url), maxBody>>20)
	}
	return resp.StatusCode, resp.Header, raw, nil
}

// httpFailure is a provider's answer other than 200 as an error naming
// who answered and the status, in the provider's own words (its error's
// type and message) when its body gives them, else the body's start; a
// status that asks to be tried again later is a RetryError.
func httpFailure(who string, status int, h http.Header, raw []byte, errType, errMsg string, secrets *redact.Secrets, key string, now func() time.Time) error {
	// Masked before it is clipped, so no part of a secret is shown.
	msg := clipText(secrets.String(string(raw), key), 200)
	if errMsg != "" {
		msg = secrets.String(errMsg, key)
		if errType != "" {
			msg = errType + ": " + msg
		}
	}
	err := fmt.Errorf("%s: %d %s", who, status, msg)
	if retryable(status) {
		if now == nil {
			now = time.Now
		}
		return &RetryError{After: retryAfter(h, now), Err: err}
	}
	return refusal(status, err)
}

// retryable says whether an HTTP status asks to be tried again later:
// rate limits, overload (Anthropic's 529) and server errors.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusRequestTimeout || status == 529 || status >= 500
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(h http.Header, now func() time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return defaultBackoff
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now()); d > 0 {
			return d
		}
		return 0
	}
	return defaultBackoff
}

// clipText keeps an error body short.
func clipText(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
