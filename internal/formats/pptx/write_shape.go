package pptx

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// writer serializes scene-graph nodes as fresh PresentationML for one slide
// part. It hands out shape ids and relationships and records what it had to
// approximate.
type writer struct {
	deck   *sg.Deck
	part   string                                         // the slide part being written
	nextID func() int                                     // fresh cNvPr id
	rel    func(typ, target string, external bool) string // add a relationship, return its r:id
	media  func(ref string) (string, error)               // image asset -> r:id
	chart  func(n *sg.Node) (string, error)               // chart node -> r:id of a new chart part
	slideP func(slideID string) string                    // slide id -> part name ("" if unknown)
	warn   func(format string, args ...any)
}

// emu converts a px position in a container to EMU in its child space
// (inverse of emuMap.x / emuMap.y).
func (m emuMap) ex(px float64) int64 { return m.offX + int64(math.Round(px*sg.EMUPerPx/m.scaleX)) }
func (m emuMap) ey(px float64) int64 { return m.offY + int64(math.Round(px*sg.EMUPerPx/m.scaleY)) }
func (m emuMap) ew(px float64) int64 { return int64(math.Round(px * sg.EMUPerPx / m.scaleX)) }
func (m emuMap) eh(px float64) int64 { return int64(math.Round(px * sg.EMUPerPx / m.scaleY)) }

// xfrmXML writes a:xfrm (or p:xfrm for graphic frames) for a node.
func xfrmXML(prefix string, n *sg.Node, m emuMap, group bool) string {
	x, y, rot, flipH := boxOf(n.Transform, n.Size)
	var b strings.Builder
	b.WriteString("<" + prefix + ":xfrm")
	if r := int64(math.Round(rot * 60000)); r != 0 {
		r = ((r % 21600000) + 21600000) % 21600000
		b.WriteString(` rot="` + strconv.FormatInt(r, 10) + `"`)
	}
	if flipH {
		b.WriteString(` flipH="1"`)
	}
	ox, oy, cx, cy := m.ex(x), m.ey(y), m.ew(n.Size.X), m.eh(n.Size.Y)
	fmt.Fprintf(&b, `><a:off x="%d" y="%d"/><a:ext cx="%d" cy="%d"/>`, ox, oy, cx, cy)
	if group {
		fmt.Fprintf(&b, `<a:chOff x="%d" y="%d"/><a:chExt cx="%d" cy="%d"/>`, ox, oy, cx, cy)
	}
	b.WriteString("</" + prefix + ":xfrm>")
	return b.String()
}

// colorXML writes a colour choice: a:schemeClr when the paint keeps a theme
// reference that still resolves to its colour, else a:srgbClr; alpha as a
// transform.
func (w *writer) colorXML(c sg.Color, tc *sg.ThemeColor, opacity *float64) string {
	alpha := c.A
	if opacity != nil {
		alpha *= *opacity
	}
	alphaXML := ""
	if alpha < 0.99999 {
		alphaXML = fmt.Sprintf(`<a:alpha val="%d"/>`, int(math.Round(clamp01(alpha)*100000)))
	}
	if tc != nil && w.deck != nil {
		if base, ok := w.deck.Tokens.Colors[tc.Name]; ok {
			r := base
			var mods strings.Builder
			for _, m := range tc.Mods {
				r = applyMod(r, m.Op, m.Val)
				if m.Op == "alpha" || m.Op == "alphaMod" || m.Op == "alphaOff" {
					continue // the resolved alpha is written once, below
				}
				mods.WriteString(modXML(m))
			}
			opaque := c
			opaque.A, r.A = 1, 1
			if r.Near(opaque, 0.01) && validScheme(tc.Name) {
				return `<a:schemeClr val="` + tc.Name + `">` + mods.String() + alphaXML + `</a:schemeClr>`
			}
		}
	}
	return `<a:srgbClr val="` + hex6(c) + `">` + alphaXML + `</a:srgbClr>`
}

func validScheme(name string) bool {
	switch name {
	case "bg1", "tx1", "bg2", "tx2", "phClr":
		return true
	}
	for _, s := range schemeSlots {
		if s == name {
			return true
		}
	}
	return false
}

// boxFills returns ps with every FILL or FIT image paint turned into the
// CROP that shows it the same way in a box of size (px), using the asset's
// intrinsic pixel size (sg.Paint.AsCrop): DrawingML has no cover or
// contain mode, a:stretch alone distorts the picture to the box.
func (w *writer) boxFills(ps []sg.Paint, size sg.Vector) []sg.Paint {
	var out []sg.Paint
	for i, p := range ps {
		if p.Type != sg.PaintImage || p.ScaleMode != "FILL" && p.ScaleMode != "FIT" {
			continue
		}
		a, ok := w.deck.Assets[p.ImageRef]
		if !ok || a.Width <= 0 || a.Height <= 0 {
			continue
		}
		if out == nil {
			out = append([]sg.Paint(nil), ps...)
		}
		out[i] = p.AsCrop(size.X, size.Y, float64(a.Width), float64(a.Height))
	}
	if out == nil {
		return ps
	}
	return out
}

