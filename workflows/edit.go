package workflows

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/observe"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/route"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// EditWorkflow edits one deck with the one edit loop, editloop.Run, each
// of its steps an activity (ACE Algorithm 1; DESIGN.md §4): route, the
// agent's turns and judge on the llm queue, observations and renders on
// the render queue, export on the diff queue; the steps that apply tools
// (a recipe's compile, each turn's calls, the replay) and the short
// in-memory ones (diff, the expectation check) run as local activities on
// the workflow's own worker, so every tool runs with that worker's
// options. The kept deck is exported and the result published.
//
// in.Resume is nil on a fresh start and the record so far after
// continue-as-new. The workflow answers the "progress" query and stops at
// the next step on the "cancel" signal (published as CANCELED). An edit
// that failed is published as FAILED and returned as the workflow's error.
func EditWorkflow(ctx workflow.Context, in EditInput) (*acev1.EditResult, error) {
	e, err := setup(ctx, in.Request)
	if err != nil {
		return nil, err
	}
	rec, err := editloop.Run(e, e.loopRequest(), in.Resume)
	if err == nil {
		e.picture(ctx, rec)
	}
	return e.finish(ctx, rec, err)
}

// picture runs the Picture step on a finished edit that changed the deck:
// the render workers make the before and after pictures of its report
// page while other decks are still editing, and the batch report reads
// them. A failure is only logged: the report renders what is missing.
// Histories recorded before the step existed replay without it.
func (e *edit) picture(ctx workflow.Context, rec *editloop.Record) {
	if rec == nil || rec.Outcome == policy.Canceled || rec.Final == "" || rec.Final == rec.Origin {
		return
	}
	if workflow.GetVersion(ctx, "picture-step", workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return
	}
	in := editloop.PictureInput{OriginRef: rec.Origin, FinalRef: rec.Final}
	if k := rec.Kept(); k != nil && k.Snapshot != rec.Final {
		in.DrawnRef = k.Snapshot
	}
	var out editloop.PictureOutput
	if err := e.activity(PhasePicture, optPicture, ActivityPicture, in, &out); err != nil {
		workflow.GetLogger(ctx).Warn("report pictures not made; the report renders them", "error", err)
	}
}

// EditInput is EditWorkflow's one argument: the request and, after
// continue-as-new, the loop's record so far.
type EditInput struct {
	Request *acev1.EditRequest `json:"request"`
	Resume  *editloop.Record   `json:"resume,omitempty"`
}

// edit is one run: the request, what the query reports, and the
// editloop.Steps implementation over activities.
type edit struct {
	ctx        workflow.Context // canceled by the cancel signal
	req        *acev1.EditRequest
	phase      Phase
	canceled   bool
	rec        *editloop.Record // as of the last iteration, for the query
	activities int              // activities scheduled in this run
}

