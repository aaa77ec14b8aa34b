package pptx

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

func mimeOf(b []byte) string { return http.DetectContentType(b) }

// Schema orders of child elements we insert into (ECMA-376 §19.3.1.44
// p:spPr = a:CT_ShapeProperties, §21.1.2.3.9 a:rPr, §21.1.3.17 a:tcPr).
var (
	spPrOrder = []string{"xfrm", "custGeom", "prstGeom", "noFill", "solidFill", "gradFill", "blipFill", "pattFill", "grpFill", "ln", "effectLst", "effectDag", "scene3d", "sp3d", "extLst"}
	rPrOrder  = []string{"ln", "noFill", "solidFill", "gradFill", "blipFill", "pattFill", "grpFill", "effectLst", "effectDag", "highlight", "uLnTx", "uLn", "uFillTx", "uFill", "latin", "ea", "cs", "sym", "hlinkClick", "hlinkMouseOver", "rtl", "extLst"}
	tcPrOrder = []string{"lnL", "lnR", "lnT", "lnB", "lnTlToBr", "lnBlToTr", "cell3D", "noFill", "solidFill", "gradFill", "blipFill", "pattFill", "grpFill", "headers", "extLst"}
	fillNames = map[string]bool{"noFill": true, "solidFill": true, "gradFill": true, "blipFill": true, "pattFill": true, "grpFill": true}
	shapeTags = map[string]bool{"sp": true, "pic": true, "grpSp": true, "graphicFrame": true, "cxnSp": true}
)

// patchSlide rewrites an edited slide part: slide properties, then the
// shape tree, then the relationships the new XML no longer uses.
func (ex *exporter) patchSlide(si *slideInfo, s *sg.Node) error {
	o := si.node
	maxID := si.maxID
	w := ex.writerFor(si.part, &maxID)
	root := si.doc.root()
	if err := ensurePrefixes(root, si.part); err != nil {
		return err
	}
	csld := root.child(nsP, "cSld")
	if s.Name != o.Name {
		csld.setAttr("name", s.Name)
	}
	hidden := s.Slide != nil && s.Slide.Hidden
	if hidden != (o.Slide != nil && o.Slide.Hidden) {
		if hidden {
			root.setAttr("show", "0")
		} else {
			root.delAttr("show")
		}
	}
	if !samePaints(s.Fills, o.Fills) {
		bg := rawNode(`<p:bg><p:bgPr>` + w.fillXML(w.boxFills(s.Fills, s.Size)) + `<a:effectLst/></p:bgPr></p:bg>`)
		if old := csld.child(nsP, "bg"); old != nil {
			csld.replaceKid(old, bg)
		} else {
			csld.insertOrdered(bg, []string{"bg", "spTree", "custDataLst", "controls", "extLst"})
		}
	}
	if s.Slide != nil && o.Slide != nil {
		if s.Slide.Notes != o.Slide.Notes {
			ex.notes(si, s)
		}
		tj, _ := json.Marshal(s.Slide.Transition)
		oj, _ := json.Marshal(o.Slide.Transition)
		if string(tj) != string(oj) {
			setTransition(root, s.Slide.Transition)
		}
	}
	used := map[*xnode]bool{}
	ex.patchTree(si, w, si.spTree, s.Children, slideMap, used)
	fixDirty(si.doc)
	data := si.doc.bytes()
	if err := ex.cleanRels(si.part, data); err != nil {
		return err
	}
	ex.out.put(si.part, data)
	return nil
}

// ensurePrefixes makes sure the a:, p: and r: prefixes of generated XML are
// bound to the DrawingML, PresentationML and relationship namespaces.
func ensurePrefixes(root *xnode, part string) error {
	return ensurePrefixesFor(root, part, map[string]string{"a": nsA, "p": nsP, "r": nsR})
}

// ensurePrefixesFor binds each prefix of want to its namespace on root,
// or fails when the part binds it to another.
func ensurePrefixesFor(root *xnode, part string, want map[string]string) error {
	for _, pfx := range sortedKeys(want) {
		found := false
		for _, a := range root.attrs {
			if a.prefix == "xmlns" && a.local == pfx {
				if a.value != want[pfx] {
					return fmt.Errorf("export: part %s binds prefix %q to %s; re-serializing edited shapes needs it for %s", part, pfx, a.value, want[pfx])
				}
				found = true
			}
		}
		if !found {
			root.attrs = append(root.attrs, xattr{prefix: "xmlns", local: pfx, value: want[pfx]})
			root.dirty = true
		}
	}
	return nil
}

// cleanRels drops picture, hyperlink, slide-jump and chart relationships
// the slide XML no longer references (their shapes were deleted or edited).
func (ex *exporter) cleanRels(part string, data []byte) error {
	doc, err := parseXML(part, data, xmlLimits{maxDepth: ex.im.p.lim.MaxXMLDepth})
	if err != nil {
		return fmt.Errorf("export: %w: %s (bug): %w", ErrGeneratedXML, part, err)
	}
	refs := map[string]bool{}
	var walk func(n *xnode)
	walk = func(n *xnode) {
		for _, a := range n.attrs {
			if a.ns == nsR {
				refs[a.value] = true
			}
		}
		for _, k := range n.kids {
			if k.kind == kElem {
				walk(k)
			}
		}
	}
	walk(doc.root())
	r := ex.out.relsFor(part)
	for _, x := range r.live() {
		switch x.Type {
		case relImage, relHyperlink, relSlide, relChart:
			if !refs[x.ID] {
				r.remove(x.ID)
			}
		}
	}
	return nil
}

