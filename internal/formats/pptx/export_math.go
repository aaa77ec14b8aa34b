package pptx

import (
	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// patchMath exports an edited MATH node imported from an equation (an
// mc:AlternateContent, see mathShape). A move or resize rewrites the a:xfrm
// of the equation shape in mc:Choice and of its picture in mc:Fallback, so
// the OMML stays; any other edit (LaTeX, style, colour, size of type)
// replaces the element with the MATH writer's shape, since ACE does not
// generate OMML.
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
