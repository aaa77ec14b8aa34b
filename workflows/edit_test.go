package workflows

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/critic"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/observe"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/route"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// script drives fake activities: one judge verdict and one gate verdict
// per iteration, recorded inputs for assertions.
type script struct {
	mu            sync.Mutex
	scores        []*float64 // nil entry: judge skipped
	critiques     []string
	gates         []bool
	actErr        error
	acts          []editloop.TurnInput // each iteration's first agent turn
	compiles      []editloop.ActInput
	exports       []editloop.ExportInput
	pictures      []editloop.PictureInput
	pictureErr    error
	published     []*acev1.EditResult
	checks        []editloop.CheckInput
	checkFailures []recipe.Failure
	progress      []*acev1.Progress
	renders       int
	block         chan struct{} // when set, Act waits on it (for cancel tests)
}

func score(v float64) *float64 { return &v }

func (s *script) register(env *testsuite.TestWorkflowEnvironment) {
	reg := func(name string, fn any) {
		env.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: name})
	}
	reg(ActivityRoute, func(ctx context.Context, in editloop.RouteInput) (editloop.RouteOutput, error) {
		out := editloop.RouteOutput{Decision: route.Decision{Mode: route.Micro, TargetSlides: []int{0}, Source: "heuristic"},
			AgentInstruction: in.Instruction}
		if in.RecipeRef != "" {
			out.Recipe, out.Expectations = "r", 1
		}
		return out, nil
	})
	reg(ActivityCheck, func(ctx context.Context, in editloop.CheckInput) (editloop.CheckOutput, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.checks = append(s.checks, in)
		return editloop.CheckOutput{Failures: s.checkFailures, Expectations: 1}, nil
	})
	reg(ActivityAct, func(ctx context.Context, in editloop.ActInput) (editloop.ActOutput, error) {
		s.mu.Lock()
		s.compiles = append(s.compiles, in)
		s.mu.Unlock()
		return editloop.ActOutput{CallsRef: "calls1", Calls: 2, DeckRef: in.DeckRef + ">calls1"}, nil
	})
	// An iteration's first turn edits; the next ones submit.
	reg(ActivityAgentTurn, func(ctx context.Context, in editloop.TurnInput) (editloop.TurnOutput, error) {
		if in.SessionRef != "" {
			return editloop.TurnOutput{SessionRef: in.SessionRef, Round: agent.Round{Calls: []agent.RoundCall{{ID: "s", Tool: agent.ToolSubmit}}}}, nil
		}
		s.mu.Lock()
		s.acts = append(s.acts, in)
		n := len(s.acts)
		block := s.block
		s.mu.Unlock()
		if block != nil {
			select {
			case <-block:
			case <-ctx.Done():
				return editloop.TurnOutput{}, ctx.Err()
			}
		}
		if s.actErr != nil {
			return editloop.TurnOutput{}, s.actErr
		}
		return editloop.TurnOutput{SessionRef: fmt.Sprintf("ses%d", n), Round: agent.Round{Turn: 1, Calls: []agent.RoundCall{{ID: "e", Tool: "set_text_content"}}},
			LLM: []llm.Call{{Purpose: "act", PromptTokens: 100, CompletionTokens: 10, CostUSD: 0.001, Priced: true}}}, nil
	})
	reg(ActivityApplyRound, func(ctx context.Context, in editloop.RoundInput) (editloop.RoundOutput, error) {
		s.mu.Lock()
		calls := fmt.Sprintf("calls%d", len(s.acts))
		s.mu.Unlock()
		return editloop.RoundOutput{DeckRef: in.DeckRef + ">" + calls, CallsRef: calls, Calls: 2,
			Results: []agent.Result{{ID: "e", Content: "{}"}}, Changed: true}, nil
	})
	reg(ActivityObserve, func(ctx context.Context, in editloop.ObserveInput) (observe.Observation, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		i := len(s.acts) - 1
		pass := i < 0 || i >= len(s.gates) || s.gates[i]
		return observe.Observation{Passed: pass, Text: "observed"}, nil
	})
	reg(ActivityApply, func(ctx context.Context, in editloop.ApplyInput) (editloop.ApplyOutput, error) {
		if in.CallsRef == "" {
			return editloop.ApplyOutput{DeckRef: in.DeckRef}, nil
		}
		if got := in.DeckRef + ">" + in.CallsRef; got != in.Expect {
			return editloop.ApplyOutput{}, fmt.Errorf("apply gave %s, act had %s", got, in.Expect)
		}
		return editloop.ApplyOutput{DeckRef: in.Expect, Applied: 2}, nil
	})
	reg(ActivityRender, func(ctx context.Context, in editloop.RenderInput) (editloop.RenderOutput, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		i := s.renders
		s.renders++
		if len(s.acts) > 0 {
			i = len(s.acts) - 1 // the gate follows the iteration, as Observe does
		}
		pass := i >= len(s.gates) || s.gates[i]
		out := editloop.RenderOutput{GatePassed: pass, Violations: 1, Slides: 1}
		if !pass {
			out.NewViolations = []string{"text_overflow on s1/t1"}
			out.Violations++
		}
		return out, nil
	})
	reg(ActivityDiff, func(ctx context.Context, in editloop.DiffInput) (editloop.DiffOutput, error) {
		return editloop.DiffOutput{TextRef: "diff:" + in.DeckRef, Distinct: 1, ChangedSlides: []string{"s1"}}, nil
	})
	reg(ActivityJudge, func(ctx context.Context, in editloop.JudgeInput) (editloop.JudgeOutput, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		i := len(s.acts) - 1
		if i >= len(s.scores) || s.scores[i] == nil {
			return editloop.JudgeOutput{Skipped: true}, nil
		}
		return editloop.JudgeOutput{IF: judge.Verdict{Score: s.scores[i], Reason: s.critiques[i],
			Calls: []llm.Call{{Purpose: "judge-if", PromptTokens: 50}}}}, nil
	})
	reg(ActivityCritique, func(ctx context.Context, in editloop.CritiqueInput) (editloop.CritiqueOutput, error) {
		return editloop.CritiqueOutput{Ledger: in.Ledger}, nil
	})
	reg(ActivityWaive, func(ctx context.Context, in editloop.WaiveInput) (editloop.WaiveOutput, error) {
		out := editloop.WaiveOutput{Ledger: in.Ledger}
		for range in.Violations {
			out.Decisions = append(out.Decisions, critic.WaiverDecision{Refusal: "not required"})
		}
		return out, nil
	})
	reg(ActivityExport, func(ctx context.Context, in editloop.ExportInput) (editloop.ExportOutput, error) {
		s.mu.Lock()
		s.exports = append(s.exports, in)
		s.mu.Unlock()
		return editloop.ExportOutput{Ref: "export:" + in.DeckRef, Format: "pptx", Bytes: 10}, nil
	})
	reg(ActivityPicture, func(ctx context.Context, in editloop.PictureInput) (editloop.PictureOutput, error) {
		s.mu.Lock()
		s.pictures = append(s.pictures, in)
		s.mu.Unlock()
		return editloop.PictureOutput{Rendered: 2}, s.pictureErr
	})
	reg(ActivityProgress, func(ctx context.Context, ev *acev1.Progress) error {
		s.mu.Lock()
		s.progress = append(s.progress, ev)
		s.mu.Unlock()
		return nil
	})
	reg(ActivityPublish, func(ctx context.Context, res *acev1.EditResult) error {
		s.mu.Lock()
		s.published = append(s.published, res)
		s.mu.Unlock()
		return nil
	})
}