// patchTree writes the children of a shape tree or group in the scene
// graph's order: unchanged shapes keep their elements byte-for-byte, edited
// ones are patched, new ones are serialized fresh. Elements ACE does not
// model keep their place.
func (ex *exporter) patchTree(si *slideInfo, w *writer, container *xnode, kids []*sg.Node, m emuMap, used map[*xnode]bool) {
	var slots []int
	for i, k := range container.kids {
		if k.kind == kElem && (k.ns == nsP && shapeTags[k.local] || ex.im.equations[k]) {
			slots = append(slots, i)
		}
	}
	var seq []*xnode
	for _, n := range kids {
		if inheritedNode(n, si.part) {
			continue // drawn by the layout or master, never written here
		}
		info := ex.im.shapes[n.ID]
		if info != nil && info.slide == si && info.parent == container && info.kind != "tc" && !used[info.elem] && n.Source != nil && n.Source.Format == "pptx" {
			used[info.elem] = true
			if sg.NodeDigest(n) != n.Source.Digest || n.Source.Digest != info.node.Source.Digest {
				if repl := ex.patchShape(si, w, info, n, used); repl != nil {
					seq = append(seq, repl)
					continue
				}
			}
			seq = append(seq, info.elem)
			continue
		}
		seq = append(seq, rawNode(w.shapeXML(n, m)))
	}
	same := len(seq) == len(slots)
	for i := 0; same && i < len(seq); i++ {
		same = seq[i] == container.kids[slots[i]]
	}
	if same {
		return
	}
	var out []*xnode
	next := 0
	last := -1
	if len(slots) > 0 {
		last = slots[len(slots)-1]
	}
	insertRest := func() {
		out = append(out, seq[next:]...)
		next = len(seq)
	}
	if len(slots) == 0 {
		// No shapes before: new ones go after p:grpSpPr (before extLst).
		placed := false
		for _, k := range container.kids {
			if !placed && k.kind == kElem && k.local == "extLst" {
				insertRest()
				placed = true
			}
			out = append(out, k)
			if !placed && k.kind == kElem && k.local == "grpSpPr" {
				insertRest()
				placed = true
			}
		}
		if !placed {
			insertRest()
		}
	} else {
		slot := map[int]bool{}
		for _, s := range slots {
			slot[s] = true
		}
		for i, k := range container.kids {
			if slot[i] {
				if next < len(seq) {
					out = append(out, seq[next])
					next++
				}
				if i == last {
					insertRest()
				}
				continue
			}
			out = append(out, k)
		}
	}
	container.kids = out
	container.dirty = true
}

// ownJSON is the canonical JSON of a node without source and children.
func ownJSON(n *sg.Node) string {
	c := *n
	c.Source, c.Children = nil, nil
	b, _ := json.Marshal(&c)
	return string(b)
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }

