package activities

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/observe"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/telemetry"
)

// The step activities. Each calls the runner.Steps method of the same name
// (the function `ace edit` calls in process) and only maps its errors to
// Temporal's retry semantics (classify).

// Route runs runner.Steps.Route (CARE, and what the agent works on).
func (a *Activities) Route(ctx context.Context, in editloop.RouteInput) (editloop.RouteOutput, error) {
	defer keepAlive(ctx)()
	out, err := a.Steps.Route(ctx, in)
	return out, classifyWith(err, out)
}

// Act runs runner.Steps.Act (a recipe's compile).
func (a *Activities) Act(ctx context.Context, in editloop.ActInput) (editloop.ActOutput, error) {
	out, err := a.Steps.Act(ctx, in)
	return out, classifyWith(err, out)
}

// AgentTurn runs runner.Steps.AgentTurn (one model turn of the step loop).
func (a *Activities) AgentTurn(ctx context.Context, in editloop.TurnInput) (editloop.TurnOutput, error) {
	defer keepAlive(ctx)()
	out, err := a.Steps.AgentTurn(ctx, in)
	return out, classifyWith(err, out)
}

// ApplyRound runs runner.Steps.ApplyRound (a turn's calls on the working
// copy).
func (a *Activities) ApplyRound(ctx context.Context, in editloop.RoundInput) (editloop.RoundOutput, error) {
	out, err := a.Steps.ApplyRound(ctx, in)
	return out, classifyWith(err, out)
}

// Observe runs runner.Steps.Observe (the step observation and the submit
// gate).
func (a *Activities) Observe(ctx context.Context, in editloop.ObserveInput) (observe.Observation, error) {
	defer keepAlive(ctx)()
	t0 := time.Now()
	out, err := a.Steps.Observe(ctx, in)
	if err == nil {
		telemetry.RecordRender(ctx, time.Since(t0).Seconds(), len(out.Slides))
	}
	return out, classifyWith(err, out)
}

// Apply runs runner.Steps.Apply (atomic, pure, idempotent).
func (a *Activities) Apply(ctx context.Context, in editloop.ApplyInput) (editloop.ApplyOutput, error) {
	out, err := a.Steps.Apply(ctx, in)
	return out, classifyWith(err, out)
}

// Diff runs runner.Steps.Diff (JsonDiff; its text goes to the store).
func (a *Activities) Diff(ctx context.Context, in editloop.DiffInput) (editloop.DiffOutput, error) {
	out, err := a.Steps.Diff(ctx, in)
	return out, classifyWith(err, out)
}

// Render runs runner.Steps.Render: the changed slides of the new snapshot
// and of the origin in chunks, heartbeating after each (a retry starts
// over: renders are pure), and the gate. Without a renderer the gate is
// recorded as not evaluated.
func (a *Activities) Render(ctx context.Context, in editloop.RenderInput) (editloop.RenderOutput, error) {
	// Chunks beat as they finish, but one chunk may take longer than the
	// 20 s HeartbeatTimeout on a loaded machine (a slide may take up to
	// its 30 s render limit): the liveness beat keeps a working render
	// from being timed out and retried.
	defer keepAlive(ctx)()
	t0 := time.Now()
	out, err := a.Steps.Render(ctx, in)
	if err == nil && !out.NotRendered {
		telemetry.RecordRender(ctx, time.Since(t0).Seconds(), 2*out.Slides)
	}
	return out, classifyWith(err, out)
}

// Picture runs runner.Steps.Picture (the report's before and after
// pictures, kept in the store).
func (a *Activities) Picture(ctx context.Context, in editloop.PictureInput) (editloop.PictureOutput, error) {
	defer keepAlive(ctx)()
	out, err := a.Steps.Picture(ctx, in)
	return out, classifyWith(err, out)
}

// Beat reports render progress as an activity heartbeat (runner.Steps.Beat
// of a worker's steps); outside an activity it does nothing.
func Beat(ctx context.Context, slides int) {
	if activity.IsActivity(ctx) {
		activity.RecordHeartbeat(ctx, slides)
	}
}

// Judge runs runner.Steps.Judge (IF, and VQ when asked; a model outage is
// a missing score, not an error).
func (a *Activities) Judge(ctx context.Context, in editloop.JudgeInput) (editloop.JudgeOutput, error) {
	defer keepAlive(ctx)()
	out, err := a.Steps.Judge(ctx, in)
	return out, classifyWith(err, out)
}

// Critique runs runner.Steps.Critique (the critic's turn).
func (a *Activities) Critique(ctx context.Context, in editloop.CritiqueInput) (editloop.CritiqueOutput, error) {
	defer keepAlive(ctx)()
	out, err := a.Steps.Critique(ctx, in)
	return out, classifyWith(err, out)
}

// Waive runs runner.Steps.Waive (the critic's waiver question).
func (a *Activities) Waive(ctx context.Context, in editloop.WaiveInput) (editloop.WaiveOutput, error) {
	defer keepAlive(ctx)()
	out, err := a.Steps.Waive(ctx, in)
	return out, classifyWith(err, out)
}

// Check runs runner.Steps.Check (the recipe's expectations).
func (a *Activities) Check(ctx context.Context, in editloop.CheckInput) (editloop.CheckOutput, error) {
	out, err := a.Steps.Check(ctx, in)
	return out, classifyWith(err, out)
}

// Export runs runner.Steps.Export (the kept deck as a file in the store).
func (a *Activities) Export(ctx context.Context, in editloop.ExportInput) (editloop.ExportOutput, error) {
	out, err := a.Steps.Export(ctx, in)
	return out, classifyWith(err, out)
}

// RecordTurn runs runner.Steps.RecordTurn (the turn record into the
// skill bank).
func (a *Activities) RecordTurn(ctx context.Context, in editloop.RecordTurnInput) (editloop.RecordTurnOutput, error) {
	out, err := a.Steps.RecordTurn(ctx, in)
	return out, classifyWith(err, out)
}

// isBadInput reports errors a retry cannot change: a recipe that does not
// compile, a tool that is not deterministic, an unknown export format, a
// deck the validator refuses (a character a slide file cannot hold, a
// coordinate out of range: the problem names the node and field) and XML
// the exporter generated but cannot parse back (the same deck fails the
// same way every time).
func isBadInput(err error) bool {
	var re *recipe.Error
	var ve *scenegraph.ValidationError
	var bc *scenegraph.BadCharError
	return errors.As(err, &re) || errors.Is(err, runner.ErrNotDeterministic) || errors.Is(err, runner.ErrBadFormat) || errors.Is(err, runner.ErrNoSkillBank) ||
		errors.As(err, &ve) || errors.As(err, &bc) || errors.Is(err, pptx.ErrGeneratedXML)
}