func newEnv() *testsuite.TestWorkflowEnvironment {
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	return suite.NewTestWorkflowEnvironment()
}

func request() *acev1.EditRequest {
	return &acev1.EditRequest{JobId: "b1:deck", BatchId: "b1", DeckName: "deck.pptx", DeckRef: "d0",
		Instruction: "make the title blue"}
}

func run(t *testing.T, s *script, req *acev1.EditRequest) (*testsuite.TestWorkflowEnvironment, *acev1.EditResult, error) {
	t.Helper()
	env := newEnv()
	env.SetWorkerOptions(worker.Options{})
	s.register(env)
	env.ExecuteWorkflow(EditWorkflow, EditInput{Request: req})
	if !env.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	var res *acev1.EditResult
	err := env.GetWorkflowError()
	if err == nil {
		if gerr := env.GetWorkflowResult(&res); gerr != nil {
			t.Fatal(gerr)
		}
	}
	return env, res, err
}

func TestRecipeWithoutJudgeStopsAfterOneIterationWhenGatePasses(t *testing.T) {
	s := &script{}
	req := request()
	req.Instruction, req.RecipeRef = "", "recipe-ref"
	_, res, err := run(t, s, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Iterations) != 1 || res.Status != acev1.EditStatus_EDIT_STATUS_OK || res.Selected != 1 {
		t.Fatalf("want one OK iteration selected, got %d iterations, status %v, selected %d", len(res.Iterations), res.Status, res.Selected)
	}
	if res.FinalSnapshot != "d0>calls1" || res.ExportRef != "export:d0>calls1" {
		t.Errorf("final %q export %q", res.FinalSnapshot, res.ExportRef)
	}
	if len(s.compiles) != 1 || s.compiles[0].RecipeRef != "recipe-ref" || len(s.acts) != 0 || len(s.published) != 1 || res.Outcome != "applied" {
		t.Errorf("compiles %+v, %d agent turns, %d results published, outcome %q", s.compiles, len(s.acts), len(s.published), res.Outcome)
	}
	if len(s.checks) != 1 || s.checks[0].DeckRef != "d0>calls1" || !s.checks[0].Gate.Checked {
		t.Errorf("expectations checked on %+v", s.checks)
	}
	// The report's pictures are made once, after the loop, of the origin
	// and the exported snapshot.
	if len(s.pictures) != 1 || s.pictures[0] != (editloop.PictureInput{OriginRef: "d0", FinalRef: "d0>calls1"}) {
		t.Errorf("pictures asked %+v, want one of d0 -> d0>calls1", s.pictures)
	}
}

