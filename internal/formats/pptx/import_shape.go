package pptx

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"path"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// shapeCtx imports the shapes of one slide.
type shapeCtx struct {
	im    *importer
	si    *slideInfo
	part  string
	cc    *colorCtx
	ids   map[string]int // cNvPr id -> times seen
	maxID int
	// slideNum, when > 0, replaces the text of slide number fields
	// (a:fld type="slidenum"): set for layout and master decorations,
	// whose cached text is the "‹#›" placeholder.
	slideNum int
	// slideNo is the 1-based position of the slide the shapes are drawn
	// on, for warnings.
	slideNo int
}

// tree imports the shape elements of a p:spTree or p:grpSp in z-order
// (back to front). Elements ACE does not model (p:contentPart, an
// mc:AlternateContent that is not an equation, ...) are skipped here and
// kept in place by export.
func (c *shapeCtx) tree(container *xnode, m emuMap, slideID string) []*sg.Node {
	var out []*sg.Node
	for _, e := range container.elems() {
		var n *sg.Node
		switch {
		case e.is(nsP, "sp"):
			n = c.sp(e, m, slideID)
		case e.is(nsP, "pic"):
			n = c.pic(e, m, slideID)
		case e.is(nsP, "grpSp"):
			n = c.group(e, m, slideID)
		case e.is(nsP, "graphicFrame"):
			n = c.graphicFrame(e, m, slideID)
		case e.is(nsP, "cxnSp"):
			n = c.connector(e, m, slideID)
		case e.is(nsMC, "AlternateContent"):
			if n = c.mathShape(e, m, slideID); n == nil {
				c.im.warn(c.part, "mc:AlternateContent in the shape tree kept as is, not modelled")
			}
		case e.local == "nvGrpSpPr" || e.local == "grpSpPr" || e.local == "extLst":
		default:
			c.im.warn(c.part, "element <%s> in the shape tree kept as is, not modelled", qname(e.prefix, e.local))
		}
		if n != nil {
			c.im.shapes[n.ID].parent = container
			out = append(out, n)
		}
	}
	return out
}

// base fills the fields every shape kind shares: id, name, alt text,
// visibility, hyperlink, placement.
func (c *shapeCtx) base(e *xnode, typ sg.NodeType, slideID, kind string, m emuMap) *sg.Node {
	nv := cNvPr(e)
	sid := nv.av("id")
	if v, err := strconv.Atoi(sid); err == nil && v > c.maxID {
		c.maxID = v
	}
	c.ids[sid]++
	id := slideID + "/" + sid
	if k := c.ids[sid]; k > 1 {
		id += "#" + strconv.Itoa(k)
	}
	n := &sg.Node{ID: id, Type: typ, Name: nv.av("name"), AltText: nv.av("descr"), Transform: sg.Identity,
		Source: &sg.Source{Format: "pptx", Part: c.part, ShapeID: sid}}
	if nv.av("hidden") == "1" || nv.av("hidden") == "true" {
		f := false
		n.Visible = &f
	}
	if hl := nv.child(nsA, "hlinkClick"); hl != nil {
		n.Link = c.link(hl)
	}
	c.im.shapes[id] = &shapeInfo{elem: e, node: n, slide: c.si, m: m, kind: kind}
	return n
}

// link resolves a:hlinkClick: an external URL (recorded, never fetched) or a
// jump to another slide (resolved to its id after all slides are read).
func (c *shapeCtx) link(hl *xnode) *sg.Link {
	rid := hl.attrNS(nsR, "id")
	if rid == "" {
		return nil
	}
	r, ok := relByID(c.si.rels, rid)
	if !ok {
		return nil
	}
	if r.External {
		return &sg.Link{URL: r.Target}
	}
	if r.Type == relSlide {
		return &sg.Link{NodeID: r.Target}
	}
	return nil
}

