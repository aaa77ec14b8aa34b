package runner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckio"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/runner"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// TestJudgeReadsTheAgentsAccountOfANoOpEdit: asked to fix overlaps on a
// career-tips slide that has none, the agent changes nothing and submits
// with a summary saying so. The IF judge's request (real HTTP through
// go-openai) carries that account beside the empty diff and the routed
// snapshot of the slide, every critic request carries it too, and the
// record keeps it; before, the judge saw
// only "no changes" and a rubric that scores an empty diff low (a relay
// model's tryout).
func TestJudgeReadsTheAgentsAccountOfANoOpEdit(t *testing.T) {
	d, blobs, err := deckio.Load(shareddecks.PPTXFile(t, "career-tips.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	const account = "Slide 6 has no overlapping elements, so nothing needed changing."
	srv, st, ref := realDeckScript(t, d, blobs, `
steps:
  - model: judge-m
    forever: true
    when_last: "CHECKS (group"
    pass_checks: true
  - model: router-m
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [6], "reason": "slide 6"}'
  - model: agent-m
    tool_calls: [{name: submit, arguments: {summary: "`+account+`"}}]
  - model: judge-m
    text: '{"instruction_following_score": 5, "instruction_following_reason": "The snapshot shows no overlap on slide 6; no change was needed."}'
`)
	steps := &runner.Steps{Store: st, LLM: srv.client, Renderer: pool}
	rec, err := runner.Run(context.Background(), steps, editloop.Request{DeckRef: ref, Instruction: "Fix any overlapping elements on slide 6."})
	if err != nil {
		t.Fatalf("%v\n%s", err, dump(rec))
	}
	if got := rec.Iterations[0].Account; got != account {
		t.Fatalf("recorded account %q, want the submit summary", got)
	}
	var judged string
	critics := 0
	for _, r := range srv.RequestsFor("judge-m") {
		c := r.Chat.Messages[1].Content
		if strings.Contains(c, "AGENT'S EDITS") {
			judged = c
		}
		if strings.Contains(c, "CHECKS (group") {
			critics++
			if !strings.Contains(c, "AGENT'S ACCOUNT") || !strings.Contains(c, account) {
				t.Errorf("a critic request lacks the agent's account:\n%s", c)
			}
		}
	}
	if critics == 0 {
		t.Error("no critic request")
	}
	if judged == "" {
		t.Fatal("no IF judge request")
	}
	i, j := strings.Index(judged, "AGENT'S ACCOUNT"), strings.Index(judged, "AGENT'S EDITS")
	if i < 0 || i > j || !strings.Contains(judged[i:j], account) {
		t.Fatalf("the judge's request lacks the agent's account before the edits:\n%s", judged)
	}
	if !strings.Contains(judged[j:], "["+d.Slides[5].ID+"]") {
		t.Fatalf("the judge's request lacks slide 6's snapshot:\n%s", judged)
	}
	if rec.Outcome != "stopped" || rec.Iterations[0].Score == nil || *rec.Iterations[0].Score != 5 {
		t.Fatalf("outcome %s score %v: %s", rec.Outcome, rec.Iterations[0].Score, dump(rec))
	}
}
