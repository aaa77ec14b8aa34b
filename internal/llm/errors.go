package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// ErrNoModel means a model was needed but none is configured. A
// natural-language edit needs ACE_AGENT_MODEL; recipes run without one.
var ErrNoModel = errors.New("no model configured")

// ErrContextLength means the prompt does not fit the model's context
// window. Retrying cannot help, so it is never retried.
var ErrContextLength = errors.New("prompt exceeds the model's context length")

// ErrRefused means the server refused a request for what it is (HTTP 400,
// 401, 403, 404, 422 ...: a malformed request, a bad key, an unknown
// model, a context-length overrun) rather than failing to serve it:
// retrying the same request cannot help, so callers that retry whole steps
// (Temporal activities) must not either.
var ErrRefused = errors.New("request refused by the model server")

// noModelError names the variable to set.
func noModelError(r Role) error {
	env := map[Role]string{RoleAgent: "ACE_AGENT_MODEL", RoleJudge: "ACE_JUDGE_MODEL (or ACE_AGENT_MODEL)", RoleRouter: "ACE_ROUTER_MODEL (or ACE_JUDGE_MODEL / ACE_AGENT_MODEL)"}[r]
	return fmt.Errorf("%w for the %s: set %s to a model name your OpenAI-compatible server serves, and OPENAI_BASE_URL / OPENAI_API_KEY to reach it (e.g. OPENAI_BASE_URL=http://localhost:11434/v1 ACE_AGENT_MODEL=qwen2.5:14b for Ollama); recipes run without a model", ErrNoModel, r, env)
}

// verdict classifies a failed attempt.
type verdict struct {
	retry      bool
	status     int
	retryAfter time.Duration
	err        error
}

func classify(parent context.Context, err error, meta *respMeta) verdict {
	v := verdict{err: err}
	if meta != nil {
		v.status = meta.status
		v.retryAfter = parseRetryAfter(meta.retryAfter, time.Now())
	}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		v.status = apiErr.HTTPStatusCode
		if isContextLength(apiErr.Code, apiErr.Message) {
			v.err = fmt.Errorf("%w: %s", ErrContextLength, apiErr.Message)
			return v
		}
	case errors.As(err, &reqErr):
		v.status = reqErr.HTTPStatusCode
		if isContextLength(nil, string(reqErr.Body)) {
			v.err = fmt.Errorf("%w: %s", ErrContextLength, strings.TrimSpace(string(reqErr.Body)))
			return v
		}
	}
	switch v.status {
	case http.StatusUnauthorized, http.StatusForbidden:
		v.err = fmt.Errorf("%w (check OPENAI_API_KEY for this server)", err)
		return v
	case http.StatusNotFound:
		v.err = fmt.Errorf("%w (check the model name in ACE_AGENT_MODEL / ACE_JUDGE_MODEL / ACE_ROUTER_MODEL and that OPENAI_BASE_URL ends in /v1)", err)
		return v
	}
	if meta != nil && !meta.sent {
		// Refused before any HTTP exchange (go-openai's own request
		// checks): sending it again cannot help.
		v.err = fmt.Errorf("request not sent: %w", err)
		return v
	}
	if parent.Err() != nil { // the caller gave up: never retry
		v.err = parent.Err()
		return v
	}
	switch {
	case v.status == http.StatusTooManyRequests, v.status == http.StatusRequestTimeout,
		v.status >= 500:
		v.retry = true
	case v.status == 0, v.status < 300:
		// No HTTP response (the attempt timed out or the connection
		// dropped), or a 2xx whose body did not decode: transient.
		v.retry = true
		if errors.Is(err, context.DeadlineExceeded) {
			v.err = fmt.Errorf("attempt timed out: %w", err)
		}
	}
	return v
}

// isContextLength recognises the context-window errors of OpenAI
// (code context_length_exceeded), vLLM ("maximum context length") and
// llama.cpp / Ollama ("exceeds the available context size", "too long").
func isContextLength(code any, msg string) bool {
	if s, ok := code.(string); ok && s == "context_length_exceeded" {
		return true
	}
	m := strings.ToLower(msg)
	for _, k := range []string{"context_length_exceeded", "maximum context length", "context window", "exceeds the available context size", "prompt is too long"} {
		if strings.Contains(m, k) {
			return true
		}
	}
	return false
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP
// date (RFC 9110 §10.2.3). Zero when absent or unparseable.
func parseRetryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(h, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(h); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