// xfrm reads an a:xfrm (or p:xfrm) into the node's transform and size, and
// records the exact EMU.
func place(n *sg.Node, x *xnode, m emuMap) {
	off, ext := x.child(nsA, "off"), x.child(nsA, "ext")
	e := &sg.EMURect{X: inum(off.av("x")), Y: inum(off.av("y")), CX: inum(ext.av("cx")), CY: inum(ext.av("cy"))}
	if e.CX < 0 {
		e.CX = 0
	}
	if e.CY < 0 {
		e.CY = 0
	}
	n.Source.EMU = e
	w, h := m.w(e.CX), m.h(e.CY)
	n.Size = sg.Vector{X: w, Y: h}
	rot := num(x.av("rot")) / 60000
	fh, fv := x.av("flipH") == "1" || x.av("flipH") == "true", x.av("flipV") == "1" || x.av("flipV") == "true"
	n.Transform = boxTransform(m.x(e.X), m.y(e.Y), w, h, rot, fh, fv)
}

// boxTransform builds the relativeTransform of a box at (x, y) of size w x h
// rotated clockwise by rot degrees about its centre and flipped, as
// DrawingML draws it (ECMA-376 §20.1.7.6).
func boxTransform(x, y, w, h, rot float64, flipH, flipV bool) sg.Transform {
	if rot == 0 && !flipH && !flipV {
		return sg.Translate(x, y)
	}
	rad := rot * math.Pi / 180
	cos, sin := math.Cos(rad), math.Sin(rad)
	fx, fy := 1.0, 1.0
	if flipH {
		fx = -1
	}
	if flipV {
		fy = -1
	}
	a, b, cc, d := cos*fx, sin*fx, -sin*fy, cos*fy
	cx, cy := x+w/2, y+h/2
	tx := cx - (a*w/2 + cc*h/2)
	ty := cy - (b*w/2 + d*h/2)
	r := func(v float64) float64 { return math.Round(v*1e6) / 1e6 }
	return sg.Transform{{r(a), r(cc), r(tx)}, {r(b), r(d), r(ty)}}
}

// boxOf inverts boxTransform: offset, rotation and flip of a node in its
// parent's px space (a negative determinant is written as flipH).
func boxOf(t sg.Transform, sz sg.Vector) (x, y, rot float64, flipH bool) {
	a, b, c, d := t[0][0], t[1][0], t[0][1], t[1][1]
	if a*d-b*c < 0 {
		flipH = true
		a, b = -a, -b
	}
	rot = math.Atan2(b, a) * 180 / math.Pi
	if flipH {
		a, b = -a, -b
	}
	cx := t[0][2] + a*sz.X/2 + c*sz.Y/2
	cy := t[1][2] + b*sz.X/2 + d*sz.Y/2
	return cx - sz.X/2, cy - sz.Y/2, rot, flipH
}

// inheritedXfrm finds the geometry of a placeholder that omits its own:
// the layout's matching placeholder, else the master's.
func (c *shapeCtx) inheritedXfrm(e *xnode) *xnode {
	ph := phOf(e)
	if ph == nil {
		return nil
	}
	if l := matchPlaceholder(c.si.lay.phs, ph, false); l != nil {
		if x := l.path(nsP, "spPr").child(nsA, "xfrm"); x != nil {
			return x
		}
		if m := matchPlaceholder(c.si.lay.m.phs, phOf(l), true); m != nil {
			if x := m.path(nsP, "spPr").child(nsA, "xfrm"); x != nil {
				return x
			}
		}
	}
	if m := matchPlaceholder(c.si.lay.m.phs, ph, true); m != nil {
		return m.path(nsP, "spPr").child(nsA, "xfrm")
	}
	return nil
}

// inheritedShape is a layout or master placeholder a slide shape inherits
// from, with the part that holds it (for its relationships).
type inheritedShape struct {
	el   *xnode
	part string
}