// A failed Picture step is not the edit's failure (the report renders
// what is missing), and an edit that kept the original pictures nothing.
func TestPictureStepFailureKeepsTheEditAndNoChangeSkipsIt(t *testing.T) {
	s := &script{pictureErr: errors.New("chromium gone")}
	req := request()
	req.Instruction, req.RecipeRef = "", "recipe-ref"
	_, res, err := run(t, s, req)
	if err != nil || res.Status != acev1.EditStatus_EDIT_STATUS_OK || len(s.published) != 1 {
		t.Fatalf("a failed Picture step: err %v, status %v, %d published", err, res.GetStatus(), len(s.published))
	}
	if len(s.pictures) != 3 {
		t.Errorf("Picture tried %d times, want optPicture's 3", len(s.pictures))
	}
	s = &script{gates: []bool{false}}
	_, res, err = run(t, s, req)
	if err != nil || res.FinalSnapshot != "d0" || len(s.pictures) != 0 {
		t.Errorf("gate-blocked recipe: err %v, final %q, pictures %+v (want none)", err, res.GetFinalSnapshot(), s.pictures)
	}
}

func TestCritiqueIsForwardedVerbatimUntilTauIsReached(t *testing.T) {
	s := &script{scores: []*float64{score(2), score(3), score(4.5)},
		critiques: []string{"Title is still black.", "Only slide 1 changed.", "Done."}}
	_, res, err := run(t, s, request())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.acts) != 3 || len(res.Iterations) != 3 {
		t.Fatalf("want 3 acts, got %d", len(s.acts))
	}
	if s.acts[0].Feedback != nil || s.acts[1].Feedback.Critique != "Title is still black." || s.acts[2].Feedback.Critique != "Only slide 1 changed." ||
		s.acts[1].Feedback.Undone || s.acts[2].Feedback.Base != 2 {
		t.Errorf("feedback not verbatim: %+v / %+v / %+v", s.acts[0].Feedback, s.acts[1].Feedback, s.acts[2].Feedback)
	}
	if s.acts[2].DeckRef != "d0>calls1>calls2" {
		t.Errorf("third act should start from iteration 2's state, got %q", s.acts[2].DeckRef)
	}
	if res.Status != acev1.EditStatus_EDIT_STATUS_OK || res.Selected != 3 || res.Usage.InputTokens != 3*100+3*50 {
		t.Errorf("status %v selected %d usage %+v", res.Status, res.Selected, res.Usage)
	}
	if len(s.progress) != 3 || s.progress[1].Iteration != 2 || *s.progress[1].Score != 3 ||
		s.progress[2].Phase != acev1.Phase_PHASE_ITERATION || s.progress[2].DeckKey != "deck" || s.progress[2].BatchId != "b1" {
		t.Errorf("progress events %v", s.progress)
	}
}

