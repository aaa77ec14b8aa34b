package telemetry

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

func TestExportFromEnvFollowsTheOTLPExporterSpec(t *testing.T) {
	cases := []struct {
		name     string
		env      map[string]string
		signal   Signal
		ok       bool
		protocol Protocol
		endpoint string
		errVar   string
	}{
		{name: "nothing set", env: nil, signal: SignalTraces},
		{name: "general endpoint, default protocol", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317"},
			signal: SignalTraces, ok: true, protocol: ProtocolGRPC, endpoint: "http://c:4317"},
		{name: "http/protobuf appends the signal path", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/",
			"OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"}, signal: SignalMetrics, ok: true, protocol: ProtocolHTTPProtobuf, endpoint: "http://c:4318/v1/metrics"},
		{name: "signal endpoint used as is and wins", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
			"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t:9/x", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"},
			signal: SignalTraces, ok: true, protocol: ProtocolHTTPProtobuf, endpoint: "http://t:9/x"},
		{name: "signal endpoint alone exports only that signal", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t:4317"},
			signal: SignalMetrics},
		{name: "signal protocol wins", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
			"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL": "http/protobuf"},
			signal: SignalMetrics, ok: true, protocol: ProtocolHTTPProtobuf, endpoint: "http://c:4318/v1/metrics"},
		{name: "exporter none", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_TRACES_EXPORTER": "none"},
			signal: SignalTraces},
		{name: "http/json refused", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
			"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json"}, signal: SignalTraces, errVar: "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, ok, err := ExportFromEnv(c.signal, func(k string) string { return c.env[k] })
			if c.errVar != "" {
				if err == nil || !strings.Contains(err.Error(), c.errVar) {
					t.Fatalf("err %v, want one naming %s", err, c.errVar)
				}
				return
			}
			if err != nil || ok != c.ok {
				t.Fatalf("ok %v err %v, want ok %v", ok, err, c.ok)
			}
			if ok && (e.Protocol != c.protocol || e.Endpoint != c.endpoint) {
				t.Errorf("got %s %s, want %s %s", e.Protocol, e.Endpoint, c.protocol, c.endpoint)
			}
		})
	}
}

// syncBuffer is a bytes.Buffer safe for the exporter goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func captureWarnings(t *testing.T) *syncBuffer {
	var buf syncBuffer
	prev := warnings
	warnings = &buf
	prevTP, prevMP, prevEH := otel.GetTracerProvider(), otel.GetMeterProvider(), otel.GetErrorHandler()
	t.Cleanup(func() {
		warnings = prev
		otel.SetTracerProvider(prevTP)
		otel.SetMeterProvider(prevMP)
		otel.SetErrorHandler(prevEH)
	})
	return &buf
}

// TestSetupExportsOverOTLPHTTP: with OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf
// a span reaches an OTLP/HTTP receiver at <endpoint>/v1/traces as a
// protobuf ExportTraceServiceRequest, and nothing is warned.
func TestSetupExportsOverOTLPHTTP(t *testing.T) {
	warned := captureWarnings(t)
	var mu sync.Mutex
	var names []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		if r.URL.Path != "/v1/traces" {
			w.WriteHeader(http.StatusOK) // metrics: not asserted here
			return
		}
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(data, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					names = append(names, s.Name)
				}
			}
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	shutdown, err := Setup(context.Background(), "ace-test")
	if err != nil {
		t.Fatal(err)
	}
	_, span := otel.Tracer("t").Start(context.Background(), "over-http")
	span.End()
	if err := shutdown(context.Background()); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(names) != 1 || names[0] != "over-http" {
		t.Errorf("receiver got spans %v, want [over-http]", names)
	}
	if w := warned.String(); w != "" {
		t.Errorf("warned with a working receiver: %s", w)
	}
}

// TestUnreachableEndpointWarnsOnce: exports to a port nobody listens on
// print one warning naming the endpoint and the variables to fix,
// however many exports fail.
func TestUnreachableEndpointWarnsOnce(t *testing.T) {
	warned := captureWarnings(t)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + lis.Addr().String()
	lis.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", url)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	shutdown, err := Setup(context.Background(), "ace-test")
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		_, span := otel.Tracer("t").Start(context.Background(), "lost")
		span.End()
		otel.GetTracerProvider().(interface{ ForceFlush(context.Context) error }).ForceFlush(context.Background())
	}
	shutdown(context.Background())
	w := warned.String()
	if n := strings.Count(w, "OTLP export"); n != 1 {
		t.Fatalf("%d warnings, want 1:\n%s", n, w)
	}
	for _, want := range []string{url + "/v1/traces", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning does not name %s:\n%s", want, w)
		}
	}
}
