package workflows

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/acecanvas/ace/internal/policy"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// EditWorkflow edits one deck: route once, then up to T turns of act,
// apply, render, diff and judge, each followed by policy.Next (stop,
// continue, or roll back to the best earlier snapshot); the final snapshot
// is policy.Select's strict-peak pick, exported and published
// (ACE Algorithm 1; DESIGN.md §4).
//
// in.Resume is nil on a fresh start and the carried state after
// continue-as-new. The workflow answers the "progress" query and stops at
// the next step boundary on the "cancel" signal. A failed step is
// published as a FAILED result and returned as the workflow's error.
func EditWorkflow(ctx workflow.Context, in EditInput) (*acev1.EditResult, error) {
	e, err := setup(ctx, in.Request, in.Resume)
	if err != nil {
		return nil, err
	}
	res, err := e.loop(e.ctx)
	return e.finish(ctx, res, err)
}

func (e *edit) loop(ctx workflow.Context) (*acev1.EditResult, error) {
	req, st := e.req, &e.st
	d0 := req.DeckRef
	if st.Route == nil {
		var route RouteOutput
		if err := e.step(ctx, "route", optRoute, ActivityRoute, RouteInput{DeckRef: d0, Instruction: req.Instruction,
			RecipeRef: req.RecipeRef, RecipePath: req.RecipePath}, &route); err != nil {
			return nil, err
		}
		st.Route, st.Base = &route, d0
		st.Usage.Add(route.Usage)
	}
	x := st.Route.AgentInstruction // what the agent works on and the judge scores
	for len(st.History) < e.cfg.MaxIterations {
		t := len(st.History) + 1
		began := workflow.Now(ctx)
		in := ActInput{DeckRef: st.Base, Instruction: x, Feedback: st.Feedback, Route: *st.Route,
			MaxTurns: maxAgentTurns - st.AgentTurns}
		if t == 1 {
			in.RecipeRef, in.RecipePath = req.RecipeRef, req.RecipePath
		}
		var act ActOutput
		if err := e.step(ctx, "act", optAct, ActivityAct, in, &act); err != nil {
			return nil, err
		}
		st.AgentTurns += act.Turns
		st.Usage.Add(act.Usage)
		var next ApplyOutput
		if err := e.step(ctx, "apply", optApply, ActivityApply, ApplyInput{DeckRef: st.Base, CallsRef: act.CallsRef,
			AssetDir: act.AssetDir, Expect: act.DeckRef}, &next); err != nil {
			return nil, err
		}
		var d DiffOutput
		if err := e.step(ctx, "diff", optDiff, ActivityDiff, DiffInput{OriginRef: d0, DeckRef: next.DeckRef}, &d); err != nil {
			return nil, err
		}
		geo := RenderOutput{GatePassed: true} // nothing changed, nothing new
		if !d.Empty {
			slides := d.ChangedSlides
			if d.AllSlides {
				slides = nil
			}
			if err := e.step(ctx, "render", optRender, ActivityRender, RenderInput{DeckRef: next.DeckRef, OriginRef: d0,
				SlideIDs: slides, Images: d.TouchesVisual}, &geo); err != nil {
				return nil, err
			}
		}
		var verdict JudgeOutput
		if err := e.step(ctx, "judge", optJudge, ActivityJudge, JudgeInput{Instruction: x, DiffTextRef: d.TextRef,
			Images: geo.Images, TouchesVisual: d.TouchesVisual}, &verdict); err != nil {
			return nil, err
		}
		st.Usage.Add(verdict.Usage)
		st.History = append(st.History, policy.Iteration{N: t, Snapshot: next.DeckRef, Score: verdict.Score,
			GatePassed: geo.GatePassed, Critique: verdict.Critique, NewViolations: geo.NewViolations})
		st.ToolCalls = append(st.ToolCalls, act.Calls)
		st.Violations = append(st.Violations, geo.Violations)
		st.Rendered = append(st.Rendered, !geo.NotRendered)
		st.IterationMillis = append(st.IterationMillis, workflow.Now(ctx).Sub(began).Milliseconds())

		decision := policy.Next(e.cfg, d0, st.History)
		e.lastReason = decision.Reason
		e.progress(ctx, t, verdict.Score, decision.Reason)
		if decision.Action == policy.Stop {
			var why string
			e.outcome, why = policy.Outcome(e.cfg, d0, st.History, x == "" && req.RecipeRef != "")
			if why != "" {
				e.lastReason = why
			}
			break
		}
		if x == "" { // a pure recipe compiles the same calls again: one iteration
			break
		}
		if st.AgentTurns >= maxAgentTurns {
			e.outcome, e.lastReason = "turn_cap", fmt.Sprintf("agent turn budget of %d spent", maxAgentTurns)
			break
		}
		st.Base, st.Feedback = decision.Base, decision.Feedback
		if e.historyTooLong(ctx) {
			st.ContinuedAsNewRuns++
			return nil, workflow.NewContinueAsNewError(ctx, EditWorkflow, EditInput{Request: req, Resume: st})
		}
	}

	pick := policy.Select(st.History)
	final := d0
	if pick >= 0 {
		final = st.History[pick].Snapshot
	} else if len(st.History) > 0 {
		e.outcome = "gate_blocked"
		e.lastReason = "every iteration added geometry violations; the original deck stands"
	}
	if e.outcome == "" {
		e.outcome = "budget"
	}
	if req.RecipeRef != "" && st.Route.Expectations {
		in := CheckInput{RecipeRef: req.RecipeRef, RecipePath: req.RecipePath, DeckRef: final}
		if pick >= 0 {
			in.GateChecked = pick >= len(st.Rendered) || st.Rendered[pick]
			in.NewViolations = st.History[pick].NewViolations
		}
		var chk CheckOutput
		if err := e.step(ctx, "check", optDiff, ActivityCheck, in, &chk); err != nil {
			return nil, err
		}
		e.failedChecks = chk.Failures
		if len(chk.Failures) > 0 && e.outcome != "gate_blocked" {
			e.outcome, e.lastReason = "expectation_failed", chk.Failures[0]
		} else if len(chk.Failures) == 0 && chk.Expectations > 0 {
			e.lastReason += policy.ExpectationsHold(chk.Expectations)
		}
	}
	var out ExportOutput
	if err := e.step(ctx, "export", optExport, ActivityExport, ExportInput{DeckRef: final, Format: req.ExportFormat}, &out); err != nil {
		return nil, err
	}
	return e.result(ctx, pick, final, out), nil
}

