package activities

import (
	"errors"

	"github.com/nats-io/nats.go/jetstream"
	"go.temporal.io/sdk/temporal"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/workflows"
)

// Activities holds the step functions (the in-process runner's
// runner.Steps: store, model client, renderer, tool options) and the NATS
// connection results are published on. A worker fills only what its task
// queues use: render workers a Steps.Renderer, llm workers a Steps.LLM.
type Activities struct {
	Steps *runner.Steps
	// JS publishes results on ACE_EVENTS.
	JS jetstream.JetStream
	// Evolve serves the evolve workflow's activities (evolve workers
	// only; nil elsewhere).
	Evolve *Evolve
}

func (a *Activities) store() store.Store { return a.Steps.Store }

// classify maps a step error to Temporal's retry semantics: bad input, no
// model, a request the model server refused and an over-long context never
// retry; everything else does (the activity's retry policy backs off). The
// loop names the step.
func classify(err error) error { return classifyWith(err, nil) }

// classifyWith is classify carrying out, what the step did before it
// failed (the model calls it paid for, say), as the error's details: the
// workflow records it as the in-process run records the step's partial
// output.
func classifyWith(err error, out any) error {
	if err == nil {
		return nil
	}
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return err
	}
	kind, msg := "", err.Error()
	switch {
	case errors.Is(err, llm.ErrNoModel):
		kind = workflows.ErrNoModel
	case errors.Is(err, llm.ErrContextLength):
		kind = workflows.ErrContextLength
	case errors.Is(err, llm.ErrRefused):
		kind = workflows.ErrModelRefused
	case isBadInput(err):
		kind = workflows.ErrBadInput
	case errors.Is(err, store.ErrNotFound):
		kind, msg = workflows.ErrBadInput, msg+" (was the deck put in this deployment's store?)"
	}
	if kind == "" && out == nil {
		return err
	}
	o := temporal.ApplicationErrorOptions{NonRetryable: kind != "", Cause: err}
	if out != nil {
		o.Details = []any{out}
	}
	return temporal.NewApplicationErrorWithOptions(msg, kind, o)
}

// Functions maps every activity name EditWorkflow calls
// (workflows.Activity*) to its method, for workers to register by task
// queue and for tests to register all at once.
func (a *Activities) Functions() map[string]any {
	return map[string]any{
		workflows.ActivityRoute: a.Route, workflows.ActivityAct: a.Act, workflows.ActivityAgentTurn: a.AgentTurn,
		workflows.ActivityApplyRound: a.ApplyRound, workflows.ActivityObserve: a.Observe, workflows.ActivityApply: a.Apply,
		workflows.ActivityDiff: a.Diff, workflows.ActivityRender: a.Render, workflows.ActivityJudge: a.Judge,
		workflows.ActivityCritique: a.Critique, workflows.ActivityWaive: a.Waive,
		workflows.ActivityCheck: a.Check, workflows.ActivityExport: a.Export,
		workflows.ActivityProgress: a.Progress, workflows.ActivityPublish: a.Publish,
		workflows.ActivityRecordTurn: a.RecordTurn, workflows.ActivityPicture: a.Picture,
	}
}
