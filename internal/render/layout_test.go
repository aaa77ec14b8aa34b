package render

import (
	"context"
	"testing"

	"github.com/acecanvas/ace/internal/scenegraph"
)

func hugRow(children ...*scenegraph.Node) *scenegraph.Node {
	f := frame("row", 40, 50, 10, 10, children...)
	f.LayoutMode = scenegraph.LayoutHorizontal
	f.ItemSpacing = 20
	f.PaddingLeft, f.PaddingRight, f.PaddingTop, f.PaddingBottom = 10, 10, 10, 10
	f.LayoutSizingHorizontal = scenegraph.SizingHug
	f.LayoutSizingVertical = scenegraph.SizingHug
	return f
}

func TestHugRowOfThreeIs360Wide(t *testing.T) {
	d := deck(hugRow(rect("a", 0, 0, 100, 50, "#FF0000"), rect("b", 0, 0, 100, 50, "#00FF00"), rect("c", 0, 0, 100, 50, "#0000FF")))
	sr := renderOne(t, d, nil, false)
	assertRect(t, "row", sr.Nodes["row"].Bounds, 40, 50, 360, 70, 0.01)
	assertRect(t, "a", sr.Nodes["a"].Bounds, 50, 60, 100, 50, 0.01)
	assertRect(t, "b", sr.Nodes["b"].Bounds, 170, 60, 100, 50, 0.01)
	assertRect(t, "c", sr.Nodes["c"].Bounds, 290, 60, 100, 50, 0.01)
}

func autoFrame(id, mode string, w, h float64, children ...*scenegraph.Node) *scenegraph.Node {
	f := frame(id, 20, 30, w, h, children...)
	f.LayoutMode = mode
	return f
}

func TestFillChildTakesRemainingSpace(t *testing.T) {
	fill := rect("fill", 0, 0, 10, 50, "#00FF00")
	fill.LayoutSizingHorizontal = scenegraph.SizingFill
	f := autoFrame("row", scenegraph.LayoutHorizontal, 600, 70, rect("a", 0, 0, 100, 50, "#FF0000"), fill, rect("c", 0, 0, 100, 50, "#0000FF"))
	f.ItemSpacing, f.PaddingLeft, f.PaddingRight, f.PaddingTop = 20, 10, 10, 10
	sr := renderOne(t, deck(f), nil, false)
	// 600 - 2*10 padding - 2*20 spacing - 2*100 fixed = 340.
	assertRect(t, "fill", sr.Nodes["fill"].Bounds, 20+10+100+20, 40, 340, 50, 0.01)
	assertRect(t, "c", sr.Nodes["c"].Bounds, 20+600-10-100, 40, 100, 50, 0.01)
}

func TestVerticalHugColumnStacksChildren(t *testing.T) {
	f := autoFrame("col", scenegraph.LayoutVertical, 10, 10, rect("a", 0, 0, 120, 40, "#FF0000"), rect("b", 0, 0, 80, 60, "#00FF00"))
	f.ItemSpacing, f.PaddingTop, f.PaddingBottom, f.PaddingLeft, f.PaddingRight = 8, 5, 7, 3, 4
	f.LayoutSizingHorizontal, f.LayoutSizingVertical = scenegraph.SizingHug, scenegraph.SizingHug
	sr := renderOne(t, deck(f), nil, false)
	assertRect(t, "col", sr.Nodes["col"].Bounds, 20, 30, 3+120+4, 5+40+8+60+7, 0.01)
	assertRect(t, "b", sr.Nodes["b"].Bounds, 23, 30+5+40+8, 80, 60, 0.01)
}

func TestSpaceBetweenIgnoresItemSpacing(t *testing.T) {
	f := autoFrame("row", scenegraph.LayoutHorizontal, 500, 100, rect("a", 0, 0, 100, 20, "#FF0000"), rect("b", 0, 0, 100, 20, "#00FF00"), rect("c", 0, 0, 100, 20, "#0000FF"))
	f.PrimaryAxisAlignItems = scenegraph.AlignSpaceBetween
	f.ItemSpacing = 50
	f.CounterAxisAlignItems = scenegraph.AlignMax
	sr := renderOne(t, deck(f), nil, false)
	assertRect(t, "a", sr.Nodes["a"].Bounds, 20, 30+80, 100, 20, 0.01)
	assertRect(t, "b", sr.Nodes["b"].Bounds, 220, 110, 100, 20, 0.01)
	assertRect(t, "c", sr.Nodes["c"].Bounds, 420, 110, 100, 20, 0.01)
}

func TestCounterAxisCenterAndFillStretch(t *testing.T) {
	stretch := rect("s", 0, 0, 50, 10, "#00FF00")
	stretch.LayoutSizingVertical = scenegraph.SizingFill
	f := autoFrame("row", scenegraph.LayoutHorizontal, 300, 100, rect("m", 0, 0, 50, 20, "#FF0000"), stretch)
	f.CounterAxisAlignItems = scenegraph.AlignCenter
	f.PrimaryAxisAlignItems = scenegraph.AlignCenter
	f.PaddingTop, f.PaddingBottom = 10, 10
	sr := renderOne(t, deck(f), nil, false)
	// Two 50 px children centred in 300: start at 20+100.
	assertRect(t, "m", sr.Nodes["m"].Bounds, 120, 30+40, 50, 20, 0.01)
	assertRect(t, "s", sr.Nodes["s"].Bounds, 170, 40, 50, 80, 0.01)
}

