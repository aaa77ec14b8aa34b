package runner_test

import (
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/editloop"
)

// One edit, one observation (ReDeck §3.2): the agent's title overflows its
// box, the observation after that step names the node and the overflow in
// px, the agent shrinks the text in its next step, the observation shows
// the violation resolved, and the submit passes the gate in iteration 1.
func TestTheAgentFixesAnOverflowItSeesInTheObservation(t *testing.T) {
	f := setup(t, "runner-step-fix.yaml", 1, 6, nil)
	rec := f.run(t, "Give slide 2 a full descriptive title about the pricing experiments.", editloopDefaults)
	if len(rec.Iterations) != 1 || rec.Outcome != "stopped" || rec.Selected != 1 {
		t.Fatalf("record %s", dump(rec))
	}
	it := rec.Iterations[0]
	if it.ActStopped != "submitted" || len(it.Steps) != 3 || !it.GatePassed || len(it.NewViolations) != 0 {
		t.Fatalf("iteration %s", dump(it))
	}
	s1, s2, s3 := it.Steps[0], it.Steps[1], it.Steps[2]
	if s1.DeltaViol == nil || *s1.DeltaViol != 1 || len(s1.New) != 1 || !strings.HasPrefix(s1.New[0], "text_overflow on slide slide-2 (s2-t5)") {
		t.Fatalf("step 1 did not observe the overflow: %s", dump(s1))
	}
	if s2.DeltaViol == nil || *s2.DeltaViol != 0 || len(s2.New) != 0 || s3.Submit == nil || !*s3.Submit {
		t.Fatalf("steps 2-3: %s %s", dump(s2), dump(s3))
	}
	// What the model read after step 1: the node, the overflow in px, the
	// measured box of the text it changed.
	reqs := f.srv.RequestsFor("agent-m")
	msgs := reqs[1].Chat.Messages
	obs := msgs[len(msgs)-1]
	if obs.Role != "tool" {
		t.Fatalf("the observation is not in a tool result: %+v", obs)
	}
	for _, want := range []string{"After this step:", "New since the start", "text_overflow on slide slide-2 (s2-t5)",
		"text runs", "px past its box", "Text you changed, as rendered:", "- s2-t5 on slide 2", "OVERFLOWS by",
		"Main elements on slide 2", "Submit would be refused now"} {
		if !strings.Contains(obs.Content, want) {
			t.Errorf("observation after step 1 lacks %q:\n%s", want, obs.Content)
		}
	}
	after := reqs[2].Chat.Messages
	if got := after[len(after)-1].Content; !strings.Contains(got, "Resolved since the start") && !strings.Contains(got, "Delta viol +0") {
		t.Errorf("observation after the fix:\n%s", got)
	} else if !strings.Contains(got, "Submit would pass the layout gate now") {
		t.Errorf("the fix should leave the gate passing:\n%s", got)
	}
	if got := text(f.final(t, rec), "s2-t5"); !strings.HasPrefix(got, "Pricing experiments across every region") {
		t.Fatalf("final title %q", got)
	}
}

var editloopDefaults = editloop.Request{}.Policy
