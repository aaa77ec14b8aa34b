package render

import (
	"fmt"
	"math"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// presetPath draws a PresentationML preset geometry (a:prstGeom) in a w x h
// box with the preset's default adjust values (ECMA-376 Part 1, §20.1.10.56
// and presetShapeDefinitions.xml), for shapes the importer did not turn
// into vector paths. ok is false for presets drawn as boxes (rect, ellipse,
// roundRect: CSS does those) and for presets we do not know, which fall
// back to their box.
func presetPath(preset string, w, h float64) (string, bool) {
	ss := math.Min(w, h)
	poly := func(pts ...float64) string { return scenegraph.PolygonPath(3, pts...) }
	switch preset {
	case "triangle":
		return poly(w/2, 0, w, h, 0, h), true
	case "rtTriangle":
		return poly(0, 0, w, h, 0, h), true
	case "diamond", "flowChartDecision":
		return poly(w/2, 0, w, h/2, w/2, h, 0, h/2), true
	case "parallelogram", "flowChartInputOutput":
		x := ss * 0.25
		return poly(x, 0, w, 0, w-x, h, 0, h), true
	case "trapezoid":
		x := ss * 0.25
		return poly(0, h, x, 0, w-x, 0, w, h), true
	case "pentagon":
		return poly(w/2, 0, w, 0.3820*h, 0.8090*w, h, 0.1910*w, h, 0, 0.3820*h), true
	case "hexagon":
		x := ss * 0.25
		return poly(x, 0, w-x, 0, w, h/2, w-x, h, x, h, 0, h/2), true
	case "octagon":
		x := ss * 0.29289
		return poly(x, 0, w-x, 0, w, x, w, h-x, w-x, h, x, h, 0, h-x, 0, x), true
	case "homePlate":
		x := w - ss*0.5
		return poly(0, 0, x, 0, w, h/2, x, h, 0, h), true
	case "chevron":
		x := ss * 0.5
		return poly(0, 0, w-x, 0, w, h/2, w-x, h, 0, h, x, h/2), true
	case "rightArrow":
		x, y1, y2 := w-ss*0.5, h*0.25, h*0.75
		return poly(0, y1, x, y1, x, 0, w, h/2, x, h, x, y2, 0, y2), true
	case "leftArrow":
		x, y1, y2 := ss*0.5, h*0.25, h*0.75
		return poly(w, y1, x, y1, x, 0, 0, h/2, x, h, x, y2, w, y2), true
	case "downArrow":
		y, x1, x2 := h-ss*0.5, w*0.25, w*0.75
		return poly(x1, 0, x2, 0, x2, y, w, y, w/2, h, 0, y, x1, y), true
	case "upArrow":
		y, x1, x2 := ss*0.5, w*0.25, w*0.75
		return poly(x1, h, x2, h, x2, y, w, y, w/2, 0, 0, y, x1, y), true
	case "frame":
		// A border of width adj1 (default 12.5% of the shorter side): the
		// outer edge clockwise, the inner edge counter-clockwise, so the
		// nonzero rule leaves the middle open.
		x := ss * 0.125
		return poly(0, 0, w, 0, w, h, 0, h) + " " + poly(x, x, x, h-x, w-x, h-x, w-x, x), true
	case "plus", "mathPlus":
		x := ss * 0.25
		return poly(x, 0, w-x, 0, w-x, x, w, x, w, h-x, w-x, h-x, w-x, h, x, h, x, h-x, 0, h-x, 0, x, x, x), true
	case "star5":
		var pts []float64
		for i := 0; i < 10; i++ {
			r := 0.5
			if i%2 == 1 {
				r = 0.5 * 0.382
			}
			a := -math.Pi/2 + float64(i)*math.Pi/5
			pts = append(pts, w/2+r*w*math.Cos(a), h/2+r*h*math.Sin(a))
		}
		return poly(pts...), true
	case "teardrop":
		return fmt.Sprintf("M0 %[2]s A%[1]s %[2]s 0 0 1 %[1]s 0 L%[3]s 0 L%[3]s %[2]s A%[1]s %[2]s 0 0 1 %[1]s %[4]s A%[1]s %[2]s 0 0 1 0 %[2]s Z",
			trimFloat(w/2), trimFloat(h/2), trimFloat(w), trimFloat(h)), true
	case "pie":
		// Default angles: from 0° to 270° clockwise (adj1 0, adj2 16200000).
		cx, cy := w/2, h/2
		return fmt.Sprintf("M%s %s L%s %s A%s %s 0 1 1 %s %s Z", trimFloat(cx), trimFloat(cy), trimFloat(w), trimFloat(cy),
			trimFloat(w/2), trimFloat(h/2), trimFloat(cx), trimFloat(0)), true
	case "wedgeRectCallout":
		// Tail tip at (-20.833%, +62.5%) of the size from the centre.
		tx, ty := w/2-0.20833*w, h/2+0.625*h
		return poly(0, 0, w, 0, w, h, w*7/12, h, tx, ty, w*3/12, h, 0, h), true
	case "flowChartTerminator":
		r := h / 2
		return fmt.Sprintf("M%s 0 L%s 0 A%s %s 0 0 1 %s %s L%s %s A%s %s 0 0 1 %s 0 Z", trimFloat(r), trimFloat(w-r), trimFloat(r), trimFloat(r),
			trimFloat(w-r), trimFloat(h), trimFloat(r), trimFloat(h), trimFloat(r), trimFloat(r), trimFloat(r)), true
	}
	return "", false
}

// shapePaths returns the node's vector geometry: its own paths, or its
// preset drawn at its size.
func shapePaths(n *scenegraph.Node) []scenegraph.VectorPath {
	if len(n.Paths) > 0 {
		return n.Paths
	}
	if n.Preset == "" || n.Type == scenegraph.TypeLine || n.Type == scenegraph.TypeConnector || n.Type == scenegraph.TypeImage {
		return nil
	}
	if d, ok := presetPath(n.Preset, math.Max(n.Size.X, 0), math.Max(n.Size.Y, 0)); ok {
		return []scenegraph.VectorPath{{Path: d}}
	}
	return nil
}
