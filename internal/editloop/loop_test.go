package editloop_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/critic"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/observe"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/recipe"
	"github.com/acecanvas/ace/internal/retrieval"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/skills"
)

// fake steps: each act appends ">n" to the base snapshot; scores and gates
// per iteration; actErr fails the act of iteration failAt.
type fake struct {
	scores   []float64
	gates    []bool
	failAt   int
	actErr   error
	failures []recipe.Failure
	acts     int
	iterated int
	stopAt   int // Iterated returns errStop at this count
	now      time.Time
	// turns are the first-turn inputs; records the turn records written
	// (recordErr fails RecordTurn).
	turns     []editloop.TurnInput
	records   []skills.TurnRecord
	recordErr error
	// visual marks every diff as changing what is drawn; renders are
	// the Render inputs seen.
	visual  bool
	renders []editloop.RenderInput
}

var errStop = errors.New("continue as new")

func (f *fake) Route(in editloop.RouteInput) (editloop.RouteOutput, error) {
	out := editloop.RouteOutput{Decision: route.Decision{Mode: route.Micro}, AgentInstruction: in.Instruction}
	if in.RecipeRef != "" {
		out.Expectations = 1
	}
	if in.Skills {
		out.Skills = &retrieval.Result{Operations: []string{"edit text"}, Covered: true, SetRef: "set1", Starred: []string{"text-typography"},
			Scored: []skills.Scored{{Name: "text-typography", Version: 1, Score: 1, Starred: true}, {Name: "table-cell-edits", Version: 1, Score: 0.1}}}
	}
	return out, nil
}

func (f *fake) RecordTurn(in editloop.RecordTurnInput) (editloop.RecordTurnOutput, error) {
	if f.recordErr != nil {
		return editloop.RecordTurnOutput{}, f.recordErr
	}
	f.records = append(f.records, in.Record)
	return editloop.RecordTurnOutput{ID: in.Record.ID}, nil
}

func (f *fake) Act(in editloop.ActInput) (editloop.ActOutput, error) {
	return editloop.ActOutput{DeckRef: in.DeckRef}, nil
}

// AgentTurn: an iteration's first turn edits, the next ones submit.
func (f *fake) AgentTurn(in editloop.TurnInput) (editloop.TurnOutput, error) {
	if in.SessionRef != "" {
		return editloop.TurnOutput{SessionRef: in.SessionRef, Round: agent.Round{Calls: []agent.RoundCall{{ID: "s", Tool: agent.ToolSubmit}}}}, nil
	}
	f.turns = append(f.turns, in)
	f.acts++
	if f.acts == f.failAt {
		return editloop.TurnOutput{}, f.actErr
	}
	return editloop.TurnOutput{SessionRef: fmt.Sprintf("ses%d", f.acts), Round: agent.Round{Calls: []agent.RoundCall{{ID: "e", Tool: "set_text_content"}}}}, nil
}

func (f *fake) ApplyRound(in editloop.RoundInput) (editloop.RoundOutput, error) {
	out := editloop.RoundOutput{DeckRef: fmt.Sprintf("%s>%d", in.DeckRef, f.acts), CallsRef: "c", Calls: 1,
		Results: []agent.Result{{ID: "e", Content: "{}"}}, Changed: true}
	if in.SkillsRef != "" {
		out.Loaded = []string{"text-typography"}
	}
	return out, nil
}

func (f *fake) Observe(editloop.ObserveInput) (observe.Observation, error) {
	i := f.acts - 1
	pass := i >= len(f.gates) || f.gates[i]
	return observe.Observation{Passed: pass, Text: "observed"}, nil
}

func (f *fake) Apply(in editloop.ApplyInput) (editloop.ApplyOutput, error) {
	return editloop.ApplyOutput{DeckRef: in.Expect, Applied: 1}, nil
}

func (f *fake) Diff(editloop.DiffInput) (editloop.DiffOutput, error) {
	return editloop.DiffOutput{Distinct: 1, ChangedSlides: []string{"s1"}, TouchesVisual: f.visual}, nil
}

