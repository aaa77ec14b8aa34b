package render

import (
	"math"
	"slices"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// jaParagraph is 91 characters of Japanese: at 24 px in a 480 px box it
// takes 5 lines, where the tools' 0.55 em estimate gives 3.
const jaParagraph = "東京の新しいオフィスでは、チーム全員が毎朝集まって一日の目標を確認し、顧客からの要望を共有しています。その後、各自が担当するプロジェクトを進め、夕方には成果を振り返ります。翌日も続け"

func TestWriteMeasuredGivesHuggingTextItsRenderedBox(t *testing.T) {
	if n := len([]rune(jaParagraph)); n != 91 {
		t.Fatalf("the paragraph has %d characters, want 91", n)
	}
	ja := text("ja", 100, 40, 480, 86.4, jaParagraph, 24, "#000000") // 3 lines estimated
	ja.LayoutSizingVertical = scenegraph.SizingHug
	label := text("label", 100, 400, 150, 24, "Quarterly results, wide label", 20, "#000000")
	label.LayoutSizingHorizontal, label.LayoutSizingVertical = scenegraph.SizingHug, scenegraph.SizingHug
	fixed := text("fixed", 100, 500, 300, 20, "A fixed box whose text overflows it by far, on three lines", 24, "#000000")
	d := deck(ja, label, fixed)
	sr := renderOne(t, d, nil, false)
	mJa, mLabel := sr.Nodes["ja"], sr.Nodes["label"]
	if mJa.Lines < 4 {
		t.Fatalf("the Japanese paragraph drew %d lines; the test needs more than the estimate's 3", mJa.Lines)
	}

	got := WriteMeasured(d, nil, []SlideResult{*sr})
	if !slices.Equal(got, []string{"ja", "label"}) {
		t.Fatalf("written %v, want [ja label] (the fixed box keeps its size)", got)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 0.01 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	near("ja height", ja.Size.Y, mJa.Bounds.Height)
	near("ja width (fixed)", ja.Size.X, 480)
	near("label width", label.Size.X, mLabel.Bounds.Width)
	near("label height", label.Size.Y, mLabel.Bounds.Height)
	near("fixed height", fixed.Size.Y, 20)
	if ja.Transform.X() != 100 || ja.Transform.Y() != 40 {
		t.Errorf("ja moved to %v", ja.Transform)
	}
	// Five 24 px lines: the box is at least 5 x 24 px high.
	if ja.Size.Y < float64(mJa.Lines)*24 {
		t.Errorf("ja height %v is less than %d lines of 24 px", ja.Size.Y, mJa.Lines)
	}

	// Rendering what was written gives the same boxes: nothing more to
	// write.
	again := renderOne(t, d, nil, false)
	if w := WriteMeasured(d, nil, []SlideResult{*again}); len(w) != 0 {
		t.Errorf("a second write-back changed %v", w)
	}
}

func TestWriteMeasuredLeavesNodesTheEditDidNotLayOutAnew(t *testing.T) {
	mk := func(s string) *scenegraph.Deck {
		n := text("t", 100, 40, 480, 20, s, 24, "#000000")
		n.TextBox = &scenegraph.TextBox{AutoResize: scenegraph.AutoResizeHeight}
		return deck(n)
	}
	origin := mk("Two lines of text in a box that is stored far too short for them, as PowerPoint left it")
	recoloured := mk("Two lines of text in a box that is stored far too short for them, as PowerPoint left it")
	recoloured.Slides[0].Children[0].Style.Fills = []scenegraph.Paint{scenegraph.Solid(scenegraph.MustHex("#C00000"))}
	sr := renderOne(t, recoloured, nil, false)
	if h := sr.Nodes["t"].Bounds.Height; h < 40 {
		t.Fatalf("auto-height text measured %v px high; the test needs it taller than its stored 20", h)
	}
	if w := WriteMeasured(recoloured, origin, []SlideResult{*sr}); len(w) != 0 {
		t.Fatalf("a recolour wrote %v: only the text's colour changed, its stored box stays", w)
	}
	retyped := mk("Other words, now on two lines in the same box, which the edit typed over the old ones")
	sr = renderOne(t, retyped, nil, false)
	if w := WriteMeasured(retyped, origin, []SlideResult{*sr}); !slices.Equal(w, []string{"t"}) {
		t.Fatalf("new characters wrote %v, want [t]", w)
	}
	if got, want := retyped.Slides[0].Children[0].Size.Y, sr.Nodes["t"].Bounds.Height; math.Abs(got-want) > 0.01 {
		t.Fatalf("height %v, measured %v", got, want)
	}
}

func TestWriteMeasuredPlacesAutoLayoutChildrenAsDrawn(t *testing.T) {
	title := text("title", 0, 0, 10, 10, "A title long enough to measure", 28, "#000000")
	title.LayoutSizingHorizontal, title.LayoutSizingVertical = scenegraph.SizingHug, scenegraph.SizingHug
	body := text("body", 0, 0, 300, 10, "Body text that wraps onto several lines inside a column three hundred px wide.", 18, "#000000")
	body.LayoutSizingVertical = scenegraph.SizingHug
	col := autoFrame("col", scenegraph.LayoutVertical, 100, 100, title, body)
	col.PaddingLeft, col.PaddingTop, col.PaddingRight, col.PaddingBottom, col.ItemSpacing = 16, 12, 16, 12, 10
	col.LayoutSizingHorizontal, col.LayoutSizingVertical = scenegraph.SizingHug, scenegraph.SizingHug
	d := deck(col)
	sr := renderOne(t, d, nil, false)
	WriteMeasured(d, nil, []SlideResult{*sr})
	mc := sr.Nodes["col"].Bounds
	if col.Size.X != roundCenti(mc.Width) || col.Size.Y != roundCenti(mc.Height) {
		t.Fatalf("frame %v, measured %+v", col.Size, mc)
	}
	for _, c := range col.Children {
		m := sr.Nodes[c.ID].Bounds
		if math.Abs(c.Transform.X()-(m.X-mc.X)) > 0.01 || math.Abs(c.Transform.Y()-(m.Y-mc.Y)) > 0.01 ||
			math.Abs(c.Size.X-m.Width) > 0.01 || math.Abs(c.Size.Y-m.Height) > 0.01 {
			t.Errorf("%s at %v size %v, drawn at %+v in a frame at %+v", c.ID, c.Transform, c.Size, m, mc)
		}
		// The frame contains its children as written.
		if c.Transform.X() < 0 || c.Transform.Y() < 0 || c.Transform.X()+c.Size.X > col.Size.X+0.01 || c.Transform.Y()+c.Size.Y > col.Size.Y+0.01 {
			t.Errorf("%s (%v, %v) spills from the frame %v", c.ID, c.Transform, c.Size, col.Size)
		}
	}
	if got := col.Children[1].Transform.Y(); math.Abs(got-(12+col.Children[0].Size.Y+10)) > 0.02 {
		t.Errorf("body at y %v, want padding 12 + title %v + spacing 10", got, col.Children[0].Size.Y)
	}
}

func TestWriteMeasuredSkipsRotatedBoxes(t *testing.T) {
	n := text("t", 300, 300, 200, 10, "Rotated text that hugs its height", 20, "#000000")
	n.LayoutSizingVertical = scenegraph.SizingHug
	n.Transform = n.Transform.Rotated(30)
	d := deck(n)
	sr := renderOne(t, d, nil, false)
	if w := WriteMeasured(d, nil, []SlideResult{*sr}); len(w) != 0 {
		t.Fatalf("a rotated box was written (%v): its bounds are not its size", w)
	}
}