// maxAgentTurns caps model rounds over the whole edit (agent.DefaultMaxTurns).
const maxAgentTurns = 35

// EditInput is EditWorkflow's one argument: the request and, after
// continue-as-new, the loop state so far.
type EditInput struct {
	Request *acev1.EditRequest `json:"request"`
	Resume  *LoopState         `json:"resume,omitempty"`
}

// edit is one run's state: the request, the loop state and what the query
// reports.
type edit struct {
	ctx          workflow.Context // canceled by the cancel signal
	req          *acev1.EditRequest
	cfg          policy.Config
	st           LoopState
	phase        string
	canceled     bool
	lastReason   string
	outcome      string
	failedChecks []string
	activities   int // activities scheduled in this run
}

// setup validates the request before any activity runs, then registers the
// progress query and the cancel signal.
func setup(ctx workflow.Context, req *acev1.EditRequest, resume *LoopState) (*edit, error) {
	if err := Validate(req); err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrBadInput, err)
	}
	e := &edit{req: req, cfg: policy.Config{Tau: req.Options.GetTau(),
		MaxIterations: int(req.Options.GetMaxIterations())}.WithDefaults(), phase: "route"}
	if resume != nil {
		e.st = *resume
	} else {
		e.st.StartedUnixMillis = workflow.Now(ctx).UnixMilli()
	}
	if err := workflow.SetQueryHandler(ctx, QueryProgress, func() (Progress, error) {
		return Progress{Phase: e.phase, Iteration: len(e.st.History), Iterations: e.st.History,
			Usage: e.st.Usage, Canceled: e.canceled, LastReason: e.lastReason}, nil
	}); err != nil {
		return nil, err
	}
	var cancel workflow.CancelFunc
	e.ctx, cancel = workflow.WithCancel(ctx)
	workflow.Go(ctx, func(ctx workflow.Context) {
		workflow.GetSignalChannel(ctx, SignalCancel).Receive(ctx, nil)
		e.canceled = true
		cancel()
	})
	return e, nil
}

// Validate checks an EditRequest; the error names the field and the fix.
func Validate(req *acev1.EditRequest) error {
	switch {
	case req == nil:
		return errors.New("edit request is empty")
	case req.DeckRef == "":
		return fmt.Errorf("edit %q: deck_ref is empty (put the deck in the store and pass its ref)", req.JobId)
	case req.Instruction == "" && req.RecipeRef == "":
		return fmt.Errorf("edit %q: give an instruction or a recipe", req.JobId)
	case req.Instruction != "" && req.RecipeRef != "":
		return fmt.Errorf("edit %q: give an instruction or a recipe, not both", req.JobId)
	case req.Options.GetTau() < 0 || req.Options.GetTau() > 5:
		return fmt.Errorf("edit %q: tau %.2f is outside the judge's 0..5 scale", req.JobId, req.Options.GetTau())
	case req.Options.GetMaxIterations() < 0 || req.Options.GetMaxIterations() > 20:
		return fmt.Errorf("edit %q: max_iterations %d is outside 0..20 (0 means 3)", req.JobId, req.Options.GetMaxIterations())
	}
	return nil
}

