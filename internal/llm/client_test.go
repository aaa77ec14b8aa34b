package llm_test

import (
	"context"
	"errors"
	"math"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
)

func scriptPath(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "scripts", name)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
}

func client(t *testing.T, cfg llm.Config) *llm.Client {
	t.Helper()
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ask(c *llm.Client) (string, llm.Call, error) {
	return c.Complete(context.Background(), llm.RoleAgent, "test", "You answer briefly.", "Say hello.", false)
}

func TestChatHonoursRetryAfterOn429(t *testing.T) {
	srv := llmtest.Load(t, scriptPath(t, "llm-retry-429.yaml"))
	c := client(t, srv.Config("m", ""))
	start := time.Now()
	text, call, err := ask(c)
	if err != nil {
		t.Fatal(err)
	}
	if text != "hello after the rate limit" {
		t.Fatalf("text %q", text)
	}
	if el := time.Since(start); el < time.Second {
		t.Fatalf("retried after %s, before the server's Retry-After of 1s", el)
	}
	if len(call.Attempts) != 2 || call.Attempts[0].Status != 429 || call.Attempts[0].RetryAfterMS != 1000 || call.Attempts[0].WaitMS != 1000 {
		t.Fatalf("attempts not recorded as 429 + Retry-After 1s: %+v", call.Attempts)
	}
	if len(srv.Requests()) != 2 {
		t.Fatalf("server saw %d requests, want 2", len(srv.Requests()))
	}
}

func TestChatRetries5xxWithBackoff(t *testing.T) {
	srv := llmtest.Load(t, scriptPath(t, "llm-retry-500.yaml"))
	c := client(t, srv.Config("m", ""))
	text, call, err := ask(c)
	if err != nil {
		t.Fatal(err)
	}
	if text != "hello after two server errors" || call.Retries() != 2 {
		t.Fatalf("text %q after %d retries", text, call.Retries())
	}
	for _, a := range call.Attempts[:2] {
		if a.Status != 500 || a.WaitMS <= 0 || a.Error == "" {
			t.Fatalf("5xx attempt not recorded with its wait: %+v", a)
		}
	}
}

func TestChatGivesUpAfterMaxRetries(t *testing.T) {
	srv := llmtest.Load(t, scriptPath(t, "llm-500-forever.yaml"))
	cfg := srv.Config("m", "")
	cfg.MaxRetries = 2
	_, call, err := ask(client(t, cfg))
	if err == nil || !strings.Contains(err.Error(), "after 3 attempts") {
		t.Fatalf("want a failure after 3 attempts, got %v", err)
	}
	if len(call.Attempts) != 3 || call.Error == "" {
		t.Fatalf("call record %+v", call)
	}
}

func TestChatRetriesAfterTimeout(t *testing.T) {
	srv := llmtest.Load(t, scriptPath(t, "llm-timeout.yaml"))
	cfg := srv.Config("m", "")
	cfg.Timeout = 300 * time.Millisecond
	text, call, err := ask(client(t, cfg))
	if err != nil {
		t.Fatal(err)
	}
	if text != "on time" || len(call.Attempts) != 2 {
		t.Fatalf("text %q, attempts %+v", text, call.Attempts)
	}
	if a := call.Attempts[0]; a.Status != 0 || !strings.Contains(a.Error, "timed out") {
		t.Fatalf("first attempt should be a recorded timeout, got %+v", a)
	}
}

func TestChatDoesNotRetryContextLength(t *testing.T) {
	srv := llmtest.Load(t, scriptPath(t, "llm-context-length.yaml"))
	_, call, err := ask(client(t, srv.Config("m", "")))
	if !errors.Is(err, llm.ErrContextLength) {
		t.Fatalf("want ErrContextLength, got %v", err)
	}
	if len(call.Attempts) != 1 || len(srv.Requests()) != 1 || srv.Unserved() != 1 {
		t.Fatalf("context-length error was retried: attempts %d, requests %d", len(call.Attempts), len(srv.Requests()))
	}
	if !strings.Contains(err.Error(), "128000") {
		t.Fatalf("error should carry the server's explanation: %v", err)
	}
}

func TestChatRecordsUsageAndCost(t *testing.T) {
	srv := llmtest.Load(t, scriptPath(t, "llm-usage.yaml"))
	cfg := srv.Config("gpt-4.1", "local-qwen")
	c := client(t, cfg)
	_, priced, err := c.Complete(context.Background(), llm.RoleAgent, "act", "s", "u", false)
	if err != nil {
		t.Fatal(err)
	}
	// gpt-4.1: 2000 uncached x $2 + 10000 cached x $0.5 + 500 out x $8, per 1M.
	want := (2000*2.0 + 10000*0.5 + 500*8.0) / 1e6
	if priced.PromptTokens != 12000 || priced.CachedPromptTokens != 10000 || priced.CompletionTokens != 500 {
		t.Fatalf("usage %+v", priced)
	}
	if !priced.Priced || math.Abs(priced.CostUSD-want) > 1e-12 {
		t.Fatalf("cost %v (priced %v), want %v", priced.CostUSD, priced.Priced, want)
	}
	_, local, err := c.Complete(context.Background(), llm.RoleJudge, "judge-if", "s", "u", true)
	if err != nil {
		t.Fatal(err)
	}
	if local.Priced || local.CostUSD != 0 || local.PromptTokens != 3000 {
		t.Fatalf("an unpriced model must cost 0 and say so: %+v", local)
	}
	u := llm.Sum([]llm.Call{priced, local})
	if u.Calls != 2 || u.PromptTokens != 15000 || u.Unpriced != 1 || u.CostUSD != priced.CostUSD {
		t.Fatalf("sum %+v", u)
	}
	// The judge asked for JSON; the request carried response_format.
	if rf := srv.Requests()[1].Chat.ResponseFormat; rf == nil || rf.Type != "json_object" {
		t.Fatalf("json mode not sent: %+v", rf)
	}
	if !strings.Contains(string(srv.Requests()[0].Body), `"temperature":1e-45`) {
		t.Fatalf("temperature 0 must be sent, not omitted: %s", srv.Requests()[0].Body)
	}
}

func TestPriceOverrideFromEnv(t *testing.T) {
	t.Setenv("ACE_AGENT_MODEL", "my-vllm-model")
	t.Setenv("ACE_PRICES", `{"my-vllm-model": {"input": 0.1, "cachedInput": 0.01, "output": 0.2}}`)
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	p, ok := cfg.Prices.Lookup("my-vllm-model")
	if !ok || p.Output != 0.2 {
		t.Fatalf("override not applied: %+v %v", p, ok)
	}
	if _, ok := cfg.Prices.Lookup("gpt-4.1-2025-04-14"); !ok {
		t.Fatal("defaults lost, or a dated snapshot does not find its base price")
	}
	if p, _ := cfg.Prices.Lookup("gpt-4.1-mini-2025-04-14"); p.Input != 0.40 {
		t.Fatalf("longest prefix must win: %+v", p)
	}
	t.Setenv("ACE_PRICES", filepath.Join(t.TempDir(), "missing.json"))
	if _, err := llm.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), "ACE_PRICES") {
		t.Fatalf("a missing price file must be a clear error, got %v", err)
	}
	t.Setenv("ACE_PRICES", `{"m": {"inputt": 1}}`)
	if _, err := llm.ConfigFromEnv(); err == nil {
		t.Fatal("a misspelt price field must be rejected")
	}
}

