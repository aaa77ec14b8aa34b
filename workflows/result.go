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
		DurationMs: rec.DurationMS, StartedUnixMs: rec.StartedUnixMS,
		Warnings: rec.Warnings,
	}
	for _, it := range rec.Iterations {
		pit := &acev1.Iteration{N: int32(it.N), Snapshot: it.Snapshot, Score: it.Score,
			GatePassed: it.GatePassed, Critique: it.Critique, NewViolations: it.NewViolations,
			ToolCalls: int32(it.ToolCalls), DurationMs: it.Timings.Total, ActStopped: it.ActStopped}
		for _, st := range it.Steps {
			pit.Steps = append(pit.Steps, stepOf(st))
		}
		for _, w := range it.Waivers {
			pit.Waivers = append(pit.Waivers, &acev1.Waiver{Kind: w.Kind, Slide: w.Slide, Nodes: w.Nodes, Quote: w.Quote, Reason: w.Reason})
		}
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
	if rec.Ledger != nil {
		for _, is := range rec.Ledger.Issues {
			res.Issues = append(res.Issues, &acev1.Issue{Id: is.ID, Family: string(is.Family), Slide: is.Slide, Check: is.Check,
				Status: string(is.Status), Hard: is.Hard, Evidence: is.Evidence.Text, Opened: int32(is.Opened),
				Changed: int32(is.Changed), Regressions: int32(is.Regressions), Waived: is.Waived})
		}
	}
	if kept := rec.Kept(); kept != nil {
		res.FinalViolations = int32(kept.Violations)
	}
	for _, f := range rec.Checks {
		res.FailedChecks = append(res.FailedChecks, f.String())
	}
	return res
}

// stepOf is one step of the record on the wire.
func stepOf(st editloop.StepRecord) *acev1.Step {
	p := &acev1.Step{Turn: int32(st.Turn), Calls: st.Calls, Applied: int32(st.Applied), Errors: int32(st.Errors),
		Changed: st.Changed, Undone: st.Undone, NewViolations: st.New, ResolvedViolations: st.ResolvedViolations,
		SubmitPassed: st.Submit, Waived: st.Waived, StartedUnixMs: st.StartedUnixMS,
		AgentMs: st.Timings.Agent, ApplyMs: st.Timings.Apply, ObserveMs: st.Timings.Observe, GateMs: st.Timings.Gate,
		DurationMs: st.Timings.Total}
	if st.DeltaViol != nil {
		d := int32(*st.DeltaViol)
		p.DeltaViol = &d
	}
	for _, k := range st.ByKind {
		p.DeltaByKind = append(p.DeltaByKind, &acev1.KindDelta{Kind: k.Kind, Delta: int32(k.Delta)})
	}
	for _, c := range st.Issues {
		p.Issues = append(p.Issues, &acev1.IssueChange{Issue: c.Issue, Check: c.Check, Slide: c.Slide, From: string(c.From), To: string(c.To)})
	}
	return p
}

// usageOf is what the routing step's model calls cost.
func usageOf(r editloop.RouteRecord) llm.Usage { return llm.Sum(r.LLM) }
