package llm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Client sends chat completions to the configured models. It is safe for
// concurrent use.
type Client struct {
	cfg     Config
	oc      *openai.Client
	limiter Limiter
	sleep   func(ctx context.Context, d time.Duration) error
}

// New builds a client. It succeeds without any model configured, so
// recipe-only runs can hold one; Model and Chat then return ErrNoModel.
func New(cfg Config) (*Client, error) {
	cfg = cfg.withDefaults()
	var oc openai.ClientConfig
	if strings.Contains(cfg.BaseURL, ".openai.azure.com") {
		oc = openai.DefaultAzureConfig(cfg.APIKey, cfg.BaseURL)
	} else {
		oc = openai.DefaultConfig(cfg.APIKey)
		if cfg.BaseURL != "" {
			oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
		}
	}
	if !strings.HasPrefix(oc.BaseURL, "http://") && !strings.HasPrefix(oc.BaseURL, "https://") {
		return nil, fmt.Errorf("OPENAI_BASE_URL %q: want an http(s) URL such as http://localhost:8000/v1", cfg.BaseURL)
	}
	// The per-attempt timeout is a context deadline; the transport only
	// records the response headers (Retry-After) that go-openai drops.
	oc.HTTPClient = headerDoer{inner: &http.Client{}}
	lim := cfg.Limiter
	if lim == nil {
		lim = NewLocalLimiter(cfg.RPM, cfg.TPM)
	}
	return &Client{cfg: cfg, oc: openai.NewClientWithConfig(oc), limiter: lim, sleep: sleepCtx}, nil
}

// Config returns the effective configuration (defaults filled).
func (c *Client) Config() Config { return c.cfg }

// Model returns the model for role, or an error wrapping ErrNoModel that
// names the environment variable to set.
func (c *Client) Model(r Role) (string, error) {
	if c == nil {
		return "", noModelError(r)
	}
	m := map[Role]string{RoleAgent: c.cfg.AgentModel, RoleJudge: c.cfg.JudgeModel, RoleRouter: c.cfg.RouterModel}[r]
	if m == "" {
		return "", noModelError(r)
	}
	return m, nil
}

// HasModel reports whether role has a model configured.
func (c *Client) HasModel(r Role) bool { _, err := c.Model(r); return err == nil }

// Request is one chat completion.
type Request struct {
	Role     Role
	Purpose  string // recorded on the Call: "act", "judge-if", ...
	Messages []openai.ChatCompletionMessage
	Tools    []openai.Tool
	// Temperature 0 (the paper's setting) is sent as the smallest positive
	// float32, because go-openai omits a zero temperature and servers would
	// then use their default (1.0); every server treats it as greedy.
	// Reasoning models (o-series, gpt-5) get no temperature: they accept
	// only their default.
	Temperature float32
	// MaxTokens caps the completion (0 = server default); sent as
	// max_completion_tokens to reasoning models.
	MaxTokens int
	// JSON asks for a JSON object (response_format json_object).
	JSON bool
}

// Response is the model's message and the measured call.
type Response struct {
	Message      openai.ChatCompletionMessage
	FinishReason string
	// Call is filled on success and on failure, for the run record.
	Call Call
}

// Chat runs one call with the retry policy. The returned Response's Call is
// always filled (attempts, errors, usage); on error the Message is empty.
func (c *Client) Chat(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	call := Call{Purpose: req.Purpose, Role: req.Role}
	model, err := c.Model(req.Role)
	if err != nil {
		call.Error = err.Error()
		return Response{Call: call}, err
	}
	call.Model = model
	if c.cfg.MaxTokens > 0 && (req.MaxTokens == 0 || req.MaxTokens > c.cfg.MaxTokens) {
		req.MaxTokens = c.cfg.MaxTokens
	}
	ctx, span := startSpan(ctx, req.Role, req.Purpose, model)
	oreq := openai.ChatCompletionRequest{
		Model:    model,
		Messages: req.Messages,
		Tools:    req.Tools,
	}
	if reasoningModel(model) {
		// OpenAI's reasoning models (o-series, gpt-5) take
		// max_completion_tokens and only their default temperature;
		// go-openai refuses the request otherwise.
		oreq.MaxCompletionTokens = req.MaxTokens
	} else {
		oreq.MaxTokens = req.MaxTokens
		oreq.Temperature = max(req.Temperature, math.SmallestNonzeroFloat32)
	}
	if req.JSON {
		oreq.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	est := estimateTokens(req) + req.MaxTokens
	finish := func(resp Response, err error) (Response, error) {
		call.DurationMS = time.Since(start).Milliseconds()
		if err != nil {
			call.Error = err.Error()
		}
		resp.Call = call
		endSpan(span, call)
		return resp, err
	}
	for attempt := 0; ; attempt++ {
		if err := c.limiter.Wait(ctx, est); err != nil {
			return finish(Response{}, fmt.Errorf("%s call to %s: rate limiter: %w", req.Role, model, err))
		}
		meta := &respMeta{}
		actx, cancel := context.WithTimeout(withMeta(ctx, meta), c.cfg.Timeout)
		t0 := time.Now()
		out, err := c.oc.CreateChatCompletion(actx, oreq)
		cancel()
		at := Attempt{Status: meta.status, DurationMS: time.Since(t0).Milliseconds()}
		if err == nil {
			call.Attempts = append(call.Attempts, at)
			c.account(&call, out.Usage)
			if len(out.Choices) == 0 {
				return finish(Response{}, fmt.Errorf("%s call to %s: the server answered with no choices", req.Role, model))
			}
			ch := out.Choices[0]
			return finish(Response{Message: ch.Message, FinishReason: string(ch.FinishReason)}, nil)
		}
		v := classify(ctx, err, meta)
		at.Status, at.Error, at.RetryAfterMS = v.status, v.err.Error(), v.retryAfter.Milliseconds()
		if !v.retry || attempt >= c.cfg.MaxRetries {
			call.Attempts = append(call.Attempts, at)
			if v.retry {
				return finish(Response{}, fmt.Errorf("%s call to %s failed after %d attempts: %w", req.Role, model, attempt+1, v.err))
			}
			if ctx.Err() == nil {
				// The server refused the request as such (a 4xx other than
				// 408 and 429, a bad key, an unknown model): sending it
				// again, now or later, cannot help.
				return finish(Response{}, fmt.Errorf("%s call to %s: %w: %w", req.Role, model, ErrRefused, v.err))
			}
			return finish(Response{}, fmt.Errorf("%s call to %s: %w", req.Role, model, v.err))
		}
		wait := c.backoff(attempt)
		if v.retryAfter > 0 {
			if v.retryAfter > c.cfg.MaxRetryAfter {
				call.Attempts = append(call.Attempts, at)
				return finish(Response{}, fmt.Errorf("%s call to %s: server asked to retry after %s, more than the %s cap: %w", req.Role, model, v.retryAfter, c.cfg.MaxRetryAfter, v.err))
			}
			wait = v.retryAfter
		}
		at.WaitMS = wait.Milliseconds()
		call.Attempts = append(call.Attempts, at)
		if err := c.sleep(ctx, wait); err != nil {
			return finish(Response{}, fmt.Errorf("%s call to %s: %w (while waiting to retry after: %v)", req.Role, model, err, v.err))
		}
	}
}

// Complete is a one-shot text call (system + user message), for the CARE
// router and other single-question uses.
func (c *Client) Complete(ctx context.Context, role Role, purpose, system, user string, json bool) (string, Call, error) {
	resp, err := c.Chat(ctx, Request{
		Role: role, Purpose: purpose, JSON: json,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: system},
			{Role: openai.ChatMessageRoleUser, Content: user},
		},
	})
	return resp.Message.Content, resp.Call, err
}

