package workers

import (
	"context"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// The agent's endpoint answers 500 for 42 s of wall-clock time from its
// first request, however many requests arrive: far longer than the model
// client's own retries (4, fast in tests), so the AgentTurn activity fails and
// Temporal retries it with backoff (1 s doubling, at most 10 s between
// attempts: workflows.llmRetryInterval) until the endpoint recovers. 42 s
// rather than 30: attempts land at about 0, 1, 3, 7, 15, 25 and 35 s, so
// the last 500 the server logs is at least 30 s after the first one even
// when the machine is slow and every attempt is a few seconds late.
const outageScript = `
name: agent-outage
steps:
  - model: judge-m
    forever: true
    when_last: "CHECKS (group"
    pass_checks: true
  - model: router-m
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [2], "reason": "one title on slide 2"}'
  - model: agent-m
    status: 500
    for: 42s
  - model: agent-m
    tool_calls:
      - name: set_text_content
        arguments: {nodeId: s2-t5, text: "Pricing experiments and results"}
  - model: agent-m
    tool_calls: [{name: submit}]
  - model: judge-m
    text: '{"instruction_following_score": 4, "instruction_following_reason": "Done as asked."}'
`

// TestEditWaitsOutAModelOutage runs a natural-language edit on the embedded
// stack while the model endpoint fails for over 30 s: the edit waits (the
// client's retries inside each attempt, Temporal's activity retries between
// them) and completes. The outage's length is read from the server's own
// log: the first and the last 500 arrived at least 30 s apart, and the AgentTurn
// activity needed several attempts.
func TestEditWaitsOutAModelOutage(t *testing.T) {
	conn := stack(t)
	script, err := llmtest.ParseScript([]byte(outageScript), "agent-outage")
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, script)
	cfg := srv.Config("agent-m", "judge-m")
	cfg.RouterModel = "router-m"
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	ctx := context.Background()
	if err := store.PutBlobs(ctx, conn.Store, blobs); err != nil {
		t.Fatal(err)
	}
	origin, err := store.PutDeck(ctx, conn.Store, d)
	if err != nil {
		t.Fatal(err)
	}
	res, id := runWorkflow(t, c, origin, "Retitle slide 2 to name the pricing experiments.")
	if res.Status != acev1.EditStatus_EDIT_STATUS_OK || len(res.Iterations) != 1 || *res.Iterations[0].Score != 4 {
		t.Fatalf("after the outage: %+v", res)
	}
	var first, last time.Time
	failed := 0
	for _, r := range srv.RequestsFor("agent-m") {
		if r.Status != 500 {
			continue
		}
		failed++
		if first.IsZero() {
			first = r.At
		}
		last = r.At
	}
	if span := last.Sub(first); span < 30*time.Second {
		t.Errorf("the server logged %d 500s over %v, want an outage of at least 30 s", failed, span.Round(time.Millisecond))
	}
	t.Logf("outage: %d 500s over %v; the edit completed %v after the first one",
		failed, last.Sub(first).Round(time.Millisecond), time.Since(first).Round(time.Millisecond))
	attempts := int32(0)
	hist := conn.Temporal.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for hist.HasNext() {
		ev, err := hist.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil && a.Attempt > attempts {
			attempts = a.Attempt
		}
	}
	if attempts < 3 || failed <= int(attempts) {
		t.Errorf("AgentTurn needed %d attempts for %d failed requests: want Temporal retries, each after several client retries", attempts, failed)
	}
}
