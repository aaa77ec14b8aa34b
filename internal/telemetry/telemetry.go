// Package telemetry sets up OpenTelemetry for ACE: a tracer provider and a
// meter provider exporting over OTLP/gRPC when OTEL_EXPORTER_OTLP_ENDPOINT
// is set (DESIGN.md §6: empty means no export), the W3C trace-context
// propagator, and helpers that carry trace context through NATS message
// headers so a span started by `ace batch` continues in the dispatcher and
// the workflow.
//
// The package does not import Temporal (internal/ never does); the
// Temporal tracing interceptor is wired in workers/.
package telemetry

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/nats-io/nats.go"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
)

// Setup installs the global propagator always, and the OTLP trace and
// metric exporters when OTEL_EXPORTER_OTLP_ENDPOINT is set (the exporters
// read the standard OTEL_EXPORTER_OTLP_* variables themselves). service
// names the process role ("ace-worker", "ace-batch"). The returned
// shutdown flushes and stops the providers; it is never nil.
func Setup(ctx context.Context, service string) (shutdown func(context.Context) error, err error) {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" {
		return func(context.Context) error { return nil }, nil
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(service)))
	if err != nil {
		return nil, err
	}
	te, err := otlptracegrpc.New(ctx)
	if err != nil {
		return nil, err
	}
	me, err := otlpmetricgrpc.New(ctx)
	if err != nil {
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(te), sdktrace.WithResource(res))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(me, sdkmetric.WithInterval(15*time.Second))), sdkmetric.WithResource(res))
	otel.SetTracerProvider(tp)
	otel.SetMeterProvider(mp)
	return func(ctx context.Context) error {
		return errors.Join(tp.Shutdown(ctx), mp.Shutdown(ctx))
	}, nil
}

// headerCarrier adapts nats.Header to the propagation.TextMapCarrier.
type headerCarrier nats.Header

func (h headerCarrier) Get(key string) string { return nats.Header(h).Get(key) }
func (h headerCarrier) Set(key, value string) { nats.Header(h).Set(key, value) }
func (h headerCarrier) Keys() []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	return keys
}

// InjectNATS writes ctx's trace context (traceparent, tracestate, baggage)
// into h.
func InjectNATS(ctx context.Context, h nats.Header) {
	if h == nil {
		return
	}
	otel.GetTextMapPropagator().Inject(ctx, headerCarrier(h))
}

// ExtractNATS returns ctx carrying the trace context found in h.
func ExtractNATS(ctx context.Context, h nats.Header) context.Context {
	if h == nil {
		return ctx
	}
	return otel.GetTextMapPropagator().Extract(ctx, headerCarrier(h))
}