// patchShape patches an edited shape element in place and returns it, or
// returns a replacement element when the edit changed what kind of element
// it must be.
func (ex *exporter) patchShape(si *slideInfo, w *writer, info *shapeInfo, n *sg.Node, used map[*xnode]bool) *xnode {
	o := info.node
	e := info.elem
	if info.kind == "math" {
		return ex.patchMath(w, info, n)
	}
	kindOK := map[string][]sg.NodeType{
		"sp":           {sg.TypeRectangle, sg.TypeEllipse, sg.TypeVector, sg.TypeText, sg.TypeLine},
		"pic":          {sg.TypeImage, sg.TypeRectangle},
		"grpSp":        {sg.TypeGroup, sg.TypeFrame},
		"cxnSp":        {sg.TypeConnector, sg.TypeLine},
		"graphicFrame": {o.Type},
	}[info.kind]
	ok := false
	for _, t := range kindOK {
		ok = ok || t == n.Type
	}
	if !ok {
		return rawNode(w.shapeXML(n, info.m))
	}
	ex.patchNonVisual(e, n, o, w)
	geomChanged := n.Transform != o.Transform || n.Size != o.Size
	switch info.kind {
	case "grpSp":
		gp := e.child(nsP, "grpSpPr")
		if geomChanged {
			ex.setXfrm(gp, nsA, n, o, info.m, true)
		}
		if ownJSON(n) != ownJSON(o) && !geomChanged {
			// only name / alt text / visibility, handled above
		}
		ex.patchTree(si, w, e, n.Children, info.childMap, used)
	case "sp", "pic", "cxnSp":
		spPr := e.child(nsP, "spPr")
		if spPr == nil {
			spPr = newElem(e.prefix, "spPr", nsP)
			e.insertOrdered(spPr, []string{"nvSpPr", "nvPicPr", "nvCxnSpPr", "blipFill", "spPr", "style", "txBody", "extLst"})
		}
		if geomChanged {
			ex.setXfrm(spPr, nsA, n, o, info.m, false)
		}
		if n.Preset != o.Preset || n.CornerRadius != o.CornerRadius || jsonOf(n.CornerRadii) != jsonOf(o.CornerRadii) || jsonOf(n.Paths) != jsonOf(o.Paths) || (n.Type != o.Type && info.kind == "sp") {
			for _, g := range []string{"prstGeom", "custGeom"} {
				if old := spPr.child(nsA, g); old != nil {
					spPr.replaceKid(old, nil)
				}
			}
			spPr.insertOrdered(rawNode(geomXML(n)), spPrOrder)
		}
		if info.kind == "pic" {
			if !samePaints(n.Fills, o.Fills) {
				ex.patchPicture(e, n, w)
			}
		} else if !samePaints(n.Fills, o.Fills) {
			setFill(spPr, w.fillXML(w.boxFills(n.Fills, n.Size)), spPrOrder)
		}
		if !samePaints(n.Strokes, o.Strokes) || n.StrokeWeight != o.StrokeWeight || jsonOf(n.StrokeDashes) != jsonOf(o.StrokeDashes) {
			ex.setLine(spPr, n, w)
		}
		if jsonOf(n.Effects) != jsonOf(o.Effects) {
			if old := spPr.child(nsA, "effectLst"); old != nil {
				spPr.replaceKid(old, nil)
			}
			if fx := effectsXML(w, n); fx != "" {
				spPr.insertOrdered(rawNode(fx), spPrOrder)
			}
		}
		if jsonOf(n.TextContent) != jsonOf(o.TextContent) && info.kind == "sp" {
			tb := e.child(nsP, "txBody")
			if tb == nil {
				if n.HasText() {
					e.insertOrdered(rawNode(w.txBodyXML("p", textAsDrawn(n), n.Type == sg.TypeText, noInsets(n))), []string{"nvSpPr", "spPr", "style", "txBody", "extLst"})
				}
			} else {
				ex.patchText(w, tb, &n.TextContent, &o.TextContent)
			}
		}
		if n.Opacity != nil && jsonOf(n.Opacity) != jsonOf(o.Opacity) {
			ex.warn(si.part, "node %s: layer opacity not written (OOXML has per-fill alpha only)", n.ID)
		}
	case "graphicFrame":
		if geomChanged {
			ex.setXfrm(e, nsP, n, o, info.m, false)
		}
		switch n.Type {
		case sg.TypeTable:
			if repl := ex.patchTable(si, w, info, n); repl != nil {
				return repl
			}
		case sg.TypeChart:
			if jsonOf(n.Chart) != jsonOf(o.Chart) && n.Chart != nil {
				if o.Chart != nil && ex.patchChartInPlace(si.part, w, n, o) {
					break
				}
				ch := e.path(nsA, "graphic", "graphicData").child(nsC, "chart")
				rid, err := w.chart(n)
				if ch != nil && err == nil {
					for i := range ch.attrs {
						if ch.attrs[i].ns == nsR && ch.attrs[i].local == "id" {
							ch.attrs[i].value = rid
						}
					}
					ch.dirty = true
				}
			}
		}
	}
	return nil
}

// patchNonVisual updates name, alt text, visibility and hyperlink.
func (ex *exporter) patchNonVisual(e *xnode, n, o *sg.Node, w *writer) {
	nv := cNvPr(e)
	if nv == nil {
		return
	}
	if n.Name != o.Name {
		nv.setAttr("name", n.Name)
	}
	if n.AltText != o.AltText {
		if n.AltText == "" {
			nv.delAttr("descr")
		} else {
			nv.setAttr("descr", n.AltText)
		}
	}
	if n.IsVisible() != o.IsVisible() {
		if n.IsVisible() {
			nv.delAttr("hidden")
		} else {
			nv.setAttr("hidden", "1")
		}
	}
	if !sameLink(n.Link, o.Link) {
		if old := nv.child(nsA, "hlinkClick"); old != nil {
			nv.replaceKid(old, nil)
		}
		if hl := w.linkXML(n.Link); hl != "" {
			nv.insertOrdered(rawNode(hl), []string{"hlinkClick", "hlinkHover", "extLst"})
		}
		nv.dirty = true
	}
}

