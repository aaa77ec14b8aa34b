package workers

import (
	"context"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/store"
	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// The agent's endpoint answers 500 twelve times in a row: more than the
// model client's own retries (4), so the Act activity fails and Temporal
// retries it with backoff until the endpoint recovers.
const outageScript = `
name: agent-outage
steps:
  - model: router-m
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [2], "reason": "one title on slide 2"}'
  - model: agent-m
    status: 500
    times: 12
  - model: agent-m
    tool_calls:
      - name: set_text_content
        arguments: {nodeId: s2-t5, text: "Pricing experiments and results"}
  - model: judge-m
    text: '{"instruction_following_score": 4, "instruction_following_reason": "Done as asked."}'
`

// TestEditWaitsOutAModelOutage runs a natural-language edit on the embedded
// stack while the model endpoint fails: the edit waits and completes.
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
	res, _ := runWorkflow(t, c, origin, "Retitle slide 2 to name the pricing experiments.")
	if res.Status != acev1.EditStatus_EDIT_STATUS_OK || len(res.Iterations) != 1 || *res.Iterations[0].Score != 4 {
		t.Fatalf("after the outage: %+v", res)
	}
	failed := 0
	for _, r := range srv.RequestsFor("agent-m") {
		if r.Status == 500 {
			failed++
		}
	}
	if failed != 12 {
		t.Errorf("the agent endpoint failed %d times, want all 12 scripted failures consumed", failed)
	}
}
