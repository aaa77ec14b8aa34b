package workflows

import (
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/llm"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// Result is the EditResult published for an edit's record: status and
// outcome from the one mapping (policy.Outcome), the kept iteration as
// its number N (0: the origin stands), the export, usage and timings.
func Result(req *acev1.EditRequest, rec *editloop.Record) *acev1.EditResult {
	res := &acev1.EditResult{
		JobId: req.JobId, BatchId: req.BatchId, DeckName: req.DeckName,
		Status: rec.Outcome.Status(), Outcome: string(rec.Outcome), Reason: rec.Reason,
		OriginSnapshot: rec.Origin, FinalSnapshot: rec.Final, Selected: int32(rec.Selected),
		ExportRef: rec.Export.Ref, ExportFormat: rec.Export.Format,
		Usage: &acev1.Usage{InputTokens: int64(rec.Usage.PromptTokens), OutputTokens: int64(rec.Usage.CompletionTokens),
			CachedTokens: int64(rec.Usage.CachedPromptTokens), CostUsd: rec.Usage.CostUSD},
		DurationMs: rec.DurationMS,
	}
	for _, it := range rec.Iterations {
		pit := &acev1.Iteration{N: int32(it.N), Snapshot: it.Snapshot, Score: it.Score,
			GatePassed: it.GatePassed, Critique: it.Critique, NewViolations: it.NewViolations,
			ToolCalls: int32(it.ToolCalls), DurationMs: it.Timings.Total}
		for _, b := range it.Blocked {
			pb := &acev1.BlockedSlide{SlideId: b.SlideID, Number: int32(b.Number), ImageRef: b.Image}
			for _, v := range b.Violations {
				pv := &acev1.Violation{Kind: v.Kind, NodeIds: v.NodeIDs, Reason: v.Reason}
				for _, r := range v.Bounds {
					pv.Bounds = append(pv.Bounds, &acev1.Box{X: r.X, Y: r.Y, Width: r.Width, Height: r.Height})
				}
				pb.Violations = append(pb.Violations, pv)
			}
			pit.Blocked = append(pit.Blocked, pb)
		}
		res.Iterations = append(res.Iterations, pit)
	}
	for _, r := range rec.Reverted {
		res.Reverted = append(res.Reverted, &acev1.SlideRevert{SlideId: r.SlideID, Number: int32(r.Number), Violations: r.Violations})
	}
	if kept := rec.Kept(); kept != nil {
		res.FinalViolations = int32(kept.Violations)
	}
	for _, f := range rec.Checks {
		res.FailedChecks = append(res.FailedChecks, f.String())
	}
	return res
}

// usageOf is what the routing step's model calls cost.
func usageOf(r editloop.RouteRecord) llm.Usage { return llm.Sum(r.LLM) }