// setXfrm writes the node's placement into an a:xfrm (p:xfrm for graphic
// frames) under parent, changing only what changed.
func (ex *exporter) setXfrm(parent *xnode, ns string, n, o *sg.Node, m emuMap, group bool) {
	x := parent.child(ns, "xfrm")
	if x == nil {
		prefix := "a"
		if ns == nsP {
			prefix = "p"
		}
		parent.insertOrdered(rawNode(xfrmXML(prefix, n, m, group)), append([]string{"nvGraphicFramePr"}, spPrOrder...))
		return
	}
	px, py, rot, flipH := boxOf(n.Transform, n.Size)
	ox, oy, _, _ := boxOf(o.Transform, o.Size)
	off, ext := x.child(nsA, "off"), x.child(nsA, "ext")
	if off == nil || ext == nil {
		parent.replaceKid(x, rawNode(xfrmXML(x.prefix, n, m, group)))
		return
	}
	if math.Abs(px-ox) > 1e-9 || math.Abs(py-oy) > 1e-9 || n.Size != o.Size {
		off.setAttr("x", strconv.FormatInt(m.ex(px), 10))
		off.setAttr("y", strconv.FormatInt(m.ey(py), 10))
	}
	if n.Size != o.Size {
		oldCX, oldCY := inum(ext.av("cx")), inum(ext.av("cy"))
		cx, cy := m.ew(n.Size.X), m.eh(n.Size.Y)
		ext.setAttr("cx", strconv.FormatInt(cx, 10))
		ext.setAttr("cy", strconv.FormatInt(cy, 10))
		if group {
			// Keep the child-space scale so children stay where the scene
			// graph has them.
			if che := x.child(nsA, "chExt"); che != nil && oldCX > 0 && oldCY > 0 {
				che.setAttr("cx", strconv.FormatInt(int64(math.Round(float64(cx)*float64(inum(che.av("cx")))/float64(oldCX))), 10))
				che.setAttr("cy", strconv.FormatInt(int64(math.Round(float64(cy)*float64(inum(che.av("cy")))/float64(oldCY))), 10))
			}
		}
	}
	lin := func(t sg.Transform) [4]float64 { return [4]float64{t[0][0], t[0][1], t[1][0], t[1][1]} }
	if lin(n.Transform) != lin(o.Transform) {
		if r := int64(math.Round(rot * 60000)); r != 0 {
			r = ((r % 21600000) + 21600000) % 21600000
			x.setAttr("rot", strconv.FormatInt(r, 10))
		} else {
			x.delAttr("rot")
		}
		x.delAttr("flipV")
		if flipH {
			x.setAttr("flipH", "1")
		} else {
			x.delAttr("flipH")
		}
	}
	x.dirty = true
}

// setFill replaces the fill choice among parent's children.
func setFill(parent *xnode, fill string, order []string) {
	for _, k := range parent.elems() {
		if fillNames[k.local] && k.ns == nsA {
			parent.replaceKid(k, nil)
		}
	}
	parent.insertOrdered(rawNode(fill), order)
}

// setLine rewrites a:ln: width, fill and dash, keeping joins, caps, arrow
// heads and extLst.
func (ex *exporter) setLine(spPr *xnode, n *sg.Node, w *writer) {
	ln := spPr.child(nsA, "ln")
	if ln == nil {
		spPr.insertOrdered(rawNode(w.lineXML(n)), spPrOrder)
		return
	}
	vis := visiblePaints(n.Strokes)
	if len(vis) > 0 {
		ln.setAttr("w", strconv.FormatInt(int64(math.Round(n.StrokeWeight*sg.EMUPerPx)), 10))
	}
	setFill(ln, w.fillXML(vis), []string{"noFill", "solidFill", "gradFill", "pattFill", "prstDash", "custDash", "round", "bevel", "miter", "headEnd", "tailEnd", "extLst"})
	if old := ln.child(nsA, "prstDash"); old != nil {
		ln.replaceKid(old, nil)
	}
	if d := dashName(n.StrokeDashes); d != "" {
		ln.insertOrdered(rawNode(`<a:prstDash val="`+d+`"/>`), []string{"noFill", "solidFill", "gradFill", "pattFill", "prstDash", "custDash", "round", "bevel", "miter", "headEnd", "tailEnd", "extLst"})
	}
}

// patchPicture points an edited picture at its new image and crop.
func (ex *exporter) patchPicture(e *xnode, n *sg.Node, w *writer) {
	var img *sg.Paint
	for i := range n.Fills {
		if n.Fills[i].Type == sg.PaintImage {
			img = &n.Fills[i]
		}
	}
	bf := e.child(nsP, "blipFill")
	if img == nil || bf == nil {
		return
	}
	rid, err := w.media(img.ImageRef)
	if err != nil {
		w.warn("picture %s: %v", n.ID, err)
		return
	}
	repl := `<p:blipFill>` + blipXML(rid, w.boxFills([]sg.Paint{*img}, n.Size)[0]) + `</p:blipFill>`
	if bf.prefix != "p" {
		repl = strings.ReplaceAll(repl, "p:blipFill", bf.prefix+":blipFill")
	}
	e.replaceKid(bf, rawNode(repl))
}

