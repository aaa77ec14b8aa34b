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
	return editloop.Run(inProcess{ctx: ctx, s: s, iters: new(int)}, req, nil)
}

// Progress is a step of an in-process edit beginning (Steps.Progress):
// Step is its name ("route", "act", "agent turn", "apply", "observe",
// "render", "diff", "judge", "critique", "waive", "check", "export") and
// Iteration the 1-based iteration it belongs to.
type Progress struct {
	Step      string
	Iteration int
}

// inProcess adapts Steps to editloop.Steps for one run: its context is the
// run's, and a step failing because that context ended is a cancellation.
type inProcess struct {
	ctx   context.Context
	s     *Steps
	iters *int // iterations finished, for Steps.Progress
}

// step tells Steps.Progress that the step named name begins.
func (p inProcess) step(name string) {
	if p.s.Progress != nil {
		it := *p.iters + 1
		if name == "export" {
			// Export runs after the last iteration: it carries its number.
			it = max(*p.iters, 1)
		}
		p.s.Progress(Progress{Step: name, Iteration: it})
	}
}

func (p inProcess) Route(in editloop.RouteInput) (editloop.RouteOutput, error) {
	p.step("route")
	out, err := p.s.Route(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Act(in editloop.ActInput) (editloop.ActOutput, error) {
	p.step("act")
	out, err := p.s.Act(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) AgentTurn(in editloop.TurnInput) (editloop.TurnOutput, error) {
	p.step("agent turn")
	out, err := p.s.AgentTurn(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) ApplyRound(in editloop.RoundInput) (editloop.RoundOutput, error) {
	p.step("apply")
	out, err := p.s.ApplyRound(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Observe(in editloop.ObserveInput) (observe.Observation, error) {
	p.step("observe")
	out, err := p.s.Observe(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Apply(in editloop.ApplyInput) (editloop.ApplyOutput, error) {
	p.step("apply")
	out, err := p.s.Apply(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Diff(in editloop.DiffInput) (editloop.DiffOutput, error) {
	p.step("diff")
	out, err := p.s.Diff(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Render(in editloop.RenderInput) (editloop.RenderOutput, error) {
	p.step("render")
	out, err := p.s.Render(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Judge(in editloop.JudgeInput) (editloop.JudgeOutput, error) {
	p.step("judge")
	out, err := p.s.Judge(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Critique(in editloop.CritiqueInput) (editloop.CritiqueOutput, error) {
	p.step("critique")
	out, err := p.s.Critique(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Waive(in editloop.WaiveInput) (editloop.WaiveOutput, error) {
	p.step("waive")
	out, err := p.s.Waive(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Check(in editloop.CheckInput) (editloop.CheckOutput, error) {
	p.step("check")
	out, err := p.s.Check(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Export(in editloop.ExportInput) (editloop.ExportOutput, error) {
	p.step("export")
	out, err := p.s.Export(p.ctx, in)
	return out, p.canceled(err)
}

func (p inProcess) Now() time.Time { return time.Now() }

// Iterated stops the loop when the run's context ended between steps.
func (p inProcess) Iterated(*editloop.Record) error {
	*p.iters++
	return p.canceled(p.ctx.Err())
}

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
