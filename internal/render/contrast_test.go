package render

import (
	"slices"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// TestContrastOnAGradientIsReadFromItsPixels: black text across a panel
// that runs from white to black. Its mean colour is a mid grey on which
// black reads (about 5:1), but the right end of the line is black on
// black: the check reads the cells under the glyphs, so it is flagged. The
// same text over the white end alone reads.
func TestContrastOnAGradientIsReadFromItsPixels(t *testing.T) {
	grad := rect("grad", 100, 100, 600, 200, "#FFFFFF")
	grad.Fills = []scenegraph.Paint{{Type: scenegraph.PaintGradientLinear, GradientStops: []scenegraph.ColorStop{
		{Position: 0, Color: scenegraph.MustHex("#FFFFFF")}, {Position: 1, Color: scenegraph.MustHex("#000000")}}}}
	across := text("across", 102, 120, 596, 60, "This black text runs over the whole gradient panel from its white end to its black end", 16, "#000000")
	left := text("left", 110, 220, 200, 40, "Only on white", 16, "#000000")
	sr := renderOne(t, deck(grad, across, left), nil, false)
	a, l := sr.Nodes["across"], sr.Nodes["left"]
	t.Logf("across: %.2f:1 over %d cells; left: %.2f:1", a.Contrast, len(a.Behind), l.Contrast)
	if a.Contrast == 0 || a.Contrast > 1.5 || a.ContrastNeed != ContrastBody {
		t.Errorf("black text reaching the black end: contrast %.2f (need %.1f), want below 1.5 against 4.5", a.Contrast, a.ContrastNeed)
	}
	if l.Contrast < 12 {
		t.Errorf("black text on the white end: contrast %.2f, want above 12", l.Contrast)
	}
	if got := kinds(sr.Violations)[KindLowContrast]; !slices.Equal(got, []string{"across"}) {
		t.Errorf("low_contrast on %v, want [across]", got)
	}
}

// TestBackdropHidesTheTextItself: the colours behind a text are read with
// every text transparent, so black glyphs on a #808080 panel do not darken
// what is behind them: the ratio is exactly black on #808080, and the one
// colour behind is the panel's.
func TestBackdropHidesTheTextItself(t *testing.T) {
	panel := rect("panel", 100, 100, 600, 200, "#808080")
	bold := text("bold", 120, 120, 560, 160, "HEAVY BLACK GLYPHS", 64, "#000000")
	bold.Style.FontWeight = 900
	sr := renderOne(t, deck(panel, bold), nil, false)
	m := sr.Nodes["bold"]
	want := ContrastRatio(scenegraph.MustHex("#000000"), scenegraph.MustHex("#808080"))
	if !near(m.Contrast, want, 0.02) {
		t.Errorf("contrast %.3f, want %.3f (black on the panel alone)", m.Contrast, want)
	}
	grey := scenegraph.MustHex("#808080")
	for _, c := range m.Behind {
		if !near(c.R, grey.R, 1.0/255) || !near(c.G, grey.G, 1.0/255) || !near(c.B, grey.B, 1.0/255) {
			t.Errorf("colour behind the text %+v, want the panel's #808080 only", c)
		}
	}
}
