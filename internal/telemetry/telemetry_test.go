package telemetry

import (
	"context"
	"testing"

	"github.com/nats-io/nats.go"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

func TestTraceContextSurvivesNATSHeaders(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	shutdown, err := Setup(context.Background(), "ace-test")
	if err != nil {
		t.Fatal(err)
	}
	defer shutdown(context.Background())
	tp := sdktrace.NewTracerProvider()
	ctx, span := tp.Tracer("t").Start(context.Background(), "publish")
	defer span.End()

	h := nats.Header{}
	InjectNATS(ctx, h)
	if h.Get("traceparent") == "" {
		t.Fatalf("no traceparent header: %v", h)
	}
	got := trace.SpanContextFromContext(ExtractNATS(context.Background(), h))
	if got.TraceID() != span.SpanContext().TraceID() || !got.IsRemote() {
		t.Errorf("extracted %v, want trace %v", got.TraceID(), span.SpanContext().TraceID())
	}
	if c := trace.SpanContextFromContext(ExtractNATS(context.Background(), nats.Header{})); c.IsValid() {
		t.Errorf("empty headers gave a span context %v", c)
	}
	var _ propagation.TextMapCarrier = headerCarrier(h)
}

func TestSetupWithEndpointBuildsExporters(t *testing.T) {
	// The gRPC exporters connect lazily, so an address nobody listens on
	// still sets up; shutdown must return (flushing nothing) promptly.
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	shutdown, err := Setup(context.Background(), "ace-test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3e9)
	defer cancel()
	_ = shutdown(ctx)
}