// setup validates the request before any activity runs, then registers the
// progress query and the cancel signal.
func setup(ctx workflow.Context, req *acev1.EditRequest) (*edit, error) {
	if err := Validate(req); err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrBadInput, err)
	}
	e := &edit{req: req, phase: PhaseRoute}
	if err := workflow.SetQueryHandler(ctx, QueryProgress, e.progressQuery); err != nil {
		return nil, err
	}
	if err := workflow.SetQueryHandler(ctx, QueryRecord, func() (*editloop.Record, error) { return e.rec, nil }); err != nil {
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

// loopRequest is the request in the loop's terms.
func (e *edit) loopRequest() editloop.Request {
	o := e.req.Options
	return editloop.Request{DeckRef: e.req.DeckRef, Instruction: e.req.Instruction, RecipeRef: e.req.RecipeRef,
		RecipePath: e.req.RecipePath, ExportFormat: e.req.ExportFormat,
		Policy:        policy.Config{Tau: o.GetTau(), MaxIterations: int(o.GetMaxIterations())},
		MaxAgentTurns: int(o.GetMaxAgentTurns()), MaxSteps: int(o.GetMaxSteps()), VQ: o.GetVq(),
		ContextMode: route.Mode(o.GetContextMode()), NoObservations: o.GetNoObservations(), Skills: o.GetSkills()}
}

func (e *edit) progressQuery() (Progress, error) {
	p := Progress{Phase: e.phase, Canceled: e.canceled}
	if r := e.rec; r != nil {
		p.Iteration = len(r.Iterations)
		for _, it := range r.Iterations {
			p.Iterations = append(p.Iterations, policy.Iteration{N: it.N, Snapshot: it.Snapshot, Score: it.Score,
				GatePassed: it.GatePassed, Critique: it.Critique, NewViolations: it.NewViolations})
			p.Usage.Merge(it.Usage)
			if it.Decision != nil {
				p.LastReason = it.Decision.Reason
			}
		}
		p.Usage.Merge(usageOf(r.Route))
	}
	return p, nil
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
	case req.Options.GetMaxAgentTurns() < 0:
		return fmt.Errorf("edit %q: max_agent_turns %d is negative (0 means 35)", req.JobId, req.Options.GetMaxAgentTurns())
	case req.Options.GetMaxSteps() < 0:
		return fmt.Errorf("edit %q: max_steps %d is negative (0 means %d)", req.JobId, req.Options.GetMaxSteps(), editloop.DefaultMaxSteps)
	case req.Options.GetContextMode() != "" && !slices.Contains(route.Modes, route.Mode(req.Options.GetContextMode())):
		return fmt.Errorf("edit %q: context_mode %q: want one of %v, or empty to let CARE route", req.JobId, req.Options.GetContextMode(), route.Modes)
	}
	return nil
}

// The editloop.Steps methods: each is one activity.

func (e *edit) Route(in editloop.RouteInput) (out editloop.RouteOutput, err error) {
	return out, e.activity(PhaseRoute, optRoute, ActivityRoute, in, &out)
}

func (e *edit) Act(in editloop.ActInput) (out editloop.ActOutput, err error) {
	return out, e.local(PhaseAct, ActivityAct, in, &out)
}

func (e *edit) AgentTurn(in editloop.TurnInput) (out editloop.TurnOutput, err error) {
	return out, e.activity(PhaseTurn, optTurn, ActivityAgentTurn, in, &out)
}

func (e *edit) ApplyRound(in editloop.RoundInput) (out editloop.RoundOutput, err error) {
	return out, e.local(PhaseRound, ActivityApplyRound, in, &out)
}

func (e *edit) Observe(in editloop.ObserveInput) (out observe.Observation, err error) {
	return out, e.activity(PhaseObserve, optRender, ActivityObserve, in, &out)
}

func (e *edit) Apply(in editloop.ApplyInput) (out editloop.ApplyOutput, err error) {
	return out, e.local(PhaseApply, ActivityApply, in, &out)
}

func (e *edit) Diff(in editloop.DiffInput) (out editloop.DiffOutput, err error) {
	return out, e.local(PhaseDiff, ActivityDiff, in, &out)
}

func (e *edit) Render(in editloop.RenderInput) (out editloop.RenderOutput, err error) {
	return out, e.activity(PhaseRender, optRender, ActivityRender, in, &out)
}

func (e *edit) Judge(in editloop.JudgeInput) (out editloop.JudgeOutput, err error) {
	return out, e.activity(PhaseJudge, optJudge, ActivityJudge, in, &out)
}

func (e *edit) Critique(in editloop.CritiqueInput) (out editloop.CritiqueOutput, err error) {
	return out, e.activity(PhaseCritique, optJudge, ActivityCritique, in, &out)
}

func (e *edit) Waive(in editloop.WaiveInput) (out editloop.WaiveOutput, err error) {
	return out, e.activity(PhaseWaive, optJudge, ActivityWaive, in, &out)
}

func (e *edit) Check(in editloop.CheckInput) (out editloop.CheckOutput, err error) {
	return out, e.local(PhaseCheck, ActivityCheck, in, &out)
}

func (e *edit) Export(in editloop.ExportInput) (out editloop.ExportOutput, err error) {
	return out, e.activity(PhaseExport, optExport, ActivityExport, in, &out)
}

func (e *edit) RecordTurn(in editloop.RecordTurnInput) (out editloop.RecordTurnOutput, err error) {
	return out, e.activity(PhaseRecord, optRecord, ActivityRecordTurn, in, &out)
}