// step runs one activity with its options and records the phase.
func (e *edit) step(ctx workflow.Context, phase string, opt workflow.ActivityOptions, name string, in, out any) error {
	e.phase = phase
	e.activities++
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opt), name, in).Get(ctx, out)
	if err != nil {
		return fmt.Errorf("%s: %w", phase, err)
	}
	return nil
}

// progress publishes a PHASE_ITERATION event (best effort: a lost
// progress event never fails the edit). Versioned: histories recorded
// before the event existed replay without it.
func (e *edit) progress(ctx workflow.Context, n int, score *float64, reason string) {
	if workflow.GetVersion(ctx, "iteration-progress-event", workflow.DefaultVersion, 1) < 1 {
		return
	}
	batch, deck := acev1.SplitJobID(e.req.JobId)
	if e.req.BatchId == "" {
		batch = "_"
	}
	ev := &acev1.Progress{BatchId: batch, DeckKey: deck, JobId: e.req.JobId, Phase: acev1.Phase_PHASE_ITERATION,
		Iteration: int32(n), Score: score, Message: reason}
	phase := e.phase
	_ = workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, optProgress), ActivityProgress, ev).Get(ctx, nil)
	e.phase = phase
}

func (e *edit) historyTooLong(ctx workflow.Context) bool {
	info := workflow.GetInfo(ctx)
	n := info.GetCurrentHistoryLength()
	if n == 0 {
		// The test environment reports no length; an activity adds about
		// six events (scheduled, started, completed, a workflow task).
		n = 6 * e.activities
	}
	return info.GetContinueAsNewSuggested() || n > historyLimit
}

// finish turns the loop's outcome into the published result. Publish runs
// on a disconnected context so that a canceled edit still reports.
func (e *edit) finish(ctx workflow.Context, res *acev1.EditResult, err error) (*acev1.EditResult, error) {
	var can *workflow.ContinueAsNewError
	if errors.As(err, &can) {
		return nil, err
	}
	if err != nil {
		status := acev1.EditStatus_EDIT_STATUS_FAILED
		if e.canceled || temporal.IsCanceledError(err) {
			status, err = acev1.EditStatus_EDIT_STATUS_CANCELED, nil
		}
		res = e.result(ctx, -1, e.req.DeckRef, ExportOutput{})
		res.Status, res.Outcome = status, "failed"
		if status == acev1.EditStatus_EDIT_STATUS_CANCELED {
			res.Outcome = "canceled"
		}
		if err != nil {
			res.Reason = err.Error()
		} else {
			res.Reason = "canceled by signal"
		}
	}
	pctx, _ := workflow.NewDisconnectedContext(ctx)
	e.phase = "publish"
	if perr := workflow.ExecuteActivity(workflow.WithActivityOptions(pctx, optPublish), ActivityPublish, res).Get(pctx, nil); perr != nil && err == nil {
		err = fmt.Errorf("publish: %w", perr)
	}
	e.phase = "done"
	if err != nil {
		return nil, err
	}
	return res, nil
}

// result assembles the EditResult from the loop state; pick is
// policy.Select's index (-1: the origin stands).
func (e *edit) result(ctx workflow.Context, pick int, final string, out ExportOutput) *acev1.EditResult {
	st, req := &e.st, e.req
	res := &acev1.EditResult{
		JobId: req.JobId, BatchId: req.BatchId, DeckName: req.DeckName,
		OriginSnapshot: req.DeckRef, FinalSnapshot: final, ExportRef: out.Ref, ExportFormat: out.Format,
		Selected: int32(pick), Reason: e.lastReason,
		Usage: &acev1.Usage{InputTokens: st.Usage.InputTokens, OutputTokens: st.Usage.OutputTokens,
			CachedTokens: st.Usage.CachedTokens, CostUsd: st.Usage.CostUSD},
		DurationMs: workflow.Now(ctx).UnixMilli() - st.StartedUnixMillis,
	}
	for i, it := range st.History {
		pi := &acev1.Iteration{N: int32(it.N), Snapshot: it.Snapshot, Score: it.Score, GatePassed: it.GatePassed,
			Critique: it.Critique, NewViolations: it.NewViolations}
		if i < len(st.ToolCalls) {
			pi.ToolCalls = int32(st.ToolCalls[i])
		}
		if i < len(st.IterationMillis) {
			pi.DurationMs = st.IterationMillis[i]
		}
		res.Iterations = append(res.Iterations, pi)
	}
	res.Outcome, res.FailedChecks = e.outcome, e.failedChecks
	if pick >= 0 && pick < len(st.Violations) {
		res.FinalViolations = int32(st.Violations[pick])
	}
	if policy.Kept(e.outcome) {
		res.Status = acev1.EditStatus_EDIT_STATUS_OK
	} else {
		res.Status = acev1.EditStatus_EDIT_STATUS_NOT_MET
	}
	return res
}
