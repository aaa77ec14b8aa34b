package telemetry

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

func TestRecordEditExportsCountersAndHistograms(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	otel.SetMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	score := 4.5
	RecordEdit(context.Background(), Edit{Outcome: "stopped", Iterations: 2, Score: &score, InputTokens: 1200, OutputTokens: 80, CostUSD: 0.01, Seconds: 3})
	RecordEdit(context.Background(), Edit{Outcome: "applied", Iterations: 1, Seconds: 1})
	RecordRender(context.Background(), 0.25, 4)
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]metricdata.Aggregation{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			got[m.Name] = m.Data
		}
	}
	sum, ok := got["ace.edits"].(metricdata.Sum[int64])
	if !ok || len(sum.DataPoints) != 2 {
		t.Fatalf("ace.edits: %#v", got["ace.edits"])
	}
	var total int64
	for _, dp := range sum.DataPoints {
		total += dp.Value
	}
	if total != 2 {
		t.Errorf("ace.edits total %d", total)
	}
	h, ok := got["ace.edit.if_score"].(metricdata.Histogram[float64])
	if !ok || len(h.DataPoints) != 1 || h.DataPoints[0].Count != 1 || h.DataPoints[0].Sum != 4.5 {
		t.Errorf("ace.edit.if_score: %#v", got["ace.edit.if_score"])
	}
	if _, ok := got["ace.render.duration"]; !ok {
		t.Error("no render latency recorded")
	}
}