// inheritedPlaceholders returns the layout placeholder a slide placeholder
// matches and the master placeholder that one matches, nearest first
// (ECMA-376 §19.3.1.36: properties a placeholder omits come from its
// layout, then its master, matched by idx and type). Empty for a shape
// that is not a placeholder or for a layout or master shape itself.
func (c *shapeCtx) inheritedPlaceholders(e *xnode) []inheritedShape {
	ph := phOf(e)
	if ph == nil || c.si.lay == nil || c.part != c.si.part {
		return nil
	}
	var out []inheritedShape
	m := c.si.lay.m
	if l := matchPlaceholder(c.si.lay.phs, ph, false); l != nil {
		out = append(out, inheritedShape{l, c.si.lay.part})
		if mp := matchPlaceholder(m.phs, phOf(l), true); mp != nil {
			out = append(out, inheritedShape{mp, m.part})
		}
	} else if mp := matchPlaceholder(m.phs, ph, true); mp != nil {
		out = append(out, inheritedShape{mp, m.part})
	}
	return out
}

func (c *shapeCtx) placeholder(e *xnode) *sg.Placeholder {
	ph := phOf(e)
	if ph == nil {
		return nil
	}
	return &sg.Placeholder{Role: phType(ph), Index: int(inum(ph.av("idx")))}
}

func (c *shapeCtx) sp(e *xnode, m emuMap, slideID string) *sg.Node {
	spPr := e.child(nsP, "spPr")
	geom := spPr.child(nsA, "prstGeom")
	cust := spPr.child(nsA, "custGeom")
	preset := geom.av("prst")
	typ := sg.TypeRectangle
	switch {
	case cust != nil:
		typ = sg.TypeVector
	case preset == "ellipse":
		typ = sg.TypeEllipse
	case preset == "line" || preset == "straightConnector1":
		typ = sg.TypeLine
	case preset == "" || preset == "rect" || preset == "roundRect" || preset == "snip1Rect" || preset == "round1Rect":
	default:
		typ = sg.TypeVector
	}
	n := c.base(e, typ, slideID, "sp", m)
	n.Preset = preset
	n.Placeholder = c.placeholder(e)
	x := spPr.child(nsA, "xfrm")
	if x == nil {
		x = c.inheritedXfrm(e)
	}
	if x != nil {
		place(n, x, m)
	}
	// Style references (p:style) give defaults for fill, line and text colour.
	style := e.child(nsP, "style")
	fills, explicit := c.im.fill(spPr, c.part, c.cc)
	ln := spPr.child(nsA, "ln")
	// A placeholder without its own fill or outline shows its layout's,
	// else its master's (the title band of a layout is often there).
	for _, inh := range c.inheritedPlaceholders(e) {
		ipr := inh.el.child(nsP, "spPr")
		if !explicit {
			fills, explicit = c.im.fill(ipr, inh.part, c.cc)
		}
		if ln == nil {
			ln = ipr.child(nsA, "ln")
		}
		if style == nil {
			style = inh.el.child(nsP, "style")
		}
	}
	if !explicit {
		fills = c.styleFill(style)
	}
	n.Fills = fills
	c.line(n, ln, style)
	c.effects(n, spPr.child(nsA, "effectLst"))
	if preset == "roundRect" {
		adj := 16667.0
		for _, gd := range geom.path(nsA, "avLst").all(nsA, "gd") {
			if gd.av("name") == "adj" {
				adj = num(strings.TrimPrefix(gd.av("fmla"), "val "))
			}
		}
		n.CornerRadius = round6(math.Min(n.Size.X, n.Size.Y) * adj / 100000)
	}
	if cust != nil {
		n.Paths = customPaths(cust, n.Size)
	} else if geom != nil {
		n.Paths = adjustedPresetPaths(geom, n.Size)
	}
	if tb := e.child(nsP, "txBody"); tb != nil && typ != sg.TypeLine {
		tc := c.textCtx(e, style)
		tc.read(tb, &n.TextContent)
		if n.Characters == "" && n.Placeholder == nil && typ != sg.TypeRectangle {
			n.TextContent = sg.TextContent{}
		}
		if typ == sg.TypeRectangle && (preset == "" || preset == "rect") && len(visiblePaints(n.Fills)) == 0 && len(visiblePaints(n.Strokes)) == 0 && n.Characters != "" {
			n.Type = sg.TypeText
		}
		if n.Characters == "" && n.Type == sg.TypeRectangle && n.Placeholder == nil {
			n.TextContent = sg.TextContent{}
		}
	}
	if typ == sg.TypeLine {
		n.Connector = lineEnds(n, spPr.child(nsA, "ln"))
		n.Fills = nil
	}
	return n
}

