package pptx

import (
	"math"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// customPaths converts a:custGeom paths (ECMA-376 §20.1.9.15) into SVG path
// data in the node's local px space. Guide-named coordinates (formulas) are
// not evaluated; they read as 0.
func customPaths(cust *xnode, size sg.Vector) []sg.VectorPath {
	var out []sg.VectorPath
	for _, p := range cust.path(nsA, "pathLst").all(nsA, "path") {
		w, h := num(p.av("w")), num(p.av("h"))
		sx, sy := 1.0/sg.EMUPerPx, 1.0/sg.EMUPerPx
		if w > 0 {
			sx = size.X / w
		}
		if h > 0 {
			sy = size.Y / h
		}
		var b strings.Builder
		var curX, curY float64
		pt := func(e *xnode) (float64, float64) {
			return num(e.av("x")) * sx, num(e.av("y")) * sy
		}
		f := func(v float64) string { return strconv.FormatFloat(round6(v), 'f', -1, 64) }
		for _, cmd := range p.elems() {
			pts := cmd.all(nsA, "pt")
			switch cmd.local {
			case "moveTo", "lnTo":
				if len(pts) == 0 {
					continue
				}
				x, y := pt(pts[0])
				op := "M"
				if cmd.local == "lnTo" {
					op = "L"
				}
				b.WriteString(op + f(x) + " " + f(y) + " ")
				curX, curY = x, y
			case "cubicBezTo":
				if len(pts) < 3 {
					continue
				}
				b.WriteString("C")
				for i, q := range pts[:3] {
					x, y := pt(q)
					if i > 0 {
						b.WriteString(" ")
					}
					b.WriteString(f(x) + " " + f(y))
					curX, curY = x, y
				}
				b.WriteString(" ")
			case "quadBezTo":
				if len(pts) < 2 {
					continue
				}
				x1, y1 := pt(pts[0])
				x2, y2 := pt(pts[1])
				b.WriteString("Q" + f(x1) + " " + f(y1) + " " + f(x2) + " " + f(y2) + " ")
				curX, curY = x2, y2
			case "arcTo":
				wr, hr := num(cmd.av("wR"))*sx, num(cmd.av("hR"))*sy
				st := num(cmd.av("stAng")) / 60000 * math.Pi / 180
				sw := num(cmd.av("swAng")) / 60000 * math.Pi / 180
				cx, cy := curX-wr*math.Cos(st), curY-hr*math.Sin(st)
				ex, ey := cx+wr*math.Cos(st+sw), cy+hr*math.Sin(st+sw)
				large, sweep := 0, 0
				if math.Abs(sw) > math.Pi {
					large = 1
				}
				if sw > 0 {
					sweep = 1
				}
				b.WriteString("A" + f(wr) + " " + f(hr) + " 0 " + strconv.Itoa(large) + " " + strconv.Itoa(sweep) + " " + f(ex) + " " + f(ey) + " ")
				curX, curY = ex, ey
			case "close":
				b.WriteString("Z ")
			}
		}
		d := strings.TrimSpace(b.String())
		if d != "" {
			out = append(out, sg.VectorPath{Path: d, WindingRule: "NONZERO"})
		}
	}
	return out
}
