package route

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
)

// The LLM router through the project's OpenAI-compatible client against the
// scripted server over real HTTP: one temperature-0 JSON-mode call with the
// router prompt (go-openai drops a zero temperature, so the client sends
// the smallest float, which servers treat as greedy), its answer adopted; a failing model falls back to H.
func TestRouteThroughTheLLMClientOverHTTP(t *testing.T) {
	srv, cl := scriptedRouter(t, "care-router", `
  - model: router-model
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [1, 5], "reason": "slide 1 is the source of the layout"}'
  - model: router-model
    status: 400
    error_message: bad request
`)
	d := pitchDeck(12)

	dec := Route(context.Background(), "Give slide 5 the layout of the first slide", d, cl)
	if dec.Mode != Micro || !slices.Equal(dec.OneBased(), []int{1, 5}) || dec.Source != "llm" ||
		dec.Reason != "slide 1 is the source of the layout" {
		t.Fatalf("decision %+v", dec)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	req := reqs[0].Chat
	if req.Model != "router-model" || req.Temperature > 1e-6 || len(req.Messages) != 2 ||
		req.Messages[0].Content != SystemPrompt || !strings.Contains(req.Messages[1].Content, "Instruction: Give slide 5") {
		t.Fatalf("request %+v", req)
	}
	if req.ResponseFormat == nil || req.ResponseFormat.Type != "json_object" {
		t.Fatalf("router call must ask for a JSON object: %+v", req.ResponseFormat)
	}

	h := Heuristic("Translate the entire presentation", d)
	dec = Route(context.Background(), "Translate the entire presentation", d, cl)
	if dec.Mode != h.Mode || dec.Source != "heuristic" || !strings.Contains(dec.Reason, "router model failed") {
		t.Fatalf("fallback decision %+v", dec)
	}
	if calls := cl.Calls(); len(calls) != 2 {
		t.Fatalf("%d calls recorded", len(calls))
	}
}

// scriptedRouter serves a scripted router model (steps: YAML of llmtest
// steps for router-model) over real HTTP and returns its server and an
// llm.Classifier that talks to it.
func scriptedRouter(t *testing.T, name, steps string) (*llmtest.Server, *llm.Classifier) {
	t.Helper()
	script, err := llmtest.ParseScript([]byte("name: "+name+"\nsteps:"+steps), name)
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, script)
	cfg := srv.Config("agent-model", "judge-model")
	cfg.RouterModel = "router-model"
	client, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return srv, &llm.Classifier{Client: client}
}
