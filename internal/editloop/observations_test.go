package editloop_test

import (
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/agent"
	"github.com/acecanvas/ace/internal/editloop"
	"github.com/acecanvas/ace/internal/observe"
)

// stepFake is fake whose agent edits, checks the layout and undoes in
// its first turn and submits in its second; it counts observations and
// keeps the results the second turn was handed.
type stepFake struct {
	fake
	observed int
	results  []agent.Result
}

func (f *stepFake) AgentTurn(in editloop.TurnInput) (editloop.TurnOutput, error) {
	if in.SessionRef != "" {
		f.results = in.Results
		return editloop.TurnOutput{SessionRef: "ses", Round: agent.Round{Calls: []agent.RoundCall{{ID: "s", Tool: agent.ToolSubmit}}}}, nil
	}
	f.acts++
	return editloop.TurnOutput{SessionRef: "ses", Round: agent.Round{Calls: []agent.RoundCall{
		{ID: "e", Tool: "set_text_content"}, {ID: "c", Tool: agent.ToolCheckLayout}, {ID: "u", Tool: agent.ToolUndoStep}}}}, nil
}

func (f *stepFake) Observe(in editloop.ObserveInput) (observe.Observation, error) {
	f.observed++
	return f.fake.Observe(in)
}

func TestObservationsOffAnswersStepToolsWithoutARender(t *testing.T) {
	for _, off := range []bool{false, true} {
		f := &stepFake{fake: fake{scores: []float64{5}}}
		rec, err := editloop.Run(f, editloop.Request{DeckRef: "d0", Instruction: "x", NoObservations: off}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.results) != 3 {
			t.Fatalf("off=%v: the second turn got %d results", off, len(f.results))
		}
		edit, check, undo := f.results[0].Content, f.results[1].Content, f.results[2].Content
		if off {
			// Only the submit gate rendered; the step tools say why
			// nothing was measured.
			if f.observed != 1 || strings.Contains(edit, "observed") || check != editloop.ObservationsOff || !strings.HasSuffix(undo, editloop.ObservationsOff) {
				t.Fatalf("observations off: %d observations, results %q %q %q", f.observed, edit, check, undo)
			}
		} else if f.observed < 2 || !strings.Contains(edit, "observed") || check != "observed" || undo != "observed" {
			t.Fatalf("observations on: %d observations, results %q %q %q", f.observed, edit, check, undo)
		}
		if s := rec.Iterations[0].Steps[1].Submit; s == nil || !*s {
			t.Fatalf("off=%v: the submit did not pass the gate", off)
		}
	}
}