func (c *Client) account(call *Call, u openai.Usage) {
	call.PromptTokens = u.PromptTokens
	call.CompletionTokens = u.CompletionTokens
	if u.PromptTokensDetails != nil {
		call.CachedPromptTokens = u.PromptTokensDetails.CachedTokens
	}
	if p, ok := c.cfg.Prices.Lookup(call.Model); ok {
		call.Priced = true
		call.CostUSD = p.Cost(call.PromptTokens, call.CachedPromptTokens, call.CompletionTokens)
	}
}

// backoff is exponential with full jitter in [d/2, d].
func (c *Client) backoff(attempt int) time.Duration {
	d := c.cfg.Backoff << attempt
	if d > c.cfg.MaxBackoff || d <= 0 {
		d = c.cfg.MaxBackoff
	}
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

// estimateTokens is a rough prompt size (4 bytes per token) used only to
// charge the rate limiter before the server reports the real count.
func estimateTokens(req Request) int {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Content)
		for _, p := range m.MultiContent {
			n += len(p.Text)
			if p.ImageURL != nil {
				n += 4 * 800 // an image costs roughly 800 tokens at detail auto
			}
		}
		for _, tc := range m.ToolCalls {
			n += len(tc.Function.Arguments)
		}
	}
	for _, t := range req.Tools {
		if t.Function != nil {
			n += len(t.Function.Description) + 200
		}
	}
	return n / 4
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// respMeta carries what the transport saw of the last HTTP response.
type respMeta struct {
	sent       bool // the request reached the transport
	status     int
	retryAfter string
}

type metaKey struct{}

func withMeta(ctx context.Context, m *respMeta) context.Context {
	return context.WithValue(ctx, metaKey{}, m)
}

// headerDoer records status and Retry-After of each response into the
// request context's respMeta; go-openai's errors do not carry headers.
type headerDoer struct{ inner *http.Client }

func (h headerDoer) Do(req *http.Request) (*http.Response, error) {
	m, ok := req.Context().Value(metaKey{}).(*respMeta)
	if ok {
		m.sent = true
	}
	resp, err := h.inner.Do(req)
	if ok && resp != nil {
		m.status = resp.StatusCode
		m.retryAfter = resp.Header.Get("Retry-After")
	}
	return resp, err
}

// reasoningModel mirrors go-openai's check for models that reject
// max_tokens and a non-default temperature.
func reasoningModel(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// Reachable checks that the model endpoint answers at all, with one GET
// /models within timeout. Any HTTP answer counts, even an error status (a
// server without that route, a bad key: the first real call reports
// those); only a transport failure (connection refused, unknown host,
// timeout) is an error, naming the base URL and what to check. The CLI
// calls it before an edit so a wrong OPENAI_BASE_URL fails in seconds
// rather than after every retry of the router and the agent.
func (c *Client) Reachable(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, err := c.oc.ListModels(ctx)
	if err == nil {
		return nil
	}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	if errors.As(err, &apiErr) || errors.As(err, &reqErr) {
		return nil // the server answered
	}
	base := c.cfg.BaseURL
	if base == "" {
		base = "https://api.openai.com/v1"
	}
	return fmt.Errorf("the model endpoint %s does not answer (%v): check OPENAI_BASE_URL and that the server is running", base, err)
}