// fillXML writes the DrawingML fill for the first visible paint (a:noFill
// when there is none). Further paints cannot be stacked in OOXML.
func (w *writer) fillXML(ps []sg.Paint) string {
	vis := visiblePaints(ps)
	if len(vis) == 0 {
		return "<a:noFill/>"
	}
	if len(vis) > 1 {
		w.warn("%d stacked fills written as the top one (OOXML has one fill per shape)", len(vis))
	}
	p := vis[len(vis)-1]
	switch p.Type {
	case sg.PaintSolid:
		c := sg.Color{A: 1}
		if p.Color != nil {
			c = *p.Color
		}
		return "<a:solidFill>" + w.colorXML(c, p.ThemeColor, p.Opacity) + "</a:solidFill>"
	case sg.PaintGradientLinear, sg.PaintGradientRadial, sg.PaintGradientAngular, sg.PaintGradientDiamond:
		var b strings.Builder
		b.WriteString(`<a:gradFill rotWithShape="1"><a:gsLst>`)
		stops := p.GradientStops
		if len(stops) == 0 {
			stops = []sg.ColorStop{{Position: 0, Color: sg.Color{A: 1}}, {Position: 1, Color: sg.Color{R: 1, G: 1, B: 1, A: 1}}}
		}
		for _, s := range stops {
			fmt.Fprintf(&b, `<a:gs pos="%d">%s</a:gs>`, int(math.Round(clamp01(s.Position)*100000)), w.colorXML(s.Color, nil, p.Opacity))
		}
		b.WriteString(`</a:gsLst>`)
		if p.Type == sg.PaintGradientLinear {
			ang := int64(math.Round(p.GradientAngle*60000)) % 21600000
			if ang < 0 {
				ang += 21600000
			}
			fmt.Fprintf(&b, `<a:lin ang="%d" scaled="0"/>`, ang)
		} else {
			if p.Type != sg.PaintGradientRadial {
				w.warn("%s gradient written as a radial gradient", p.Type)
			}
			b.WriteString(`<a:path path="circle"><a:fillToRect l="50000" t="50000" r="50000" b="50000"/></a:path>`)
		}
		b.WriteString(`</a:gradFill>`)
		return b.String()
	case sg.PaintImage:
		rid, err := w.media(p.ImageRef)
		if err != nil {
			w.warn("image fill dropped: %v", err)
			return "<a:noFill/>"
		}
		return "<a:blipFill>" + blipXML(rid, p) + "</a:blipFill>"
	}
	return "<a:noFill/>"
}

// blipXML writes a:blip, a:srcRect and a:stretch for an image paint.
func blipXML(rid string, p sg.Paint) string {
	var b strings.Builder
	b.WriteString(`<a:blip r:embed="` + rid + `"`)
	if p.Opacity != nil && *p.Opacity < 1 {
		fmt.Fprintf(&b, `><a:alphaModFix amt="%d"/></a:blip>`, int(math.Round(clamp01(*p.Opacity)*100000)))
	} else {
		b.WriteString("/>")
	}
	if c := p.Crop; c != nil {
		f := func(v float64) int { return int(math.Round(v * 100000)) }
		fmt.Fprintf(&b, `<a:srcRect l="%d" t="%d" r="%d" b="%d"/>`, f(c.Left), f(c.Top), f(c.Right), f(c.Bottom))
	}
	if p.ScaleMode == "TILE" {
		b.WriteString(`<a:tile tx="0" ty="0" sx="100000" sy="100000" flip="none" algn="tl"/>`)
	} else {
		b.WriteString(`<a:stretch><a:fillRect/></a:stretch>`)
	}
	return b.String()
}

