package llm_test

import (
	"context"
	"testing"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
)

// BenchmarkChatRoundTrip measures the client's own overhead per call
// (request encoding, HTTP on loopback, decoding, accounting) against the
// scripted server.
func BenchmarkChatRoundTrip(b *testing.B) {
	srv := llmtest.NewServer(b, &llmtest.Script{Name: "bench", Steps: []llmtest.Step{{
		Forever: true, Text: `{"instruction_following_score": 4, "instruction_following_reason": "ok"}`,
		Usage: &llmtest.Usage{Prompt: 1000, Cached: 500, Completion: 20},
	}}})
	c, err := llm.New(srv.Config("gpt-4.1", ""))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := c.Complete(ctx, llm.RoleAgent, "bench", "system", "user", true); err != nil {
			b.Fatal(err)
		}
	}
}
