// Package telemetry sets up OpenTelemetry for ACE: a tracer provider and a
// meter provider exporting over OTLP (grpc or http/protobuf, per signal)
// when an OTLP endpoint is set (DESIGN.md §6: empty means no export), the
// W3C trace-context propagator, and helpers that carry trace context
// through NATS message headers so a span started by `ace batch` continues
// in the dispatcher and the workflow.
//
// The package does not import Temporal (internal/ never does); the
// Temporal tracing interceptor is wired in workers/.
package telemetry

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
)

// ShutdownTimeout bounds the final flush of Setup's shutdown: spans and
// metrics not delivered by then are dropped, so a process whose collector
// is unreachable (or speaks the other protocol) exits at most this long
// after its last output instead of retrying for a minute.
const ShutdownTimeout = time.Second

// warnings is where Setup's Warner writes (a test's buffer in tests).
var warnings io.Writer = os.Stderr

// MetricInterval is how often metrics are exported while a process runs;
// shutdown exports the last values whatever the interval.
const MetricInterval = 15 * time.Second

// Setup installs the global propagator always and, for each signal whose
// OTLP endpoint is set (ExportFromEnv: OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / _METRICS_ENDPOINT), its exporter
// over the signal's protocol (OTEL_EXPORTER_OTLP_[SIGNAL_]PROTOCOL: grpc,
// the default, or http/protobuf); the exporters read the other standard
// OTEL_EXPORTER_OTLP_* variables (headers, timeout, compression, TLS)
// themselves. The first failed export is printed on stderr with the
// endpoint and the settings to check (Warner), later ones are not. service
// names the process role ("ace-worker", "ace-batch"). The returned
// shutdown flushes and stops the providers within ShutdownTimeout (or
// ctx's deadline, if sooner); it is never nil. A protocol ACE does not
// speak is an error naming the variable.
func Setup(ctx context.Context, service string) (shutdown func(context.Context) error, err error) {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	noop := func(context.Context) error { return nil }
	traces, exportTraces, err := ExportFromEnv(SignalTraces, os.Getenv)
	if err != nil {
		return nil, err
	}
	metrics, exportMetrics, err := ExportFromEnv(SignalMetrics, os.Getenv)
	if err != nil {
		return nil, err
	}
	if !exportTraces && !exportMetrics {
		return noop, nil
	}
	var exports []Export
	if exportTraces {
		exports = append(exports, traces)
	}
	if exportMetrics {
		exports = append(exports, metrics)
	}
	warn := NewWarner(warnings, exports...)
	otel.SetErrorHandler(warn)
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(service)))
	if err != nil {
		return nil, err
	}
	var stops []func(context.Context) error
	if exportTraces {
		te, err := traces.traceExporter(ctx)
		if err != nil {
			return nil, err
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(warnSpans{te, traces, warn}), sdktrace.WithResource(res))
		otel.SetTracerProvider(tp)
		stops = append(stops, tp.Shutdown)
	}
	if exportMetrics {
		me, err := metrics.metricExporter(ctx)
		if err != nil {
			return nil, err
		}
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(warnMetrics{me, metrics, warn},
			sdkmetric.WithInterval(MetricInterval))), sdkmetric.WithResource(res))
		otel.SetMeterProvider(mp)
		stops = append(stops, mp.Shutdown)
	}
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, ShutdownTimeout)
		defer cancel()
		errs := make([]error, len(stops))
		var wg sync.WaitGroup
		for i, stop := range stops {
			wg.Go(func() { errs[i] = stop(ctx) })
		}
		wg.Wait()
		return errors.Join(errs...)
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
