package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

func kinds(vs []Violation) map[string][]string {
	m := map[string][]string{}
	for _, v := range vs {
		m[v.Kind] = append(m[v.Kind], v.NodeIDs...)
	}
	return m
}

// cleanDeck is a well-formed slide: title, body, picture, no defects.
func cleanDeck(t *testing.T) (*scenegraph.Deck, scenegraph.Blobs) {
	blobs := scenegraph.Blobs{}
	d := deck(
		text("title", 80, 60, 1120, 80, "Quarterly results", 48, "#1A1A1A"),
		text("body", 80, 180, 560, 300, "Revenue grew in every region.\nMargins held steady.", 24, "#333333"),
	)
	ref := d.AddAsset(blobs, twoTonePNG(t, 400, 300), "image/png", "p.png", 400, 300)
	d.Slides[0].Children = append(d.Slides[0].Children, imageNode("pic", 720, 180, 400, 300, ref))
	return d, blobs
}

func TestCleanDeckHasNoViolations(t *testing.T) {
	d, blobs := cleanDeck(t)
	sr := renderOne(t, d, blobs, false)
	if len(sr.Violations) != 0 {
		t.Fatalf("clean deck: %+v", sr.Violations)
	}
}

func TestEachViolationKindIsDetected(t *testing.T) {
	blobs := scenegraph.Blobs{}
	d := deck()
	ref := d.AddAsset(blobs, twoTonePNG(t, 400, 100), "image/png", "wide.png", 400, 100)
	clipFrame := frame("cf", 900, 500, 100, 100, imageNode("clipped", 50, 0, 100, 100, ref))
	clipFrame.ClipsContent = true
	cover := imageNode("cover", 1100, 300, 100, 200, ref)
	cover.Fills[0].ScaleMode = "FILL" // 4:1 picture in a 1:2 box: 88% cropped
	d.Slides[0].Children = []*scenegraph.Node{
		text("over", 50, 50, 150, 40, lorem, 20, "#000000"),                  // text_overflow
		text("a", 50, 300, 300, 60, "Overlapping text A", 24, "#000000"),     // overlap with b
		text("b", 100, 310, 300, 60, "Overlapping text B", 24, "#000000"),    // overlap with a
		text("off", 1200, 650, 300, 60, "Off the slide edge", 24, "#000000"), // out_of_bounds
		text("pale", 400, 50, 400, 60, "Pale grey text", 24, "#CCCCCC"),      // low_contrast
		text("tiny", 400, 150, 400, 60, "Tiny footnote text", 9, "#000000"),  // min_font_size
		clipFrame, cover, // image_clipping x2
	}
	sr := renderOne(t, d, blobs, false)
	got := kinds(sr.Violations)
	want := map[string][]string{
		KindTextOverflow:  {"over"},
		KindOverlap:       {"a", "b"},
		KindOutOfBounds:   {"off"},
		KindLowContrast:   {"pale"},
		KindMinFontSize:   {"tiny"},
		KindImageClipping: {"clipped", "cover"},
	}
	for k, ids := range want {
		g := slices.Clone(got[k])
		slices.Sort(g)
		if !slices.Equal(g, ids) {
			t.Errorf("%s: got %v, want %v", k, got[k], ids)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected %s: %v", k, got[k])
		}
	}
	for _, v := range sr.Violations {
		if v.Key == "" || v.SlideID != "s1" || len(v.Bounds) == 0 || v.Reason == "" {
			t.Errorf("incomplete violation %+v", v)
		}
		// One node's two boxes are named, so a reader can tell the box
		// from the text (a relay model met "[box A; B px]" unexplained).
		if len(v.NodeIDs) == 1 && len(v.Bounds) == 2 && len(v.BoundsLabels) != 2 {
			t.Errorf("%s on %v: two boxes, labels %v", v.Kind, v.NodeIDs, v.BoundsLabels)
		}
		if v.Kind == KindTextOverflow && !slices.Equal(v.BoundsLabels, []string{"box", "text"}) {
			t.Errorf("text_overflow labels %v, want [box text]", v.BoundsLabels)
		}
	}
}

func TestLowContrastUsesThePaintedBackground(t *testing.T) {
	// White text on a dark panel is fine; the same text on the white slide
	// is not; text over a dark panel drawn *behind* it counts the panel.
	panel := rect("panel", 100, 100, 500, 200, "#202020")
	onPanel := text("onpanel", 120, 120, 400, 60, "White on dark", 24, "#FFFFFF")
	onWhite := text("onwhite", 700, 120, 400, 60, "White on white", 24, "#FFFFFF")
	large := text("large", 100, 400, 600, 80, "Large grey heading", 32, "#8A8A8A")   // 3.5:1, large: ok
	small := text("small", 100, 500, 600, 60, "Small grey body text", 16, "#8A8A8A") // 3.5:1, body: fails
	sr := renderOne(t, deck(panel, onPanel, onWhite, large, small), nil, false)
	got := kinds(sr.Violations)[KindLowContrast]
	slices.Sort(got)
	if !slices.Equal(got, []string{"onwhite", "small"}) {
		t.Errorf("low_contrast on %v, want [onwhite small]", got)
	}
	if c := sr.Nodes["onpanel"].Contrast; c < 15 {
		t.Errorf("white on #202020 contrast %g, want about 16", c)
	}
}