func TestScoreDropRollsBackAndStrictPeakPicksTheBest(t *testing.T) {
	s := &script{scores: []*float64{score(3.5), score(2), score(3)},
		critiques: []string{"a", "b", "c"}}
	_, res, err := run(t, s, request())
	if err != nil {
		t.Fatal(err)
	}
	if s.acts[2].DeckRef != "d0>calls1" {
		t.Errorf("after the drop the loop must restart from iteration 1, got %q", s.acts[2].DeckRef)
	}
	if res.Selected != 1 || res.FinalSnapshot != "d0>calls1" || res.Status != acev1.EditStatus_EDIT_STATUS_NOT_MET {
		t.Errorf("selected %d final %q status %v", res.Selected, res.FinalSnapshot, res.Status)
	}
	if got := s.exports[0].DeckRef; got != "d0>calls1" {
		t.Errorf("exported %q", got)
	}
}

func TestGateFailureRollsBackToOriginAndNeverWins(t *testing.T) {
	s := &script{scores: []*float64{score(5), score(4)}, critiques: []string{"great", "fine"},
		gates: []bool{false, true}}
	req := request()
	req.Options = &acev1.EditOptions{MaxSteps: 2} // the refused submit ends iteration 1
	_, res, err := run(t, s, req)
	if err != nil {
		t.Fatal(err)
	}
	if s.acts[1].DeckRef != "d0" || !s.acts[1].Feedback.Undone || s.acts[1].Feedback.Base != 0 ||
		len(s.acts[1].Feedback.NewViolations) != 1 || s.acts[1].Feedback.NewViolations[0] != "text_overflow on s1/t1" {
		t.Errorf("second act: base %q feedback %+v", s.acts[1].DeckRef, s.acts[1].Feedback)
	}
	if res.Selected != 2 || res.Iterations[0].GatePassed || res.FinalViolations != 1 {
		t.Errorf("selected %d iterations %+v violations %d", res.Selected, res.Iterations, res.FinalViolations)
	}
}

