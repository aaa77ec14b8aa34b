package llm_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
)

func TestChatEmitsAGenAISpan(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	t.Cleanup(func() { otel.SetTracerProvider(prev) })

	srv := llmtest.Load(t, scriptPath(t, "llm-usage.yaml"))
	c := client(t, srv.Config("gpt-4.1", "local-qwen"))
	if _, _, err := c.Complete(context.Background(), llm.RoleAgent, "act", "s", "u", false); err != nil {
		t.Fatal(err)
	}
	spans := rec.Ended()
	if len(spans) != 1 || spans[0].Name() != "chat gpt-4.1" {
		t.Fatalf("spans %v", spans)
	}
	got := map[string]any{}
	for _, kv := range spans[0].Attributes() {
		got[string(kv.Key)] = kv.Value.AsInterface()
	}
	if got["gen_ai.request.model"] != "gpt-4.1" || got["gen_ai.usage.input_tokens"] != int64(12000) ||
		got["gen_ai.usage.output_tokens"] != int64(500) || got["gen_ai.usage.cache_read.input_tokens"] != int64(10000) || got["ace.llm.purpose"] != "act" {
		t.Fatalf("attributes %v", got)
	}
}
