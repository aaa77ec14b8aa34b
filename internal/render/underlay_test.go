package render

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/acecanvas/ace/internal/formats/pptx"
	"github.com/acecanvas/ace/internal/scenegraph"
	"github.com/acecanvas/ace/internal/shareddecks"
)

// TestLayoutArtIsDrawnAndJudged: default_template's slides show green
// master art down the right edge that the scene graph does not hold. The
// render draws it (its nodes are measured), a white note placed on it
// is a low-contrast violation there, and the same note on the same slide
// without the original package (so without the art) is not. Violations
// name only the deck's own nodes.
func TestLayoutArtIsDrawnAndJudged(t *testing.T) {
	data, err := os.ReadFile(shareddecks.PPTXFile(t, "default_template.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	d, blobs, err := pptx.Import(data, "default_template.pptx")
	if err != nil {
		t.Fatal(err)
	}
	s := d.Slides[1]
	note := text("note", 990, 680, 200, 30, "Confidential: internal use", 14, "#FFFFFF")
	s.Children = append(s.Children, note)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := sharedPool(t).Render(ctx, d, blobs, Request{Slides: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	art := 0
	for id := range res.Slides[0].Nodes {
		if strings.HasPrefix(id, s.ID+"/master/") || strings.HasPrefix(id, s.ID+"/layout/") {
			art++
		}
	}
	if art == 0 {
		t.Fatalf("no layout or master art measured on %s; errors %v", s.ID, res.Slides[0].Errors)
	}
	m := res.Slides[0].Nodes["note"]
	t.Logf("%d art nodes drawn; the note's contrast on the art %.2f:1 (needs %.1f)", art, m.Contrast, m.ContrastNeed)
	if !hasViolation(res.Violations, KindLowContrast, "note") {
		t.Errorf("white on the green art is not flagged: contrast %.2f", m.Contrast)
	}
	for _, v := range res.Violations {
		for _, id := range v.NodeIDs {
			if strings.Contains(id, "/master/") || strings.Contains(id, "/layout/") {
				t.Errorf("violation names layout art %s: %s", id, v.Reason)
			}
		}
	}
	bare := *d
	bare.Source = nil
	res, err = sharedPool(t).Render(ctx, &bare, blobs, Request{Slides: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	if hasViolation(res.Violations, KindLowContrast, "note") {
		t.Errorf("without the art the note is still flagged: %.2f", res.Slides[0].Nodes["note"].Contrast)
	}
}

// TestContrastSeesThroughAShapesCorners: a text over the empty corner of a
// triangle's box is judged against what shows there (the white slide),
// not against the triangle's fill.
func TestContrastSeesThroughAShapesCorners(t *testing.T) {
	tri := rect("tri", 100, 100, 400, 400, "#000000")
	tri.Type, tri.Preset = scenegraph.TypeVector, "triangle"
	pale := text("pale", 104, 104, 60, 24, "note", 14, "#DDDDDD")   // corner: over white
	white := text("white", 260, 420, 80, 24, "note", 14, "#FFFFFF") // inside: over black
	m := renderOne(t, deck(tri, pale, white), nil, false).Nodes
	if c := m["pale"].Contrast; c == 0 || c > 2 {
		t.Errorf("pale text in the triangle's corner: contrast %.2f, want about 1.4 (against white)", c)
	}
	if c := m["white"].Contrast; c < 15 {
		t.Errorf("white text inside the triangle: contrast %.2f, want 21 (against black)", c)
	}
}

func hasViolation(vs []Violation, kind, id string) bool {
	for _, v := range vs {
		if v.Kind == kind && len(v.NodeIDs) > 0 && v.NodeIDs[0] == id {
			return true
		}
	}
	return false
}

// TestContrastOnAFilledChart: a chart's fill is its box (CSS background),
// though the chart draws its marks in its own svg: white text on a dark
// chart card is judged against the card, not the slide behind it.
func TestContrastOnAFilledChart(t *testing.T) {
	ch := rect("chart", 100, 100, 500, 300, "#101010")
	ch.Type = scenegraph.TypeChart
	ch.Chart = &scenegraph.Chart{ChartType: scenegraph.ChartBar, Categories: []string{"a", "b"}, Series: []scenegraph.Series{{Name: "s", Values: []float64{1, 2}}}}
	label := text("label", 120, 110, 200, 30, "Revenue", 16, "#FFFFFF")
	m := renderOne(t, deck(ch, label), nil, false).Nodes
	if c := m["label"].Contrast; c < 15 {
		t.Errorf("white on the #101010 chart card: contrast %.2f, want about 19", c)
	}
}
