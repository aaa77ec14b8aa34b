package processtest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	colmetricspb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/acecanvas/ace/internal/shareddecks"
)

// otlpReceiver is a minimal OTLP collector: it keeps every span and
// metric it is sent, over gRPC (TraceService and MetricsService Export)
// or HTTP (application/x-protobuf POSTs on /v1/traces and /v1/metrics),
// as the OTLP specification defines them.
type otlpReceiver struct {
	coltracepb.UnimplementedTraceServiceServer

	mu      sync.Mutex
	spans   []*tracepb.Span
	service map[string]bool // service.name of every resource seen
	metrics map[string][]*metricspb.Metric
}

func newReceiver() *otlpReceiver {
	return &otlpReceiver{service: map[string]bool{}, metrics: map[string][]*metricspb.Metric{}}
}

func serviceName(attrs []*commonpb.KeyValue) string {
	for _, kv := range attrs {
		if kv.Key == "service.name" {
			return kv.Value.GetStringValue()
		}
	}
	return ""
}

func (r *otlpReceiver) Export(_ context.Context, req *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		r.service[serviceName(rs.GetResource().GetAttributes())] = true
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
	return &coltracepb.ExportTraceServiceResponse{}, nil
}

// metricsService adapts the receiver to MetricsService, whose Export has
// the same name as TraceService's.
type metricsService struct {
	colmetricspb.UnimplementedMetricsServiceServer
	r *otlpReceiver
}

func (m metricsService) Export(_ context.Context, req *colmetricspb.ExportMetricsServiceRequest) (*colmetricspb.ExportMetricsServiceResponse, error) {
	m.r.addMetrics(req)
	return &colmetricspb.ExportMetricsServiceResponse{}, nil
}

func (r *otlpReceiver) addMetrics(req *colmetricspb.ExportMetricsServiceRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rm := range req.ResourceMetrics {
		r.service[serviceName(rm.GetResource().GetAttributes())] = true
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				r.metrics[m.Name] = append(r.metrics[m.Name], m)
			}
		}
	}
}

// serveGRPC starts r as an OTLP/gRPC collector on loopback and returns
// its endpoint URL.
func (r *otlpReceiver) serveGRPC(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	coltracepb.RegisterTraceServiceServer(s, r)
	colmetricspb.RegisterMetricsServiceServer(s, metricsService{r: r})
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return "http://" + l.Addr().String()
}

