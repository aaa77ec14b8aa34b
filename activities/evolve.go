package activities

import (
	"context"
	"errors"

	"github.com/acecanvas/ace/internal/evolve"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/workflows"
)

// Evolve holds what the evolve round's activities need: the in-process
// round runner (bank, model client, store, replayer) and the bank it
// works on. Each activity is evolve.Runner.Steps' method of the same
// name, so a round in a workflow does what `ace skills evolve` does in
// process.
type Evolve struct {
	Runner *evolve.Runner
	Bank   *skills.Bank
}

var errNoEvolve = errors.New("this worker has no skill bank: start it with the evolve queue (ace worker --queues evolve)")

func (e *Evolve) steps(ctx context.Context) (evolve.Steps, error) {
	if e == nil || e.Runner == nil || e.Bank == nil {
		return nil, errNoEvolve
	}
	return e.Runner.Steps(ctx), nil
}

// Functions maps the evolve workflow's activity names to their methods.
func (e *Evolve) Functions() map[string]any {
	return map[string]any{
		workflows.ActivityEvolveDue: e.Due, workflows.ActivityEvolveUngraded: e.Ungraded,
		workflows.ActivityEvolveGrade: e.Grade, workflows.ActivityEvolveWiden: e.Widen,
		workflows.ActivityEvolvePlan: e.Plan, workflows.ActivityEvolvePropose: e.Propose,
		workflows.ActivityEvolveReplay: e.Replay, workflows.ActivityEvolveJudgePair: e.JudgePair,
		workflows.ActivityEvolveApply: e.Apply, workflows.ActivityEvolveDeprecate: e.Deprecate,
		workflows.ActivityEvolveFinish: e.Finish,
	}
}

// Due runs evolve.RoundIsDue.
func (e *Evolve) Due(ctx context.Context, in workflows.DueInput) (workflows.DueOutput, error) {
	if e == nil || e.Bank == nil {
		return workflows.DueOutput{}, errNoEvolve
	}
	d, err := evolve.RoundIsDue(ctx, e.Bank, in.Round)
	return workflows.DueOutput{Since: d.Since, Graded: d.New, Due: d.Due}, err
}

// Ungraded runs Steps.Ungraded.
func (e *Evolve) Ungraded(ctx context.Context) ([]string, error) {
	s, err := e.steps(ctx)
	if err != nil {
		return nil, err
	}
	return s.Ungraded()
}

// Grade runs Steps.GradeRecord.
func (e *Evolve) Grade(ctx context.Context, id string) (evolve.StepResult, error) {
	defer keepAlive(ctx)()
	s, err := e.steps(ctx)
	if err != nil {
		return evolve.StepResult{}, err
	}
	out, err := s.GradeRecord(id)
	return out, classify(err)
}

// Widen runs Steps.Widen.
func (e *Evolve) Widen(ctx context.Context, since int64) (evolve.WidenResult, error) {
	defer keepAlive(ctx)()
	s, err := e.steps(ctx)
	if err != nil {
		return evolve.WidenResult{}, err
	}
	out, err := s.Widen(since)
	return out, classify(err)
}

// Plan runs Steps.Plan.
func (e *Evolve) Plan(ctx context.Context, in evolve.PlanInput) (evolve.Plan, error) {
	s, err := e.steps(ctx)
	if err != nil {
		return evolve.Plan{}, err
	}
	return s.Plan(in)
}

// Propose runs Steps.Propose.
func (e *Evolve) Propose(ctx context.Context, in evolve.ProposeInput) (evolve.ProposeResult, error) {
	defer keepAlive(ctx)()
	s, err := e.steps(ctx)
	if err != nil {
		return evolve.ProposeResult{}, err
	}
	out, err := s.Propose(in)
	return out, classify(err)
}

// Replay runs Steps.Replay: a whole edit in this worker (the edit loop
// in process, runner.Run), beating while it runs.
func (e *Evolve) Replay(ctx context.Context, in evolve.ReplayInput) (string, error) {
	defer keepAlive(ctx)()
	s, err := e.steps(ctx)
	if err != nil {
		return "", err
	}
	out, err := s.Replay(in)
	return out, classify(err)
}

// JudgePair runs Steps.JudgePair.
func (e *Evolve) JudgePair(ctx context.Context, in evolve.JudgePairInput) (evolve.JudgePairResult, error) {
	defer keepAlive(ctx)()
	s, err := e.steps(ctx)
	if err != nil {
		return evolve.JudgePairResult{}, err
	}
	out, err := s.JudgePair(in)
	return out, classify(err)
}

// Apply runs Steps.Apply (idempotent for the round).
func (e *Evolve) Apply(ctx context.Context, round string, o evolve.Outcome) (skills.RoundDecision, error) {
	s, err := e.steps(ctx)
	if err != nil {
		return skills.RoundDecision{}, err
	}
	return s.Apply(round, o)
}

// Deprecate runs Steps.Deprecate (idempotent for the round).
func (e *Evolve) Deprecate(ctx context.Context, round, name string, atUnixMS int64) (skills.RoundDecision, error) {
	s, err := e.steps(ctx)
	if err != nil {
		return skills.RoundDecision{}, err
	}
	return s.Deprecate(round, name, atUnixMS)
}

// Finish runs Steps.Finish.
func (e *Evolve) Finish(ctx context.Context, round string, atUnixMS int64) error {
	s, err := e.steps(ctx)
	if err != nil {
		return err
	}
	return s.Finish(round, atUnixMS)
}