// lineXML writes a:ln for the node's strokes.
func (w *writer) lineXML(n *sg.Node) string {
	vis := visiblePaints(n.Strokes)
	if len(vis) == 0 || n.StrokeWeight == 0 && len(vis) == 0 {
		return "<a:ln><a:noFill/></a:ln>"
	}
	wt := n.StrokeWeight
	if wt == 0 {
		wt = 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<a:ln w="%d">`, int64(math.Round(wt*sg.EMUPerPx)))
	b.WriteString(w.fillXML(vis))
	if d := dashName(n.StrokeDashes); d != "" {
		b.WriteString(`<a:prstDash val="` + d + `"/>`)
	}
	if c := n.Connector; c != nil {
		if e := capXML(c.StartCap); e != "" {
			b.WriteString(`<a:headEnd type="` + e + `"/>`)
		}
		if e := capXML(c.EndCap); e != "" {
			b.WriteString(`<a:tailEnd type="` + e + `"/>`)
		}
	}
	b.WriteString(`</a:ln>`)
	return b.String()
}

func capXML(c string) string {
	switch c {
	case "", "NONE":
		return ""
	case "CIRCLE_FILLED":
		return "oval"
	case "ARROW_LINES":
		return "arrow"
	}
	return "triangle"
}

func dashName(d []float64) string {
	switch len(d) {
	case 0:
		return ""
	case 2:
		if d[0] <= d[1] {
			return "sysDot"
		}
		if d[0] >= 8 {
			return "lgDash"
		}
		return "dash"
	case 4:
		return "dashDot"
	}
	return "lgDashDotDot"
}

// effectsXML writes a:effectLst for shadows and blur.
func effectsXML(w *writer, n *sg.Node) string {
	var b strings.Builder
	for _, e := range n.Effects {
		if e.Visible != nil && !*e.Visible {
			continue
		}
		switch e.Type {
		case sg.EffectDropShadow, sg.EffectInnerShadow:
			tag := "outerShdw"
			if e.Type == sg.EffectInnerShadow {
				tag = "innerShdw"
			}
			dist, dir := 0.0, 0.0
			if e.Offset != nil {
				dist = math.Hypot(e.Offset.X, e.Offset.Y)
				dir = math.Atan2(e.Offset.Y, e.Offset.X) * 180 / math.Pi
				if dir < 0 {
					dir += 360
				}
			}
			c := sg.Color{A: 0.5}
			if e.Color != nil {
				c = *e.Color
			}
			fmt.Fprintf(&b, `<a:%s blurRad="%d" dist="%d" dir="%d"`, tag, int64(e.Radius*sg.EMUPerPx), int64(dist*sg.EMUPerPx), int64(dir*60000))
			if tag == "outerShdw" {
				b.WriteString(` algn="ctr" rotWithShape="0"`)
			}
			b.WriteString(">" + w.colorXML(c, nil, nil) + "</a:" + tag + ">")
		case sg.EffectLayerBlur:
			fmt.Fprintf(&b, `<a:blur rad="%d"/>`, int64(e.Radius*sg.EMUPerPx))
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "<a:effectLst>" + b.String() + "</a:effectLst>"
}

// cNvPrXML writes p:cNvPr with name, alt text, visibility and hyperlink.
func (w *writer) cNvPrXML(n *sg.Node, id int) string {
	var b strings.Builder
	name := n.Name
	if name == "" {
		name = string(n.Type) + " " + strconv.Itoa(id)
	}
	fmt.Fprintf(&b, `<p:cNvPr id="%d" name="%s"`, id, esc(name))
	if n.AltText != "" {
		b.WriteString(` descr="` + esc(n.AltText) + `"`)
	}
	if !n.IsVisible() {
		b.WriteString(` hidden="1"`)
	}
	if hl := w.linkXML(n.Link); hl != "" {
		b.WriteString(">" + hl + "</p:cNvPr>")
	} else {
		b.WriteString("/>")
	}
	return b.String()
}

// linkXML writes a:hlinkClick for a link, adding its relationship.
func (w *writer) linkXML(l *sg.Link) string {
	if l == nil {
		return ""
	}
	if l.URL != "" {
		return `<a:hlinkClick r:id="` + w.rel(relHyperlink, l.URL, true) + `"/>`
	}
	if l.NodeID != "" && w.slideP != nil {
		if part := w.slideP(l.NodeID); part != "" {
			return `<a:hlinkClick r:id="` + w.rel(relSlide, part, false) + `" action="ppaction://hlinksldjump"/>`
		}
	}
	return ""
}

// presetFor picks the prstGeom of a shape node.
func presetFor(n *sg.Node) string {
	if n.Preset != "" {
		return n.Preset
	}
	switch n.Type {
	case sg.TypeEllipse:
		return "ellipse"
	case sg.TypeLine:
		return "line"
	case sg.TypeRectangle, sg.TypeText, sg.TypeFrame:
		if n.CornerRadius > 0 || n.CornerRadii != nil {
			return "roundRect"
		}
	}
	return "rect"
}

func geomXML(n *sg.Node) string {
	if n.Type == sg.TypeVector && n.Preset == "" && len(n.Paths) > 0 {
		if g, ok := custGeomXML(n); ok {
			return g
		}
	}
	p := presetFor(n)
	if p == "roundRect" {
		r := n.CornerRadius
		if r == 0 && n.CornerRadii != nil {
			r = n.CornerRadii[0]
		}
		if m := math.Min(n.Size.X, n.Size.Y); m > 0 && r > 0 {
			adj := int(math.Round(math.Min(0.5, r/m) * 100000))
			return fmt.Sprintf(`<a:prstGeom prst="roundRect"><a:avLst><a:gd name="adj" fmla="val %d"/></a:avLst></a:prstGeom>`, adj)
		}
	}
	return `<a:prstGeom prst="` + esc(p) + `"><a:avLst/></a:prstGeom>`
}

// shapeXML serializes a node (and its subtree) as a fresh shape element in a
// container with child-space mapping m.
func (w *writer) shapeXML(n *sg.Node, m emuMap) string {
	switch n.Type {
	case sg.TypeImage:
		return w.picXML(n, m)
	case sg.TypeGroup, sg.TypeFrame, sg.TypeSection, sg.TypeComponent, sg.TypeInstance:
		return w.groupXML(n, m)
	case sg.TypeTable:
		return w.tableXML(n, m)
	case sg.TypeChart:
		return w.chartFrameXML(n, m)
	case sg.TypeConnector:
		return w.connectorXML(n, m)
	case sg.TypeMath:
		if n.Math != nil {
			return w.mathXML(n, m)
		}
		w.warn("formula %q has no LaTeX; written as an empty text box", n.ID)
		t := *n
		t.Type = sg.TypeText
		return w.spXML(&t, m)
	}
	return w.spXML(n, m)
}

func (w *writer) spXML(n *sg.Node, m emuMap) string {
	id := w.nextID()
	var b strings.Builder
	b.WriteString("<p:sp><p:nvSpPr>" + w.cNvPrXML(n, id))
	switch {
	case n.Placeholder != nil:
		b.WriteString(`<p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr>`)
	case n.Type == sg.TypeText:
		b.WriteString(`<p:cNvSpPr txBox="1"/>`)
	default:
		b.WriteString(`<p:cNvSpPr/>`)
	}
	b.WriteString("<p:nvPr>" + phXML(n.Placeholder) + "</p:nvPr></p:nvSpPr><p:spPr>")
	b.WriteString(xfrmXML("a", n, m, false))
	b.WriteString(geomXML(n))
	if n.Type == sg.TypeLine {
		b.WriteString("<a:noFill/>")
	} else {
		b.WriteString(w.fillXML(w.boxFills(n.Fills, n.Size)))
	}
	b.WriteString(w.lineXML(n))
	b.WriteString(effectsXML(w, n))
	b.WriteString("</p:spPr>")
	if n.Type.CanHoldText() || n.HasText() {
		b.WriteString(w.txBodyXML("p", textAsDrawn(n), n.Type == sg.TypeText, noInsets(n)))
	}
	b.WriteString("</p:sp>")
	if n.Opacity != nil && *n.Opacity < 1 {
		w.warn("node %s: layer opacity not written (OOXML has per-fill alpha only)", n.ID)
	}
	return b.String()
}

// custGeomXML converts SVG path data (M, L, C, Q, Z; absolute) into
// a:custGeom in the node's px space scaled to EMU.
func custGeomXML(n *sg.Node) (string, bool) {
	w, h := int64(math.Round(n.Size.X*sg.EMUPerPx)), int64(math.Round(n.Size.Y*sg.EMUPerPx))
	var b strings.Builder
	fmt.Fprintf(&b, `<a:custGeom><a:avLst/><a:gdLst/><a:ahLst/><a:cxnLst/><a:rect l="0" t="0" r="r" b="b"/><a:pathLst>`)
	for _, p := range n.Paths {
		fmt.Fprintf(&b, `<a:path w="%d" h="%d">`, w, h)
		toks := pathTokens(p.Path)
		var cmd byte
		pt := func(x, y float64) string {
			return fmt.Sprintf(`<a:pt x="%d" y="%d"/>`, int64(math.Round(x*sg.EMUPerPx)), int64(math.Round(y*sg.EMUPerPx)))
		}
		nums := func(i, k int) ([]float64, bool) {
			if i+k > len(toks) {
				return nil, false
			}
			out := make([]float64, k)
			for j := 0; j < k; j++ {
				v, err := strconv.ParseFloat(toks[i+j], 64)
				if err != nil {
					return nil, false
				}
				out[j] = v
			}
			return out, true
		}
		for i := 0; i < len(toks); {
			t := toks[i]
			if len(t) == 1 && strings.Contains("MLCQZmlcqzHVAhva", t) {
				cmd = t[0]
				i++
				if cmd == 'Z' || cmd == 'z' {
					b.WriteString("<a:close/>")
				}
				continue
			}
			switch cmd {
			case 'M', 'L':
				v, ok := nums(i, 2)
				if !ok {
					return "", false
				}
				tag := "moveTo"
				if cmd == 'L' {
					tag = "lnTo"
				}
				b.WriteString("<a:" + tag + ">" + pt(v[0], v[1]) + "</a:" + tag + ">")
				i += 2
				if cmd == 'M' {
					cmd = 'L'
				}
			case 'C':
				v, ok := nums(i, 6)
				if !ok {
					return "", false
				}
				b.WriteString("<a:cubicBezTo>" + pt(v[0], v[1]) + pt(v[2], v[3]) + pt(v[4], v[5]) + "</a:cubicBezTo>")
				i += 6
			case 'Q':
				v, ok := nums(i, 4)
				if !ok {
					return "", false
				}
				b.WriteString("<a:quadBezTo>" + pt(v[0], v[1]) + pt(v[2], v[3]) + "</a:quadBezTo>")
				i += 4
			case 'A':
				v, ok := nums(i, 7)
				if !ok {
					return "", false
				}
				// Arcs are approximated by a line to their end point.
				b.WriteString("<a:lnTo>" + pt(v[5], v[6]) + "</a:lnTo>")
				i += 7
			default:
				return "", false
			}
		}
		b.WriteString(`</a:path>`)
	}
	b.WriteString(`</a:pathLst></a:custGeom>`)
	return b.String(), true
}

// pathTokens splits SVG path data into commands and numbers.
func pathTokens(d string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for i, r := range d {
		switch {
		case strings.ContainsRune("MLCQZmlcqzHVAhva", r):
			flush()
			out = append(out, string(r))
		case r == ' ' || r == ',' || r == '\t' || r == '\n':
			flush()
		case r == '-' && cur.Len() > 0 && !strings.HasSuffix(cur.String(), "e"):
			flush()
			cur.WriteRune(r)
		default:
			_ = i
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

func (w *writer) picXML(n *sg.Node, m emuMap) string {
	id := w.nextID()
	var img *sg.Paint
	for i := range n.Fills {
		if n.Fills[i].Type == sg.PaintImage {
			img = &n.Fills[i]
		}
	}
	if img == nil {
		return w.spXML(n, m)
	}
	rid, err := w.media(img.ImageRef)
	if err != nil {
		w.warn("picture %s dropped: %v", n.ID, err)
		t := *n
		t.Type, t.Fills = sg.TypeRectangle, nil
		return w.spXML(&t, m)
	}
	var b strings.Builder
	b.WriteString("<p:pic><p:nvPicPr>" + w.cNvPrXML(n, id) + `<p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr>` + phXML(n.Placeholder) + `</p:nvPr></p:nvPicPr>`)
	b.WriteString("<p:blipFill>" + blipXML(rid, w.boxFills([]sg.Paint{*img}, n.Size)[0]) + "</p:blipFill>")
	b.WriteString("<p:spPr>" + xfrmXML("a", n, m, false) + geomXML(&sg.Node{Type: sg.TypeRectangle, Preset: n.Preset, Size: n.Size, CornerRadius: n.CornerRadius}))
	if len(visiblePaints(n.Strokes)) > 0 {
		b.WriteString(w.lineXML(n))
	}
	b.WriteString(effectsXML(w, n))
	b.WriteString("</p:spPr></p:pic>")
	return b.String()
}

func (w *writer) groupXML(n *sg.Node, m emuMap) string {
	id := w.nextID()
	var b strings.Builder
	b.WriteString("<p:grpSp><p:nvGrpSpPr>" + w.cNvPrXML(n, id) + "<p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>")
	b.WriteString("<p:grpSpPr>" + xfrmXML("a", n, m, true) + "</p:grpSpPr>")
	x, y, _, _ := boxOf(n.Transform, n.Size)
	child := emuMap{offX: m.ex(x), offY: m.ey(y), scaleX: m.scaleX, scaleY: m.scaleY}
	// A frame's own fill and stroke become a rectangle behind its children.
	if len(visiblePaints(n.Fills)) > 0 || len(visiblePaints(n.Strokes)) > 0 {
		bg := &sg.Node{ID: n.ID + ".bg", Type: sg.TypeRectangle, Name: n.Name + " background", Transform: sg.Identity, Size: n.Size,
			Fills: n.Fills, Strokes: n.Strokes, StrokeWeight: n.StrokeWeight, CornerRadius: n.CornerRadius, CornerRadii: n.CornerRadii, Effects: n.Effects}
		b.WriteString(w.spXML(bg, child))
	}
	if n.ClipsContent {
		w.warn("frame %s: clipping of children is not written (no OOXML equivalent)", n.ID)
	}
	for _, c := range n.Children {
		b.WriteString(w.shapeXML(c, child))
	}
	b.WriteString("</p:grpSp>")
	return b.String()
}

func (w *writer) connectorXML(n *sg.Node, m emuMap) string {
	id := w.nextID()
	prst := n.Preset
	if prst == "" {
		prst = "straightConnector1"
		if n.Connector != nil {
			switch n.Connector.LineType {
			case "ELBOWED":
				prst = "bentConnector3"
			case "CURVED":
				prst = "curvedConnector3"
			}
		}
	}
	var b strings.Builder
	b.WriteString("<p:cxnSp><p:nvCxnSpPr>" + w.cNvPrXML(n, id) + "<p:cNvCxnSpPr/><p:nvPr/></p:nvCxnSpPr>")
	b.WriteString("<p:spPr>" + xfrmXML("a", n, m, false) + `<a:prstGeom prst="` + esc(prst) + `"><a:avLst/></a:prstGeom>`)
	if len(visiblePaints(n.Strokes)) == 0 {
		t := *n
		c := sg.Color{A: 1}
		t.Strokes = []sg.Paint{sg.Solid(c)}
		b.WriteString(w.lineXML(&t))
	} else {
		b.WriteString(w.lineXML(n))
	}
	b.WriteString("</p:spPr></p:cxnSp>")
	return b.String()
}

// txBodyXML writes a text body with fully explicit run properties.
// zeroInsets writes insets of 0 when the text box has none of its own
// (see noInsets).
func (w *writer) txBodyXML(prefix string, tc *sg.TextContent, textBox, zeroInsets bool) string {
	var b strings.Builder
	b.WriteString("<" + prefix + ":txBody>" + bodyPrXML(tc, textBox, zeroInsets) + "<a:lstStyle/>")
	lines := strings.Split(tc.Characters, "\n")
	off := 0
	for k, line := range lines {
		var para sg.Paragraph
		if k < len(tc.Paragraphs) {
			para = tc.Paragraphs[k]
		} else if tc.Style != nil && tc.Style.TextAlignHorizontal != "" {
			para.Align = tc.Style.TextAlignHorizontal
		}
		b.WriteString("<a:p>" + w.pPrXML(para))
		n := utf8.RuneCountInString(line)
		b.WriteString(w.runsXML(tc, line, off))
		b.WriteString(`<a:endParaRPr` + w.rPrAttrs(tc.StyleAt(off+max(n-1, 0)), runLang(line, line, "")) + `/>`)
		b.WriteString("</a:p>")
		off += n + 1
	}
	b.WriteString("</" + prefix + ":txBody>")
	return b.String()
}

// runsXML writes the runs of one paragraph whose first character is at
// code-point offset off of the text.
func (w *writer) runsXML(tc *sg.TextContent, line string, off int) string {
	var b strings.Builder
	runes := []rune(line)
	start := 0
	for start < len(runes) {
		st := tc.StyleAt(off + start)
		end, f := runEnd(tc, runes, off, start)
		rPr := w.rPrXML(st, runLang(string(runes[start:end]), line, ""))
		switch {
		case runes[start] == lineSep:
			b.WriteString("<a:br>" + rPr + "</a:br>")
		case f >= 0:
			b.WriteString(fldOpen(tc.Fields[f]) + rPr + "<a:t>" + escText(string(runes[start:end])) + "</a:t></a:fld>")
		default:
			b.WriteString("<a:r>" + rPr + "<a:t>" + escText(string(runes[start:end])) + "</a:t></a:r>")
		}
		start = end
	}
	return b.String()
}

// runEnd returns where the run of a paragraph starting at line offset s
// ends (exclusive) and the index in tc.Fields of the field it is, or -1.
// off is the line's first code point in the text. A field is one run
// (a:fld) whatever the styles of its characters; a line break is a run
// of its own; any other run is the longest stretch of one style that
// does not enter a field.
func runEnd(tc *sg.TextContent, runes []rune, off, s int) (int, int) {
	if f := tc.FieldAt(off + s); f >= 0 && runes[s] != lineSep {
		return min(tc.Fields[f].End-off, len(runes)), f
	}
	key := styleKey(tc.StyleAt(off + s))
	e := s + 1
	for e < len(runes) && runes[e] != lineSep && runes[s] != lineSep && tc.FieldAt(off+e) < 0 && styleKey(tc.StyleAt(off+e)) == key {
		e++
	}
	return e, -1
}

// fldOpen is the start tag of a field's a:fld with its id and type
// (ECMA-376 Part 1 §21.1.2.2.4).
func fldOpen(f sg.TextField) string {
	s := `<a:fld id="` + esc(f.ID) + `"`
	if f.Type != "" {
		s += ` type="` + esc(f.Type) + `"`
	}
	return s + ">"
}

func styleKey(s sg.TypeStyle) string {
	return fmt.Sprintf("%v|%v|%v|%v|%v|%v|%v|%v|%v|%v|%s|%s", s.FontFamily, s.FontFamilyEastAsian, s.FontFamilyComplex, s.FontSize, s.FontWeight,
		s.Italic != nil && *s.Italic, s.TextCase, s.TextDecoration, fptr(s.LetterSpacing), s.Baseline, paintsKey(s.Fills), linkKey(s.Link))
}

func fptr(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

func paintsKey(ps []sg.Paint) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Color != nil {
			b.WriteString(p.Color.Hex())
		}
		if p.ThemeColor != nil {
			b.WriteString(p.ThemeColor.Name)
			for _, m := range p.ThemeColor.Mods {
				fmt.Fprintf(&b, "%s%v", m.Op, m.Val)
			}
		}
		if p.Opacity != nil {
			fmt.Fprintf(&b, "o%v", *p.Opacity)
		}
		b.WriteString(";")
	}
	return b.String()
}

func linkKey(l *sg.Link) string {
	if l == nil {
		return ""
	}
	return l.URL + "#" + l.NodeID
}

// defaultLang is the a:rPr/@lang of a fresh run whose script names no
// language (Latin text, digits, punctuation).
const defaultLang = "en-US"

// runLang is the a:rPr/@lang for a run of text in a paragraph, given the
// tag its run properties already carry ("" for none): the language of the
// run's script (sg.TextLang), or its paragraph's when the run has no
// letters (a number in a Japanese sentence) or the paragraph's language is
// written in the run's script (kanji alone in a Japanese sentence); tagged
// when neither names a language; "" when nothing does (a fresh run is
// then written with defaultLang).
func runLang(run, para, tagged string) string {
	if !strings.ContainsFunc(run, unicode.IsLetter) {
		return sg.TextLang(para, tagged)
	}
	r := sg.TextLang(run, tagged)
	if r == tagged {
		return r
	}
	if p := sg.TextLang(para, tagged); p != "" && sg.TextLang(run, p) == p {
		return p
	}
	return r
}

// rPrAttrs writes the run-property attributes of a style; lang is the
// run's language tag (defaultLang when "").
func (w *writer) rPrAttrs(s sg.TypeStyle, lang string) string {
	var b strings.Builder
	if lang == "" {
		lang = defaultLang
	}
	b.WriteString(` lang="` + esc(lang) + `"`)
	if s.FontSize > 0 {
		fmt.Fprintf(&b, ` sz="%d"`, int(math.Round(s.FontSize/sg.PxPerPt*100)))
	}
	if s.FontWeight != 0 {
		if s.Bold() {
			b.WriteString(` b="1"`)
		} else {
			b.WriteString(` b="0"`)
		}
	}
	if s.Italic != nil {
		if *s.Italic {
			b.WriteString(` i="1"`)
		} else {
			b.WriteString(` i="0"`)
		}
	}
	switch s.TextDecoration {
	case sg.DecorationUnderline:
		b.WriteString(` u="sng"`)
	case sg.DecorationStrikethrough:
		b.WriteString(` strike="sngStrike"`)
	}
	switch s.TextCase {
	case sg.CaseUpper:
		b.WriteString(` cap="all"`)
	case sg.CaseSmallCaps:
		b.WriteString(` cap="small"`)
	}
	if s.LetterSpacing != nil && *s.LetterSpacing != 0 {
		fmt.Fprintf(&b, ` spc="%d"`, int(math.Round(*s.LetterSpacing/sg.PxPerPt*100)))
	}
	if s.Baseline != 0 {
		fmt.Fprintf(&b, ` baseline="%d"`, int(math.Round(s.Baseline*100000)))
	}
	return b.String()
}

// rPrXML writes a:rPr with every set field of the style explicit and the
// run's language tag (rPrAttrs).
func (w *writer) rPrXML(s sg.TypeStyle, lang string) string {
	var kids strings.Builder
	if len(s.Fills) > 0 {
		kids.WriteString(w.fillXML(s.Fills))
	}
	for _, f := range []struct{ tag, face string }{{"latin", s.FontFamily}, {"ea", s.FontFamilyEastAsian}, {"cs", s.FontFamilyComplex}} {
		if f.face != "" {
			kids.WriteString(`<a:` + f.tag + ` typeface="` + esc(f.face) + `"/>`)
		}
	}
	kids.WriteString(w.linkXML(s.Link))
	if kids.Len() == 0 {
		return "<a:rPr" + w.rPrAttrs(s, lang) + "/>"
	}
	return "<a:rPr" + w.rPrAttrs(s, lang) + ">" + kids.String() + "</a:rPr>"
}

// pPrXML writes a:pPr for a paragraph.
func (w *writer) pPrXML(p sg.Paragraph) string {
	var b strings.Builder
	b.WriteString("<a:pPr")
	if p.Level > 0 {
		fmt.Fprintf(&b, ` lvl="%d"`, p.Level)
	}
	if p.MarginLeft != 0 || p.ListType == sg.ListUnordered || p.ListType == sg.ListOrdered {
		fmt.Fprintf(&b, ` marL="%d"`, int64(math.Round(p.MarginLeft*sg.EMUPerPx)))
	}
	if p.Indent != 0 {
		fmt.Fprintf(&b, ` indent="%d"`, int64(math.Round(p.Indent*sg.EMUPerPx)))
	}
	switch p.Align {
	case sg.AlignCenter:
		b.WriteString(` algn="ctr"`)
	case sg.AlignRight:
		b.WriteString(` algn="r"`)
	case sg.AlignJustified:
		b.WriteString(` algn="just"`)
	default:
		b.WriteString(` algn="l"`)
	}
	if p.RTL {
		b.WriteString(` rtl="1"`)
	}
	b.WriteString(">")
	if p.LineHeight > 0 {
		fmt.Fprintf(&b, `<a:lnSpc><a:spcPct val="%d"/></a:lnSpc>`, int(math.Round(p.LineHeight*100000)))
	}
	fmt.Fprintf(&b, `<a:spcBef><a:spcPts val="%d"/></a:spcBef>`, int(math.Round(p.SpaceBefore/sg.PxPerPt*100)))
	fmt.Fprintf(&b, `<a:spcAft><a:spcPts val="%d"/></a:spcAft>`, int(math.Round(p.SpaceAfter/sg.PxPerPt*100)))
	if p.ListType == sg.ListUnordered || p.ListType == sg.ListOrdered {
		b.WriteString(w.bulletLookXML(p))
	}
	switch p.ListType {
	case sg.ListUnordered:
		ch := p.Bullet
		if ch == "" {
			ch = "•"
		}
		b.WriteString(`<a:buChar char="` + esc(ch) + `"/>`)
	case sg.ListOrdered:
		b.WriteString(`<a:buAutoNum type="arabicPeriod"/>`)
	default:
		b.WriteString(`<a:buNone/>`)
	}
	b.WriteString("</a:pPr>")
	return b.String()
}

// bulletLookXML writes a list paragraph's bullet colour, size and font, in
// a:pPr's schema order (ECMA-376 §21.1.2.2.7: a:buClrTx | a:buClr, then
// a:buSzTx | a:buSzPct, then a:buFontTx). Each is explicit, so a rewritten
// paragraph shows the scene graph's bullet whatever its layout or master
// would pass down: nil colour and 0 size write "follow the text". A bullet
// character outside Latin-1 and the symbol-font private area (U+F000..U+F0FF)
// is a Unicode character (the importer maps symbol-font bullets to Unicode),
// so it is drawn in the text's font (a:buFontTx), not an inherited
// Wingdings; other characters keep the inherited bullet font.
func (w *writer) bulletLookXML(p sg.Paragraph) string {
	var b strings.Builder
	if c := p.BulletColor; c != nil {
		// A bullet bound to a theme colour that still resolves to it is
		// written as the scheme reference, so it follows later re-themes.
		b.WriteString(`<a:buClr>` + w.colorXML(*c, p.BulletThemeColor, nil) + `</a:buClr>`)
	} else {
		b.WriteString(`<a:buClrTx/>`)
	}
	if p.BulletSize > 0 {
		fmt.Fprintf(&b, `<a:buSzPct val="%d"/>`, int(math.Round(math.Min(math.Max(p.BulletSize, 0.25), 4)*100000)))
	} else {
		b.WriteString(`<a:buSzTx/>`)
	}
	if p.ListType == sg.ListUnordered {
		if r, _ := utf8.DecodeRuneInString(p.Bullet); r > 0xFF && (r < 0xF000 || r > 0xF0FF) {
			b.WriteString(`<a:buFontTx/>`)
		}
	}
	return b.String()
}

// textAsDrawn is n's text with the autofit the renderer draws it with: a
// TEXT node that hugs its content (HUG sizing, as the tools make text
// without a width or height) and has no textAutoResize of its own grows
// with its text, which DrawingML says with a:spAutoFit (ECMA-376 Part 1
// §21.1.2.1.4), and with wrap="none" when it hugs its width (bodyPrXML):
// PowerPoint and LibreOffice then grow the box to their own font metrics
// rather than wrap or overflow a box measured with ACE's.
func textAsDrawn(n *sg.Node) *sg.TextContent {
	tc := &n.TextContent
	if n.Type != sg.TypeText || tc.TextBox != nil && tc.TextBox.AutoResize != "" && tc.TextBox.AutoResize != sg.AutoResizeNone {
		return tc
	}
	hugW, hugH := n.LayoutSizingHorizontal == sg.SizingHug, n.LayoutSizingVertical == sg.SizingHug
	if !hugW && !hugH {
		return tc
	}
	c := *tc
	var tb sg.TextBox
	if tc.TextBox != nil {
		tb = *tc.TextBox
	}
	tb.AutoResize = sg.AutoResizeHeight
	if hugW {
		tb.AutoResize = sg.AutoResizeBoth
	}
	c.TextBox = &tb
	return &c
}

// noInsets reports whether n's text sits flush in its box when it has no
// insets of its own: a Figma-style TEXT node that did not come from a
// .pptx, as the renderer draws it. PowerPoint would otherwise apply the
// DrawingML defaults (0.1 in left and right, 0.05 in top and bottom,
// ECMA-376 §21.1.2.1.1) and wrap the text earlier than ACE measured it.
func noInsets(n *sg.Node) bool {
	return n.Type == sg.TypeText && (n.Source == nil || n.Source.Format != "pptx")
}

// bodyPrXML writes a:bodyPr from the text box; zeroInsets as in txBodyXML.
func bodyPrXML(tc *sg.TextContent, textBox, zeroInsets bool) string {
	var b strings.Builder
	b.WriteString("<a:bodyPr")
	tb := tc.TextBox
	if tb == nil {
		tb = &sg.TextBox{}
	}
	if tb.NoWrap || tb.AutoResize == sg.AutoResizeBoth {
		// A box that grows to its widest line never wraps (the renderer
		// draws it max-content wide).
		b.WriteString(` wrap="none"`)
	} else {
		b.WriteString(` wrap="square"`)
	}
	in := tb.Insets
	if in == nil && zeroInsets {
		in = &sg.Insets{}
	}
	if in != nil {
		fmt.Fprintf(&b, ` lIns="%d" tIns="%d" rIns="%d" bIns="%d"`, int64(math.Round(in.Left*sg.EMUPerPx)), int64(math.Round(in.Top*sg.EMUPerPx)),
			int64(math.Round(in.Right*sg.EMUPerPx)), int64(math.Round(in.Bottom*sg.EMUPerPx)))
	}
	if tc.Style != nil {
		switch tc.Style.TextAlignVertical {
		case sg.AlignCenter:
			b.WriteString(` anchor="ctr"`)
		case sg.AlignBottom:
			b.WriteString(` anchor="b"`)
		default:
			b.WriteString(` anchor="t"`)
		}
	} else if !textBox {
		b.WriteString(` anchor="ctr"`)
	}
	if tb.Vertical != "" {
		b.WriteString(` vert="` + esc(tb.Vertical) + `"`)
	}
	if tb.Columns > 1 {
		fmt.Fprintf(&b, ` numCol="%d"`, tb.Columns)
	}
	b.WriteString(">")
	b.WriteString(autofitXML(tb))
	b.WriteString("</a:bodyPr>")
	return b.String()
}

// autofitXML is the a:bodyPr autofit choice of tb (nil: none, a:noAutofit).
// Shrink-on-overflow writes the scale the text is drawn at (ECMA-376 Part 1
// §21.1.2.1.3: fontScale and lnSpcReduction in 1/1000 %, each omitted at
// its default, 100% and 0%), so PowerPoint shows the file as ACE drew and
// checked it (sg.TextBox.DrawnFontScale).
func autofitXML(tb *sg.TextBox) string {
	if tb == nil {
		return "<a:noAutofit/>"
	}
	switch tb.AutoResize {
	case sg.AutoResizeShrink:
		var attrs string
		if f := tb.DrawnFontScale(); f < 1 {
			attrs += fmt.Sprintf(` fontScale="%d"`, int(math.Round(f*100000)))
		}
		if r := tb.DrawnLineReduction(); r > 0 {
			attrs += fmt.Sprintf(` lnSpcReduction="%d"`, int(math.Round(r*100000)))
		}
		return "<a:normAutofit" + attrs + "/>"
	case sg.AutoResizeHeight, sg.AutoResizeBoth:
		return "<a:spAutoFit/>"
	}
	return "<a:noAutofit/>"
}

// phXML writes p:ph for a node that fills a layout placeholder. The shape
// still carries explicit geometry and run properties, so what it inherits
// from the layout only fills in what the scene graph leaves unset.
func phXML(p *sg.Placeholder) string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("<p:ph")
	if p.Role != "" && p.Role != "obj" {
		b.WriteString(` type="` + esc(p.Role) + `"`)
	}
	if p.Index != 0 {
		fmt.Fprintf(&b, ` idx="%d"`, p.Index)
	}
	b.WriteString("/>")
	return b.String()
}
