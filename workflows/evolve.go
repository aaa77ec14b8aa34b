package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/acecanvas/ace/internal/evolve"
	"github.com/acecanvas/ace/internal/skills"
)

// QueueEvolve is the task queue of the evolve workflow and its
// activities: workers that serve it hold the skill bank, a model client
// and a renderer (a replay is a whole edit).
const QueueEvolve = "ace-evolve"

// EvolveWorkflowName is the registered name of EvolveWorkflow.
const EvolveWorkflowName = "EvolveWorkflow"

// Activity names of the evolve round (evolve.Steps), all on QueueEvolve.
const (
	ActivityEvolveUngraded  = "EvolveUngraded"
	ActivityEvolveGrade     = "EvolveGrade"
	ActivityEvolveWiden     = "EvolveWiden"
	ActivityEvolvePlan      = "EvolvePlan"
	ActivityEvolvePropose   = "EvolvePropose"
	ActivityEvolveReplay    = "EvolveReplay"
	ActivityEvolveJudgePair = "EvolveJudgePair"
	ActivityEvolveApply     = "EvolveApply"
	ActivityEvolveDeprecate = "EvolveDeprecate"
	ActivityEvolveFinish    = "EvolveFinish"
	ActivityEvolveDue       = "EvolveDue"
)

// EvolveInput is EvolveWorkflow's argument.
type EvolveInput struct {
	// Round is the round's id; empty takes the workflow id, so a
	// scheduled run (whose workflow id carries its start time) and a
	// retried one use the same id.
	Round  string `json:"round,omitempty"`
	DryRun bool   `json:"dryRun,omitempty"`
	// Since is the previous round's start (ms since 1970); 0 asks the
	// bank (EvolveDue).
	Since int64 `json:"since,omitempty"`
	// Scheduled runs the round only when it is due: at least
	// evolve.RoundEvery records graded since the previous round (the
	// schedule starts the workflow often; most runs only grade).
	Scheduled bool `json:"scheduled,omitempty"`
}

// DueInput asks whether a round is due and since when.
type DueInput struct {
	Round string `json:"round"`
}

// DueOutput says when the previous round started and whether this one is
// due (records graded since then, after grading the pending ones).
type DueOutput struct {
	Since  int64 `json:"since"`
	Graded int   `json:"graded"`
	Due    bool  `json:"due"`
}

// EvolveReport is EvolveWorkflow's result.
type EvolveReport struct {
	Round string `json:"round"`
	// Skipped says why a scheduled run did not evolve (not due).
	Skipped string        `json:"skipped,omitempty"`
	Report  evolve.Report `json:"report"`
}

// Evolve step options: model steps retry like the edit's; a replay is a
// whole edit (minutes), beating every 5 s while it runs, so a killed
// worker's replay is retried on another worker within a minute.
var (
	optEvolveModel  = evolveOptions(15*time.Minute, llmHeartbeat, 0)
	optEvolveReplay = evolveOptions(45*time.Minute, time.Minute, 5)
	optEvolveBank   = evolveOptions(2*time.Minute, 0, 10)
)

func evolveOptions(startToClose, heartbeat time.Duration, maxAttempts int32) workflow.ActivityOptions {
	o := stepOptions(QueueEvolve, startToClose, heartbeat, maxAttempts)
	o.ScheduleToCloseTimeout = 3 * time.Hour
	o.RetryPolicy.MaximumInterval = llmRetryInterval
	return o
}

// EvolveWorkflow runs one evolve round of the skill bank (Designer-RSI
// §3, App. E-F) with evolve.RunRound, each of its steps an activity on
// QueueEvolve. The bank's writes are idempotent for the round id
// (evolve.Apply, Bank.Commit's compare-and-set), so a worker killed at
// any point and the activity retried elsewhere commits each decision
// once. A scheduled run first grades and checks the round is due.
func EvolveWorkflow(ctx workflow.Context, in EvolveInput) (EvolveReport, error) {
	if in.Round == "" {
		in.Round = workflow.GetInfo(ctx).WorkflowExecution.ID
	}
	out := EvolveReport{Round: in.Round}
	s := &evolveSteps{ctx: ctx}
	if in.Since == 0 || in.Scheduled {
		var due DueOutput
		if err := s.exec(optEvolveBank, ActivityEvolveDue, &due, DueInput{Round: in.Round}); err != nil {
			return out, err
		}
		if in.Since == 0 {
			in.Since = due.Since
		}
		if in.Scheduled && !due.Due {
			out.Skipped = "not due: fewer graded records since the last round than a round needs"
			return out, nil
		}
	}
	rep, err := evolve.RunRound(s, evolve.RoundInput{Round: in.Round, Since: in.Since, DryRun: in.DryRun})
	out.Report = rep
	return out, err
}

// evolveSteps implements evolve.Steps with activities.
type evolveSteps struct {
	ctx workflow.Context
}

func (s *evolveSteps) exec(o workflow.ActivityOptions, name string, out any, args ...any) error {
	return workflow.ExecuteActivity(workflow.WithActivityOptions(s.ctx, o), name, args...).Get(s.ctx, out)
}

func (s *evolveSteps) Now() time.Time { return workflow.Now(s.ctx) }

func (s *evolveSteps) Ungraded() ([]string, error) {
	var ids []string
	return ids, s.exec(optEvolveBank, ActivityEvolveUngraded, &ids)
}

func (s *evolveSteps) GradeRecord(id string) (evolve.StepResult, error) {
	var out evolve.StepResult
	return out, s.exec(optEvolveModel, ActivityEvolveGrade, &out, id)
}

func (s *evolveSteps) Widen(since int64) (evolve.WidenResult, error) {
	var out evolve.WidenResult
	return out, s.exec(optEvolveModel, ActivityEvolveWiden, &out, since)
}

func (s *evolveSteps) Plan(in evolve.PlanInput) (evolve.Plan, error) {
	var out evolve.Plan
	return out, s.exec(optEvolveBank, ActivityEvolvePlan, &out, in)
}

func (s *evolveSteps) Propose(in evolve.ProposeInput) (evolve.ProposeResult, error) {
	var out evolve.ProposeResult
	return out, s.exec(optEvolveModel, ActivityEvolvePropose, &out, in)
}

func (s *evolveSteps) Replay(in evolve.ReplayInput) (string, error) {
	var out string
	return out, s.exec(optEvolveReplay, ActivityEvolveReplay, &out, in)
}

func (s *evolveSteps) JudgePair(in evolve.JudgePairInput) (evolve.JudgePairResult, error) {
	var out evolve.JudgePairResult
	return out, s.exec(optEvolveModel, ActivityEvolveJudgePair, &out, in)
}

func (s *evolveSteps) Apply(round string, o evolve.Outcome) (skills.RoundDecision, error) {
	var out skills.RoundDecision
	return out, s.exec(optEvolveBank, ActivityEvolveApply, &out, round, o)
}

func (s *evolveSteps) Deprecate(round, name string, atUnixMS int64) (skills.RoundDecision, error) {
	var out skills.RoundDecision
	return out, s.exec(optEvolveBank, ActivityEvolveDeprecate, &out, round, name, atUnixMS)
}

func (s *evolveSteps) Finish(round string, atUnixMS int64) error {
	return s.exec(optEvolveBank, ActivityEvolveFinish, nil, round, atUnixMS)
}

var _ evolve.Steps = (*evolveSteps)(nil)