// Now is workflow time: deterministic on replay.
func (e *edit) Now() time.Time { return workflow.Now(e.ctx) }

// Iterated publishes the iteration's progress event and continues as new
// when the history grows long and the loop goes on.
func (e *edit) Iterated(rec *editloop.Record) error {
	e.rec = rec
	if e.canceled {
		return fmt.Errorf("%w: canceled by signal", editloop.ErrCanceled)
	}
	it := rec.Iterations[len(rec.Iterations)-1]
	e.publishProgress(it)
	if it.Decision.Action != policy.Stop && e.historyTooLong() {
		return workflow.NewContinueAsNewError(e.ctx, EditWorkflow, EditInput{Request: e.req, Resume: rec})
	}
	return nil
}

// activity runs one activity with its options and records the phase. A
// failure caused by the cancel signal is reported as editloop.ErrCanceled.
func (e *edit) activity(phase Phase, opt workflow.ActivityOptions, name string, in, out any) error {
	e.phase = phase
	e.activities++
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(e.ctx, opt), name, in).Get(e.ctx, out)
	return e.stepError(err, out)
}

// local runs a short in-memory step as a local activity on this worker:
// no task-queue round trip, recorded as a marker in the history (Temporal
// recommends local activities for steps of well under a few seconds).
func (e *edit) local(phase Phase, name string, in, out any) error {
	e.phase = phase
	e.activities++
	err := workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(e.ctx, optLocal), name, in).Get(e.ctx, out)
	return e.stepError(err, out)
}

// stepError is an activity's error as the loop records it: a cancellation
// marked as such, else the step's own message (without the SDK's wrapper),
// with what the step did before it failed decoded into out from the
// error's details (activities.classifyWith), so the record reads as the
// in-process run's does.
func (e *edit) stepError(err error, out any) error {
	if err == nil {
		return nil
	}
	if e.canceled || temporal.IsCanceledError(err) {
		return fmt.Errorf("%w: %w", editloop.ErrCanceled, err)
	}
	var app *temporal.ApplicationError
	if !errors.As(err, &app) {
		return err
	}
	if app.HasDetails() {
		_ = app.Details(out)
	}
	return errors.New(app.Message())
}

// publishProgress publishes a PHASE_ITERATION event (best effort: a lost
// progress event never fails the edit).
func (e *edit) publishProgress(it editloop.IterationRecord) {
	batch, deck := acev1.SplitJobID(e.req.JobId)
	if e.req.BatchId == "" {
		batch = "_"
	}
	ev := &acev1.Progress{BatchId: batch, DeckKey: deck, JobId: e.req.JobId, Phase: acev1.Phase_PHASE_ITERATION,
		Iteration: int32(it.N), Score: it.Score, Message: it.Decision.Reason}
	phase := e.phase
	_ = workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(e.ctx, optProgress), ActivityProgress, ev).Get(e.ctx, nil)
	e.phase = phase
}

func (e *edit) historyTooLong() bool {
	info := workflow.GetInfo(e.ctx)
	n := info.GetCurrentHistoryLength()
	if n == 0 {
		// The test environment reports no length; an activity adds about
		// six events (scheduled, started, completed, a workflow task).
		n = 6 * e.activities
	}
	return info.GetContinueAsNewSuggested() || n > historyLimit
}

// finish publishes the record's result. Publish runs on a disconnected
// context so that a canceled edit still reports. A failed edit is returned
// as the workflow's error after it is published; continue-as-new passes
// through.
func (e *edit) finish(ctx workflow.Context, rec *editloop.Record, err error) (*acev1.EditResult, error) {
	var can *workflow.ContinueAsNewError
	if errors.As(err, &can) {
		return nil, err
	}
	e.rec = rec
	res := Result(e.req, rec)
	pctx, _ := workflow.NewDisconnectedContext(ctx)
	e.phase = PhasePublish
	perr := workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(pctx, optPublish), ActivityPublish, res).Get(pctx, nil)
	e.phase = PhaseDone
	switch {
	case rec.Outcome == policy.Canceled:
		return res, nil
	case err != nil:
		return nil, err
	case perr != nil:
		return nil, fmt.Errorf("publish: %w", perr)
	}
	return res, nil
}
