package llm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/cache"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
)

// Two clients (two workers) share one request budget through Redis: with 2
// requests/min, the third call of the pair waits.
func TestRedisLimiterIsSharedAcrossClients(t *testing.T) {
	ctx := context.Background()
	name := fmt.Sprintf("llm-test-%d", time.Now().UnixNano())
	rate := cache.Rate{RequestsPerMin: 2, TokensPerMin: 1_000_000}
	l1 := cache.NewLimiter(ctx, cache.RedisConfig{URL: "redis://127.0.0.1:6379"}, name, rate)
	l2 := cache.NewLimiter(ctx, cache.RedisConfig{URL: "redis://127.0.0.1:6379"}, name, rate)
	defer l1.Close()
	defer l2.Close()
	if !l1.Shared() || !l2.Shared() {
		t.Skip("Redis at 127.0.0.1:6379 is not reachable")
	}
	srv := llmtest.NewServer(t, &llmtest.Script{Name: "limit", Steps: []llmtest.Step{{Forever: true, Text: "ok"}}})
	mk := func(l llm.Limiter) *llm.Client {
		cfg := srv.Config("m", "")
		cfg.Limiter = l
		return client(t, cfg)
	}
	a, b := mk(l1), mk(l2)
	if _, _, err := ask(a); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ask(b); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	_, call, err := a.Complete(short, llm.RoleAgent, "test", "s", "u", false)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "rate limiter") || len(call.Attempts) != 0 {
		t.Fatalf("the third request in a minute should wait for the shared budget, got %v", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("server saw %d requests, want 2", n)
	}
}