func TestNoModelIsAClearError(t *testing.T) {
	c := client(t, llm.Config{})
	_, call, err := ask(c)
	if !errors.Is(err, llm.ErrNoModel) || !strings.Contains(err.Error(), "ACE_AGENT_MODEL") {
		t.Fatalf("want ErrNoModel naming ACE_AGENT_MODEL, got %v", err)
	}
	if call.Error == "" || len(call.Attempts) != 0 {
		t.Fatalf("no request may be sent without a model: %+v", call)
	}
}

func TestBadBaseURL(t *testing.T) {
	if _, err := llm.New(llm.Config{BaseURL: "localhost:8000/v1"}); err == nil || !strings.Contains(err.Error(), "OPENAI_BASE_URL") {
		t.Fatalf("want an error naming OPENAI_BASE_URL, got %v", err)
	}
}

func TestLocalLimiterThrottles(t *testing.T) {
	lim := llm.NewLocalLimiter(2, 0) // two requests per minute
	ctx := context.Background()
	for i := range 2 {
		if err := lim.Wait(ctx, 10); err != nil {
			t.Fatalf("request %d within the budget waited: %v", i, err)
		}
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if err := lim.Wait(short, 10); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("third request in a minute should wait ~30s, got %v", err)
	}
	tok := llm.NewLocalLimiter(0, 1000) // 1000 tokens per minute
	if err := tok.Wait(ctx, 900); err != nil {
		t.Fatal(err)
	}
	short2, cancel2 := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel2()
	if err := tok.Wait(short2, 900); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("token budget not enforced: %v", err)
	}
}

type countingLimiter struct{ calls, tokens int }

func (l *countingLimiter) Wait(_ context.Context, n int) error { l.calls++; l.tokens += n; return nil }

func TestLimiterHookSeesEveryAttempt(t *testing.T) {
	srv := llmtest.Load(t, scriptPath(t, "llm-retry-500.yaml"))
	lim := &countingLimiter{}
	cfg := srv.Config("m", "")
	cfg.Limiter = lim
	if _, _, err := ask(client(t, cfg)); err != nil {
		t.Fatal(err)
	}
	if lim.calls != 3 || lim.tokens <= 0 {
		t.Fatalf("limiter saw %d waits (%d tokens), want one per attempt (3)", lim.calls, lim.tokens)
	}
}

