package pptx

import (
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Copies of imported slides (duplicate_slide). A copy keeps the Source of
// every node it copies, so export writes it as PowerPoint duplicates a
// slide: the original's XML under a new part name, then patched where the
// copy differs from the imported slide, as an edited slide is. What the
// scene graph does not model (SmartArt and other graphic frames,
// placeholders of tables and charts, connector ends, exact line spacing,
// extLst data) is on the copy as on the original.

// slideCopy is a copy's XML before it is written: the imported slide it
// copies and the copy's slideInfo (part, cloned document; node is the
// imported slide, the reference the copy's edits are taken against).
type slideCopy struct {
	orig, cs *slideInfo
}

// slideOwners maps each imported slide part to the slide node written
// there: the imported slide itself (same id) while the deck has it, else
// the first node carrying its Source (a copy whose original was deleted).
// Every other node carrying that Source is a copy and gets a new part.
func (ex *exporter) slideOwners() map[string]*sg.Node {
	owner := map[string]*sg.Node{}
	fromPPTX := func(s *sg.Node) (*slideInfo, bool) {
		if s.Source == nil || s.Source.Format != "pptx" {
			return nil, false
		}
		si, ok := ex.im.bySlide[s.Source.Part]
		return si, ok
	}
	for _, s := range ex.d.Slides {
		if si, ok := fromPPTX(s); ok && si.node.ID == s.ID {
			owner[si.part] = s
		}
	}
	for _, s := range ex.d.Slides {
		if si, ok := fromPPTX(s); ok && owner[si.part] == nil {
			owner[si.part] = s
		}
	}
	return owner
}

// cloneSlide prepares the copy s of imported slide orig, to be written
// under part: orig's document cloned (before any edit touches it), and
// the copy's nodes tied to the cloned elements (adoptShapes).
func (ex *exporter) cloneSlide(orig *slideInfo, s *sg.Node, part string) *slideCopy {
	m := map[*xnode]*xnode{}
	doc := orig.doc.clone(m)
	cs := &slideInfo{part: part, doc: doc, spTree: m[orig.spTree], node: orig.node, lay: orig.lay,
		rels: orig.rels, maxID: orig.maxID, cc: orig.cc}
	for e, c := range m {
		if ex.im.equations[e] {
			ex.im.equations[c] = true
		}
	}
	ex.adoptShapes(orig, cs, s, m)
	return &slideCopy{orig: orig, cs: cs}
}

// adoptShapes ties the nodes of slide s that carry the Source of a shape
// of imported slide orig (same part and p:cNvPr id; table cells by their
// grid position) to that shape's element, in cs's document (m maps orig's
// elements to cs's; nil when cs is orig). Export then patches the element
// where the node differs from the shape as imported. A shape id that
// occurs twice on orig (a damaged file) ties nothing: those nodes are
// written fresh.
func (ex *exporter) adoptShapes(orig, cs *slideInfo, s *sg.Node, m map[*xnode]*xnode) {
	el := func(x *xnode) *xnode {
		if m == nil || x == nil {
			return x
		}
		return m[x]
	}
	byShape := map[string]*shapeInfo{}
	twice := map[string]bool{}
	orig.node.Walk(func(n, _ *sg.Node, _ int) bool {
		info := ex.im.shapes[n.ID]
		if n == orig.node || info == nil || n.Source == nil {
			return true
		}
		k := n.Source.ShapeID
		twice[k] = byShape[k] != nil
		byShape[k] = info
		return true
	})
	s.Walk(func(n, _ *sg.Node, _ int) bool {
		if n == s || n.Source == nil || n.Source.Format != "pptx" || n.Source.Part != orig.part {
			return true
		}
		info := byShape[n.Source.ShapeID]
		if info == nil || twice[n.Source.ShapeID] || ex.im.shapes[n.ID] != nil {
			return true
		}
		ex.im.shapes[n.ID] = &shapeInfo{elem: el(info.elem), node: info.node, slide: cs, m: info.m, kind: info.kind,
			parent: el(info.parent), childMap: info.childMap}
		return true
	})
}

// sharedRel reports a relationship a slide and its copy both keep to the
// same target: the layout, pictures and media, hyperlinks and jumps to
// slides. Any other part a slide relates to (charts, diagrams, comments,
// tags, embedded objects) is the slide's own and is copied with it.
func sharedRel(r rel) bool {
	if r.External {
		return true
	}
	for _, suffix := range []string{"/slideLayout", "/image", "/hdphoto", "/media", "/video", "/audio", "/hyperlink", "/slide"} {
		if strings.HasSuffix(r.Type, suffix) {
			return true
		}
	}
	return false
}

// copySlide writes the copy sc of an imported slide for slide node s: its
// relationships under the ids the XML uses (shared targets kept; the
// notes slide, diagrams and other own parts copied; charts copied for the
// copy's chart nodes by chartFor, with the copy's data), then the cloned
// XML patched where s differs from the imported slide (patchSlide).
func (ex *exporter) copySlide(sc *slideCopy, s *sg.Node) error {
	orig, cs := sc.orig, sc.cs
	rels := ex.out.relsFor(cs.part)
	for _, r := range orig.rels {
		switch {
		case sharedRel(r):
			rels.addID(r.ID, r.Type, r.Target, r.External)
		case r.Type == relChart:
			// Written below for the chart node that shows it.
		case !ex.im.p.has(r.Target):
			// A dangling relationship stays as dangling as it was.
			rels.addID(r.ID, r.Type, r.Target, false)
		case r.Type == relNotesSlide:
			np, err := ex.copyNotes(r.Target, cs.part)
			if err != nil {
				return err
			}
			cs.notes = np
			rels.addID(r.ID, r.Type, np, false)
		default:
			np, err := ex.copyPart(r.Target)
			if err != nil {
				return err
			}
			rels.addID(r.ID, r.Type, np, false)
		}
	}
	maxID := cs.maxID
	w := ex.writerFor(cs.part, &maxID)
	var err error
	s.Walk(func(n, _ *sg.Node, _ int) bool {
		info := ex.im.shapes[n.ID]
		if err != nil || n.Type != sg.TypeChart || n.Chart == nil || info == nil || info.slide != cs || info.kind != "graphicFrame" {
			return err == nil
		}
		ch := info.elem.path(nsA, "graphic", "graphicData").child(nsC, "chart")
		if ch == nil {
			return true
		}
		var rid string
		if rid, err = w.chart(n); err != nil {
			return false
		}
		for i := range ch.attrs {
			if ch.attrs[i].ns == nsR && ch.attrs[i].local == "id" {
				ch.attrs[i].value = rid
			}
		}
		ch.dirty = true
		// The chart is written: patchShape has nothing left to do for it.
		o := *info.node
		o.Chart = n.Chart
		info.node = &o
		return true
	})
	if err != nil {
		return err
	}
	if err := ex.patchSlide(cs, s); err != nil {
		return err
	}
	ex.out.ctOver[cs.part] = ctSlide
	return nil
}

// copyNotes writes a copy of notes slide src for the slide copy at
// slidePart: its XML byte for byte (patchSlide rewrites the text when the
// copy's notes differ), its relationships with the one back to the slide
// pointed at the copy. Returns the new part's name.
func (ex *exporter) copyNotes(src, slidePart string) (string, error) {
	np, err := ex.copyPart(src)
	if err != nil {
		return "", err
	}
	nr := ex.out.relsFor(np)
	for _, r := range nr.live() {
		if r.Type == relSlide && !r.External {
			nr.retarget(r.ID, slidePart)
		}
	}
	return np, nil
}