func (f *fake) Render(in editloop.RenderInput) (editloop.RenderOutput, error) {
	f.renders = append(f.renders, in)
	i := max(f.acts-1, 0) // a pure recipe has no agent turn
	pass := i >= len(f.gates) || f.gates[i]
	out := editloop.RenderOutput{Slides: 1, GatePassed: pass}
	if !pass {
		out.NewViolations = []string{"overlap on slide s1"}
	}
	return out, nil
}

func (f *fake) Judge(editloop.JudgeInput) (editloop.JudgeOutput, error) {
	s := f.scores[f.acts-1]
	return editloop.JudgeOutput{IF: judge.Verdict{Score: &s, Reason: fmt.Sprintf("critique %d", f.acts)}}, nil
}

func (f *fake) Critique(in editloop.CritiqueInput) (editloop.CritiqueOutput, error) {
	return editloop.CritiqueOutput{Ledger: in.Ledger}, nil
}

func (f *fake) Waive(in editloop.WaiveInput) (editloop.WaiveOutput, error) {
	out := editloop.WaiveOutput{Ledger: in.Ledger}
	for range in.Violations {
		out.Decisions = append(out.Decisions, critic.WaiverDecision{Refusal: "not required"})
	}
	return out, nil
}

func (f *fake) Check(editloop.CheckInput) (editloop.CheckOutput, error) {
	return editloop.CheckOutput{Failures: f.failures, Expectations: 1}, nil
}

func (f *fake) Export(in editloop.ExportInput) (editloop.ExportOutput, error) {
	return editloop.ExportOutput{Ref: "file:" + in.DeckRef, Format: "json"}, nil
}

func (f *fake) Now() time.Time { f.now = f.now.Add(time.Millisecond); return f.now }

func (f *fake) Iterated(*editloop.Record) error {
	f.iterated++
	if f.iterated == f.stopAt {
		return errStop
	}
	return nil
}

