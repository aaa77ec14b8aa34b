package critic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/diff"
)

func TestFeedbackOrdersAndLabelsIssues(t *testing.T) {
	slides := []string{"s1", "s2"}
	var l Ledger
	if _, err := l.Apply(Default(), Result{Turn: 1, Slides: slides, Runs: []Run{
		{Check: "V03.1", Slides: slides, Failed: []Finding{fail("V03.1", "s1", "a pink the deck never uses", "s1/4")}},
	}}); err != nil {
		t.Fatal(err)
	}
	// Turn 2 finds a hard issue and does not re-check the soft one.
	if _, err := l.Apply(Default(), Result{Turn: 2, Slides: slides, Runs: []Run{
		{Check: "D01.1", Slides: slides, Failed: []Finding{fail("D01.1", "s2", "12% became 21%", "s2/7")}},
	}}); err != nil {
		t.Fatal(err)
	}
	got := Feedback(nil, &l, "")
	lines := strings.Split(got, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "- I2 [hard correctness D01.1, open since turn 2] slide s2, nodes s2/7: 12% became 21% (check: Numbers in edited text") ||
		!strings.HasPrefix(lines[2], "- I1 [soft visual V03.1, open since turn 1, not re-checked since turn 1] slide s1, nodes s1/4: a pink the deck never uses") {
		t.Fatalf("feedback:\n%s", got)
	}
	if Feedback(nil, &Ledger{}, "") != "" {
		t.Fatal("nothing to say must be empty")
	}
	if got := Feedback(nil, &Ledger{}, "Slide 2 keeps the old logo."); got != "The judge's critique of the last attempt:\nSlide 2 keeps the old logo." {
		t.Fatalf("critique only: %q", got)
	}
}

// TestEditsOfReadsAspectsFromRealDiffs: slide order and colour edits on
// career-tips.pptx.
func TestEditsOfReadsAspectsFromRealDiffs(t *testing.T) {
	origin := careerTips(t)
	var order []string
	for _, s := range origin.Slides {
		order = append(order, s.ID)
	}
	order[2], order[3] = order[3], order[2]
	d, _ := edit(t, origin,
		call("reorder_slides", map[string]any{"slideIds": order}),
		call("set_fill_color", map[string]any{"nodeId": "s13/256", "color": "#112233"}))
	e := EditsOf(diff.Compute(origin, d))
	if got := fmt.Sprint(e.Slides, e.Aspects); got != "[s3 s13] [color slides]" {
		t.Fatalf("edits %s", got)
	}
	if e := EditsOf(diff.Compute(origin, origin)); len(e.Slides)+len(e.Aspects) != 0 || EditsOf(nil).Slides != nil {
		t.Fatalf("no edit, no aspects: %+v", e)
	}
}
