package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// safePath keeps only SVG path-data characters (commands, numbers,
// separators); anything else makes the path unusable.
func safePath(d string) (string, bool) {
	for _, r := range d {
		if !strings.ContainsRune("MmLlHhVvCcSsQqTtAaZz0123456789.,-+eE \t\n\r", r) {
			return "", false
		}
	}
	return d, true
}

// strokeAttrs returns SVG stroke attributes of the node's first stroke.
func strokeAttrs(n *scenegraph.Node) string {
	c, ok := firstColor(n.Strokes)
	if !ok || n.StrokeWeight <= 0 {
		return ` stroke="none"`
	}
	s := fmt.Sprintf(` stroke="%s" stroke-width="%s"`, c, trimFloat(n.StrokeWeight))
	if len(n.StrokeDashes) > 0 {
		parts := make([]string, len(n.StrokeDashes))
		for i, v := range n.StrokeDashes {
			parts[i] = trimFloat(math.Abs(v))
		}
		s += ` stroke-dasharray="` + strings.Join(parts, " ") + `"`
	}
	return s
}

// svgFill returns the SVG fill of the node's first visible non-image fill
// (gradients drawn as their mean colour).
func svgFill(n *scenegraph.Node) string {
	if c, ok := firstColor(n.Fills); ok {
		return c
	}
	return "none"
}

// vector draws VECTOR geometry as inline SVG in the node's local px space.
func (b *builder) vector(n *scenegraph.Node) {
	paths := shapePaths(n)
	if len(paths) == 0 {
		return
	}
	w, h := math.Max(n.Size.X, 1), math.Max(n.Size.Y, 1)
	b.w(fmt.Sprintf(`<svg class="vl" width="%s" height="%s" viewBox="0 0 %s %s" overflow="visible">`,
		trimFloat(w), trimFloat(h), trimFloat(w), trimFloat(h)))
	fill := svgFill(n)
	for _, p := range paths {
		d, ok := safePath(p.Path)
		if !ok {
			b.errorf(n, "vector path has characters outside SVG path syntax; skipped")
			continue
		}
		rule := "nonzero"
		if p.WindingRule == "EVENODD" {
			rule = "evenodd"
		}
		b.w(fmt.Sprintf(`<path d="%s" fill="%s" fill-rule="%s"%s/>`, attr(d), fill, rule, strokeAttrs(n)))
	}
	b.w(`</svg>`)
}

// connector draws LINE and CONNECTOR nodes. Without endpoints the line runs
// from the box's top-left to its bottom-right corner in local space (a
// DrawingML cxnSp; flips live in the transform). With endpoints, each end is
// a free position or the magnet point of the node it attaches to, computed
// from the scene graph's static transforms, drawn in the parent's space.
func (b *builder) connector(n, parent *scenegraph.Node) {
	x0, y0, x1, y1 := 0.0, 0.0, n.Size.X, n.Size.Y
	local := true
	if n.Connector != nil && parent != nil {
		p0, ok0 := b.endpoint(n.Connector.Start, parent)
		p1, ok1 := b.endpoint(n.Connector.End, parent)
		if ok0 && ok1 {
			// Express the parent-space ends in the node's local space (the
			// div is placed and rotated by the node's transform).
			if inv, ok := invert(n.Transform); ok {
				q0, q1 := inv.Apply(p0), inv.Apply(p1)
				x0, y0, x1, y1 = q0.X, q0.Y, q1.X, q1.Y
				local = false
			}
		}
	}
	_ = local
	c, ok := firstColor(n.Strokes)
	if !ok {
		c = "rgba(0,0,0,1)"
	}
	sw := n.StrokeWeight
	if sw <= 0 {
		sw = 1
	}
	lineType := ""
	startCap, endCap := "", ""
	if n.Connector != nil {
		lineType, startCap, endCap = n.Connector.LineType, n.Connector.StartCap, n.Connector.EndCap
	}
	if lineType == "" || lineType == "STRAIGHT" {
		// A PPTX bent or curved connector preset keeps its shape.
		switch {
		case strings.HasPrefix(n.Preset, "bentConnector"):
			lineType = "ELBOWED"
		case strings.HasPrefix(n.Preset, "curvedConnector"):
			lineType = "CURVED"
		}
	}
	var d string
	switch lineType {
	case "ELBOWED":
		mx := (x0 + x1) / 2
		d = fmt.Sprintf("M%s %s H%s V%s H%s", trimFloat(x0), trimFloat(y0), trimFloat(mx), trimFloat(y1), trimFloat(x1))
	case "CURVED":
		mx := (x0 + x1) / 2
		d = fmt.Sprintf("M%s %s C%s %s %s %s %s %s", trimFloat(x0), trimFloat(y0), trimFloat(mx), trimFloat(y0), trimFloat(mx), trimFloat(y1), trimFloat(x1), trimFloat(y1))
	default:
		d = fmt.Sprintf("M%s %s L%s %s", trimFloat(x0), trimFloat(y0), trimFloat(x1), trimFloat(y1))
	}
	id := "m" + fmt.Sprintf("%x", hashString(n.ID))
	b.w(`<svg class="vl" width="1" height="1" overflow="visible" style="overflow:visible">`)
	markers := ""
	mk := func(kind, name string, start bool) string {
		if kind == "" || kind == "NONE" {
			return ""
		}
		orient := "auto"
		if start {
			orient = "auto-start-reverse"
		}
		shape := `<path d="M0 0 L10 5 L0 10 z" fill="` + c + `"/>`
		switch kind {
		case "ARROW_LINES":
			shape = `<path d="M0 0 L10 5 L0 10" fill="none" stroke="` + c + `" stroke-width="1.5"/>`
		case "CIRCLE_FILLED":
			shape = `<circle cx="5" cy="5" r="4" fill="` + c + `"/>`
		}
		markers += fmt.Sprintf(`<marker id="%s" viewBox="0 0 10 10" refX="%s" refY="5" markerWidth="5" markerHeight="5" orient="%s">%s</marker>`,
			id+name, map[bool]string{true: "0", false: "10"}[start && kind != "CIRCLE_FILLED"], orient, shape)
		return fmt.Sprintf(` marker-%s="url(#%s)"`, map[bool]string{true: "start", false: "end"}[start], id+name)
	}
	ms := mk(startCap, "s", true)
	me := mk(endCap, "e", false)
	if markers != "" {
		b.w("<defs>" + markers + "</defs>")
	}
	dash := ""
	if len(n.StrokeDashes) > 0 {
		parts := make([]string, len(n.StrokeDashes))
		for i, v := range n.StrokeDashes {
			parts[i] = trimFloat(math.Abs(v))
		}
		dash = ` stroke-dasharray="` + strings.Join(parts, " ") + `"`
	}
	b.w(fmt.Sprintf(`<path d="%s" fill="none" stroke="%s" stroke-width="%s"%s%s%s/></svg>`, d, c, trimFloat(sw), dash, ms, me))
}