func TestALaterStepFailureKeepsTheBestEarlierIteration(t *testing.T) {
	f := &fake{scores: []float64{3, 2}, failAt: 2, actErr: errors.New("model refused")}
	rec, err := editloop.Run(f, editloop.Request{DeckRef: "d0", Instruction: "x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Outcome != policy.Interrupted || rec.Selected != 1 || rec.Final != "d0>1" || rec.Export.Ref != "file:d0>1" {
		t.Fatalf("outcome %s selected %d final %s export %s", rec.Outcome, rec.Selected, rec.Final, rec.Export.Ref)
	}
	if it := rec.Iterations[1]; it.Decision != nil || it.Error != "agent turn 1: model refused" {
		t.Fatalf("the failed iteration: decision %+v error %q", it.Decision, it.Error)
	}
}

func TestAFailureBeforeAnyKeptIterationFailsTheEdit(t *testing.T) {
	f := &fake{scores: []float64{5}, gates: []bool{false}, failAt: 2, actErr: errors.New("boom")}
	rec, err := editloop.Run(f, editloop.Request{DeckRef: "d0", Instruction: "x", MaxSteps: 2}, nil)
	if err == nil || rec.Outcome != policy.Failed || rec.Final != "d0" || rec.Export.Ref != "" {
		t.Fatalf("err %v outcome %s final %s export %q", err, rec.Outcome, rec.Final, rec.Export.Ref)
	}
}

// Expectations checked after an interruption or a gate block do not turn
// the outcome into expectation_failed (that would hide why the edit fell
// short); after a clean stop they do.
func TestExpectationsDoNotHideWhyAnEditFellShort(t *testing.T) {
	fail := []recipe.Failure{{Kind: "no_text", Line: 3, Message: "1 node(s) still contain \"x\""}}
	for _, c := range []struct {
		name string
		f    *fake
		want policy.Outcome
	}{
		{"interrupted", &fake{scores: []float64{3, 2}, failAt: 2, actErr: errors.New("down"), failures: fail}, policy.Interrupted},
		{"gate blocked", &fake{scores: []float64{5, 5, 5}, gates: []bool{false, false, false}, failures: fail}, policy.GateBlocked},
		{"stopped", &fake{scores: []float64{5}, failures: fail}, policy.ExpectationFailed},
	} {
		rec, err := editloop.Run(c.f, editloop.Request{DeckRef: "d0", Instruction: "x", RecipeRef: "r", MaxSteps: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Outcome != c.want || len(rec.Checks) != 1 {
			t.Errorf("%s: outcome %s with %d failed checks, want %s", c.name, rec.Outcome, len(rec.Checks), c.want)
		}
		if rec.ChecksOnOrigin != (c.want == policy.GateBlocked) {
			t.Errorf("%s: checks on origin %v", c.name, rec.ChecksOnOrigin)
		}
	}
}

// The render step takes pictures only for someone who looks at them: the
// judge and the critic of an instruction's edit that changed what is
// drawn. A pure recipe is judged by its expectations, so its render only
// measures.
func TestOnlyAJudgedEditIsRenderedWithPictures(t *testing.T) {
	for _, c := range []struct {
		name   string
		req    editloop.Request
		visual bool
		want   bool
	}{
		{"instruction, visual change", editloop.Request{DeckRef: "d0", Instruction: "x"}, true, true},
		{"instruction, no visual change", editloop.Request{DeckRef: "d0", Instruction: "x"}, false, false},
		{"instruction, no visual change, VQ", editloop.Request{DeckRef: "d0", Instruction: "x", VQ: true}, false, true},
		{"recipe and instruction", editloop.Request{DeckRef: "d0", Instruction: "x", RecipeRef: "r"}, true, true},
		{"pure recipe, visual change", editloop.Request{DeckRef: "d0", RecipeRef: "r"}, true, false},
		{"pure recipe, VQ", editloop.Request{DeckRef: "d0", RecipeRef: "r", VQ: true}, true, false},
	} {
		f := &fake{scores: []float64{5}, visual: c.visual}
		if _, err := editloop.Run(f, c.req, nil); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(f.renders) == 0 {
			t.Fatalf("%s: no render step", c.name)
		}
		if got := f.renders[0].Images; got != c.want {
			t.Errorf("%s: render step asked for pictures %v, want %v", c.name, got, c.want)
		}
	}
}

// An Iterated error ends Run with the record so far (continue-as-new):
// resuming from that record reaches the same end as an uninterrupted run.
func TestResumingFromTheRecordFinishesTheSameEdit(t *testing.T) {
	whole, err := editloop.Run(&fake{scores: []float64{2, 3, 4.5}}, editloop.Request{DeckRef: "d0", Instruction: "x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{scores: []float64{2, 3, 4.5}, stopAt: 1}
	part, err := editloop.Run(f, editloop.Request{DeckRef: "d0", Instruction: "x"}, nil)
	if !errors.Is(err, errStop) || len(part.Iterations) != 1 {
		t.Fatalf("err %v after %d iterations", err, len(part.Iterations))
	}
	f.stopAt = 0
	rest, err := editloop.Run(f, editloop.Request{DeckRef: "d0", Instruction: "x"}, part)
	if err != nil {
		t.Fatal(err)
	}
	if rest.Outcome != whole.Outcome || rest.Final != whole.Final || rest.Selected != whole.Selected || len(rest.Iterations) != 3 {
		t.Fatalf("resumed %s %s %d (%d iterations), whole %s %s %d", rest.Outcome, rest.Final, rest.Selected, len(rest.Iterations),
			whole.Outcome, whole.Final, whole.Selected)
	}
}

func TestACanceledStepCancelsTheEdit(t *testing.T) {
	f := &fake{scores: []float64{3}, failAt: 2, actErr: fmt.Errorf("%w: context canceled", editloop.ErrCanceled)}
	rec, err := editloop.Run(f, editloop.Request{DeckRef: "d0", Instruction: "x"}, nil)
	if !errors.Is(err, editloop.ErrCanceled) || rec.Outcome != policy.Canceled || rec.Export.Ref != "" {
		t.Fatalf("err %v outcome %s export %q", err, rec.Outcome, rec.Export.Ref)
	}
}
