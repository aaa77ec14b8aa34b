package telemetry

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// Span and attribute names of an edit's step trace. A step is one agent
// turn of ReDeck's step loop (§3.1-3.2); its parts are the model turn, the
// apply of its deck calls, the observations after them and the submit
// gate.
const (
	SpanEdit       = "ace.edit"
	SpanStep       = "ace.step"
	SpanAgentTurn  = "ace.step.agent_turn"
	SpanApply      = "ace.step.apply"
	SpanObserve    = "ace.step.observe"
	SpanSubmitGate = "ace.step.submit_gate"

	AttrIteration = "ace.iteration"
	AttrStep      = "ace.step"
	AttrCalls     = "ace.step.calls"
	AttrDeltaViol = "ace.delta_viol"
	AttrSubmit    = "ace.submit.passed"
	AttrUndone    = "ace.step.undone"
	AttrStatus    = "ace.issue.status"
	AttrResult    = "ace.step.result"
	AttrKind      = "ace.violation.kind"
)

// Step results counted by ace.agent.steps.
const (
	StepSubmitPassed = "submit_passed"
	StepSubmitFailed = "submit_failed"
	StepUndo         = "undo"
	StepEdit         = "edit"
)

// RecordResult records a finished edit from its EditResult, the same in
// process (`ace edit`) and in the workflow's Publish activity: RecordEdit's
// metrics (ace.edits per outcome, ...), the counters ace.agent.steps (per
// step result), ace.critic.issues (per ledger status) and
// ace.critic.waivers (per violation kind), and a trace of the edit: an
// ace.edit span over its wall time with one ace.step span per agent step
// (attributes iteration, step, calls, Delta viol, submit verdict, undo)
// and, under each, spans for its parts (agent turn, apply, observe, submit
// gate). Spans carry the times the loop recorded, so they are the same
// whichever process records them; ctx's span, if any, is their parent.
func RecordResult(ctx context.Context, res *acev1.EditResult) {
	e := Edit{Outcome: res.Outcome, Iterations: len(res.Iterations), Seconds: float64(res.DurationMs) / 1000}
	if n := int(res.Selected); n >= 1 && n <= len(res.Iterations) {
		e.Score = res.Iterations[n-1].Score
	}
	if u := res.Usage; u != nil {
		e.InputTokens, e.OutputTokens, e.CachedTokens, e.CostUSD = u.InputTokens, u.OutputTokens, u.CachedTokens, u.CostUsd
	}
	RecordEdit(ctx, e)

	instruments()
	for _, is := range res.Issues {
		issuesCount.Add(ctx, 1, metric.WithAttributes(attribute.String(AttrStatus, is.Status)))
	}
	for _, it := range res.Iterations {
		for _, w := range it.Waivers {
			waiverCount.Add(ctx, 1, metric.WithAttributes(attribute.String(AttrKind, w.Kind)))
		}
		for _, st := range it.Steps {
			stepsCount.Add(ctx, 1, metric.WithAttributes(attribute.String(AttrResult, stepResult(st))))
		}
	}
	traceSteps(ctx, res)
}

// stepResult names what a step came to for the ace.agent.steps counter.
func stepResult(st *acev1.Step) string {
	switch {
	case st.SubmitPassed != nil && *st.SubmitPassed:
		return StepSubmitPassed
	case st.SubmitPassed != nil:
		return StepSubmitFailed
	case st.Undone:
		return StepUndo
	}
	return StepEdit
}

func ms(unix int64) time.Time { return time.UnixMilli(unix) }

func traceSteps(ctx context.Context, res *acev1.EditResult) {
	tr := otel.Tracer("github.com/acecanvas/ace/internal/telemetry")
	start := ms(res.StartedUnixMs)
	if res.StartedUnixMs == 0 {
		start = time.Now().Add(-time.Duration(res.DurationMs) * time.Millisecond)
	}
	ctx, edit := tr.Start(ctx, SpanEdit, trace.WithTimestamp(start), trace.WithAttributes(
		attribute.String("ace.job_id", res.JobId), attribute.String("ace.deck", res.DeckName),
		attribute.String("ace.outcome", res.Outcome), attribute.Int("ace.selected", int(res.Selected))))
	defer edit.End(trace.WithTimestamp(start.Add(time.Duration(res.DurationMs) * time.Millisecond)))
	for _, it := range res.Iterations {
		for _, st := range it.Steps {
			traceStep(ctx, tr, int(it.N), st)
		}
	}
}

