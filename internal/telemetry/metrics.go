package telemetry

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Edit metrics, recorded once per finished edit (DESIGN.md §1: every
// number is measured). Instruments are created on first use from the
// global meter provider, so Setup must run first for them to export.
var (
	once        sync.Once
	edits       metric.Int64Counter
	iterations  metric.Int64Histogram
	ifScore     metric.Float64Histogram
	tokens      metric.Int64Counter
	costUSD     metric.Float64Counter
	editSeconds metric.Float64Histogram
	renderSecs  metric.Float64Histogram
	stepsCount  metric.Int64Counter // RecordResult's step, ledger and waiver counters
	issuesCount metric.Int64Counter
	waiverCount metric.Int64Counter
)

func instruments() {
	once.Do(func() {
		m := otel.Meter("github.com/acecanvas/ace")
		edits, _ = m.Int64Counter("ace.edits", metric.WithDescription("Finished edits by outcome"))
		iterations, _ = m.Int64Histogram("ace.edit.iterations", metric.WithDescription("Loop iterations per edit"),
			metric.WithExplicitBucketBoundaries(1, 2, 3, 4, 5, 10))
		ifScore, _ = m.Float64Histogram("ace.edit.if_score", metric.WithDescription("IF judge score (0-5) of the selected iteration"),
			metric.WithExplicitBucketBoundaries(0, 1, 2, 3, 3.5, 4, 4.5, 5))
		tokens, _ = m.Int64Counter("ace.llm.tokens", metric.WithUnit("{token}"), metric.WithDescription("Model tokens by direction"))
		costUSD, _ = m.Float64Counter("ace.llm.cost", metric.WithUnit("USD"), metric.WithDescription("Model cost"))
		editSeconds, _ = m.Float64Histogram("ace.edit.duration", metric.WithUnit("s"), metric.WithDescription("Wall time of an edit"))
		renderSecs, _ = m.Float64Histogram("ace.render.duration", metric.WithUnit("s"), metric.WithDescription("Render latency per call"))
		stepsCount, _ = m.Int64Counter("ace.agent.steps", metric.WithUnit("{step}"),
			metric.WithDescription("Agent steps by result: submit_passed, submit_failed, undo, edit"))
		issuesCount, _ = m.Int64Counter("ace.critic.issues", metric.WithUnit("{issue}"),
			metric.WithDescription("Critic ledger issues at the end of an edit, by status"))
		waiverCount, _ = m.Int64Counter("ace.critic.waivers", metric.WithUnit("{waiver}"),
			metric.WithDescription("Hard violations waived because the instruction requires them, by kind"))
	})
}

// Edit is what RecordEdit reports about one finished edit.
type Edit struct {
	Outcome      string
	Iterations   int
	Score        *float64 // selected iteration's IF score; nil when not judged
	InputTokens  int64
	OutputTokens int64
	CachedTokens int64
	CostUSD      float64
	Seconds      float64
}

// RecordEdit adds one finished edit to the metrics.
func RecordEdit(ctx context.Context, e Edit) {
	instruments()
	outcome := metric.WithAttributes(attribute.String("ace.outcome", e.Outcome))
	edits.Add(ctx, 1, outcome)
	iterations.Record(ctx, int64(e.Iterations), outcome)
	if e.Score != nil {
		ifScore.Record(ctx, *e.Score, outcome)
	}
	tokens.Add(ctx, e.InputTokens, metric.WithAttributes(attribute.String("ace.direction", "input")))
	tokens.Add(ctx, e.OutputTokens, metric.WithAttributes(attribute.String("ace.direction", "output")))
	tokens.Add(ctx, e.CachedTokens, metric.WithAttributes(attribute.String("ace.direction", "cached_input")))
	costUSD.Add(ctx, e.CostUSD)
	editSeconds.Record(ctx, e.Seconds, outcome)
}

// RecordRender adds one render call's latency (seconds) for n slides.
func RecordRender(ctx context.Context, seconds float64, slides int) {
	instruments()
	renderSecs.Record(ctx, seconds, metric.WithAttributes(attribute.Int("ace.slides", slides)))
}
