package report

import (
	"bytes"
	"strings"
	"testing"

	acev1 "github.com/acecanvas/ace/proto/ace/v1"
)

// The batch page of a deck is built from its EditResult (FromResult): the
// timeline comes from the same result, steps without an observation
// leave a gap in the sparkline, and the index links to the timeline.
func TestTimelineOfAResultOnTheEditAndIndexPages(t *testing.T) {
	d := func(v int32) *int32 { return &v }
	no, yes := false, true
	r := &acev1.EditResult{DeckName: "q3.pptx", Outcome: "stopped", Iterations: []*acev1.Iteration{{N: 1, ActStopped: "submitted",
		Steps: []*acev1.Step{
			{Turn: 1, Calls: []string{`move_node {"nodeId":"s3-t6","x":400}`}, Applied: 1, Changed: true, DeltaViol: d(1),
				DeltaByKind: []*acev1.KindDelta{{Kind: "overlap", Delta: 1}}, NewViolations: []string{"overlap on slide s3 (s3-t6, s3-t7)"},
				Issues: []*acev1.IssueChange{{Issue: "I1", Check: "G02.1", Slide: "s3", To: "open"}}},
			{Turn: 2, Calls: []string{"check_layout"}},
			{Turn: 3, Calls: []string{"submit"}, DeltaViol: d(1), SubmitPassed: &no, NewViolations: []string{"overlap on slide s3 (s3-t6, s3-t7)"}},
			{Turn: 4, Calls: []string{"undo_step"}, Undone: true, DeltaViol: d(0), ResolvedViolations: []string{"overlap on slide s3 (s3-t6, s3-t7)"},
				Issues: []*acev1.IssueChange{{Issue: "I1", Check: "G02.1", Slide: "s3", From: "open", To: "resolved"}}},
			{Turn: 5, Calls: []string{"submit"}, DeltaViol: d(0), SubmitPassed: &yes},
		}}},
		Issues: []*acev1.Issue{{Id: "I1", Family: "geometry", Slide: "s3", Check: "G02.1", Status: "resolved", Hard: true}}}
	tl := TimelineOf(r)
	if tl == nil || len(tl.Iterations) != 1 || len(tl.Iterations[0].Steps) != 5 || len(tl.Statuses) != 1 || tl.Statuses[0] != (StatusCount{"resolved", 1}) {
		t.Fatalf("timeline %+v", tl)
	}
	sp := tl.Iterations[0].Spark
	if sp == nil || len(sp.Dots) != 4 || !sp.Dots[0].Bad || sp.Dots[3].Bad || sp.Dots[0].Y >= sp.ZeroY || sp.Dots[3].Y != sp.ZeroY {
		t.Fatalf("sparkline %+v", sp)
	}
	var page bytes.Buffer
	if err := WriteEdit(&page, Edit{Deck: r.DeckName, Outcome: r.Outcome, Timeline: tl}); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	for _, want := range []string{`<tr class="step" id="step-4"><td>4 <span class="badge warn">undo</span>`, "submit refused", "submit passed",
		"I1 (G02.1 on s3) new → open", "I1 (G02.1 on s3) open → resolved", "− overlap on slide s3", `<span class="badge ok">resolved</span>`, "1 resolved"} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if TimelineOf(&acev1.EditResult{Iterations: []*acev1.Iteration{{N: 1}}}) != nil {
		t.Error("a result without steps or issues got a timeline")
	}
	var index bytes.Buffer
	if err := WriteIndex(&index, Batch{ID: "b1", Rows: []Row{{Deck: "q3.pptx", Page: "reports/q3.pptx.html", Outcome: "stopped", Timeline: true}}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(index.String(), `<a href="reports/q3.pptx.html#timeline">step timeline</a>`) {
		t.Error("the index does not link to the timeline")
	}
}