// patchTable patches a table's grid and edited cells in place; a change of
// the grid's shape (rows, columns, merges) rewrites the whole table.
func (ex *exporter) patchTable(si *slideInfo, w *writer, info *shapeInfo, n *sg.Node) *xnode {
	o := info.node
	tbl := info.elem.path(nsA, "graphic", "graphicData").child(nsA, "tbl")
	if n.Table == nil || o.Table == nil || tbl == nil {
		return nil
	}
	// Cells are known by the cell they were imported as (a copied
	// slide's cells have ids of their own); a new cell by its id.
	cellKey := func(ns []*sg.Node) string {
		var b strings.Builder
		for _, c := range ns {
			id := c.ID
			if ci := ex.im.shapes[c.ID]; ci != nil && ci.kind == "tc" {
				id = ci.node.ID
			}
			b.WriteString(id + jsonOf(c.Cell) + ";")
		}
		return b.String()
	}
	if len(n.Table.Columns) != len(o.Table.Columns) || len(n.Table.Rows) != len(o.Table.Rows) || cellKey(n.Children) != cellKey(o.Children) {
		ex.warn(si.part, "table %s changed shape; rewritten from the scene graph (table style kept by id)", n.ID)
		return rawNode(w.tableXML(n, info.m))
	}
	for i, c := range n.Table.Columns {
		if c != o.Table.Columns[i] {
			tbl.path(nsA, "tblGrid").all(nsA, "gridCol")[i].setAttr("w", strconv.FormatInt(int64(math.Round(c*sg.EMUPerPx)), 10))
		}
	}
	for i, h := range n.Table.Rows {
		if h != o.Table.Rows[i] {
			tbl.all(nsA, "tr")[i].setAttr("h", strconv.FormatInt(int64(math.Round(h*sg.EMUPerPx)), 10))
		}
	}
	for _, c := range n.Children {
		ci := ex.im.shapes[c.ID]
		if ci == nil || c.Source == nil || sg.NodeDigest(c) == c.Source.Digest {
			continue
		}
		oc := ci.node
		tc := ci.elem
		if jsonOf(c.TextContent) != jsonOf(oc.TextContent) {
			if tb := tc.child(nsA, "txBody"); tb != nil {
				ex.patchText(w, tb, &c.TextContent, &oc.TextContent)
			}
		}
		if !samePaints(c.Fills, oc.Fills) || jsonOf(c.Cell) != jsonOf(oc.Cell) {
			tcPr := tc.child(nsA, "tcPr")
			if tcPr == nil {
				tc.kids = append(tc.kids, rawNode(w.tcPrXML(c)))
				tc.dirty = true
				continue
			}
			if !samePaints(c.Fills, oc.Fills) {
				setFill(tcPr, w.fillXML(c.Fills), tcPrOrder)
			}
			if jsonOf(c.Cell.Borders) != jsonOf(oc.Cell.Borders) {
				tc.replaceKid(tcPr, rawNode(w.tcPrXML(c)))
			}
		}
	}
	return nil
}

