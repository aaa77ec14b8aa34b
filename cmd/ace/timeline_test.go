package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/report"
	"github.com/acecanvas/ace/internal/telemetry"
)

// An edit whose steps include a refused submit, a waiver and an undo
// (scripted model over real HTTP, real renders): the run record holds
// every step with its calls, Delta viol per kind, the gate's verdicts, the
// undo, the waivers with the instruction's words and the ledger; the
// --report page shows them as a timeline; and the in-process run emits a
// span per step with its parts and the counters per step result, ledger
// status and outcome.
func TestEditTimelineInTheRecordTheReportAndOTel(t *testing.T) {
	srv := llmtest.Load(t, filepath.Join("..", "..", "testdata", "scripts", "runner-timeline.yaml"))
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("OPENAI_API_KEY", "test")
	t.Setenv("ACE_AGENT_MODEL", "agent-m")
	t.Setenv("ACE_JUDGE_MODEL", "judge-m")
	t.Setenv("ACE_ROUTER_MODEL", "router-m")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")

	spans := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	prevTP, prevMP := otel.GetTracerProvider(), otel.GetMeterProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans)))
	otel.SetMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	t.Cleanup(func() { otel.SetTracerProvider(prevTP); otel.SetMeterProvider(prevMP) })

	dir := t.TempDir()
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	in := filepath.Join(dir, "deck.json")
	if err := deckio.Save(in, d, blobs, false); err != nil {
		t.Fatal(err)
	}
	out, recPath, page := filepath.Join(dir, "out.json"), filepath.Join(dir, "run.json"), filepath.Join(dir, "report.html")
	var stdout, stderr bytes.Buffer
	err := runEdit(context.Background(), &stdout, &stderr, in, editFlags{
		instruction: "Move the logo on slide 1 into the top-right corner, flush with the edges, and rotate it by 45 degrees.",
		out:         out, recordPath: recPath, reportPath: page, tau: 4, iterations: 3, maxTurns: 35,
	})
	if err != nil {
		rb, _ := os.ReadFile(recPath)
		t.Fatalf("%v\n%s\n%s\nrecord: %s", err, stdout.String(), stderr.String(), rb)
	}
	if errs := srv.Errors(); len(errs) > 0 {
		t.Fatalf("script could not answer: %v", errs)
	}

	// The record.
	var rec editloop.Record
	rb, err := os.ReadFile(recPath)
	if err != nil || json.Unmarshal(rb, &rec) != nil {
		t.Fatalf("record file: %v", err)
	}
	if len(rec.Iterations) != 1 || rec.Outcome != "stopped" || rec.Ledger == nil {
		t.Fatalf("record: %d iterations, outcome %s", len(rec.Iterations), rec.Outcome)
	}
	it := rec.Iterations[0]
	if len(it.Steps) != 5 || it.ActStopped != "submitted" {
		t.Fatalf("steps: %s", dump(it.Steps))
	}
	s1, s2, s3, s4, s5 := it.Steps[0], it.Steps[1], it.Steps[2], it.Steps[3], it.Steps[4]
	if len(s1.Calls) != 1 || !strings.HasPrefix(s1.Calls[0], `batch_execute {"operations":[{"command":"move_node"`) || s1.StartedUnixMS == 0 || s1.Timings.Total < s1.Timings.Agent {
		t.Errorf("step 1 calls and times: %s", dump(s1))
	}
	if s1.DeltaViol == nil || *s1.DeltaViol != 2 || kindsOf(s1) != "image_clipping+1 out_of_bounds+1" {
		t.Errorf("step 1 Delta viol: %s", dump(s1))
	}
	if s2.DeltaViol == nil || *s2.DeltaViol != 3 || kindsOf(s2) != "image_clipping+1 out_of_bounds+1 overlap+1" {
		t.Errorf("step 2 Delta viol: %s", dump(s2))
	}
	if s3.Submit == nil || *s3.Submit || len(s3.New) != 1 || !strings.HasPrefix(s3.New[0], "overlap on slide slide-3") || len(s3.Waived) != 2 || s3.Timings.Gate <= 0 {
		t.Errorf("step 3, the refused submit: %s", dump(s3))
	}
	if !s4.Undone || s4.DeltaViol == nil || *s4.DeltaViol != 2 || len(s4.ResolvedViolations) != 0 {
		t.Errorf("step 4, the undo: %s", dump(s4))
	}
	if s5.Submit == nil || !*s5.Submit {
		t.Errorf("step 5, the submit: %s", dump(s5))
	}
	if len(it.Waivers) != 2 || it.Waivers[0].Quote != "rotate it by 45 degrees" {
		t.Errorf("waivers %s", dump(it.Waivers))
	}
	statuses := map[string]string{}
	for _, is := range rec.Ledger.Issues {
		statuses[is.Check+"|"+is.Subject] = string(is.Status)
	}
	t.Logf("ledger: %v", statuses)

	// The page.
	hb, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(hb)
	if n := strings.Count(html, `<tr class="step"`); n != 5 {
		t.Errorf("%d step rows, want 5", n)
	}
	for _, want := range []string{
		`id="timeline"`, "Iteration 1", "step loop ended: submitted",
		"batch_execute {&#34;operations&#34;:", "move_node {&#34;nodeId&#34;:&#34;s3-t6&#34;", "undo_step", // calls in short
		// Delta viol by kind (html/template writes + as &#43;)
		"image_clipping &#43;1, out_of_bounds &#43;1, overlap &#43;1", "image_clipping &#43;1, out_of_bounds &#43;1</div>",
		`<span class="badge bad">submit refused</span>`, `<span class="badge ok">submit passed</span>`,
		"+ overlap on slide slide-3", `<span class="badge warn">undo</span>`,
		"<polyline points=", "Delta viol after each step",
		`<tr class="waiver"><td>out_of_bounds</td><td>slide-1</td><td>s1-img3</td><td><q>rotate it by 45 degrees</q>`,
		"Issue ledger", `<tr class="issue">`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, is := range rec.Ledger.Issues {
		if !strings.Contains(html, `<span class="badge `+report.LedgerIssue{Status: string(is.Status)}.StatusClass()+`">`+string(is.Status)+`</span>`) {
			t.Errorf("report lacks issue %s's status %s", is.ID, is.Status)
		}
	}
	// The sparkline has one point per observed step.
	if m := regexp.MustCompile(`<polyline points="([^"]*)"`).FindStringSubmatch(html); m == nil || len(strings.Fields(m[1])) != 5 {
		t.Errorf("sparkline points %v", m)
	}

	// OTel: a span per step with its parts, under one edit span.
	var steps, gates []sdktrace.ReadOnlySpan
	parts := map[string]int{}
	var edit sdktrace.ReadOnlySpan
	for _, s := range spans.GetSpans().Snapshots() {
		switch s.Name() {
		case telemetry.SpanEdit:
			edit = s
		case telemetry.SpanStep:
			steps = append(steps, s)
		case telemetry.SpanSubmitGate:
			gates = append(gates, s)
		}
		parts[s.Name()]++
	}
	if edit == nil || len(steps) != 5 || len(gates) != 2 || parts[telemetry.SpanAgentTurn] != 5 || parts[telemetry.SpanApply] != 2 {
		t.Fatalf("spans %v", parts)
	}
	for i, s := range steps {
		a := attrs(s.Attributes())
		if a[telemetry.AttrIteration] != "1" || a[telemetry.AttrStep] != itoa(i+1) || s.Parent().SpanID() != edit.SpanContext().SpanID() {
			t.Errorf("step span %d: %v", i+1, a)
		}
	}
	if a := attrs(steps[1].Attributes()); a[telemetry.AttrDeltaViol] != "3" || a[telemetry.AttrDeltaViol+".overlap"] != "1" || !strings.Contains(a[telemetry.AttrCalls], "move_node") {
		t.Errorf("step 2 span: %v", a)
	}
	if a := attrs(gates[0].Attributes()); a[telemetry.AttrSubmit] != "false" || a["ace.violations.held"] != `["overlap"]` {
		t.Errorf("refused gate span: %v", a)
	}
	if a := attrs(steps[3].Attributes()); a[telemetry.AttrUndone] != "true" {
		t.Errorf("undo step span: %v", a)
	}
	if a := attrs(gates[1].Attributes()); a[telemetry.AttrSubmit] != "true" {
		t.Errorf("passing gate span: %v", a)
	}

	// Counters: steps per result, issues per ledger status, waivers per
	// kind, edits per outcome.
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			sum, ok := m.Data.(metricdata.Sum[int64])
			if !ok {
				continue
			}
			got[m.Name] = map[string]int64{}
			for _, dp := range sum.DataPoints {
				var key []string
				for _, kv := range dp.Attributes.ToSlice() {
					key = append(key, kv.Value.Emit())
				}
				got[m.Name][strings.Join(key, ",")] += dp.Value
			}
		}
	}
	if s := got["ace.agent.steps"]; s[telemetry.StepSubmitFailed] != 1 || s[telemetry.StepSubmitPassed] != 1 || s[telemetry.StepUndo] != 1 || s[telemetry.StepEdit] != 2 {
		t.Errorf("ace.agent.steps %v", s)
	}
	want := map[string]int64{}
	for _, is := range rec.Ledger.Issues {
		want[string(is.Status)]++
	}
	if len(want) == 0 || !equalCounts(got["ace.critic.issues"], want) {
		t.Errorf("ace.critic.issues %v, want %v", got["ace.critic.issues"], want)
	}
	if w := got["ace.critic.waivers"]; w["out_of_bounds"] != 1 || w["image_clipping"] != 1 {
		t.Errorf("ace.critic.waivers %v", w)
	}
	if e := got["ace.edits"]; e["stopped"] != 1 {
		t.Errorf("ace.edits %v", e)
	}
}

func dump(v any) string { b, _ := json.MarshalIndent(v, "", "  "); return string(b) }

func itoa(n int) string { return strconv.Itoa(n) }

func kindsOf(s editloop.StepRecord) string {
	var out []string
	for _, k := range s.ByKind {
		out = append(out, k.Kind+"+"+itoa(k.Delta))
	}
	return strings.Join(out, " ")
}

func attrs(kvs []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

func equalCounts(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}
