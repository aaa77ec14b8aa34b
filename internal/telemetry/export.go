package telemetry

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Protocol is an OTLP transport, as OTEL_EXPORTER_OTLP_PROTOCOL names it
// (OTel specification, "OpenTelemetry Protocol Exporter", "Specify
// Protocol"). ACE speaks grpc and http/protobuf; http/json is refused.
type Protocol string

const (
	ProtocolGRPC         Protocol = "grpc"
	ProtocolHTTPProtobuf Protocol = "http/protobuf"
)

// DefaultProtocol is used when neither OTEL_EXPORTER_OTLP_PROTOCOL nor the
// signal's own variable is set. The specification's SDK default is
// http/protobuf; ACE keeps grpc, which its deployments (compose, k8s:
// port 4317) were written for.
const DefaultProtocol = ProtocolGRPC

// Signal is an OTel signal ACE exports: "traces" or "metrics".
type Signal string

const (
	SignalTraces  Signal = "traces"
	SignalMetrics Signal = "metrics"
)

// Export is the OTLP export configuration of one signal, read from the
// environment by ExportFromEnv. The exporters read the same variables
// themselves (endpoint, headers, timeout, compression, certificates);
// Export holds what ACE decides on (export or not, which protocol) and
// what its warning names.
type Export struct {
	Signal   Signal
	Protocol Protocol
	// ProtocolVar is the variable that chose Protocol ("" for the default).
	ProtocolVar string
	// Endpoint is where the exporter sends, as a URL: the signal's own
	// endpoint as given, else the general one with /v1/<signal> appended
	// for http/protobuf (specification, "Endpoint URLs for OTLP/HTTP").
	Endpoint string
	// EndpointVar is the variable that set Endpoint.
	EndpointVar string
}

func envVar(signal Signal, name string) string {
	return "OTEL_EXPORTER_OTLP_" + strings.ToUpper(string(signal)) + "_" + name
}

// ExportFromEnv reads signal's export configuration with getenv (os.Getenv
// in production): ok is false when neither OTEL_EXPORTER_OTLP_ENDPOINT nor
// OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT is set, or OTEL_<SIGNAL>_EXPORTER is
// "none" (empty means no export, DESIGN.md §6). The protocol is
// OTEL_EXPORTER_OTLP_<SIGNAL>_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL,
// else DefaultProtocol; another value than grpc or http/protobuf is an
// error naming the variable.
func ExportFromEnv(signal Signal, getenv func(string) string) (Export, bool, error) {
	e := Export{Signal: signal, Protocol: DefaultProtocol}
	if strings.TrimSpace(getenv("OTEL_"+strings.ToUpper(string(signal))+"_EXPORTER")) == "none" {
		return e, false, nil
	}
	for _, v := range []string{envVar(signal, "PROTOCOL"), "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if p := strings.TrimSpace(getenv(v)); p != "" {
			switch Protocol(p) {
			case ProtocolGRPC, ProtocolHTTPProtobuf:
			default:
				return e, false, fmt.Errorf("%s=%s: ACE exports OTLP as grpc or http/protobuf; set one of those (or unset it for %s)", v, p, DefaultProtocol)
			}
			e.Protocol, e.ProtocolVar = Protocol(p), v
			break
		}
	}
	if u := strings.TrimSpace(getenv(envVar(signal, "ENDPOINT"))); u != "" {
		e.Endpoint, e.EndpointVar = u, envVar(signal, "ENDPOINT")
		return e, true, nil
	}
	u := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT"))
	if u == "" {
		return e, false, nil
	}
	e.Endpoint, e.EndpointVar = u, "OTEL_EXPORTER_OTLP_ENDPOINT"
	if e.Protocol == ProtocolHTTPProtobuf {
		e.Endpoint = strings.TrimSuffix(u, "/") + "/v1/" + string(signal)
	}
	return e, true, nil
}

// describe says where e sends and which variables set that, for the
// warning after a failed export.
func (e Export) describe() string {
	pv := e.ProtocolVar
	if pv == "" {
		pv = "the default, OTEL_EXPORTER_OTLP_PROTOCOL being unset"
	}
	return fmt.Sprintf("%s to %s over %s (set by %s and %s)", e.Signal, e.Endpoint, e.Protocol, e.EndpointVar, pv)
}

// traceExporter builds the OTLP span exporter of e's protocol; the
// exporter reads the endpoint, headers, timeout and TLS settings from the
// standard variables itself.
func (e Export) traceExporter(ctx context.Context) (sdktrace.SpanExporter, error) {
	if e.Protocol == ProtocolHTTPProtobuf {
		return otlptracehttp.New(ctx)
	}
	return otlptracegrpc.New(ctx)
}

// metricExporter is traceExporter for metrics.
func (e Export) metricExporter(ctx context.Context) (sdkmetric.Exporter, error) {
	if e.Protocol == ProtocolHTTPProtobuf {
		return otlpmetrichttp.New(ctx)
	}
	return otlpmetricgrpc.New(ctx)
}

// Warner is the otel.ErrorHandler ACE installs: the first error it is
// given is printed on its writer (stderr) with where the export went and
// the settings to check; every later one is dropped, so an unreachable
// collector costs one line, not one per batch of spans.
type Warner struct {
	w       io.Writer
	exports []Export
	once    sync.Once
}

// NewWarner returns a Warner writing to w (os.Stderr when nil) about the
// given exports.
func NewWarner(w io.Writer, exports ...Export) *Warner {
	if w == nil {
		w = os.Stderr
	}
	return &Warner{w: w, exports: exports}
}

// Handle implements otel.ErrorHandler.
func (h *Warner) Handle(err error) { h.failed(nil, err) }

// failed reports err of e's exporter (nil e: of any of them).
func (h *Warner) failed(e *Export, err error) {
	if err == nil {
		return
	}
	h.once.Do(func() {
		var where []string
		if e != nil {
			where = append(where, e.describe())
		} else {
			for _, x := range h.exports {
				where = append(where, x.describe())
			}
		}
		what := "telemetry"
		if e != nil {
			what = string(e.Signal)
		}
		fmt.Fprintf(h.w, "ace: OTLP export of %s failed: %v\n  sending %s;\n  check that an OTLP collector listens there and speaks that protocol (OTEL_EXPORTER_OTLP_PROTOCOL: grpc or http/protobuf); later telemetry errors are not shown\n",
			what, err, strings.Join(where, "; "))
	})
}

// warnSpans reports its exporter's errors to a Warner before returning
// them: the global error handler is process-wide, and an embedded
// Temporal server replaces it with its own (which logs to temporal.log)
// when it starts and with a silent one when it stops.
type warnSpans struct {
	sdktrace.SpanExporter
	e Export
	h *Warner
}

func (w warnSpans) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := w.SpanExporter.ExportSpans(ctx, spans)
	w.h.failed(&w.e, err)
	return err
}

// warnMetrics is warnSpans for the metric exporter.
type warnMetrics struct {
	sdkmetric.Exporter
	e Export
	h *Warner
}

func (w warnMetrics) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	err := w.Exporter.Export(ctx, rm)
	w.h.failed(&w.e, err)
	return err
}