// patchText rewrites the paragraphs of a text body that changed. A
// paragraph whose characters, run styles and paragraph properties are all
// unchanged keeps its a:p element byte-for-byte; a changed one is rebuilt
// from the original's a:pPr and the a:rPr of the original run at the same
// position, with only the changed attributes rewritten.
func (ex *exporter) patchText(w *writer, txBody *xnode, n, o *sg.TextContent) {
	if jsonOf(n.TextBox) != jsonOf(o.TextBox) || styleV(n) != styleV(o) {
		patchBodyPr(txBody, n, o)
	}
	ps := txBody.all(nsA, "p")
	oLines := strings.Split(o.Characters, "\n")
	nLines := strings.Split(n.Characters, "\n")
	oOff := lineOffsets(oLines)
	nOff := lineOffsets(nLines)
	var paras []*xnode
	for k, line := range nLines {
		nl := utf8.RuneCountInString(line)
		if k < len(ps) && k < len(oLines) && line == oLines[k] && jsonOf(paraAt(n, k)) == jsonOf(paraAt(o, k)) &&
			lineFields(n, nOff[k], nl) == lineFields(o, oOff[k], nl) {
			same := true
			for i := 0; same && i < nl; i++ {
				same = styleKey(n.StyleAt(nOff[k]+i)) == styleKey(o.StyleAt(oOff[k]+i))
			}
			if nl == 0 {
				// An empty paragraph's style is its a:endParaRPr's (a
				// recoloured empty table cell).
				same = styleKey(n.StyleAt(nOff[k])) == styleKey(o.StyleAt(oOff[k]))
			}
			if same {
				paras = append(paras, ps[k])
				continue
			}
		}
		var tmpl *xnode
		tk := -1
		if len(ps) > 0 {
			tk = min(k, len(ps)-1)
			tmpl = ps[tk]
		}
		var b strings.Builder
		b.WriteString("<a:p>")
		pPr := tmpl.child(nsA, "pPr")
		if pPr != nil && tk >= 0 && jsonOf(paraAt(n, k)) == jsonOf(paraAt(o, tk)) {
			b.Write(pPr.bytes())
		} else {
			b.WriteString(w.pPrXML(paraAt(n, k)))
		}
		runes := []rune(line)
		for s := 0; s < len(runes); {
			st := n.StyleAt(nOff[k] + s)
			key := styleKey(st)
			e, f := runEnd(n, runes, nOff[k], s)
			text := string(runes[s:e])
			rPr := w.rPrXML(st, runLang(text, line, ""))
			if tmpl != nil {
				if tr, at := runAt(tmpl, s); tr != nil {
					old := o.StyleAt(oOff[tk] + at)
					trPr := tr.child(nsA, "rPr")
					// The run's tag is kept unless the new text is in
					// another script (en-US on Japanese becomes ja-JP).
					tagged := trPr.av("lang")
					lang := runLang(text, line, tagged)
					switch {
					case styleKey(old) == key && trPr != nil && lang == tagged:
						rPr = string(trPr.bytes())
					default:
						rPr = patchRPr(w, trPr, old, st, lang)
					}
				}
			}
			switch {
			case runes[s] == lineSep:
				b.WriteString("<a:br>" + rPr + "</a:br>")
			case f >= 0:
				// The field's own a:pPr (its paragraph properties for
				// the field text) comes back from the element it was.
				b.WriteString(fldOpen(n.Fields[f]) + rPr)
				if pp := fldByID(txBody, n.Fields[f].ID).child(nsA, "pPr"); pp != nil {
					b.Write(pp.bytes())
				}
				b.WriteString("<a:t>" + escText(string(runes[s:e])) + "</a:t></a:fld>")
			default:
				b.WriteString("<a:r>" + rPr + "<a:t>" + escText(string(runes[s:e])) + "</a:t></a:r>")
			}
			s = e
		}
		// The paragraph's end takes the style of its last character, as
		// PowerPoint keeps it (what text typed there will look like), and
		// the paragraph's language (runLang).
		ep := tmpl.child(nsA, "endParaRPr")
		lang := runLang(line, line, ep.av("lang"))
		end := n.StyleAt(nOff[k] + max(nl-1, 0))
		oldEnd := end
		if tk >= 0 {
			oldEnd = o.StyleAt(oOff[tk] + max(utf8.RuneCountInString(oLines[min(tk, len(oLines)-1)])-1, 0))
		}
		switch {
		case styleKey(end) != styleKey(oldEnd):
			b.WriteString(patchProps(w, "endParaRPr", ep, oldEnd, end, lang))
		case ep != nil:
			b.Write(withLang(ep, lang))
		}
		b.WriteString("</a:p>")
		paras = append(paras, rawNode(b.String()))
	}
	var kids []*xnode
	placed := false
	for _, k := range txBody.kids {
		if k.is(nsA, "p") {
			if !placed {
				kids = append(kids, paras...)
				placed = true
			}
			continue
		}
		kids = append(kids, k)
	}
	if !placed {
		kids = append(kids, paras...)
	}
	txBody.kids = kids
	txBody.dirty = true
}

// lineFields lists the fields inside the n code points of a text from
// offset off, relative to off, as a comparable string.
func lineFields(t *sg.TextContent, off, n int) string {
	var b strings.Builder
	for _, f := range t.Fields {
		if f.Start >= off && f.End <= off+n {
			fmt.Fprintf(&b, "%d,%d,%s,%s;", f.Start-off, f.End-off, f.Type, f.ID)
		}
	}
	return b.String()
}

// fldByID returns the a:fld element of a text body with the given id, or
// nil.
func fldByID(txBody *xnode, id string) *xnode {
	for _, p := range txBody.all(nsA, "p") {
		for _, r := range p.elems() {
			if r.local == "fld" && r.av("id") == id {
				return r
			}
		}
	}
	return nil
}

func styleV(t *sg.TextContent) string {
	if t.Style == nil {
		return ""
	}
	return t.Style.TextAlignVertical
}

func lineOffsets(lines []string) []int {
	out := make([]int, len(lines))
	off := 0
	for i, l := range lines {
		out[i] = off
		off += utf8.RuneCountInString(l) + 1
	}
	return out
}

func paraAt(t *sg.TextContent, k int) sg.Paragraph {
	if k >= 0 && k < len(t.Paragraphs) {
		return t.Paragraphs[k]
	}
	return sg.Paragraph{}
}

// runAt returns the run element (a:r, a:fld or a:br) of a paragraph covering
// code-point offset s, clamped to the last run, and the offset it stands for.
func runAt(p *xnode, s int) (*xnode, int) {
	off := 0
	var last *xnode
	lastAt := 0
	for _, r := range p.elems() {
		var n int
		switch r.local {
		case "r", "fld":
			n = utf8.RuneCountInString(r.child(nsA, "t").allText())
		case "br":
			n = 1
		default:
			continue
		}
		if n == 0 {
			continue
		}
		if s < off+n {
			return r, s
		}
		last, lastAt = r, off+n-1
		off += n
	}
	return last, lastAt
}

// withLang is the bytes of a run-properties element (a:rPr,
// a:endParaRPr) with its lang attribute set to lang; the element as it is
// when lang is "" or already its tag.
func withLang(e *xnode, lang string) []byte {
	if lang == "" || e.av("lang") == lang {
		return e.bytes()
	}
	el := &xnode{kind: kElem, prefix: e.prefix, local: e.local, ns: e.ns, dirty: true,
		attrs: append([]xattr(nil), e.attrs...), kids: append([]*xnode(nil), e.kids...)}
	el.setAttr("lang", lang)
	return el.bytes()
}

