package workers

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel"
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"

	"github.com/acecanvas/ace/activities"
	"github.com/acecanvas/ace/internal/telemetry"
)

// metricsHandler reports the SDK's metrics (workflow and activity
// latencies, task queue polls) through OpenTelemetry; nil until
// SetupTelemetry runs.
var metricsHandler client.MetricsHandler

// SetupTelemetry installs OpenTelemetry for a process role (see
// internal/telemetry.Setup), Temporal's OTel tracing interceptor on every
// client (and so every worker) Connect makes, and trace-context
// propagation through NATS headers for jobs, events and results.
func SetupTelemetry(ctx context.Context, service string) (func(context.Context) error, error) {
	shutdown, err := telemetry.Setup(ctx, service)
	if err != nil {
		return nil, fmt.Errorf("telemetry: %w", err)
	}
	tracing, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{Tracer: otel.Tracer("ace/temporal")})
	if err != nil {
		return nil, fmt.Errorf("temporal tracing interceptor: %w", err)
	}
	Interceptors = []interceptor.ClientInterceptor{tracing}
	metricsHandler = temporalotel.NewMetricsHandler(temporalotel.MetricsHandlerOptions{Meter: otel.Meter("ace/temporal")})
	InjectTrace, ExtractTrace = telemetry.InjectNATS, telemetry.ExtractNATS
	activities.InjectTrace = telemetry.InjectNATS
	return shutdown, nil
}
