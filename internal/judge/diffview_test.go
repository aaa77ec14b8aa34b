package judge_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/diff"
	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/judge"
	"github.com/acecanvas/ace/internal/llm"
	"github.com/acecanvas/ace/internal/llm/llmtest"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
	"github.com/acecanvas/ace/internal/tools"
)

func careerTips(t *testing.T) *scenegraph.Deck {
	t.Helper()
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "career-tips.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := pptx.Import(data, "career-tips.pptx")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func apply(t *testing.T, d *scenegraph.Deck, calls ...string) *scenegraph.Deck {
	t.Helper()
	var cs []tools.Call
	for _, c := range calls {
		name, args, _ := strings.Cut(c, " ")
		cs = append(cs, tools.Call{Tool: name, Args: json.RawMessage(args)})
	}
	out, _, err := tools.Apply(d, cs, tools.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// judgeSees runs the IF judge on origin -> current over real HTTP and
// returns the user message the judge model received.
func judgeSees(t *testing.T, instruction string, origin, current *scenegraph.Deck) string {
	t.Helper()
	sc, err := llmtest.ParseScript([]byte(`
steps:
  - text: '{"instruction_following_score": 5, "instruction_following_reason": "Done."}'
`), t.Name())
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, sc)
	c, err := llm.New(srv.Config("agent-m", "judge-m"))
	if err != nil {
		t.Fatal(err)
	}
	j := &judge.Judge{LLM: c}
	if _, err := j.IF(context.Background(), judge.IFInput{Instruction: instruction, Diff: diff.Compute(origin, current).Text(origin)}); err != nil {
		t.Fatal(err)
	}
	msgs := srv.Requests()[0].Chat.Messages
	return msgs[len(msgs)-1].Content
}

// TestJudgeSeesChartRotationNotesAndWholeTexts: on the real deck
// career-tips.pptx, a rotation reads as a rotation (not a resize), an
// added chart shows its type and data, speaker notes and a 300-character
// text arrive whole, and a later chart type and data change shows both.
func TestJudgeSeesChartRotationNotesAndWholeTexts(t *testing.T) {
	d := careerTips(t)
	long := strings.Repeat("Careers grow through small deliberate steps; ", 7) + "end."
	notes := "Pause here and ask the room which tip they will try first this week, then move on to the next section."
	cur := apply(t, d,
		`rotate_node {"nodeId": "s3/87", "angle": 45}`,
		`set_text_content {"nodeId": "s3/90", "text": "`+long+`"}`,
		`set_slide_properties {"slideId": "s3", "notes": "`+notes+`"}`,
		`create_chart {"parentId": "s4", "x": 100, "y": 100, "width": 400, "height": 250, "chartType": "COLUMN", "title": "Hires by quarter", "categories": ["Q1", "Q2", "Q3"], "series": [{"name": "2025", "values": [12, 18, 25]}]}`)
	got := judgeSees(t, "Tilt the picture on slide 3 by 45 degrees, rewrite its subtitle, add notes, and add a hires chart to slide 4.", d, cur)
	for _, want := range []string{
		"rotated 0 -> 45 degrees",
		long,
		notes,
		`COLUMN chart "Hires by quarter", 3 categories ["Q1", "Q2", "Q3"], 1 series; "2025" [12, 18, 25]`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the judge was not shown %q:\n%s", want, got)
		}
	}
	for _, line := range strings.Split(got, "\n") {
		if strings.Contains(line, "[s3/87]") && strings.Contains(line, "resized") {
			t.Errorf("a rotation about the centre reads as a resize: %s", line)
		}
	}

	chart := ""
	cur.Slides[3].Walk(func(n, _ *scenegraph.Node, _ int) bool {
		if n.Chart != nil {
			chart = n.ID
		}
		return true
	})
	if chart == "" {
		t.Fatal("no chart in the edited deck")
	}
	next := apply(t, cur,
		`set_chart_type {"chartId": "`+chart+`", "chartType": "LINE"}`,
		`update_chart_data {"chartId": "`+chart+`", "set": [{"series": "2025", "category": "Q2", "value": 21}]}`)
	got = judgeSees(t, "Make the hires chart a line chart and correct Q2 to 21.", cur, next)
	for _, want := range []string{`chartType: "COLUMN" -> "LINE"`, `series "2025" values: [12 18 25] -> [12 21 25]`} {
		if !strings.Contains(got, want) {
			t.Errorf("the judge was not shown %q:\n%s", want, got)
		}
	}
}