// TestTextHiddenUnderAPictureIsAnOverlap (issue 16 item 11): text covered
// by a picture painted above it is an overlap even when the picture is
// background-sized (which the pairwise check skips); the same text above
// the picture, or under a half-transparent shape, is not.
func TestTextHiddenUnderAPictureIsAnOverlap(t *testing.T) {
	blobs := scenegraph.Blobs{}
	d := deck()
	ref := d.AddAsset(blobs, twoTonePNG(t, 400, 100), "image/png", "wide.png", 400, 100)
	half := 0.5
	veil := rect("veil", 0, 600, 1280, 120, "#000000")
	veil.Opacity = &half
	d.Slides[0].Children = []*scenegraph.Node{
		text("under", 100, 100, 500, 60, "Text the photo hides", 24, "#000000"),
		imageNode("photo", 0, 0, 1280, 560, ref), // 78% of the slide: a background
		text("above", 700, 200, 500, 60, "Caption over the photo", 24, "#FFFFFF"),
		text("veiled", 100, 620, 500, 60, "Text under a veil", 24, "#000000"),
		veil,
		text("boxed", 700, 620, 300, 60, "Text under a card", 24, "#000000"),
		rect("card", 680, 600, 400, 110, "#F0F0F0"),
	}
	sr := renderOne(t, d, blobs, false)
	var hidden []string
	for _, v := range sr.Violations {
		if v.Kind == KindOverlap {
			hidden = append(hidden, strings.Join(v.NodeIDs, "+"))
			if !strings.Contains(v.Reason, "hidden under") {
				t.Errorf("reason %q does not say the text is hidden", v.Reason)
			}
		}
	}
	slices.Sort(hidden)
	if want := []string{"boxed+card", "photo+under"}; !slices.Equal(hidden, want) {
		t.Errorf("hidden text %v, want %v (all: %+v)", hidden, want, sr.Violations)
	}
}

func TestLegacyViolationPassesTheGate(t *testing.T) {
	d, blobs := cleanDeck(t)
	// A legacy defect present before the edit: an overflowing caption.
	d.Slides[0].Children = append(d.Slides[0].Children, text("legacy", 80, 560, 200, 30, lorem, 20, "#000000"))
	base := renderOne(t, d, blobs, false).Violations
	if len(base) == 0 {
		t.Fatal("the legacy deck should have a violation")
	}
	// An edit that changes the title text and adds no defect passes.
	edited := d.Clone()
	edited.Slides[0].Children[0].Characters = "Quarterly results (revised)"
	cur := renderOne(t, edited, blobs, false).Violations
	if ok, newOnes := Gate(cur, base); !ok {
		t.Errorf("gate blocked an edit with no new violation: %+v", newOnes)
	}
	// An edit that pushes the body text off the slide is blocked.
	bad := edited.Clone()
	bad.Slides[0].Children[1].Transform = scenegraph.Translate(1050, 600)
	cur = renderOne(t, bad, blobs, false).Violations
	ok, newOnes := Gate(cur, base)
	if ok || len(newOnes) == 0 {
		t.Fatalf("gate passed an edit that added violations")
	}
	for _, v := range newOnes {
		if !slices.Contains(v.NodeIDs, "body") {
			t.Errorf("new violation not about the moved node: %+v", v)
		}
	}
}

func TestDeltaViolMatchesByKey(t *testing.T) {
	a := newViolation(KindOverlap, "s1", []string{"y", "x"}, nil, "r")
	b := newViolation(KindOverlap, "s1", []string{"x", "y"}, nil, "other reason")
	c := newViolation(KindTextOverflow, "s1", []string{"x"}, nil, "r")
	if a.Key != b.Key || a.Key != "overlap|s1|x,y" {
		t.Fatalf("keys must not depend on node order or reason: %q %q", a.Key, b.Key)
	}
	if d := DeltaViol([]Violation{b, c}, []Violation{a}); len(d) != 1 || d[0].Key != c.Key {
		t.Errorf("DeltaViol = %+v, want only the text_overflow", d)
	}
	if ok, _ := Gate([]Violation{a}, []Violation{a, c}); !ok {
		t.Error("fixing a violation must pass the gate")
	}
}

