package llm

import (
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"3", 3 * time.Second},
		{"0.5", 500 * time.Millisecond},
		{"Mon, 30 Nov 2026 12:00:07 GMT", 7 * time.Second},
		{"Mon, 30 Nov 2026 11:00:00 GMT", 0}, // in the past
		{"soon", 0},
		{"-4", 0},
	}
	for _, c := range cases {
		if got := parseRetryAfter(c.in, now); got != c.want {
			t.Errorf("parseRetryAfter(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestIsContextLengthAcrossServers(t *testing.T) {
	for _, msg := range []string{
		"This model's maximum context length is 8192 tokens. However, you requested 9000 tokens", // OpenAI, vLLM
		"the request exceeds the available context size, try increasing it",                      // llama.cpp
	} {
		if !isContextLength(nil, msg) {
			t.Errorf("not recognised: %q", msg)
		}
	}
	if isContextLength(nil, "Rate limit reached") {
		t.Error("a rate limit is not a context-length error")
	}
}
