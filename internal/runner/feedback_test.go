package runner_test

import (
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/policy"
)

// afterContext is the user message of an agent request from "# Original
// request" on (the routed context before it is tested elsewhere).
func afterContext(t *testing.T, f *fixture, i int) string {
	t.Helper()
	reqs := f.srv.RequestsFor("agent-m")
	if i >= len(reqs) {
		t.Fatalf("only %d agent requests", len(reqs))
	}
	msg := reqs[i].Chat.Messages[1].Content
	at := strings.Index(msg, "# Original request")
	if at < 0 {
		t.Fatalf("request %d has no original request:\n%s", i, msg)
	}
	return msg[at:]
}

// issues is the critic's issue list the feedback after iteration i carries;
// it must name an open geometry issue (want) on the title s2-t5.
func issues(t *testing.T, rec *editloop.Record, i int, want string) string {
	t.Helper()
	fb := rec.Iterations[i].Decision.Feedback
	if fb == nil || !strings.Contains(fb.Issues, want) || !strings.Contains(fb.Issues, "nodes s2-t5") {
		t.Fatalf("iteration %d's feedback lacks the critic's %q issue on s2-t5: %+v", i+1, want, fb)
	}
	return fb.Issues
}

// The next prompt says which deck the agent now sees and why: after a
// continue its edits are kept; after a rollback the edit was undone, with
// the violations or the score's fall, the critique labelled as one of the
// undone attempt, and the request restated. "The deck above already
// includes your earlier edits" is never said of a rolled-back deck.
func TestFeedbackSaysWhichDeckTheAgentSeesAfterEachDecision(t *testing.T) {
	t.Run("after a continue the edits are kept", func(t *testing.T) {
		f := setup(t, "runner-continue.yaml", 1, 6, nil)
		f.run(t, "Rename the slide 2 title and make it navy.", policy.Config{})
		want := `# Original request
Rename the slide 2 title and make it navy.

# Where this deck stands
The deck above is the result of your edit in iteration 1: every change you made so far is kept in it. A reviewer compared it with the original deck and found the request not yet fully done.

# Reviewer's critique of iteration 1
The title on slide 2 was renamed, but it is still the old colour instead of navy #1F4E79.

# Instruction
Finish the original request on the deck above: fix what the critique points out and keep what is already right. Do not redo changes that are already in the deck.`
		if got := afterContext(t, f, 2); got != want {
			t.Fatalf("got:\n%s\nwant:\n%s", got, want)
		}
	})
	t.Run("after a gate failure back to the origin", func(t *testing.T) {
		f := setup(t, "runner-gate.yaml", 1, 6, nil)
		rec := f.runWith(t, editloop.Request{Instruction: "Move the slide 2 title a little to the right.", MaxSteps: 2})
		v := rec.Iterations[0].NewViolations
		if len(v) != 1 || !strings.HasPrefix(v[0], "out_of_bounds on slide slide-2 (s2-t5) [box ") || !strings.Contains(v[0], "outside the 1280x720 slide") {
			t.Fatalf("violations %q", v)
		}
		want := `# Original request
Move the slide 2 title a little to the right.

# Where this deck stands
The deck above is the ORIGINAL deck. Your edit of iteration 1 was undone: none of its changes are in the deck above. It was undone because it added 1 layout violation(s) that the original deck does not have:
- ` + v[0] + `

# Reviewer's critique of the undone attempt (iteration 1)
This describes the attempt that was undone, not the deck above.
The title was moved to the right as asked.

# Critic's issue list (checked on the undone attempt)
` + issues(t, rec, 0, "I1 [hard geometry") + `

# Instruction
Carry out the original request again on the deck above, all of it, without the layout violations listed above:
Move the slide 2 title a little to the right.`
		if got := afterContext(t, f, 2); got != want {
			t.Fatalf("got:\n%s\nwant:\n%s", got, want)
		}
	})
	t.Run("after a gate failure back to an earlier iteration", func(t *testing.T) {
		f := setup(t, "runner-gate-after-continue.yaml", 1, 6, nil)
		rec := f.runWith(t, editloop.Request{Instruction: "Rename the slide 2 title to name the quarter and move it a little right.", MaxSteps: 2})
		if rec.Selected != 3 || rec.Iterations[1].Decision.Action != policy.Rollback || rec.Iterations[2].Base != rec.Iterations[0].Snapshot {
			t.Fatalf("want iteration 2 rolled back to iteration 1 and iteration 3 kept: %s", dump(rec))
		}
		want := `# Original request
Rename the slide 2 title to name the quarter and move it a little right.

# Where this deck stands
The deck above is the result of iteration 1, your best attempt so far; its changes are kept. Your later edit of iteration 2 was undone: none of its changes are in the deck above. It was undone because it added 1 layout violation(s) that the original deck does not have:
- ` + rec.Iterations[1].NewViolations[0] + `

# Reviewer's critique of the undone attempt (iteration 2)
This describes the attempt that was undone, not the deck above.
Slide 2 now reads Pricing in Q3 and sits to the right.

# Critic's issue list (checked on the undone attempt)
` + issues(t, rec, 1, "[hard geometry") + `

# Instruction
Carry out what the original request still needs on the deck above (iteration 1's changes are already in it), without the layout violations listed above:
Rename the slide 2 title to name the quarter and move it a little right.`
		if got := afterContext(t, f, 4); got != want {
			t.Fatalf("got:\n%s\nwant:\n%s", got, want)
		}
	})
	t.Run("after the score fell back to an earlier iteration", func(t *testing.T) {
		f := setup(t, "runner-rollback.yaml", 1, 6, nil)
		f.run(t, "Give slide 2 a shorter title that names the quarter.", policy.Config{MaxIterations: 4})
		want := `# Original request
Give slide 2 a shorter title that names the quarter.

# Where this deck stands
The deck above is the result of iteration 2, your best attempt so far; its changes are kept. Your later edit of iteration 3 was undone: none of its changes are in the deck above. It was undone because the reviewer's score fell from 3.0 (iteration 2) to 2.0 (iteration 3).

# Reviewer's critique of the undone attempt (iteration 3)
This describes the attempt that was undone, not the deck above.
The new title lost the key word pricing.

# Instruction
Carry out what the original request still needs on the deck above (iteration 2's changes are already in it):
Give slide 2 a shorter title that names the quarter.`
		if got := afterContext(t, f, 6); got != want {
			t.Fatalf("got:\n%s\nwant:\n%s", got, want)
		}
		for i := range f.srv.RequestsFor("agent-m") {
			if got := f.srv.RequestsFor("agent-m")[i].Chat.Messages[1].Content; strings.Contains(got, "already includes your earlier edits") {
				t.Fatalf("request %d still claims the earlier edits are in the deck", i)
			}
		}
	})
}