// patchRPr copies a run's a:rPr and rewrites the attributes and children
// whose effective value changed from old to st, and its language tag to
// lang when set (runLang).
func patchRPr(w *writer, tmpl *xnode, old, st sg.TypeStyle, lang string) string {
	return patchProps(w, "rPr", tmpl, old, st, lang)
}

// patchProps is patchRPr for any CT_TextCharacterProperties element
// (a:rPr, a:endParaRPr; ECMA-376 §21.1.2.3.9), named local.
func patchProps(w *writer, local string, tmpl *xnode, old, st sg.TypeStyle, lang string) string {
	el := &xnode{kind: kElem, prefix: "a", local: local, ns: nsA, dirty: true}
	if tmpl != nil {
		el.prefix = tmpl.prefix
		el.attrs = append([]xattr(nil), tmpl.attrs...)
		el.kids = append([]*xnode(nil), tmpl.kids...)
	}
	if lang != "" && el.av("lang") != lang {
		el.setAttr("lang", lang)
	}
	if st.FontSize != old.FontSize {
		el.setAttr("sz", strconv.Itoa(int(math.Round(st.FontSize/sg.PxPerPt*100))))
	}
	if st.Bold() != old.Bold() {
		el.setAttr("b", map[bool]string{true: "1", false: "0"}[st.Bold()])
	}
	if !eqBoolPtr(st.Italic, old.Italic) {
		el.setAttr("i", map[bool]string{true: "1", false: "0"}[st.Italic != nil && *st.Italic])
	}
	if st.TextDecoration != old.TextDecoration {
		u, s := "none", "noStrike"
		switch st.TextDecoration {
		case sg.DecorationUnderline:
			u = "sng"
		case sg.DecorationStrikethrough:
			s = "sngStrike"
		}
		el.setAttr("u", u)
		el.setAttr("strike", s)
	}
	if st.TextCase != old.TextCase {
		el.setAttr("cap", map[string]string{sg.CaseUpper: "all", sg.CaseSmallCaps: "small"}[st.TextCase])
		if el.av("cap") == "" {
			el.setAttr("cap", "none")
		}
	}
	if !eqFloatPtr(st.LetterSpacing, old.LetterSpacing) {
		el.setAttr("spc", strconv.Itoa(int(math.Round(fptr(st.LetterSpacing)/sg.PxPerPt*100))))
	}
	if st.Baseline != old.Baseline {
		el.setAttr("baseline", strconv.Itoa(int(math.Round(st.Baseline*100000))))
	}
	if !samePaints(st.Fills, old.Fills) && len(st.Fills) > 0 {
		setFill(el, w.fillXML(st.Fills), rPrOrder)
	}
	for _, f := range []struct{ tag, nv, ov string }{{"latin", st.FontFamily, old.FontFamily}, {"ea", st.FontFamilyEastAsian, old.FontFamilyEastAsian}, {"cs", st.FontFamilyComplex, old.FontFamilyComplex}} {
		if f.nv == f.ov || f.nv == "" {
			continue
		}
		if k := el.child(nsA, f.tag); k != nil {
			el.replaceKid(k, nil)
		}
		el.insertOrdered(rawNode(`<a:`+f.tag+` typeface="`+esc(f.nv)+`"/>`), rPrOrder)
	}
	if !sameLink(st.Link, old.Link) {
		if k := el.child(nsA, "hlinkClick"); k != nil {
			el.replaceKid(k, nil)
		}
		if hl := w.linkXML(st.Link); hl != "" {
			el.insertOrdered(rawNode(hl), rPrOrder)
		}
	}
	return string(el.bytes())
}

// patchBodyPr rewrites the a:bodyPr attributes ACE models. The autofit
// choice (a:noAutofit, a:normAutofit, a:spAutoFit) is rewritten only when
// it changed from o's, so an unchanged one keeps its element, or its
// absence when the shape inherits it from its layout or master.
func patchBodyPr(txBody *xnode, n, o *sg.TextContent) {
	bp := txBody.child(nsA, "bodyPr")
	if bp == nil {
		return
	}
	tb := n.TextBox
	if tb != nil {
		if in := tb.Insets; in != nil {
			for _, s := range []struct {
				attr string
				v    float64
			}{{"lIns", in.Left}, {"tIns", in.Top}, {"rIns", in.Right}, {"bIns", in.Bottom}} {
				bp.setAttr(s.attr, strconv.FormatInt(int64(math.Round(s.v*sg.EMUPerPx)), 10))
			}
		}
		if tb.NoWrap || tb.AutoResize == sg.AutoResizeBoth {
			bp.setAttr("wrap", "none")
		} else {
			bp.setAttr("wrap", "square")
		}
		if autofitXML(tb) != autofitXML(o.TextBox) {
			for _, k := range bp.elems() {
				if k.local == "normAutofit" || k.local == "spAutoFit" || k.local == "noAutofit" {
					bp.replaceKid(k, nil)
				}
			}
			bp.insertOrdered(rawNode(autofitXML(tb)), []string{"prstTxWarp", "noAutofit", "normAutofit", "spAutoFit", "scene3d", "sp3d", "flatTx", "extLst"})
		}
	}
	if n.Style != nil {
		switch n.Style.TextAlignVertical {
		case sg.AlignCenter:
			bp.setAttr("anchor", "ctr")
		case sg.AlignBottom:
			bp.setAttr("anchor", "b")
		case sg.AlignTop:
			bp.setAttr("anchor", "t")
		}
	}
}