func visiblePaints(ps []sg.Paint) []sg.Paint {
	var out []sg.Paint
	for _, p := range ps {
		if p.IsVisible() {
			out = append(out, p)
		}
	}
	return out
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// styleFill resolves p:style/a:fillRef against the theme's fill styles.
func (c *shapeCtx) styleFill(style *xnode) []sg.Paint {
	ref := style.child(nsA, "fillRef")
	if ref == nil {
		return nil
	}
	idx := int(inum(ref.av("idx")))
	if idx == 0 {
		return nil
	}
	pc, _ := c.cc.colorChild(ref)
	sub := &colorCtx{th: c.cc.th, clrMap: c.cc.clrMap, phClr: &pc}
	var st *xnode
	if idx >= 1001 && idx-1001 < len(c.cc.th.bgs) {
		st = c.cc.th.bgs[idx-1001]
	} else if idx >= 1 && idx-1 < len(c.cc.th.fills) {
		st = c.cc.th.fills[idx-1]
	}
	if st == nil {
		return []sg.Paint{paintOf(pc)}
	}
	ps, _ := c.im.fill(&xnode{kind: kElem, kids: []*xnode{st}}, c.part, sub)
	return ps
}

// line reads a:ln (falling back to p:style/a:lnRef) into strokes.
func (c *shapeCtx) line(n *sg.Node, ln, style *xnode) {
	var themeLn *xnode
	var sub = c.cc
	if ref := style.child(nsA, "lnRef"); ref != nil {
		if idx := int(inum(ref.av("idx"))); idx >= 1 && idx-1 < len(c.cc.th.lines) {
			themeLn = c.cc.th.lines[idx-1]
			pc, _ := c.cc.colorChild(ref)
			sub = &colorCtx{th: c.cc.th, clrMap: c.cc.clrMap, phClr: &pc}
		}
	}
	w := int64(-1)
	if themeLn != nil {
		if v, ok := themeLn.attr("w"); ok {
			w = inum(v)
		}
		if ps, ok := c.im.fill(themeLn, c.part, sub); ok {
			n.Strokes = ps
		}
	}
	if ln != nil {
		if v, ok := ln.attr("w"); ok {
			w = inum(v)
		}
		if ps, ok := c.im.fill(ln, c.part, c.cc); ok {
			n.Strokes = ps
		}
		if d := ln.child(nsA, "prstDash"); d != nil {
			n.StrokeDashes = dashPattern(d.av("val"))
		}
	}
	if len(n.Strokes) == 0 {
		return
	}
	if w < 0 {
		w = 9525
	}
	n.StrokeWeight = round6(float64(w) / sg.EMUPerPx)
	n.StrokeAlign = "CENTER"
}

// dashPattern maps a:prstDash to dash lengths in multiples of the weight.
func dashPattern(v string) []float64 {
	switch v {
	case "dash", "sysDash":
		return []float64{4, 3}
	case "dot", "sysDot":
		return []float64{1, 1}
	case "dashDot", "sysDashDot":
		return []float64{4, 3, 1, 3}
	case "lgDash":
		return []float64{8, 3}
	case "lgDashDot":
		return []float64{8, 3, 1, 3}
	case "lgDashDotDot", "sysDashDotDot":
		return []float64{8, 3, 1, 3, 1, 3}
	}
	return nil
}

// effects reads a:outerShdw / a:innerShdw / a:softEdge-free blur.
func (c *shapeCtx) effects(n *sg.Node, lst *xnode) {
	for _, e := range lst.elems() {
		var typ string
		switch e.local {
		case "outerShdw":
			typ = sg.EffectDropShadow
		case "innerShdw":
			typ = sg.EffectInnerShadow
		case "blur":
			n.Effects = append(n.Effects, sg.Effect{Type: sg.EffectLayerBlur, Radius: round6(float64(inum(e.av("rad"))) / sg.EMUPerPx)})
			continue
		default:
			continue
		}
		pc, _ := c.cc.colorChild(e)
		col := pc.c
		dist := float64(inum(e.av("dist"))) / sg.EMUPerPx
		dir := num(e.av("dir")) / 60000 * math.Pi / 180
		n.Effects = append(n.Effects, sg.Effect{
			Type: typ, Radius: round6(float64(inum(e.av("blurRad"))) / sg.EMUPerPx), Color: &col,
			Offset: &sg.Vector{X: round6(dist * math.Cos(dir)), Y: round6(dist * math.Sin(dir))},
		})
	}
}

// lineEnds gives a LINE its endpoints in the parent's space and its caps.
func lineEnds(n *sg.Node, ln *xnode) *sg.Connector {
	a := n.Transform.Apply(sg.Vector{})
	b := n.Transform.Apply(n.Size)
	cap := func(e *xnode) string {
		switch e.av("type") {
		case "", "none":
			return ""
		case "oval":
			return "CIRCLE_FILLED"
		case "arrow":
			return "ARROW_LINES"
		}
		return "ARROW_EQUILATERAL"
	}
	return &sg.Connector{
		Start:    sg.Endpoint{Position: &sg.Vector{X: round6(a.X), Y: round6(a.Y)}},
		End:      sg.Endpoint{Position: &sg.Vector{X: round6(b.X), Y: round6(b.Y)}},
		LineType: "STRAIGHT",
		StartCap: cap(ln.child(nsA, "headEnd")),
		EndCap:   cap(ln.child(nsA, "tailEnd")),
	}
}

func (c *shapeCtx) connector(e *xnode, m emuMap, slideID string) *sg.Node {
	n := c.base(e, sg.TypeConnector, slideID, "cxnSp", m)
	spPr := e.child(nsP, "spPr")
	if x := spPr.child(nsA, "xfrm"); x != nil {
		place(n, x, m)
	}
	n.Preset = spPr.child(nsA, "prstGeom").av("prst")
	c.line(n, spPr.child(nsA, "ln"), e.child(nsP, "style"))
	n.Connector = lineEnds(n, spPr.child(nsA, "ln"))
	switch {
	case strings.HasPrefix(n.Preset, "bentConnector"):
		n.Connector.LineType = "ELBOWED"
	case strings.HasPrefix(n.Preset, "curvedConnector"):
		n.Connector.LineType = "CURVED"
	}
	cnv := e.path(nsP, "nvCxnSpPr", "cNvCxnSpPr")
	if st := cnv.child(nsA, "stCxn"); st != nil {
		n.Connector.Start.NodeID = slideID + "/" + st.av("id")
	}
	if en := cnv.child(nsA, "endCxn"); en != nil {
		n.Connector.End.NodeID = slideID + "/" + en.av("id")
	}
	return n
}

func (c *shapeCtx) pic(e *xnode, m emuMap, slideID string) *sg.Node {
	n := c.base(e, sg.TypeImage, slideID, "pic", m)
	n.Placeholder = c.placeholder(e)
	spPr := e.child(nsP, "spPr")
	x := spPr.child(nsA, "xfrm")
	if x == nil {
		x = c.inheritedXfrm(e)
	}
	if x != nil {
		place(n, x, m)
	}
	bf := e.child(nsP, "blipFill")
	p, bad := c.im.readBlip(bf, c.part)
	switch {
	case bad != nil && p.ImageRef != "":
		// Bytes kept but not drawable: the picture stays an image (export
		// and duplication carry its bytes) and is reported.
		n.Fills = []sg.Paint{p}
		c.unreadable(n, bad)
	case bad != nil:
		// A picture whose media is linked, outside the package or missing
		// keeps its frame.
		n.Type = sg.TypeRectangle
		c.unreadable(n, bad)
	default:
		n.Fills = []sg.Paint{p}
	}
	c.line(n, spPr.child(nsA, "ln"), e.child(nsP, "style"))
	c.effects(n, spPr.child(nsA, "effectLst"))
	if geom := spPr.child(nsA, "prstGeom"); geom != nil && geom.av("prst") != "rect" {
		n.Preset = geom.av("prst")
	}
	return n
}

func (c *shapeCtx) group(e *xnode, m emuMap, slideID string) *sg.Node {
	n := c.base(e, sg.TypeGroup, slideID, "grpSp", m)
	gp := e.child(nsP, "grpSpPr")
	x := gp.child(nsA, "xfrm")
	child := m
	if x != nil {
		place(n, x, m)
		ext, chOff, chExt := x.child(nsA, "ext"), x.child(nsA, "chOff"), x.child(nsA, "chExt")
		child = emuMap{offX: inum(chOff.av("x")), offY: inum(chOff.av("y")), scaleX: m.scaleX, scaleY: m.scaleY}
		if cx := inum(chExt.av("cx")); cx > 0 {
			child.scaleX = m.scaleX * float64(inum(ext.av("cx"))) / float64(cx)
		}
		if cy := inum(chExt.av("cy")); cy > 0 {
			child.scaleY = m.scaleY * float64(inum(ext.av("cy"))) / float64(cy)
		}
	}
	if ps, ok := c.im.fill(gp, c.part, c.cc); ok && len(ps) > 0 {
		c.im.warn(c.part, "group fill of %q not modelled (groups carry no fills)", n.Name)
	}
	c.im.shapes[n.ID].childMap = child
	n.Children = c.tree(e, child, slideID)
	return n
}

func (c *shapeCtx) graphicFrame(e *xnode, m emuMap, slideID string) *sg.Node {
	gd := e.path(nsA, "graphic", "graphicData")
	uri := gd.av("uri")
	typ := sg.TypeFrame
	switch {
	case uri == "http://schemas.openxmlformats.org/drawingml/2006/table":
		typ = sg.TypeTable
	case uri == nsC:
		typ = sg.TypeChart
	}
	n := c.base(e, typ, slideID, "graphicFrame", m)
	n.Placeholder = c.placeholder(e)
	if x := e.child(nsP, "xfrm"); x != nil {
		place(n, x, m)
	}
	switch typ {
	case sg.TypeTable:
		c.table(n, gd.child(nsA, "tbl"))
	case sg.TypeChart:
		rid := gd.child(nsC, "chart").attrNS(nsR, "id")
		r, ok := relByID(c.si.rels, rid)
		if ok && c.im.p.has(r.Target) {
			ch, err := c.im.chart(r.Target, c.cc)
			if err == nil {
				n.Chart = ch
				break
			}
			c.im.warn(r.Target, "chart unreadable (%v); imported as an empty frame", err)
		} else {
			c.im.warn(c.part, "chart %q: chart part %q not found; imported as an empty frame", n.Name, rid)
		}
		n.Type = sg.TypeFrame
	default:
		kind := path.Base(uri)
		c.im.warn(c.part, "graphic frame %q (%s) is not modelled; imported as an empty FRAME and written back unchanged", n.Name, kind)
	}
	return n
}

// fill reads the fill choice among el's children (a:noFill, a:solidFill,
// a:gradFill, a:blipFill, a:pattFill, a:grpFill). explicit reports whether
// any fill element was present (no element means "inherit from style").
func (im *importer) fill(el *xnode, part string, cc *colorCtx) (paints []sg.Paint, explicit bool) {
	for _, k := range el.elems() {
		switch k.local {
		case "noFill":
			return []sg.Paint{}, true
		case "solidFill":
			pc, ok := cc.colorChild(k)
			if !ok {
				return []sg.Paint{}, true
			}
			return []sg.Paint{paintOf(pc)}, true
		case "gradFill":
			return []sg.Paint{gradient(k, cc)}, true
		case "blipFill":
			if p, ok := im.blip(k, part); ok {
				return []sg.Paint{p}, true
			}
			return []sg.Paint{}, true
		case "pattFill":
			pc, ok := cc.colorChild(k.child(nsA, "fgClr"))
			if !ok {
				pc = paintColor{c: sg.Color{A: 1}}
			}
			im.warn(part, "pattern fill approximated by its foreground colour")
			return []sg.Paint{paintOf(pc)}, true
		case "grpFill":
			return []sg.Paint{}, true
		}
	}
	return nil, false
}

func paintOf(pc paintColor) sg.Paint {
	c := pc.c
	p := sg.Paint{Type: sg.PaintSolid, Color: &c, ThemeColor: pc.theme}
	return p
}

func gradient(g *xnode, cc *colorCtx) sg.Paint {
	p := sg.Paint{Type: sg.PaintGradientLinear}
	if g.child(nsA, "path") != nil {
		p.Type = sg.PaintGradientRadial
	}
	for _, gs := range g.path(nsA, "gsLst").all(nsA, "gs") {
		pc, _ := cc.colorChild(gs)
		p.GradientStops = append(p.GradientStops, sg.ColorStop{Position: clamp01(pct(gs.av("pos"))), Color: pc.c})
	}
	if lin := g.child(nsA, "lin"); lin != nil {
		p.GradientAngle = num(lin.av("ang")) / 60000
	}
	return p
}

// blip imports the picture of a blipFill as an asset and returns its paint.
func (im *importer) blip(bf *xnode, part string) (sg.Paint, bool) {
	p, bad := im.readBlip(bf, part)
	if bad != nil {
		im.warn(part, "picture %s: %s", bad.target, bad.reason)
	}
	return p, bad == nil
}

// blipProblem says why a blip could not be read: the relationship target
// (a part name, a path outside the package, or an external URL; empty
// when there is none) and the reason.
type blipProblem struct{ target, reason string }

// unreadable records picture n as an unreadable picture of the deck (see
// sg.UnreadablePicture) and as an import warning.
func (c *shapeCtx) unreadable(n *sg.Node, bad *blipProblem) {
	u := sg.UnreadablePicture{Slide: c.slideNo, NodeID: n.ID, Name: n.Name, Part: c.part, Target: bad.target, Reason: bad.reason}
	src := c.im.deck.Source
	src.UnreadablePictures = append(src.UnreadablePictures, u)
	c.im.warn(c.part, "%s", u.String())
}

// readBlip reads the picture of an a:blipFill (ECMA-376 §20.1.8.14,
// a:blip §20.1.8.13). The problem is non-nil when the picture cannot be
// drawn; the paint then still holds the picture's bytes when they are in
// the package but their pixel header cannot be read. A relationship is
// only ever resolved inside the package: a target outside it (a
// "../../etc/passwd" or TargetMode="External") is reported, never read.
func (im *importer) readBlip(bf *xnode, part string) (sg.Paint, *blipProblem) {
	b := bf.child(nsA, "blip")
	if b == nil {
		return sg.Paint{}, &blipProblem{reason: "no a:blip in its a:blipFill"}
	}
	rels, _ := im.p.relsOf(part)
	rid := b.attrNS(nsR, "embed")
	if rid == "" {
		if l := b.attrNS(nsR, "link"); l != "" {
			r, _ := relByID(rels, l)
			return sg.Paint{}, &blipProblem{target: r.Target, reason: "linked (external) picture, recorded and not fetched"}
		}
		return sg.Paint{}, &blipProblem{reason: "a:blip has no r:embed"}
	}
	r, ok := relByID(rels, rid)
	switch {
	case !ok:
		return sg.Paint{}, &blipProblem{reason: fmt.Sprintf("relationship %s is not in %s's relationships", rid, part)}
	case r.External:
		return sg.Paint{}, &blipProblem{target: r.Target, reason: "relationship " + rid + " is external (TargetMode=External), not fetched"}
	case r.Target == ".." || strings.HasPrefix(r.Target, "../"):
		return sg.Paint{}, &blipProblem{target: r.Target, reason: "relationship " + rid + " points outside the package; nothing outside the package is read"}
	}
	ref, err := im.mediaRef(r.Target)
	var big *sg.PictureTooLargeError
	if errors.As(err, &big) {
		// Too large to hold or draw: the import fails, naming the part.
		if im.fatal == nil {
			im.fatal = fmt.Errorf("%s: %w", im.name, err)
		}
		return sg.Paint{}, &blipProblem{target: r.Target, reason: err.Error()}
	}
	if err != nil {
		return sg.Paint{}, &blipProblem{target: r.Target, reason: err.Error()}
	}
	p := sg.Paint{Type: sg.PaintImage, ImageRef: ref, ScaleMode: "CROP"}
	if sr := bf.child(nsA, "srcRect"); sr != nil {
		cr := &sg.Crop{Left: pct(sr.av("l")), Top: pct(sr.av("t")), Right: pct(sr.av("r")), Bottom: pct(sr.av("b"))}
		for _, v := range []*float64{&cr.Left, &cr.Top, &cr.Right, &cr.Bottom} {
			*v = math.Max(-1, math.Min(1, *v))
		}
		if *cr != (sg.Crop{}) {
			p.Crop = cr
		}
	}
	if bf.child(nsA, "tile") != nil {
		p.ScaleMode = "TILE"
	}
	for _, k := range b.elems() {
		if k.local == "alphaModFix" {
			// amt defaults to 100000, fully opaque (ECMA-376 §20.1.8.4):
			// Google Slides writes a bare <a:alphaModFix/>.
			if v, ok := k.attr("amt"); ok {
				o := clamp01(pct(v))
				p.Opacity = &o
			}
		}
	}
	if a := im.deck.Assets[ref]; a.Width == 0 && rasterMIME[a.MimeType] {
		return p, &blipProblem{target: r.Target, reason: "its " + a.MimeType + " pixel header cannot be read (damaged or not a picture)"}
	}
	return p, nil
}

// rasterMIME are the picture formats whose pixel size PictureSize reads
// from the header: one of these without a readable size cannot be drawn.
var rasterMIME = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/bmp": true, "image/webp": true}

func (im *importer) mediaRef(part string) (string, error) {
	if ref, ok := im.media[part]; ok {
		return ref, nil
	}
	// The picture bounds (sg.MaxPictureBytes, checked on the zip entry's
	// declared size before anything is decompressed, then on the real
	// size; sg.MaxPicturePixels on the header) come before any decoding.
	data, err := im.p.readUpTo(part, sg.MaxPictureBytes)
	var over *overLimitError
	if errors.As(err, &over) {
		return "", &sg.PictureTooLargeError{Name: part, Bytes: over.bytes}
	}
	if err != nil {
		return "", err
	}
	mime := mimeByExt[strings.ToLower(path.Ext(part))]
	if mime == "" {
		mime = http.DetectContentType(data)
	}
	w, h, err := sg.PictureSize(part, data)
	if err != nil {
		return "", err
	}
	ref := im.deck.AddAsset(im.blobs, data, mime, path.Base(part), w, h)
	im.media[part] = ref
	return ref, nil
}

var mimeByExt = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".bmp": "image/bmp", ".tif": "image/tiff", ".tiff": "image/tiff", ".svg": "image/svg+xml",
	".emf": "image/x-emf", ".wmf": "image/x-wmf", ".wdp": "image/vnd.ms-photo", ".webp": "image/webp",
	".mp4": "video/mp4", ".mp3": "audio/mpeg", ".wav": "audio/wav",
}

// extByMime is the inverse, for media written by export.
func extByMime(mime string) string {
	switch mime {
	case "image/jpeg":
		return ".jpeg"
	case "image/svg+xml":
		return ".svg"
	}
	for ext, m := range mimeByExt {
		if m == mime && ext != ".jpg" && ext != ".tif" {
			return ext
		}
	}
	return ".bin"
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
