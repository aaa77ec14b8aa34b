package llm

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/acecanvas/ace/internal/secret"
)

// Role says which configured model a request goes to.
type Role string

const (
	RoleAgent  Role = "agent"  // the design agent (ACE_AGENT_MODEL)
	RoleJudge  Role = "judge"  // the IF and VQ judges (ACE_JUDGE_MODEL)
	RoleRouter Role = "router" // the CARE LLM router (ACE_ROUTER_MODEL)
)

// Config configures a Client. The zero value of every duration and count
// means its default.
type Config struct {
	// BaseURL of the OpenAI-compatible API including its version path, e.g.
	// "https://api.openai.com/v1", "http://localhost:8000/v1" (vLLM),
	// "http://localhost:11434/v1" (Ollama). Empty means OpenAI.
	BaseURL string
	// APIKey is sent as a bearer token; local servers usually ignore it.
	APIKey string
	// Models per role. JudgeModel defaults to AgentModel and RouterModel to
	// JudgeModel, so one model name is enough to run everything.
	AgentModel, JudgeModel, RouterModel string

	// Timeout bounds one HTTP attempt (default 120 s).
	Timeout time.Duration
	// MaxRetries is the number of retries after the first attempt on 429,
	// 5xx, timeouts and connection errors (default 4; negative means none).
	MaxRetries int
	// Backoff is the first retry delay without Retry-After; it doubles per
	// retry up to MaxBackoff, with full jitter in [d/2, d] (defaults 1 s, 30 s).
	Backoff, MaxBackoff time.Duration
	// MaxRetryAfter caps how long a server's Retry-After is honoured; a
	// longer demand fails the call instead of stalling it (default 5 min).
	MaxRetryAfter time.Duration

	// Prices maps a model name to its price; nil means DefaultPrices.
	Prices Prices
	// Limiter throttles requests and tokens per minute; nil means the
	// in-process token bucket from RPM and TPM (unlimited when both are 0).
	Limiter Limiter
	// RPM and TPM configure the default in-process limiter
	// (ACE_LLM_RPM, ACE_LLM_TPM).
	RPM, TPM int
	// MaxTokens, when > 0, caps every request's completion budget
	// (ACE_LLM_MAX_TOKENS); small local models need a cap below the agent's
	// default of 16,384 to leave room for the prompt in their context.
	MaxTokens int
}

const (
	defaultTimeout       = 120 * time.Second
	defaultMaxRetries    = 4
	defaultBackoff       = time.Second
	defaultMaxBackoff    = 30 * time.Second
	defaultMaxRetryAfter = 5 * time.Minute
)

func (c Config) withDefaults() Config {
	if c.JudgeModel == "" {
		c.JudgeModel = c.AgentModel
	}
	if c.RouterModel == "" {
		c.RouterModel = c.JudgeModel
	}
	if c.Timeout <= 0 {
		c.Timeout = defaultTimeout
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = defaultMaxRetries
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = 0
	}
	if c.Backoff <= 0 {
		c.Backoff = defaultBackoff
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = defaultMaxBackoff
	}
	if c.MaxRetryAfter <= 0 {
		c.MaxRetryAfter = defaultMaxRetryAfter
	}
	if c.Prices == nil {
		c.Prices = DefaultPrices()
	}
	return c
}

// ConfigFromEnv reads the model configuration from the environment:
// OPENAI_API_KEY (or OPENAI_API_KEY_FILE, a file holding it), OPENAI_BASE_URL, ACE_AGENT_MODEL, ACE_JUDGE_MODEL,
// ACE_ROUTER_MODEL, ACE_LLM_TIMEOUT (a Go duration, e.g. "90s"),
// ACE_LLM_MAX_RETRIES, ACE_LLM_RPM, ACE_LLM_TPM, ACE_LLM_MAX_TOKENS and ACE_PRICES (a JSON
// file path or inline JSON, merged over DefaultPrices). An unset model is
// not an error here; asking for it is (Client.Model).
func ConfigFromEnv() (Config, error) {
	c := Config{
		BaseURL:     os.Getenv("OPENAI_BASE_URL"),
		AgentModel:  os.Getenv("ACE_AGENT_MODEL"),
		JudgeModel:  os.Getenv("ACE_JUDGE_MODEL"),
		RouterModel: os.Getenv("ACE_ROUTER_MODEL"),
	}
	key, err := secret.Env("OPENAI_API_KEY")
	if err != nil {
		return c, err
	}
	c.APIKey = key
	if v := os.Getenv("ACE_LLM_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return c, fmt.Errorf("ACE_LLM_TIMEOUT=%q: want a positive Go duration such as 90s", v)
		}
		c.Timeout = d
	}
	for _, e := range []struct {
		name string
		dst  *int
	}{{"ACE_LLM_MAX_RETRIES", &c.MaxRetries}, {"ACE_LLM_RPM", &c.RPM}, {"ACE_LLM_TPM", &c.TPM}, {"ACE_LLM_MAX_TOKENS", &c.MaxTokens}} {
		v := os.Getenv(e.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return c, fmt.Errorf("%s=%q: want a non-negative integer", e.name, v)
		}
		*e.dst = n
		if e.name == "ACE_LLM_MAX_RETRIES" && n == 0 {
			*e.dst = -1 // explicit zero: no retries
		}
	}
	prices := DefaultPrices()
	if v := os.Getenv("ACE_PRICES"); v != "" {
		over, err := LoadPrices(v)
		if err != nil {
			return c, fmt.Errorf("ACE_PRICES: %w", err)
		}
		for k, p := range over {
			prices[k] = p
		}
	}
	c.Prices = prices
	return c, nil
}
