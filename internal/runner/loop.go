package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/observe"
)

// Run runs the edit loop in process: editloop.Run over Steps with direct
// calls and the wall clock. The record is returned in every case; the
// error is non-nil when the outcome is failed or canceled. Canceling ctx
// stops the loop at the next step with outcome canceled.
func Run(ctx context.Context, s *Steps, req editloop.Request) (*editloop.Record, error) {
	return editloop.Run(inProcess{ctx: ctx, s: s}, req, nil)
}

// inProcess adapts Steps to editloop.Steps for one run: its context is the
// run's, and a step failing because that context ended is a cancellation.
type inProcess struct {
	ctx context.Context
	s   *Steps
}

func (p inProcess) Route(in editloop.RouteInput) (editloop.RouteOutput, error) {
	out, err := p.s.Route(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Act(in editloop.ActInput) (editloop.ActOutput, error) {
	out, err := p.s.Act(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) AgentTurn(in editloop.TurnInput) (editloop.TurnOutput, error) {
	out, err := p.s.AgentTurn(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) ApplyRound(in editloop.RoundInput) (editloop.RoundOutput, error) {
	out, err := p.s.ApplyRound(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Observe(in editloop.ObserveInput) (observe.Observation, error) {
	out, err := p.s.Observe(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Apply(in editloop.ApplyInput) (editloop.ApplyOutput, error) {
	out, err := p.s.Apply(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Diff(in editloop.DiffInput) (editloop.DiffOutput, error) {
	out, err := p.s.Diff(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Render(in editloop.RenderInput) (editloop.RenderOutput, error) {
	out, err := p.s.Render(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Judge(in editloop.JudgeInput) (editloop.JudgeOutput, error) {
	out, err := p.s.Judge(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Critique(in editloop.CritiqueInput) (editloop.CritiqueOutput, error) {
	out, err := p.s.Critique(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Waive(in editloop.WaiveInput) (editloop.WaiveOutput, error) {
	out, err := p.s.Waive(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Check(in editloop.CheckInput) (editloop.CheckOutput, error) {
	out, err := p.s.Check(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Export(in editloop.ExportInput) (editloop.ExportOutput, error) {
	out, err := p.s.Export(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Now() time.Time { return time.Now() }

// Iterated stops the loop when the run's context ended between steps.
func (p inProcess) Iterated(*editloop.Record) error { return p.canceled(p.ctx.Err()) }

// canceled marks err as a cancellation when the run's context is done.
func (p inProcess) canceled(err error) error {
	if err != nil && p.ctx.Err() != nil {
		return fmt.Errorf("%w: %w", editloop.ErrCanceled, err)
	}
	return err
}

func (p inProcess) RecordTurn(in editloop.RecordTurnInput) (editloop.RecordTurnOutput, error) {
	out, err := p.s.RecordTurn(p.ctx, in)
	return out, p.canceled(err)
}