func TestFailedRecipeExpectationMakesTheEditNotMet(t *testing.T) {
	s := &script{checkFailures: []recipe.Failure{{Kind: "all", Line: 9, Message: "title font is not Inter"}}}
	req := request()
	req.Instruction, req.RecipeRef = "", "recipe-ref"
	_, res, err := run(t, s, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != acev1.EditStatus_EDIT_STATUS_NOT_MET || res.Outcome != "expectation_failed" ||
		res.Reason != s.checkFailures[0].String() || len(res.FailedChecks) != 1 {
		t.Errorf("status %v outcome %q reason %q", res.Status, res.Outcome, res.Reason)
	}
}

func TestPureRecipeBlockedByTheGateRunsOnceAndKeepsTheOrigin(t *testing.T) {
	s := &script{gates: []bool{false}}
	req := request()
	req.Instruction, req.RecipeRef = "", "recipe-ref"
	_, res, err := run(t, s, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.compiles) != 1 || res.Outcome != "gate_blocked" || res.FinalSnapshot != "d0" || res.ExportRef != "export:d0" {
		t.Errorf("%d compiles, outcome %q, final %q", len(s.compiles), res.Outcome, res.FinalSnapshot)
	}
}

func TestBadRequestFailsBeforeAnyActivity(t *testing.T) {
	s := &script{}
	req := request()
	req.RecipeRef = "also-a-recipe"
	_, _, err := run(t, s, req)
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != ErrBadInput || !app.NonRetryable() {
		t.Fatalf("want non-retryable %s, got %v", ErrBadInput, err)
	}
	if len(s.acts) != 0 || len(s.published) != 0 {
		t.Errorf("activities ran on bad input")
	}
}

func TestAnUnknownContextModeIsBadInput(t *testing.T) {
	req := request()
	req.Options = &acev1.EditOptions{ContextMode: "micro"}
	err := Validate(req)
	if err == nil || !strings.Contains(err.Error(), `context_mode "micro"`) || !strings.Contains(err.Error(), "MICRO_SPATIAL") {
		t.Fatalf("want the modes named, got %v", err)
	}
	req.Options.ContextMode = "FULL"
	if err := Validate(req); err != nil {
		t.Fatal(err)
	}
}

func TestNoModelFailsFastAndPublishesTheReason(t *testing.T) {
	s := &script{actErr: temporal.NewNonRetryableApplicationError("no model: set ACE_AGENT_MODEL", ErrNoModel, nil)}
	_, _, err := run(t, s, request())
	if err == nil || !strings.Contains(err.Error(), "no model") {
		t.Fatalf("want the no-model error, got %v", err)
	}
	if len(s.acts) != 1 {
		t.Errorf("a non-retryable error was retried: %d attempts", len(s.acts))
	}
	if len(s.published) != 1 || s.published[0].Status != acev1.EditStatus_EDIT_STATUS_FAILED ||
		!strings.Contains(s.published[0].Reason, "ACE_AGENT_MODEL") {
		t.Errorf("published %+v", s.published)
	}
}

func TestCancelSignalStopsAndPublishesCanceled(t *testing.T) {
	s := &script{block: make(chan struct{})}
	env := newEnv()
	s.register(env)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(SignalCancel, nil)
	}, time.Second)
	env.ExecuteWorkflow(EditWorkflow, EditInput{Request: request()})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var res *acev1.EditResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Status != acev1.EditStatus_EDIT_STATUS_CANCELED || len(s.published) != 1 {
		t.Errorf("status %v, %d published", res.Status, len(s.published))
	}
}

func TestProgressQueryReportsIterationsAndUsage(t *testing.T) {
	s := &script{scores: []*float64{score(2), score(4)}, critiques: []string{"more", "ok"}}
	env, _, err := run(t, s, request())
	if err != nil {
		t.Fatal(err)
	}
	v, err := env.QueryWorkflow(QueryProgress)
	if err != nil {
		t.Fatal(err)
	}
	var p Progress
	if err := v.Get(&p); err != nil {
		t.Fatal(err)
	}
	if p.Phase != "done" || p.Iteration != 2 || p.Usage.Calls != 4 || *p.Iterations[1].Score != 4 {
		t.Errorf("progress %+v", p)
	}
}

func TestLongHistoryContinuesAsNewWithTheLoopState(t *testing.T) {
	old := historyLimit
	historyLimit = 10
	defer func() { historyLimit = old }()
	s := &script{scores: []*float64{score(1), score(2), score(4)}, critiques: []string{"x", "y", "z"}}
	_, _, err := run(t, s, request())
	var can *workflow.ContinueAsNewError
	if !errors.As(err, &can) {
		t.Fatalf("want continue-as-new, got %v", err)
	}
	var in EditInput
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &in); err != nil {
		t.Fatal(err)
	}
	req, rec := in.Request, in.Resume
	if len(rec.Iterations) != 1 || rec.Iterations[0].Decision.Base != "d0>calls1" || rec.Iterations[0].Decision.Feedback.Critique != "x" || req.JobId != "b1:deck" {
		t.Errorf("carried record %+v", rec)
	}
}
