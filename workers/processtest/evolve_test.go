package processtest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/skills"
	"github.com/acecanvas/ace/internal/store"
	"github.com/acecanvas/ace/workers"
	"github.com/acecanvas/ace/workflows"
)

// evolveMarker opens the rewritten skill's description: the agent's
// catalog carries it only in the proposal arm, so the script can make
// that arm's replays edit the deck and the baseline's change nothing.
const evolveMarker = "Zebracorn retitling"

// TestEvolveRoundSurvivesAWorkerKill runs an evolve round as the
// EvolveWorkflow on an evolve worker process, kills that worker with
// SIGKILL while a replay is in flight, starts another, and checks the
// round completes once: the rewrite the gate accepts is committed as
// exactly one new version, one gate log and one decision, and an
// activity was retried (the kill interrupted the round).
func TestEvolveRoundSurvivesAWorkerKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the embedded stack and three ace processes")
	}
	deckPath := shareddecks.PPTXFile(t, "career-tips.pptx")
	data := t.TempDir()
	owner := start(t, data, "worker", "--queues", "diff")
	waitStack(t, data)
	owner.waitLine(t, "ace worker:", 3*time.Minute)

	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	t.Cleanup(cancel)
	conn, err := workers.Connect(ctx, workers.Config{Namespace: "default", DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_, jobs, err := workers.PrepareJobs(ctx, conn.Store, "evolve-decks", []string{deckPath}, workers.Edit{Instruction: "x"})
	if err != nil {
		t.Fatal(err)
	}
	origin := jobs[0].Request.DeckRef
	deck, err := store.GetDeck(ctx, conn.Store, origin)
	if err != nil {
		t.Fatal(err)
	}
	var target string
	deck.Slides[1].Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if target == "" && n.Characters != "" {
			target = n.ID
		}
		return target == ""
	})
	if target == "" {
		t.Fatal("career-tips slide 2 has no text")
	}

	bank, err := workers.OpenSkillBank(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	offered, err := bank.Offered(ctx)
	if err != nil || len(offered) == 0 {
		t.Fatalf("no offered seed skill: %v", err)
	}
	skill := offered[0]
	// Two failed edits that starred the skill: it is selected (2 failures)
	// and both are replayed.
	for i := range 2 {
		g := skills.NewGrade([]skills.Requirement{{Text: "retitle slide 2", Label: skills.OutcomeNotMet, Reason: "the title is unchanged"}},
			0.4, time.Now().UnixMilli())
		rec := skills.TurnRecord{ID: fmt.Sprintf("kill-%d", i), Instruction: "Retitle slide 2 to 'Careers, simply'.",
			DeckRef: origin, FinalRef: origin, SkillsOn: true, Covered: true, StartedUnixMS: int64(i + 1),
			Retrieved: []skills.Scored{{Name: skill.Name, Version: skill.Version, Score: 0.5, Starred: true}},
			Tools:     []skills.ToolUse{{Tool: "submit", OK: true}}, Grade: &g}
		if err := bank.PutRecord(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	next := skill
	next.Version++
	next.Description = evolveMarker + ": " + skill.Description
	if len(next.Description) > skills.MaxDescription {
		next.Description = next.Description[:skills.MaxDescription]
	}
	answer, _ := json.Marshal(map[string]string{"section": "Steps", "change": "name the title first", "skill_md": string(next.Format())})
	srv := llmtest.NewServer(t, evolveScript(t, string(answer), target))

	env := []string{"OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=test", "ACE_AGENT_MODEL=agent-m", "ACE_JUDGE_MODEL=judge-m",
		"ACE_ROUTER_MODEL=router-m", "ACE_EVOLVE_EVERY=0"}
	evolver := startWith(t, data, env, "worker", "--queues", "evolve")
	evolver.waitLine(t, "ace worker:", 3*time.Minute)

	const round = "kill-round"
	run, err := conn.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "evolve-" + round, TaskQueue: workflows.QueueEvolve},
		workflows.EvolveWorkflowName, workflows.EvolveInput{Round: round})
	if err != nil {
		t.Fatal(err)
	}
	for len(srv.RequestsFor("agent-m")) == 0 {
		if ctx.Err() != nil {
			t.Fatalf("no replay started (server: %v)", srv.Errors())
		}
		time.Sleep(50 * time.Millisecond)
	}
	evolver.kill()
	<-evolver.done
	startWith(t, data, env, "worker", "--queues", "evolve").waitLine(t, "ace worker:", 3*time.Minute)

	var out workflows.EvolveReport
	if err := run.Get(ctx, &out); err != nil {
		t.Fatalf("the round failed after the kill: %v (server: %v)", err, srv.Errors())
	}
	if len(out.Report.Decisions) != 1 || !out.Report.Decisions[0].Accepted || out.Report.Decisions[0].Version != skill.Version+1 {
		t.Fatalf("decisions %+v, want %s committed as v%d", out.Report.Decisions, skill.Name, skill.Version+1)
	}
	hist, err := bank.History(ctx, skill.Name)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range hist {
		if c.Round == round {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d changes of round %s in %s's history, want exactly 1: %+v", n, round, skill.Name, hist)
	}
	cur, err := bank.Get(ctx, skill.Name)
	if err != nil || cur.Version != skill.Version+1 || !strings.HasPrefix(cur.Description, evolveMarker) {
		t.Errorf("current %s: v%d %q (%v)", skill.Name, cur.Version, cur.Description, err)
	}
	logs, err := bank.GateLogs(ctx, round)
	if err != nil || len(logs) != 1 {
		t.Errorf("%d gate logs for the round, want 1 (%v)", len(logs), err)
	}
	rl, err := bank.Round(ctx, round)
	if err != nil || rl.FinishedUnixMS == 0 || len(rl.Decisions) != 1 {
		t.Errorf("round log %+v (%v): want finished with one decision", rl, err)
	}
	hi := conn.Temporal.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var retried []string
	scheduled := map[int64]string{}
	for hi.HasNext() {
		ev, err := hi.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			scheduled[ev.EventId] = a.ActivityType.GetName()
		}
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil && a.Attempt > 1 {
			retried = append(retried, scheduled[a.ScheduledEventId])
		}
	}
	if !slices.Contains(retried, workflows.ActivityEvolveReplay) {
		t.Errorf("retried activities %v: the kill should have interrupted a replay", retried)
	}
}