func traceStep(ctx context.Context, tr trace.Tracer, iteration int, st *acev1.Step) {
	t := ms(st.StartedUnixMs)
	attrs := []attribute.KeyValue{
		attribute.Int(AttrIteration, iteration), attribute.Int(AttrStep, int(st.Turn)),
		attribute.StringSlice(AttrCalls, st.Calls), attribute.Int("ace.step.applied", int(st.Applied)),
		attribute.Int("ace.step.errors", int(st.Errors)), attribute.Bool(AttrUndone, st.Undone),
		attribute.Int("ace.violations.new", len(st.NewViolations)), attribute.Int("ace.violations.resolved", len(st.ResolvedViolations)),
		attribute.String(AttrResult, stepResult(st)),
	}
	if st.DeltaViol != nil {
		attrs = append(attrs, attribute.Int(AttrDeltaViol, int(*st.DeltaViol)))
	}
	if st.SubmitPassed != nil {
		attrs = append(attrs, attribute.Bool(AttrSubmit, *st.SubmitPassed))
	}
	for _, k := range st.DeltaByKind {
		attrs = append(attrs, attribute.Int(AttrDeltaViol+"."+k.Kind, int(k.Delta)))
	}
	var changes []string
	for _, c := range st.Issues {
		changes = append(changes, fmt.Sprintf("%s:%s", c.Issue, c.To))
	}
	if len(changes) > 0 {
		attrs = append(attrs, attribute.StringSlice("ace.issue.changes", changes))
	}
	ctx, span := tr.Start(ctx, SpanStep, trace.WithTimestamp(t), trace.WithAttributes(attrs...))
	defer span.End(trace.WithTimestamp(t.Add(time.Duration(st.DurationMs) * time.Millisecond)))

	// The parts in the order the loop runs them; each starts where the
	// one before ended.
	part := func(name string, d int64, kv ...attribute.KeyValue) {
		kv = append(kv, attribute.Int(AttrIteration, iteration), attribute.Int(AttrStep, int(st.Turn)))
		_, s := tr.Start(ctx, name, trace.WithTimestamp(t), trace.WithAttributes(kv...))
		t = t.Add(time.Duration(d) * time.Millisecond)
		s.End(trace.WithTimestamp(t))
	}
	part(SpanAgentTurn, st.AgentMs, attribute.Int("ace.step.tool_calls", len(st.Calls)))
	if st.Applied > 0 || st.Errors > 0 || st.ApplyMs > 0 {
		part(SpanApply, st.ApplyMs, attribute.Int("ace.step.applied", int(st.Applied)), attribute.Int("ace.step.errors", int(st.Errors)))
	}
	if st.ObserveMs > 0 || (st.DeltaViol != nil && st.SubmitPassed == nil) {
		kv := []attribute.KeyValue{}
		if st.DeltaViol != nil {
			kv = append(kv, attribute.Int(AttrDeltaViol, int(*st.DeltaViol)))
		}
		part(SpanObserve, st.ObserveMs, kv...)
	}
	if st.SubmitPassed != nil {
		// A refused gate names the kinds that held it (each new
		// violation's description starts with its kind).
		var held []string
		for _, v := range st.NewViolations {
			if k, _, _ := strings.Cut(v, " "); !slices.Contains(held, k) {
				held = append(held, k)
			}
		}
		part(SpanSubmitGate, st.GateMs, attribute.Bool(AttrSubmit, *st.SubmitPassed),
			attribute.Int("ace.violations.new", len(st.NewViolations)), attribute.StringSlice("ace.violations.held", held),
			attribute.StringSlice("ace.violations.waived", st.Waived))
	}
}
