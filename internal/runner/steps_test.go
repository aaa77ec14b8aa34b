package runner_test

import (
	"math"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/scenegraph"
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

// A hard violation the instruction itself requires is waived only by the
// critic quoting the instruction: "rotate it by 45 degrees" puts the
// logo's corners past the slide edge, the submit's gate refuses, the
// critic quotes the words, the gate lets it through, and the edit ships
// at the logo's own size (not shrunk to fit), with the waiver recorded.
func TestTheCriticWaivesAViolationTheInstructionRequires(t *testing.T) {
	f := setup(t, "runner-waiver.yaml", 1, 6, nil)
	const instruction = "Move the logo on slide 1 into the top-right corner, flush with the edges, and rotate it by 45 degrees."
	rec := f.run(t, instruction, editloopDefaults)
	if len(rec.Iterations) != 1 || rec.Outcome != "stopped" || rec.Selected != 1 {
		t.Fatalf("record %s", dump(rec))
	}
	it := rec.Iterations[0]
	// The overhang and the corner the slide edge cuts off the picture.
	if !it.GatePassed || len(it.NewViolations) != 0 || len(it.Waivers) != 2 || it.ActStopped != "submitted" {
		t.Fatalf("iteration %s", dump(it))
	}
	kinds := map[string]bool{}
	for i, w := range it.Waivers {
		kinds[w.Kind] = true
		if w.Quote != "rotate it by 45 degrees" || len(w.Nodes) != 1 || w.Nodes[0] != "s1-img3" || rec.Ledger.Waivers[i].Key != w.Key {
			t.Fatalf("waiver %+v, ledger waivers %+v", w, rec.Ledger.Waivers)
		}
	}
	if !kinds["out_of_bounds"] || !kinds["image_clipping"] {
		t.Fatalf("waived %v", kinds)
	}
	if s := it.Steps[len(it.Steps)-1]; s.Submit == nil || !*s.Submit {
		t.Fatalf("the submit step: %s", dump(s))
	}
	logo := scenegraph.NewIndex(f.final(t, rec)).Node("s1-img3")
	if logo.Size.X != 160 || logo.Size.Y != 64 || math.Abs(logo.Transform.Rotation()-45) > 0.01 {
		t.Fatalf("the logo shipped %gx%g at %g degrees, want 160x64 at 45", logo.Size.X, logo.Size.Y, logo.Transform.Rotation())
	}
	// The critic was asked with the violation and the touched nodes.
	var asked string
	for _, r := range f.srv.RequestsFor("judge-m") {
		if c := r.Chat.Messages[len(r.Chat.Messages)-1].Content; strings.Contains(c, "Does the instruction itself require") {
			asked = c
		}
	}
	if !strings.Contains(asked, "VIOLATION: out_of_bounds on slide slide-1") || !strings.Contains(asked, "s1-img3") {
		t.Fatalf("the waiver question:\n%s", asked)
	}
}

// A step that breaks again what an earlier step fixed: the critic's
// ledger marks the issue regressed at that step and says so in the
// observation, undo_step restores the state before it, and the ledger
// marks the issue resolved again.
func TestARegressionIsMarkedAndUndoStepRestoresTheFix(t *testing.T) {
	f := setup(t, "runner-regress-undo.yaml", 1, 6, nil)
	rec := f.run(t, "Make the two columns of slide 3 easier to read without letting them touch.", editloopDefaults)
	if len(rec.Iterations) != 1 || rec.Outcome != "stopped" {
		t.Fatalf("record %s", dump(rec))
	}
	it := rec.Iterations[0]
	if len(it.Steps) != 5 {
		t.Fatalf("steps %s", dump(it.Steps))
	}
	status := func(step int) string {
		var out []string
		for _, c := range it.Steps[step].Issues {
			out = append(out, c.Issue+":"+string(c.To))
		}
		return strings.Join(out, ",")
	}
	want := []string{"I1:open", "I1:resolved", "I1:regressed", "I1:resolved", ""}
	for i, w := range want {
		if got := status(i); got != w {
			t.Errorf("step %d: ledger changes %q, want %q", i+1, got, w)
		}
	}
	if !it.Steps[3].Undone || it.Steps[4].Submit == nil || !*it.Steps[4].Submit {
		t.Fatalf("steps 4-5: %s", dump(it.Steps[3:]))
	}
	is := rec.Ledger.Issues[0]
	if is.Status != "resolved" || is.Regressions != 1 || !strings.HasPrefix(is.Check, "G") {
		t.Fatalf("issue %+v", is)
	}
	// What the model read after step 3: the regression and the way back.
	msgs := f.srv.RequestsFor("agent-m")[3].Chat.Messages
	if got := msgs[len(msgs)-1].Content; !strings.Contains(got, "Critic: issue I1") || !strings.Contains(got, "REGRESSED") || !strings.Contains(got, "undo_step restores") {
		t.Fatalf("the observation after step 3 does not report the regression:\n%s", got)
	}
	// The kept deck is the state after step 2: the column back in place at
	// its own width.
	col := scenegraph.NewIndex(f.final(t, rec)).Node("s3-t6")
	if col.Size.X != 552 || col.Transform.X() != 64 {
		t.Fatalf("column %gx%g at x %g", col.Size.X, col.Size.Y, col.Transform.X())
	}
}
