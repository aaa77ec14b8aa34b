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
// agent, apply, judge) and returns the kept deck, which holds the edit.
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
	if n := len(srv.RequestsFor("agent-m")); n != 2 {
		t.Errorf("%d agent turns, want 2", n)
	}
	_, err = r.Replay(ctx, rec, evolve.Arm{Name: evolve.ArmProposal, Skills: []skills.Skill{seedSkill(t, "table-cell-edits")}})
	if err == nil || !strings.Contains(err.Error(), "SEAM skills-in-loop") {
		t.Errorf("a skills arm before the loop takes skills: %v", err)
	}
}
