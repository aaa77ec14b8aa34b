package pptx

import (
	"math"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// presetAdjDefaults are the default adjust values of the presets whose
// adjusted outline the importer draws itself (presetShapeDefinitions.xml,
// ECMA-376 Part 1 §20.1.10.56). The renderer draws every preset with its
// defaults, and the scene graph keeps no adjust values, so a shape that
// moves an adjust handle would otherwise render as the default outline.
var presetAdjDefaults = map[string]map[string]float64{
	"triangle":  {"adj": 50000},
	"homePlate": {"adj": 50000},
	"chevron":   {"adj": 50000},
	"pie":       {"adj1": 0, "adj2": 16200000},
	"frame":     {"adj1": 12500},
}

// adjustedPresetPaths returns the outline of a prstGeom whose a:avLst sets
// an adjust value other than its default, as SVG path data in the node's
// local px space (size w x h); nil for presets drawn with their defaults
// (the renderer draws those from Node.Preset) and presets not listed in
// presetAdjDefaults. Formulas follow presetShapeDefinitions.xml.
func adjustedPresetPaths(geom *xnode, size sg.Vector) []sg.VectorPath {
	defs, ok := presetAdjDefaults[geom.av("prst")]
	if !ok {
		return nil
	}
	adj := map[string]float64{}
	changed := false
	for k, v := range defs {
		adj[k] = v
	}
	for _, gd := range geom.path(nsA, "avLst").all(nsA, "gd") {
		name := gd.av("name")
		def, known := defs[name]
		f := strings.TrimSpace(gd.av("fmla"))
		if !known || !strings.HasPrefix(f, "val ") {
			continue
		}
		v := num(strings.TrimSpace(strings.TrimPrefix(f, "val ")))
		if v != def {
			adj[name], changed = v, true
		}
	}
	if !changed {
		return nil
	}
	w, h := size.X, size.Y
	ss := math.Min(w, h)
	if w <= 0 || h <= 0 {
		return nil
	}
	clamp := func(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }
	var d string
	switch geom.av("prst") {
	case "triangle":
		x := w * clamp(adj["adj"], 0, 100000) / 100000
		d = polyPath(x, 0, w, h, 0, h)
	case "homePlate":
		x := w - ss*clamp(adj["adj"], 0, 100000*w/ss)/100000
		d = polyPath(0, 0, x, 0, w, h/2, x, h, 0, h)
	case "chevron":
		x1 := ss * clamp(adj["adj"], 0, 100000*w/ss) / 100000
		x2 := w - x1
		d = polyPath(0, 0, x2, 0, w, h/2, x2, h, 0, h, x1, h/2)
	case "frame":
		// The border's width is adj1 (0 to 50000) of the shorter side;
		// the inner edge runs counter-clockwise so the middle stays open.
		x := ss * clamp(adj["adj1"], 0, 50000) / 100000
		d = polyPath(0, 0, w, 0, w, h, 0, h) + " " + polyPath(x, x, x, h-x, w-x, h-x, w-x, x)
	case "pie":
		// Angles in 60000ths of a degree, clockwise from the +x axis,
		// on the ellipse inscribed in the box.
		a1 := adj["adj1"] / 60000 * math.Pi / 180
		a2 := adj["adj2"] / 60000 * math.Pi / 180
		sweep := math.Mod(a2-a1+4*math.Pi, 2*math.Pi)
		if sweep == 0 {
			sweep = 2 * math.Pi
		}
		cx, cy, rx, ry := w/2, h/2, w/2, h/2
		x1, y1 := cx+rx*math.Cos(a1), cy+ry*math.Sin(a1)
		x2, y2 := cx+rx*math.Cos(a1+sweep), cy+ry*math.Sin(a1+sweep)
		large := "0"
		if sweep > math.Pi {
			large = "1"
		}
		d = "M" + pf(cx) + " " + pf(cy) + " L" + pf(x1) + " " + pf(y1) + " A" + pf(rx) + " " + pf(ry) + " 0 " + large + " 1 " + pf(x2) + " " + pf(y2) + " Z"
	}
	return []sg.VectorPath{{Path: d, WindingRule: "NONZERO"}}
}

// polyPath is the closed polygon through the points x0 y0 x1 y1 ...
func polyPath(pts ...float64) string { return sg.PolygonPath(6, pts...) }

func pf(v float64) string { return strconv.FormatFloat(round6(v), 'f', -1, 64) }