func hashString(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// endpoint resolves a connector end into the parent's space.
func (b *builder) endpoint(e scenegraph.Endpoint, parent *scenegraph.Node) (scenegraph.Vector, bool) {
	if e.NodeID == "" {
		if e.Position != nil {
			return *e.Position, true
		}
		return scenegraph.Vector{}, false
	}
	t, ok := b.nodes[e.NodeID]
	if !ok {
		return scenegraph.Vector{}, false
	}
	abs := b.abs[e.NodeID]
	r := abs.Bounds(t.Size)
	var p scenegraph.Vector
	switch e.Magnet {
	case "TOP":
		p = scenegraph.Vector{X: r.X + r.Width/2, Y: r.Y}
	case "BOTTOM":
		p = scenegraph.Vector{X: r.X + r.Width/2, Y: r.Bottom()}
	case "LEFT":
		p = scenegraph.Vector{X: r.X, Y: r.Y + r.Height/2}
	case "RIGHT":
		p = scenegraph.Vector{X: r.Right(), Y: r.Y + r.Height/2}
	default:
		p = scenegraph.Vector{X: r.X + r.Width/2, Y: r.Y + r.Height/2}
	}
	pa := b.abs[parent.ID]
	return scenegraph.Vector{X: p.X - pa.X(), Y: p.Y - pa.Y()}, true
}

// math writes the MATH node's typesetting target; the browser fills it
// with MathJax SVG output (or the escaped source and an error), in display
// or inline style as Math.Display says.
func (b *builder) math(n *scenegraph.Node) {
	if n.Math == nil {
		b.errorf(n, "MATH node without math.latex")
		return
	}
	size := n.Math.FontSize
	if size <= 0 {
		size = 24
	}
	col := "rgba(0,0,0,1)"
	if n.Math.Color != nil {
		col = cssColor(*n.Math.Color, 1)
	}
	// data-display selects MathJax's display style (Math.Display, LaTeX
	// \[...\]); without it the formula is typeset inline style ($...$).
	display := ""
	if n.Math.Display {
		display = ` data-display="1"`
	}
	b.w(fmt.Sprintf(`<div class="mx"%s style="font-size:%s;color:%s"></div>`, display, px(size), col))
}

// invert returns the inverse of an affine transform, ok false when it is
// singular.
func invert(t scenegraph.Transform) (scenegraph.Transform, bool) {
	if t.IsZero() {
		t = scenegraph.Identity
	}
	a, c, e := t[0][0], t[0][1], t[0][2]
	b, d, f := t[1][0], t[1][1], t[1][2]
	det := a*d - b*c
	if math.Abs(det) < 1e-12 {
		return scenegraph.Transform{}, false
	}
	ia, ic := d/det, -c/det
	ib, id := -b/det, a/det
	return scenegraph.Transform{{ia, ic, -(ia*e + ic*f)}, {ib, id, -(ib*e + id*f)}}, true
}
