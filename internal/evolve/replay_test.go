package evolve_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/evolve"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/internal/tools"
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

// TestARoundReplaysThroughTheEditLoop: a whole rewrite round with the
// in-process LoopReplayer: the two failing records of table-cell-edits
// are replayed on career-tips.pptx through the real edit loop under V2
// and V1 (retrieval over each arm's frozen set), judged pairwise, and
// the rewrite that wins one record and ties the other is committed.
func TestARoundReplaysThroughTheEditLoop(t *testing.T) {
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
	cur := seedSkill(t, "table-cell-edits")
	next := cur
	next.Body = strings.Replace(cur.Body, "## Tips\n", "## Tips\nRe-read the table after inserting rows.\n", 1)
	edit := func(title string) []llmtest.Step {
		return []llmtest.Step{
			{Model: "router-m", Text: `{"mode": "MICRO_SPATIAL", "target_slides": [2], "reason": "slide 2"}`},
			{Model: "router-m", Text: `{"operations": ["edit table cells"]}`},
			{Model: "agent-m", ToolCalls: []llmtest.ToolCall{{Name: "set_text_content", Arguments: map[string]any{"nodeId": target, "text": title}}}},
			{Model: "agent-m", ToolCalls: []llmtest.ToolCall{{Name: "submit", Arguments: map[string]any{"summary": "done"}}}},
			{Model: "judge-m", Text: `{"instruction_following_score": 5, "instruction_following_reason": "Done."}`},
		}
	}
	judged := func(first, second string) []llmtest.Step {
		return []llmtest.Step{
			{Model: "judge-m", Text: `{"better": "` + first + `", "reason": "scripted"}`},
			{Model: "judge-m", Text: `{"better": "` + second + `", "reason": "scripted"}`},
		}
	}
	steps := []llmtest.Step{
		{Model: "judge-m", Forever: true, WhenLast: "CHECKS (group", PassChecks: true},
		{Model: "judge-m", Text: jsonText(map[string]string{"section": "Tips", "change": "re-read", "skill_md": string(next.Format())})},
	}
	// Record f1: the arms keep different decks and the judge prefers the
	// proposal's in both orders (a win). Record f2: both arms keep the
	// same deck, two ties with no judge call.
	steps = slices.Concat(steps, edit("Careers, simply"), edit("Careers"), judged("A", "B"), edit("Careers, simply"), edit("Careers, simply"))
	srv := llmtest.NewServer(t, &llmtest.Script{Name: t.Name(), Steps: steps})
	cfg := srv.Config("agent-m", "judge-m")
	cfg.RouterModel = "router-m"
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"f1", "f2"} {
		r := skills.TurnRecord{ID: id, Instruction: "Retitle slide 2 to 'Careers, simply'.", DeckRef: w.origin, FinalRef: w.origin,
			Covered: true, StartedUnixMS: int64(i + 1), Retrieved: []skills.Scored{{Name: cur.Name, Version: 1, Starred: true}},
			Grade: &skills.Grade{S: 0.3, GradedUnixMS: 1000, Requirements: []skills.Requirement{{Text: "title", Label: skills.OutcomeNotMet, Reason: "unchanged"}}}}
		if err := w.bank.PutRecord(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	run := &evolve.Runner{Bank: w.bank, LLM: c, Store: w.st, Replayer: evolve.LoopReplayer{Store: w.st, LLM: c},
		Tools: tools.Registry().Names(), Since: 2000}
	rep, err := run.Run(ctx, "round-loop", false)
	if err != nil {
		t.Fatalf("%v (server: %v)", err, srv.Errors())
	}
	if len(rep.Decisions) != 1 || !rep.Decisions[0].Accepted || rep.Decisions[0].Version != 2 {
		t.Fatalf("decisions %+v, gave up %v", rep.Decisions, rep.GaveUp)
	}
	if got, _ := w.bank.Get(ctx, cur.Name); got.Version != 2 || !strings.Contains(got.Body, "Re-read the table after inserting rows.") {
		t.Errorf("bank holds v%d", got.Version)
	}
	if n := len(srv.RequestsFor("agent-m")); n != 8 {
		t.Errorf("%d agent turns, want 8 (2 records x 2 arms x 2 turns)", n)
	}
	if recs, _ := w.bank.Records(ctx); len(recs) != 2 {
		t.Errorf("the replays wrote turn records: %d records", len(recs))
	}
	if srv.Unserved() != 0 {
		t.Errorf("%d scripted answers unused", srv.Unserved())
	}
	pairwise := 0
	for _, r := range srv.Requests() {
		if strings.Contains(r.Chat.Messages[len(r.Chat.Messages)-1].Content, "Which result better satisfies") {
			pairwise++
		}
	}
	if pairwise != 2 {
		t.Errorf("%d pairwise calls, want 2 (record f1 both ways; f2's arms kept the same deck)", pairwise)
	}
}