// serveHTTP starts r as an OTLP/HTTP (binary protobuf) collector on
// loopback and returns its base URL.
func (r *otlpReceiver) serveHTTP(t *testing.T) string {
	t.Helper()
	decode := func(w http.ResponseWriter, req *http.Request, m proto.Message) bool {
		if req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/x-protobuf" {
			http.Error(w, "want a POST of application/x-protobuf", http.StatusUnsupportedMediaType)
			return false
		}
		body, err := io.ReadAll(req.Body)
		if err == nil {
			err = proto.Unmarshal(body, m)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return false
		}
		return true
	}
	reply := func(w http.ResponseWriter, m proto.Message) {
		b, _ := proto.Marshal(m)
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(b)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/traces", func(w http.ResponseWriter, req *http.Request) {
		var m coltracepb.ExportTraceServiceRequest
		if decode(w, req, &m) {
			r.Export(req.Context(), &m)
			reply(w, &coltracepb.ExportTraceServiceResponse{})
		}
	})
	mux.HandleFunc("/v1/metrics", func(w http.ResponseWriter, req *http.Request) {
		var m colmetricspb.ExportMetricsServiceRequest
		if decode(w, req, &m) {
			r.addMetrics(&m)
			reply(w, &colmetricspb.ExportMetricsServiceResponse{})
		}
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String()
}

// timedRun is a finished ace process: its output lines, when the last
// one was read, and when it exited.
type timedRun struct {
	lines    []string
	lastLine time.Time
	exited   time.Time
	err      error
}

// runTimed runs ace with env added (addresses and model unset, as run
// does) and records when each output line arrives and when the process
// exits. The output goes through pipes the test reads itself, so the exit
// time is the process's, not when its children close their copies.
func runTimed(t *testing.T, env []string, timeout time.Duration, args ...string) timedRun {
	t.Helper()
	cmd := exec.Command(ace(t), args...)
	cmd.Dir = repoRoot(t)
	// The test's OTEL_* settings only: the embedded Temporal server
	// refuses an OTEL_TRACES_EXPORTER that is set, even empty, to
	// anything but otlp.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OTEL_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "ACE_TEMPORAL_ADDRESS=", "ACE_NATS_URL=", "ACE_REDIS_URL=",
		"OPENAI_BASE_URL=", "OPENAI_API_KEY=", "ACE_AGENT_MODEL=")
	cmd.Env = append(cmd.Env, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	rout, wout, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = wout, wout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	wout.Close()
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	var (
		mu  sync.Mutex
		run timedRun
	)
	go func() {
		sc := bufio.NewScanner(rout)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		sc.Split(scanCRLF)
		for sc.Scan() {
			mu.Lock()
			run.lines = append(run.lines, sc.Text())
			run.lastLine = time.Now()
			mu.Unlock()
		}
		rout.Close()
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		now := time.Now()
		// Lines written just before exit may still be in the pipe.
		time.Sleep(200 * time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		run.exited, run.err = now, err
		return timedRun{lines: append([]string(nil), run.lines...), lastLine: run.lastLine, exited: run.exited, err: run.err}
	case <-time.After(timeout):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("ace %s did not exit within %v; output:\n%s", strings.Join(args, " "), timeout, strings.Join(run.lines, "\n"))
	}
	return timedRun{}
}

// telemetryDecks are the real decks the telemetry tests edit: two small
// ones, so a run takes seconds, and two so that traces per deck can be
// told apart.
func telemetryDecks(t *testing.T) []string {
	return []string{shareddecks.PPTXFile(t, "build_effective_agents.pptx"), shareddecks.PPTXFile(t, "table-report.pptx")}
}

func batchArgs(out string, decks []string) []string {
	return append([]string{"batch", "--recipe", "testdata/recipes/rebrand.yaml", "-o", out}, decks...)
}

func attr(attrs []*commonpb.KeyValue, key string) (*commonpb.AnyValue, bool) {
	for _, kv := range attrs {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

// checkExported checks what a self-hosted `ace batch` of decks delivered
// to r: one trace per deck, holding the workflow, a span per step the
// workflow ran (Temporal's RunActivity spans), the edit's ace.edit span
// naming the deck, and the ace.* metrics (one edit per deck) plus the
// Temporal SDK's.
func checkExported(t *testing.T, r *otlpReceiver, decks []string) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	byTrace := map[string][]*tracepb.Span{}
	for _, s := range r.spans {
		id := fmt.Sprintf("%x", s.TraceId)
		byTrace[id] = append(byTrace[id], s)
	}
	names := func(spans []*tracepb.Span) []string {
		var out []string
		for _, s := range spans {
			out = append(out, s.Name)
		}
		sort.Strings(out)
		return out
	}
	t.Logf("%d spans in %d traces; services %v", len(r.spans), len(byTrace), r.service)
	deckTrace := map[string]string{}
	for id, spans := range byTrace {
		for _, s := range spans {
			if s.Name != "ace.edit" {
				continue
			}
			v, _ := attr(s.Attributes, "ace.deck")
			deck := v.GetStringValue()
			if prev, ok := deckTrace[deck]; ok && prev != id {
				t.Errorf("deck %s has ace.edit spans in two traces, %s and %s", deck, prev, id)
			}
			deckTrace[deck] = id
		}
	}
	for _, d := range decks {
		deck := filepath.Base(d)
		id, ok := deckTrace[deck]
		if !ok {
			t.Errorf("no ace.edit span for deck %s; spans received: %v", deck, names(r.spans))
			continue
		}
		spans := byTrace[id]
		t.Logf("deck %s: trace %s, %d spans: %v", deck, id, len(spans), names(spans))
		have := map[string]bool{}
		for _, s := range spans {
			have[s.Name] = true
		}
		// The steps a recipe's edit runs: the compile and apply of its
		// calls (Act), the pictures before and after (Render), the
		// measured difference (Diff), the expectations (Check), the
		// edited file (Export) and the result (Publish); and the
		// workflow that ran them, started by the dispatcher.
		for _, want := range []string{"StartWorkflow:EditWorkflow", "RunWorkflow:EditWorkflow",
			"RunActivity:Act", "RunActivity:Render", "RunActivity:Diff", "RunActivity:Check",
			"RunActivity:Export", "RunActivity:Publish", "ace.edit"} {
			if !have[want] {
				t.Errorf("deck %s: no %s span in its trace", deck, want)
			}
		}
	}
	if len(deckTrace) != len(decks) {
		t.Errorf("ace.edit spans in %d traces for %d decks: %v", len(deckTrace), len(decks), deckTrace)
	}
	for _, s := range r.spans {
		if strings.HasPrefix(s.Name, "chat ") {
			for _, k := range []string{"gen_ai.request.model", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"} {
				if _, ok := attr(s.Attributes, k); !ok {
					t.Errorf("model span %s has no %s", s.Name, k)
				}
			}
		}
	}

	var metricNames []string
	for n := range r.metrics {
		metricNames = append(metricNames, n)
	}
	sort.Strings(metricNames)
	t.Logf("metrics: %v", metricNames)
	// The last export holds the cumulative totals.
	edits := r.metrics["ace.edits"]
	if len(edits) == 0 {
		t.Errorf("no ace.edits metric; metrics received: %v", metricNames)
	} else {
		var total int64
		for _, dp := range edits[len(edits)-1].GetSum().GetDataPoints() {
			total += dp.GetAsInt()
		}
		if total != int64(len(decks)) {
			t.Errorf("ace.edits = %d, want %d (one per deck)", total, len(decks))
		}
	}
	for _, want := range []string{"ace.edit.iterations", "ace.edit.duration", "ace.render.duration"} {
		if len(r.metrics[want]) == 0 {
			t.Errorf("no %s metric; metrics received: %v", want, metricNames)
		}
	}
	temporal := false
	for _, n := range metricNames {
		temporal = temporal || strings.HasPrefix(n, "temporal_")
	}
	if !temporal {
		t.Errorf("no temporal_* metric from the SDK; metrics received: %v", metricNames)
	}
}

// checkExit checks that a batch succeeded with every deck done and exited
// at most 2 s after its last output line (issue #20): the batch stops its
// workers and stack before the final table, so only telemetry's own
// bounded flush (telemetry.ShutdownTimeout) comes after it.
func checkExit(t *testing.T, run timedRun, out string, decks int) {
	t.Helper()
	if run.err != nil {
		t.Fatalf("ace batch: %v; output:\n%s", run.err, strings.Join(run.lines, "\n"))
	}
	sum := readSummary(t, out)
	if sum.Done != decks || sum.Failed != 0 {
		t.Errorf("summary: %d decks, %d done, %d failed", sum.Decks, sum.Done, sum.Failed)
	}
	gap := run.exited.Sub(run.lastLine)
	t.Logf("exit %v after the last output line", gap.Round(time.Millisecond))
	if gap > 2*time.Second {
		t.Errorf("exited %v after the last output line, want at most 2 s; output:\n%s", gap.Round(time.Millisecond), strings.Join(run.lines, "\n"))
	}
}

// TestBatchExportsOTLP runs a self-hosted `ace batch` (embedded stack,
// workers in the process) over two real decks against an OTLP collector
// on loopback, once per OTLP transport, and checks what arrived (issue
// #20): a trace per deck with a span per workflow step and the edit's
// step trace, and the ace.* and Temporal metrics.
func TestBatchExportsOTLP(t *testing.T) {
	decks := telemetryDecks(t)
	for _, tc := range []struct {
		protocol string
		serve    func(*otlpReceiver, *testing.T) string
	}{
		{"http/protobuf", (*otlpReceiver).serveHTTP},
		{"grpc", (*otlpReceiver).serveGRPC},
	} {
		t.Run(strings.ReplaceAll(tc.protocol, "/", "-"), func(t *testing.T) {
			r := newReceiver()
			endpoint := tc.serve(r, t)
			out := t.TempDir()
			run := runTimed(t, []string{"ACE_DATA_DIR=" + t.TempDir(), "OTEL_EXPORTER_OTLP_ENDPOINT=" + endpoint,
				"OTEL_EXPORTER_OTLP_PROTOCOL=" + tc.protocol}, 15*time.Minute, batchArgs(out, decks)...)
			for _, l := range run.lines {
				if strings.Contains(l, "OTLP export") {
					t.Errorf("export warning with a working collector: %s", l)
				}
			}
			checkExit(t, run, out, len(decks))
			checkExported(t, r, decks)
			if !r.service["ace-batch"] {
				t.Errorf("no resource with service.name ace-batch: %v", r.service)
			}
		})
	}
}

// TestBatchUnreachableCollector runs a self-hosted `ace batch` whose OTLP
// endpoint refuses connections, once per transport: the batch succeeds
// and prints exactly one export warning, naming the endpoint (issue #20).
func TestBatchUnreachableCollector(t *testing.T) {
	decks := telemetryDecks(t)[:1]
	for _, protocol := range []string{"http/protobuf", "grpc"} {
		t.Run(strings.ReplaceAll(protocol, "/", "-"), func(t *testing.T) {
			// A port that was just free: nothing listens there.
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			endpoint := "http://" + l.Addr().String()
			l.Close()
			out := t.TempDir()
			run := runTimed(t, []string{"ACE_DATA_DIR=" + t.TempDir(), "OTEL_EXPORTER_OTLP_ENDPOINT=" + endpoint,
				"OTEL_EXPORTER_OTLP_PROTOCOL=" + protocol}, 15*time.Minute, batchArgs(out, decks)...)
			var warnings []string
			for _, l := range run.lines {
				if strings.Contains(l, "OTLP export") {
					warnings = append(warnings, l)
				}
			}
			if len(warnings) != 1 {
				t.Errorf("%d export warnings, want 1; output:\n%s", len(warnings), strings.Join(run.lines, "\n"))
			} else if !strings.Contains(warnings[0], endpoint[len("http://"):]) {
				t.Errorf("the warning does not name the endpoint %s: %s", endpoint, warnings[0])
			}
			checkExit(t, run, out, len(decks))
		})
	}
}
