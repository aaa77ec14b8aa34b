package render

import (
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