func TestContrastRatioMatchesWCAGExamples(t *testing.T) {
	cases := []struct {
		a, b string
		want float64
	}{
		{"#000000", "#FFFFFF", 21},
		{"#777777", "#FFFFFF", 4.48},
		{"#767676", "#FFFFFF", 4.54},
		{"#FFFFFF", "#FFFFFF", 1},
	}
	for _, c := range cases {
		if got := ContrastRatio(scenegraph.MustHex(c.a), scenegraph.MustHex(c.b)); !near(got, c.want, 0.01) {
			t.Errorf("%s on %s: %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

// A picture at opacity 0 hides nothing: white text over it on a white
// slide is unreadable. Over a visible picture contrast is read from its
// pixels: white on the picture's red half is 4:1, enough for 24 px text
// (3:1), so not flagged.
func TestInvisiblePictureDoesNotHideLowContrast(t *testing.T) {
	blobs := scenegraph.Blobs{}
	d := deck()
	ref := d.AddAsset(blobs, twoTonePNG(t, 200, 100), "image/png", "p.png", 200, 100)
	zero := 0.0
	ghost := imageNode("ghost", 0, 0, 600, 300, ref)
	ghost.Fills[0].Opacity = &zero
	shown := imageNode("shown", 640, 0, 600, 300, ref)
	d.Slides[0].Children = []*scenegraph.Node{ghost, shown,
		text("overghost", 20, 20, 400, 60, "White over nothing", 24, "#FFFFFF"),
		text("overshown", 660, 20, 400, 60, "White over a picture", 24, "#FFFFFF")}
	sr := renderOne(t, d, blobs, false)
	got := kinds(sr.Violations)[KindLowContrast]
	if !slices.Equal(got, []string{"overghost"}) {
		t.Errorf("low_contrast on %v, want [overghost]", got)
	}
	if c := sr.Nodes["overshown"].Contrast; !near(c, 4, 0.05) {
		t.Errorf("white on the picture's red half: contrast %.2f, want 4.0", c)
	}
}

// Contrast is checked line by line: a three-line text whose last line
// leaves a dark band for the white slide is flagged, though the middle of
// the whole text is on the band.
func TestLowContrastChecksEveryLine(t *testing.T) {
	band := rect("band", 100, 100, 600, 90, "#101010")
	two := text("two", 110, 105, 580, 200, "Line on the band\nAlso on the band\nLine below it", 24, "#FFFFFF")
	two.Style.LineHeightPx = 40
	sr := renderOne(t, deck(band, two), nil, false)
	if m := sr.Nodes["two"]; m.Contrast > 1.01 {
		t.Errorf("second line is white on white, contrast %g", m.Contrast)
	}
	if got := kinds(sr.Violations)[KindLowContrast]; !slices.Equal(got, []string{"two"}) {
		t.Errorf("low_contrast on %v", got)
	}
}

func TestContentSpillingFromAnAutoLayoutFrameIsAViolation(t *testing.T) {
	col := func(id string, sizing string) *scenegraph.Node {
		f := autoFrame(id, scenegraph.LayoutVertical, 100, 100,
			rect(id+"a", 0, 0, 160, 40, "#FF0000"), rect(id+"b", 0, 0, 160, 40, "#00FF00"), rect(id+"c", 0, 0, 160, 40, "#0000FF"))
		f.ItemSpacing = 10
		f.LayoutSizingHorizontal, f.LayoutSizingVertical = sizing, sizing
		return f
	}
	fixed, hug, clipped := col("fixed", ""), col("hug", scenegraph.SizingHug), col("clip", "")
	hug.Transform, clipped.Transform = scenegraph.Translate(400, 30), scenegraph.Translate(800, 30)
	clipped.ClipsContent = true
	stray := rect("stray", 500, 0, 40, 40, "#000000") // absolutely placed, outside on purpose
	stray.LayoutPositioning = scenegraph.PositioningAbsolute
	fixed.Children = append(fixed.Children, stray)
	sr := renderOne(t, deck(fixed, hug, clipped), nil, false)
	var got []Violation
	for _, v := range sr.Violations {
		if v.Kind == KindFrameOverflow {
			got = append(got, v)
		}
	}
	if len(got) != 1 || got[0].Key != "frame_overflow|s1|fixed" {
		t.Fatalf("frame_overflow violations %+v, want the FIXED frame's only", got)
	}
	// 100x100 holding three 40 px rows 160 px wide with 10 px gaps: 60 px
	// too wide, 40 px too tall.
	if want := "is 100x100 px but its content needs 160x140 px: 3 of its children spill out by up to 60 px"; !strings.Contains(got[0].Reason, want) {
		t.Errorf("reason %q, want it to say %q", got[0].Reason, want)
	}
}