// notes rewrites the body placeholder of the slide's notes slide with the
// new speaker notes, one paragraph per line; the first paragraph's
// properties and run properties are kept.
func (ex *exporter) notes(si *slideInfo, s *sg.Node) {
	if si.notes == "" {
		// The slide had no notes slide: give it one, as for a new slide.
		if s.Slide.Notes != "" {
			if err := ex.newNotes(si.part, s); err != nil {
				ex.warn(si.part, "speaker notes of slide %s not written: %v", s.ID, err)
			}
		}
		return
	}
	doc, err := ex.partDoc(si.notes)
	if err != nil {
		ex.warn(si.notes, "notes not updated: %v", err)
		return
	}
	var body *xnode
	for _, sp := range doc.root().path(nsP, "cSld", "spTree").all(nsP, "sp") {
		if ph := phOf(sp); ph != nil && phType(ph) == "body" {
			body = sp.child(nsP, "txBody")
			break
		}
	}
	if body == nil {
		ex.warn(si.notes, "notes slide has no body placeholder; notes not updated")
		return
	}
	if err := ensurePrefixes(doc.root(), si.notes); err != nil {
		ex.warn(si.notes, "notes not updated: %v", err)
		return
	}
	first := body.child(nsA, "p")
	pPr, rPr := "", `<a:rPr lang="en-US"/>`
	if first != nil {
		if e := first.child(nsA, "pPr"); e != nil {
			pPr = string(e.bytes())
		}
		if r := first.child(nsA, "r"); r != nil && r.child(nsA, "rPr") != nil {
			rPr = string(r.child(nsA, "rPr").bytes())
		}
	}
	var kids []*xnode
	placed := false
	for _, k := range body.kids {
		if k.is(nsA, "p") {
			if !placed {
				for _, line := range strings.Split(s.Slide.Notes, "\n") {
					frag := "<a:p>" + pPr + notesRuns(line, rPr)
					kids = append(kids, rawNode(frag+"</a:p>"))
				}
				placed = true
			}
			continue
		}
		kids = append(kids, k)
	}
	body.kids = kids
	body.dirty = true
	fixDirty(doc)
	ex.out.put(si.notes, doc.bytes())
}

// inheritedNode reports a node imported from a layout or master
// (Options.Inherited) rather than from the slide itself.
func inheritedNode(n *sg.Node, slidePart string) bool {
	if n.Source == nil || n.Source.Format != "pptx" || n.Source.Part == slidePart {
		return false
	}
	return strings.HasPrefix(n.Source.Part, "ppt/slideLayouts/") || strings.HasPrefix(n.Source.Part, "ppt/slideMasters/")
}

// setTransition replaces the slide's p:transition (also one wrapped in
// mc:AlternateContent) with the scene graph's (ECMA-376 §19.3.1.50).
func setTransition(root *xnode, tr *sg.Transition) {
	var kids []*xnode
	for _, k := range root.kids {
		if k.is(nsP, "transition") {
			continue
		}
		if k.is(nsMC, "AlternateContent") && (k.path(nsMC, "Fallback").child(nsP, "transition") != nil || k.child(nsMC, "Choice").child(nsP, "transition") != nil) {
			continue
		}
		kids = append(kids, k)
	}
	root.kids = kids
	root.dirty = true
	if tr == nil {
		return
	}
	typ := tr.Type
	if typ == "" || !validTransition[typ] {
		typ = "fade"
	}
	spd := "med"
	switch {
	case tr.DurationMs > 0 && tr.DurationMs <= 500:
		spd = "fast"
	case tr.DurationMs >= 1000:
		spd = "slow"
	}
	frag := `<p:transition spd="` + spd + `">`
	if typ != "none" {
		frag += "<p:" + typ
		if tr.Direction != "" && (typ == "push" || typ == "wipe" || typ == "cover" || typ == "pull") {
			frag += ` dir="` + esc(tr.Direction) + `"`
		}
		frag += "/>"
	}
	frag += "</p:transition>"
	root.insertOrdered(rawNode(frag), []string{"cSld", "clrMapOvr", "transition", "timing", "extLst"})
}

// validTransition lists the PresentationML 2007 transition elements.
var validTransition = map[string]bool{
	"none": true, "blinds": true, "checker": true, "circle": true, "comb": true, "cover": true, "cut": true, "diamond": true,
	"dissolve": true, "fade": true, "newsflash": true, "plus": true, "pull": true, "push": true, "random": true,
	"randomBar": true, "split": true, "strips": true, "wedge": true, "wheel": true, "wipe": true, "zoom": true,
}