// evolveScript answers every model call of the round in any order: the
// reflector's rewrite, the subtask extractor, CARE and the distiller of
// each replay, the agent (the proposal arm retitles slide 2, the
// baseline changes nothing), the IF judge, the critic, and the pairwise
// judge, who prefers the edit that retitled (in both orders).
func evolveScript(t *testing.T, rewrite, titleID string) *llmtest.Script {
	t.Helper()
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	sc, err := llmtest.ParseScript([]byte(`
steps:
  - model: judge-m
    forever: true
    when_last: "CHECKS (group"
    pass_checks: true
  - model: judge-m
    forever: true
    when_last: "Does the instruction itself require"
    text: '{"waive": false, "quote": "", "reason": "Not required."}'
  - model: judge-m
    forever: true
    when_last: "CURRENT SKILL.md"
    text: `+q(rewrite)+`
  - model: judge-m
    forever: true
    when_last: "result A):\nJsonDiff: no changes"
    text: '{"better": "B", "reason": "B retitled slide 2 as asked; A changed nothing."}'
  - model: judge-m
    forever: true
    when_last: "Which result better satisfies"
    text: '{"better": "A", "reason": "A retitled slide 2 as asked."}'
  - model: judge-m
    forever: true
    when_last: "AGENT'S EDITS"
    text: '{"instruction_following_score": 5, "instruction_following_reason": "Done."}'
  - model: router-m
    forever: true
    when_last: "TOOLS CALLED, IN ORDER"
    text: '{"subtasks": [{"label": "retitle-slide", "subtask": "Change a slide title."}]}'
  - model: router-m
    forever: true
    when_last: "Presentation:"
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [2], "reason": "slide 2"}'
  - model: router-m
    forever: true
    text: '{"operations": ["retitle a slide"]}'
  - model: agent-m
    forever: true
    when_last: "`+evolveMarker+`"
    tool_calls: [{name: set_text_content, arguments: {nodeId: "`+titleID+`", text: "Careers, simply"}}]
  - model: agent-m
    forever: true
    tool_calls: [{name: submit, arguments: {summary: "done"}}]
`), t.Name())
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
