package pptx

import (
	"math"
	"strconv"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// patchMath exports an edited MATH node imported from an equation (an
// mc:AlternateContent, see mathShape). A move or resize rewrites the a:xfrm
// of the equation shape in mc:Choice and of its stand-in in mc:Fallback, so
// the OMML stays byte for byte; any other edit (LaTeX, style, colour, size
// of type) replaces the element with a new equation from the MATH writer
// (mathXML).
func (ex *exporter) patchMath(w *writer, info *shapeInfo, n *sg.Node) *xnode {
	o := info.node
	moved := *n
	moved.Transform, moved.Size = o.Transform, o.Size
	if ownJSON(&moved) != ownJSON(o) {
		return rawNode(w.shapeXML(n, info.m))
	}
	for _, alt := range info.elem.elems() {
		if !alt.is(nsMC, "Choice") && !alt.is(nsMC, "Fallback") {
			continue
		}
		for _, sh := range alt.elems() {
			if spPr := sh.child(nsP, "spPr"); spPr != nil && (sh.is(nsP, "sp") || sh.is(nsP, "pic")) {
				ex.setXfrm(spPr, nsA, n, o, info.m, false)
			}
		}
	}
	return info.elem
}

// mathXML writes a MATH node as PowerPoint writes an equation: an
// mc:AlternateContent whose mc:Choice (Requires="a14") holds a text box
// whose paragraph carries a14:m with the OMML from texOMML (m:oMathPara for
// Display, a bare m:oMath per line otherwise), and whose mc:Fallback holds
// the same box with the formula's linear form as text (Cambria Math), for
// consumers without Office Math. Both boxes share the node's placement,
// name and id. Math.FontSize (px) becomes a:rPr sz in hundredths of a
// point (px / sg.PxPerPt * 100; 0 means the renderer's 24 px, 18 pt);
// Math.Color an a:solidFill on every run (nil: black, as the renderer
// draws it, rather than the theme's text colour PowerPoint would inherit). The box has no insets and no
// wrapping and sets the formula at its top left, as the renderer does
// (MathJax SVG, display formulas left-aligned). What texOMML kept as text
// is reported through w.warn.
func (w *writer) mathXML(n *sg.Node, m emuMap) string {
	mt := n.Math
	props := ommlProps{Size: 1800}
	if mt.FontSize > 0 {
		props.Size = int(math.Round(math.Min(math.Max(mt.FontSize/sg.PxPerPt*100, 100), 400000)))
	}
	col := sg.Color{A: 1} // the renderer's default: black, not the theme's text colour
	if mt.Color != nil {
		col = *mt.Color
	}
	props.Fill = "<a:solidFill>" + w.colorXML(col, nil, nil) + "</a:solidFill>"
	f := texOMML(mt.LaTeX, props)
	for _, msg := range f.Warnings {
		w.warn("formula %s: %s", n.ID, msg)
	}
	id := w.nextID()
	head := "<p:nvSpPr>" + w.cNvPrXML(n, id) + `<p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
		"<p:spPr>" + xfrmXML("a", n, m, false) + `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>` +
		w.fillXML(w.boxFills(n.Fills, n.Size)) + w.lineXML(n) + "</p:spPr>" +
		`<p:txBody><a:bodyPr wrap="none" lIns="0" tIns="0" rIns="0" bIns="0" rtlCol="0" anchor="t"><a:noAutofit/></a:bodyPr><a:lstStyle/>`
	endPara := `<a:endParaRPr lang="en-US" sz="` + strconv.Itoa(props.Size) + `" dirty="0"/></a:p>`
	var b strings.Builder
	b.WriteString(`<mc:AlternateContent xmlns:mc="` + nsMC + `"><mc:Choice xmlns:a14="` + nsA14 + `" Requires="a14"><p:sp>` + head)
	if mt.Display {
		b.WriteString(`<a:p><a:pPr algn="l"/><a14:m><m:oMathPara xmlns:m="` + nsMath + `"><m:oMathParaPr><m:jc m:val="left"/></m:oMathParaPr>`)
		for _, l := range f.Lines {
			b.WriteString(l)
		}
		b.WriteString("</m:oMathPara></a14:m>" + endPara)
	} else {
		for _, l := range f.Lines {
			b.WriteString(`<a:p><a14:m>` + strings.Replace(l, "<m:oMath>", `<m:oMath xmlns:m="`+nsMath+`">`, 1) + "</a14:m>" + endPara)
		}
	}
	b.WriteString("</p:txBody></p:sp></mc:Choice><mc:Fallback><p:sp>" + head)
	rPr := `<a:rPr lang="en-US" sz="` + strconv.Itoa(props.Size) + `" dirty="0">` + props.Fill + cambriaMath + `</a:rPr>`
	for _, l := range f.Linear {
		b.WriteString(`<a:p><a:r>` + rPr + `<a:t>` + escXMLText(l) + `</a:t></a:r></a:p>`)
	}
	b.WriteString("</p:txBody></p:sp></mc:Fallback></mc:AlternateContent>")
	return b.String()
}
