package evolve_test

import (
	"context"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/evolve"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/store"
)

// TestLoopReplayerRunsTheEditLoopOnARealDeck: a replay re-runs a record's
// instruction on its origin deck through the edit loop in process (route,
// agent, apply, judge) and returns the kept deck, which holds the edit;
// an arm with skills runs with exactly those skills offered.
func TestLoopReplayerRunsTheEditLoopOnARealDeck(t *testing.T) {
	w := newWorld(t, nil)
	ctx := context.Background()
	d, err := store.GetDeck(ctx, w.st, w.origin)
	if err != nil {
		t.Fatal(err)
	}
	var target string
	d.Slides[1].Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if target == "" && n.Characters != "" {
			target = n.ID
		}
		return target == ""
	})
	sc, err := llmtest.ParseScript([]byte(`
steps:
  - model: judge-m
    forever: true
    when_last: "CHECKS (group"
    pass_checks: true
  - model: router-m
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [2], "reason": "slide 2"}'
  - model: agent-m
    tool_calls: [{name: set_text_content, arguments: {nodeId: "`+target+`", text: "Careers, simply"}}]
  - model: agent-m
    tool_calls: [{name: submit, arguments: {summary: "retitled slide 2"}}]
  - model: judge-m
    text: '{"instruction_following_score": 5, "instruction_following_reason": "Retitled as asked."}'
  - model: router-m
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [2], "reason": "slide 2"}'
  - model: router-m
    note: the distiller of the skills arm's retrieval
    text: '{"operations": ["edit table cells"]}'
  - model: agent-m
    tool_calls: [{name: set_text_content, arguments: {nodeId: "`+target+`", text: "Careers, simply"}}]
  - model: agent-m
    tool_calls: [{name: submit, arguments: {summary: "retitled slide 2"}}]
  - model: judge-m
    text: '{"instruction_following_score": 5, "instruction_following_reason": "Retitled as asked."}'
`), t.Name())
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, sc)
	cfg := srv.Config("agent-m", "judge-m")
	cfg.RouterModel = "router-m"
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := evolve.LoopReplayer{Store: w.st, LLM: c}
	rec := skills.TurnRecord{ID: "rp1", Instruction: "Retitle slide 2 to 'Careers, simply'.", DeckRef: w.origin}
	ref, err := r.Replay(ctx, rec, evolve.Arm{Name: evolve.ArmBaseline})
	if err != nil {
		t.Fatalf("%v (server: %v)", err, srv.Errors())
	}
	final, err := store.GetDeck(ctx, w.st, ref)
	if err != nil {
		t.Fatal(err)
	}
	if ref == w.origin || scenegraph.NewIndex(final).Node(target).Characters != "Careers, simply" {
		t.Fatalf("the replay did not keep the edit (final %s)", ref)
	}
	// The skills arm: retrieval runs over exactly the arm's set, and the
	// agent's first message carries its catalog.
	ref2, err := r.Replay(ctx, rec, evolve.Arm{Name: evolve.ArmProposal, Skills: []skills.Skill{seedSkill(t, "table-cell-edits")}})
	if err != nil {
		t.Fatalf("skills arm: %v (server: %v)", err, srv.Errors())
	}
	if ref2 == w.origin {
		t.Error("the skills arm kept nothing")
	}
	agentReqs := srv.RequestsFor("agent-m")
	if len(agentReqs) != 4 {
		t.Fatalf("%d agent turns over both replays, want 4", len(agentReqs))
	}
	withSkills := agentReqs[2].Chat.Messages[1].Content
	if !strings.Contains(withSkills, "table-cell-edits") || strings.Contains(agentReqs[0].Chat.Messages[1].Content, "table-cell-edits") {
		t.Error("only the skills arm's agent should see the skill catalog")
	}
	if n := len(srv.RequestsFor("router-m")); n != 3 {
		t.Errorf("%d router calls, want 3 (two routes, one distil)", n)
	}
	if srv.Unserved() != 0 {
		t.Errorf("%d scripted answers unused", srv.Unserved())
	}
}
