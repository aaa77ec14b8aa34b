package editloop_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/policy"
	"github.com/acecanvas/ace/internal/skills"
)

// With skills on, Route's retrieval reaches every iteration's first turn
// and every round, the skills the agent read are recorded per step, and
// the edit ends by writing one turn record with them; with skills off
// none of it happens.
func TestSkillsFlowFromRouteToTheTurnRecord(t *testing.T) {
	f := &fake{scores: []float64{3, 5}}
	rec, err := editloop.Run(f, editloop.Request{DeckRef: "d0", Instruction: "Make the title bold", Skills: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Iterations) != 2 || len(f.turns) != 2 {
		t.Fatalf("%d iterations, %d first turns", len(rec.Iterations), len(f.turns))
	}
	for _, in := range f.turns {
		if in.SkillsRef != "set1" || !slices.Equal(in.Starred, []string{"text-typography"}) {
			t.Fatalf("first turn without the skill set: %+v", in)
		}
	}
	if rec.Route.Skills == nil || !slices.Equal(rec.Iterations[0].Steps[0].Skills, []string{"text-typography"}) ||
		!slices.Equal(rec.LoadedSkills(), []string{"text-typography"}) {
		t.Fatalf("route skills %+v, step skills %v", rec.Route.Skills, rec.Iterations[0].Steps[0].Skills)
	}
	if len(f.records) != 1 {
		t.Fatalf("%d turn records written", len(f.records))
	}
	tr := f.records[0]
	if tr.ID != rec.TurnRecord || !strings.HasPrefix(tr.ID, "edit-") || rec.TurnRecordError != "" {
		t.Fatalf("record id %q, the edit's %q (%s)", tr.ID, rec.TurnRecord, rec.TurnRecordError)
	}
	kept := rec.Kept()
	if tr.Instruction != "Make the title bold" || tr.DeckRef != "d0" || tr.FinalRef != rec.Final || !tr.Covered ||
		len(tr.Retrieved) != 2 || !tr.Retrieved[0].Starred || !slices.Equal(tr.Operations, []string{"edit text"}) ||
		!slices.Equal(tr.Loaded, []string{"text-typography"}) || !tr.SkillsOn || tr.Outcome != string(rec.Outcome) ||
		tr.IF == nil || *tr.IF != *kept.Score || !tr.GatePassed || tr.AgentTurns != rec.AgentTurns || tr.StartedUnixMS != rec.StartedUnixMS {
		t.Fatalf("turn record %+v", tr)
	}
	if want := []skills.ToolUse{{Tool: "set_text_content", OK: true}, {Tool: "set_text_content", OK: true}}; !slices.Equal(tr.Tools, want) {
		t.Fatalf("tools %+v, want %+v (submits left out)", tr.Tools, want)
	}

	off := &fake{scores: []float64{3, 5}}
	rec, err = editloop.Run(off, editloop.Request{DeckRef: "d0", Instruction: "Make the title bold"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(off.records) != 0 || rec.Route.Skills != nil || off.turns[0].SkillsRef != "" || rec.TurnRecord != "" {
		t.Fatalf("skills off: %d records, route skills %+v", len(off.records), rec.Route.Skills)
	}
}

// A turn record that cannot be written is noted; the edit stands.
func TestAFailedTurnRecordDoesNotFailTheEdit(t *testing.T) {
	f := &fake{scores: []float64{5}, recordErr: errors.New("bank unreachable")}
	rec, err := editloop.Run(f, editloop.Request{DeckRef: "d0", Instruction: "x", Skills: true}, nil)
	if err != nil || rec.Outcome == policy.Failed {
		t.Fatalf("err %v outcome %s", err, rec.Outcome)
	}
	if rec.TurnRecordError != "bank unreachable" || rec.TurnRecord != "" {
		t.Fatalf("turn record %q error %q", rec.TurnRecord, rec.TurnRecordError)
	}
}

// TurnRecordOf marks the call a tool error names as failed, leaves the
// agent's own tools out, and takes the last critique when no iteration
// was kept.
func TestTurnRecordOfToolsAndCritique(t *testing.T) {
	rec := &editloop.Record{Instruction: "x", Origin: "d0", Final: "d0", Outcome: policy.GateBlocked, StartedUnixMS: 7,
		Iterations: []editloop.IterationRecord{{N: 1, Critique: "title still regular",
			Steps: []editloop.StepRecord{
				{Turn: 1, Tools: []string{agent.ToolLoadSkill, "set_text_font", "set_text_font", agent.ToolLoadTools}},
				{Turn: 2, Tools: []string{"move_node", agent.ToolSubmit}},
			},
			ToolErrors: []agent.ToolError{{Turn: 1, Tool: "set_text_font"}}}}}
	tr := editloop.TurnRecordOf(rec, editloop.Request{Skills: true})
	want := []skills.ToolUse{{Tool: "set_text_font", OK: false}, {Tool: "set_text_font", OK: true}, {Tool: "move_node", OK: true}}
	if !slices.Equal(tr.Tools, want) || tr.Critique != "title still regular" || tr.FinalRef != "" || tr.GatePassed {
		t.Fatalf("record %+v", tr)
	}
	if a, b := editloop.TurnRecordID("d0", "x", 7), editloop.TurnRecordID("d0", "x", 8); a != tr.ID || a == b {
		t.Fatalf("ids %s %s %s", tr.ID, a, b)
	}
}