func TestWrapStartsANewTrack(t *testing.T) {
	gap := 5.0
	f := autoFrame("row", scenegraph.LayoutHorizontal, 250, 200, rect("a", 0, 0, 100, 40, "#FF0000"), rect("b", 0, 0, 100, 40, "#00FF00"), rect("c", 0, 0, 100, 40, "#0000FF"))
	f.LayoutWrap = scenegraph.Wrap
	f.ItemSpacing = 10
	f.CounterAxisSpacing = &gap
	sr := renderOne(t, deck(f), nil, false)
	assertRect(t, "b", sr.Nodes["b"].Bounds, 130, 30, 100, 40, 0.01)
	assertRect(t, "c", sr.Nodes["c"].Bounds, 20, 75, 100, 40, 0.01)
}

func TestAbsoluteChildLeavesTheFlow(t *testing.T) {
	abs := rect("abs", 200, 5, 30, 30, "#000000")
	abs.LayoutPositioning = scenegraph.PositioningAbsolute
	f := autoFrame("row", scenegraph.LayoutHorizontal, 400, 100, rect("a", 0, 0, 100, 40, "#FF0000"), abs, rect("b", 0, 0, 100, 40, "#00FF00"))
	f.ItemSpacing = 10
	sr := renderOne(t, deck(f), nil, false)
	assertRect(t, "abs", sr.Nodes["abs"].Bounds, 220, 35, 30, 30, 0.01)
	assertRect(t, "b", sr.Nodes["b"].Bounds, 130, 30, 100, 40, 0.01) // as if abs were absent
}

func TestNestedTransformsAndRotation(t *testing.T) {
	child := rect("c", 10, 20, 100, 50, "#FF0000")
	rot := rect("r", 600, 100, 100, 50, "#0000FF")
	rot.Transform = rot.Transform.Rotated(90)
	rot30 := rect("r30", 800, 300, 120, 40, "#00FF00")
	rot30.Transform = rot30.Transform.Rotated(30)
	sr := renderOne(t, deck(frame("f", 100, 100, 300, 300, child), rot, rot30), nil, false)
	assertRect(t, "c", sr.Nodes["c"].Bounds, 110, 120, 100, 50, 0.01)
	for _, n := range []*scenegraph.Node{rot, rot30} {
		want := n.Transform.Bounds(n.Size)
		assertRect(t, n.ID, sr.Nodes[n.ID].Bounds, want.X, want.Y, want.Width, want.Height, 0.05)
	}
}

func TestClipsContentHidesOverflowingChild(t *testing.T) {
	f := frame("clip", 100, 100, 100, 100, rect("big", 50, 50, 200, 200, "#FF0000"))
	f.ClipsContent = true
	sr := renderOne(t, deck(f), nil, true)
	img := decodePNG(t, sr.PNG)
	if c := pixel(img, 175, 175); !isColor(c, 255, 0, 0) {
		t.Errorf("inside the frame: got %v, want red", c)
	}
	if c := pixel(img, 250, 250); !isColor(c, 255, 255, 255) {
		t.Errorf("outside the clipping frame: got %v, want white (clipped)", c)
	}
	m := sr.Nodes["big"]
	if m.Clip == nil || m.Clip.Width != 100 {
		t.Errorf("big.Clip = %+v, want the frame's 100x100 box", m.Clip)
	}
}

func TestOpacityBlendsWithBackground(t *testing.T) {
	r := rect("r", 100, 100, 100, 100, "#000000")
	half := 0.5
	r.Opacity = &half
	sr := renderOne(t, deck(r), nil, true)
	c := pixel(decodePNG(t, sr.PNG), 150, 150)
	if c.R < 120 || c.R > 135 {
		t.Errorf("50%% black over white: got %v, want about 128 grey", c)
	}
}

func TestShadowPaintsOutsideTheBox(t *testing.T) {
	r := rect("r", 100, 100, 100, 100, "#FFFFFF")
	r.Effects = []scenegraph.Effect{{Type: scenegraph.EffectDropShadow, Radius: 0, Offset: &scenegraph.Vector{X: 20, Y: 20}, Color: &scenegraph.Color{A: 1}}}
	sr := renderOne(t, deck(r), nil, true)
	if c := pixel(decodePNG(t, sr.PNG), 210, 210); !isColor(c, 0, 0, 0) {
		t.Errorf("shadow pixel: got %v, want black", c)
	}
}

func TestPNGScale(t *testing.T) {
	d := deck(rect("r", 0, 0, 640, 360, "#FF0000"))
	for _, c := range []struct {
		scale float64
		w, h  int
	}{{0.5, 640, 360}, {2, 2560, 1440}} {
		res, err := sharedPool(t).Render(context.Background(), d, nil, Request{Scale: c.scale, Images: true})
		if err != nil {
			t.Fatal(err)
		}
		img := decodePNG(t, res.Slides[0].PNG)
		if b := img.Bounds(); b.Dx() != c.w || b.Dy() != c.h {
			t.Errorf("scale %g: %v, want %dx%d", c.scale, b, c.w, c.h)
		}
		// The red quarter scales with the picture.
		if px := pixel(img, c.w/4, c.h/4); !isColor(px, 255, 0, 0) {
			t.Errorf("scale %g: top-left quarter %v, want red", c.scale, px)
		}
		if px := pixel(img, c.w*3/4, c.h*3/4); !isColor(px, 255, 255, 255) {
			t.Errorf("scale %g: bottom-right quarter %v, want white", c.scale, px)
		}
	}
}
