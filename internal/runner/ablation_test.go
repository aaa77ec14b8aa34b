package runner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/deckgen"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/route"
	"github.com/acecanvas/ace/internal/runner"
)

// ablationScript retitles slide 2 of deckgen's seed-1 deck, then submits;
// the router and the critic are answered whenever asked.
const ablationScript = `
steps:
  - model: judge-m
    forever: true
    when_last: "CHECKS (group"
    pass_checks: true
  - model: router-m
    forever: true
    text: '{"mode": "MICRO_SPATIAL", "target_slides": [2], "reason": "one title on slide 2"}'
  - model: agent-m
    tool_calls: [{name: set_text_content, arguments: {nodeId: s2-t5, text: "Pricing experiments and results"}}]
  - model: agent-m
    tool_calls: [{name: submit, arguments: {summary: "retitled slide 2"}}]
  - model: judge-m
    text: '{"instruction_following_score": 4, "instruction_following_reason": "Retitled."}'
`

func runAblation(t *testing.T, req editloop.Request) (*editloop.Record, scriptedServer) {
	t.Helper()
	d, blobs := deckgen.Generate(deckgen.Options{Slides: 6, Seed: 1})
	srv, st, ref := realDeckScript(t, d, blobs, ablationScript)
	req.DeckRef, req.Instruction = ref, "Retitle slide 2 to 'Pricing experiments and results'."
	rec, err := runner.Run(context.Background(), &runner.Steps{Store: st, LLM: srv.client, Renderer: pool}, req)
	if err != nil {
		t.Fatalf("%v\n%s", err, dump(rec))
	}
	if errs := srv.Errors(); len(errs) > 0 {
		t.Fatalf("script could not answer: %v", errs)
	}
	return rec, srv
}

func TestAFixedContextModeSkipsTheRouterModel(t *testing.T) {
	rec, srv := runAblation(t, editloop.Request{ContextMode: route.Full})
	if n := len(srv.RequestsFor("router-m")); n != 0 {
		t.Fatalf("the router model was called %d times with a fixed mode", n)
	}
	dec := rec.Route.Decision
	if dec.Mode != route.Full || dec.Source != "request" || rec.Iterations[0].Mode != string(route.Full) {
		t.Fatalf("decision %+v, iteration mode %s", dec, rec.Iterations[0].Mode)
	}
	// The heuristic still names the target slide of "slide 2".
	if len(dec.TargetSlides) != 1 || dec.TargetSlides[0] != 1 {
		t.Fatalf("targets %v", dec.TargetSlides)
	}
	// CARE routes: the router is asked and its mode used.
	rec, srv = runAblation(t, editloop.Request{})
	if len(srv.RequestsFor("router-m")) != 1 || rec.Route.Decision.Mode != route.Micro {
		t.Fatalf("routed decision %+v", rec.Route.Decision)
	}
}

func TestObservationsOffLeavesTheRenderOutOfTheStepButKeepsTheGate(t *testing.T) {
	toolResult := func(srv scriptedServer) string {
		reqs := srv.RequestsFor("agent-m")
		if len(reqs) != 2 {
			t.Fatalf("%d agent requests", len(reqs))
		}
		msgs := reqs[1].Chat.Messages
		return msgs[len(msgs)-1].Content
	}
	rec, srv := runAblation(t, editloop.Request{NoObservations: true})
	it := rec.Iterations[0]
	if got := toolResult(srv); strings.Contains(got, "After this step") {
		t.Fatalf("the step's result carries an observation with observations off:\n%s", got)
	}
	if it.Steps[0].DeltaViol != nil || it.Steps[0].ObservationBytes != 0 {
		t.Fatalf("step 1 records an observation: %s", dump(it.Steps[0]))
	}
	// The submit still went through the gate.
	if s := it.Steps[1].Submit; s == nil || !*s || !it.GatePassed {
		t.Fatalf("submit %s", dump(it.Steps[1]))
	}
	rec, srv = runAblation(t, editloop.Request{})
	if got := toolResult(srv); !strings.Contains(got, "After this step") || rec.Iterations[0].Steps[0].DeltaViol == nil {
		t.Fatalf("with observations on the step's result lacks the observation:\n%s", got)
	}
}
