package llm

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// tracer reports one span per Call through the global tracer provider
// (a no-op until internal/telemetry installs one), with the OpenTelemetry
// GenAI semantic-convention attributes.
var tracer = otel.Tracer("github.com/acecanvas/ace/internal/llm")

func startSpan(ctx context.Context, role Role, purpose, model string) (context.Context, trace.Span) {
	return tracer.Start(ctx, "chat "+model, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "chat"),
		attribute.String("gen_ai.system", "openai"),
		attribute.String("gen_ai.request.model", model),
		attribute.String("ace.llm.role", string(role)),
		attribute.String("ace.llm.purpose", purpose),
	))
}

func endSpan(span trace.Span, c Call) {
	span.SetAttributes(
		attribute.Int("gen_ai.usage.input_tokens", c.PromptTokens),
		attribute.Int("gen_ai.usage.output_tokens", c.CompletionTokens),
		attribute.Int("gen_ai.usage.cache_read.input_tokens", c.CachedPromptTokens),
		attribute.Int("ace.llm.attempts", len(c.Attempts)),
		attribute.Float64("ace.llm.cost_usd", c.CostUSD),
	)
	if c.Error != "" {
		span.SetStatus(codes.Error, c.Error)
	}
	span.End()
}