func TestAuthAndModelErrorsNameTheSettingAndAreNotRetried(t *testing.T) {
	srv := llmtest.Load(t, scriptPath(t, "llm-auth.yaml"))
	c := client(t, srv.Config("gtp-4.1", ""))
	_, call, err := ask(c)
	if err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY") || len(call.Attempts) != 1 {
		t.Fatalf("401: %v, %d attempts", err, len(call.Attempts))
	}
	_, call, err = ask(c)
	if err == nil || !strings.Contains(err.Error(), "ACE_AGENT_MODEL") || !strings.Contains(err.Error(), "does not exist") || len(call.Attempts) != 1 {
		t.Fatalf("404: %v, %d attempts", err, len(call.Attempts))
	}
}

func TestReasoningModelsGetMaxCompletionTokensAndNoTemperature(t *testing.T) {
	srv := llmtest.Load(t, scriptPath(t, "llm-reasoning-model.yaml"))
	c := client(t, srv.Config("gpt-5-mini", ""))
	resp, err := c.Chat(context.Background(), llm.Request{Role: llm.RoleAgent, MaxTokens: 16384,
		Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}})
	if err != nil {
		t.Fatalf("a gpt-5 request must pass go-openai's checks: %v", err)
	}
	body := string(srv.Requests()[0].Body)
	if !strings.Contains(body, `"max_completion_tokens":16384`) || strings.Contains(body, `"max_tokens"`) || strings.Contains(body, `"temperature"`) {
		t.Fatalf("body %s", body)
	}
	if want := (1000*0.25 + 400*2.0) / 1e6; math.Abs(resp.Call.CostUSD-want) > 1e-12 {
		t.Fatalf("cost %v want %v", resp.Call.CostUSD, want)
	}
}

func TestARequestRefusedBeforeSendingIsNotRetried(t *testing.T) {
	srv := llmtest.Load(t, scriptPath(t, "llm-usage.yaml"))
	c := client(t, srv.Config("gpt-4.1", ""))
	// go-openai refuses Content and MultiContent together, before any HTTP.
	_, err := c.Chat(context.Background(), llm.Request{Role: llm.RoleAgent, Messages: []openai.ChatCompletionMessage{{
		Role: "user", Content: "x", MultiContent: []openai.ChatMessagePart{{Type: "text", Text: "y"}}}}})
	if err == nil || !strings.Contains(err.Error(), "not sent") || len(srv.Requests()) != 0 {
		t.Fatalf("want an unretried 'not sent' error, got %v (%d requests)", err, len(srv.Requests()))
	}
}

func TestMaxTokensCapFromEnv(t *testing.T) {
	srv := llmtest.Load(t, scriptPath(t, "llm-retry-500.yaml"))
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("ACE_AGENT_MODEL", "m")
	t.Setenv("ACE_LLM_MAX_TOKENS", "2048")
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Backoff = time.Millisecond
	c := client(t, cfg)
	if _, err := c.Chat(context.Background(), llm.Request{Role: llm.RoleAgent, MaxTokens: 16384,
		Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[0].Chat.MaxTokens; got != 2048 {
		t.Fatalf("max_tokens %d, want the 2048 cap", got)
	}
}

// Reachable: a scripted server answers (and its probe is not a scripted
// request); a closed port is named with what to check.
func TestReachable(t *testing.T) {
	srv := llmtest.NewServer(t, &llmtest.Script{Name: "probe", Steps: []llmtest.Step{{Model: "agent-m", Text: "hi"}}})
	c, err := llm.New(srv.Config("agent-m", ""))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Reachable(context.Background(), 5*time.Second); err != nil {
		t.Fatalf("scripted server: %v", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("the probe was recorded as %d scripted requests", n)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	cfg := srv.Config("agent-m", "")
	cfg.BaseURL = "http://" + addr + "/v1"
	c, _ = llm.New(cfg)
	err = c.Reachable(context.Background(), 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "OPENAI_BASE_URL") {
		t.Fatalf("closed port: %v", err)
	}
}

func TestAPIKeyFromFile(t *testing.T) {
	srv := llmtest.Load(t, scriptPath(t, "llm-usage.yaml"))
	keyFile := filepath.Join(t.TempDir(), "openai-key")
	if err := os.WriteFile(keyFile, []byte("sk-from-a-mounted-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("ACE_AGENT_MODEL", "gpt-4.1")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_API_KEY_FILE", keyFile)
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ask(client(t, cfg)); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[0].Header.Get("Authorization"); got != "Bearer sk-from-a-mounted-secret" {
		t.Fatalf("Authorization = %q, want the file's key without its newline", got)
	}
	t.Setenv("OPENAI_API_KEY", "sk-also-inline")
	if _, err := llm.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY_FILE") || strings.Contains(err.Error(), "sk-") {
		t.Fatalf("both set must be refused naming the settings, never the key: %v", err)
	}
}
