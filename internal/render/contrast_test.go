package render

import (
	"image"
	"image/color"
	"math"
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

// TestBackdropRegionSamplesLikeTheWholeSlide: the backdrop screenshot
// covers only the text lines' region, snapped to whole pixels of
// BackdropScale. On a picture of a 1280x720 slide at that scale with a
// different colour in every 2x2 px block, each line's cell colours read
// from the region cut out of it are those read from the whole picture,
// for lines inside the slide, past its right and bottom edges, and
// starting above it; a slide whose lines are all off it needs no
// screenshot.
func TestBackdropRegionSamplesLikeTheWholeSlide(t *testing.T) {
	const w, h = 1280.0, 720.0
	full := image.NewRGBA(image.Rect(0, 0, int(w*BackdropScale), int(h*BackdropScale)))
	for y := range full.Bounds().Dy() {
		for x := range full.Bounds().Dx() {
			full.Set(x, y, color.RGBA{uint8(x * 7), uint8(y * 13), uint8(x*3 + y*5), 255})
		}
	}
	lines := []rawRect{
		{X: 101.3, Y: 57.8, Width: 403.1, Height: 21.7},
		{X: 1190.5, Y: 300.2, Width: 180, Height: 30},   // past the right edge
		{X: 640.9, Y: 700.1, Width: 90.4, Height: 33.3}, // past the bottom edge
		{X: 333.3, Y: -10.5, Width: 75, Height: 20},     // starts above the slide
	}
	raw := &rawSlide{Nodes: []rawNode{{ID: "a", Lns: lines[:2]}, {ID: "b", Lns: lines[2:]}, {ID: "no-text"}}}
	region, ok := backdropRegion(raw, w, h)
	if !ok {
		t.Fatal("backdropRegion: no region for lines on the slide")
	}
	step := 1 / BackdropScale
	for _, v := range []float64{region.X, region.Y, region.Width, region.Height} {
		if v != math.Round(v/step)*step {
			t.Errorf("region %+v: %g is not a multiple of %g px", region, v, step)
		}
	}
	if region.X > 101.3 || region.Y != 0 || region.X+region.Width != w || region.Y+region.Height != h {
		t.Errorf("region %+v: want from x <= 101.3, y 0 to the slide's right and bottom edges", region)
	}
	px := func(v float64) int { return int(v * BackdropScale) }
	crop := full.SubImage(image.Rect(px(region.X), px(region.Y), px(region.X+region.Width), px(region.Y+region.Height)))
	whole := rawRect{Width: w, Height: h}
	for _, ln := range lines {
		want, got := cellMeans(full, ln, whole), cellMeans(crop, ln, region)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("line %+v: cells %v from the region, %v from the whole slide", ln, got, want)
		}
	}
	small := rawRect{X: 600, Y: 300, Width: 78, Height: 38}
	if r, _ := backdropRegion(&rawSlide{Nodes: []rawNode{{Lns: []rawRect{{X: 601, Y: 301, Width: 76, Height: 36}}}}}, w, h); r != small {
		t.Errorf("one line at 601,301 76x36: region %+v, want %+v", r, small)
	}
	off := &rawSlide{Nodes: []rawNode{{ID: "off", Lns: []rawRect{{X: 1300, Y: 10, Width: 50, Height: 20}, {X: 10, Y: 800, Width: 50, Height: 20}}}}}
	if r, ok := backdropRegion(off, w, h); ok {
		t.Errorf("lines wholly off the slide: region %+v, want none", r)
	}
}
