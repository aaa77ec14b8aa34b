package pptx

import (
	"fmt"
	"path"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// relPackage relates a chart part to its embedded workbook (the target of
// c:externalData, ECMA-376 Part 1 §21.2).
const (
	relPackage = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/package"
)

// chartFor writes the chart part of a CHART node drawn by a new graphic
// frame on slide part part and returns the relationship id: a copy of the
// chart part the node was imported from (Chart.Part) with its workbook
// and style parts, patched to the node's data (copyChart); else a chart
// part written from the data.
func (ex *exporter) chartFor(part string, w *writer, n *sg.Node) (string, error) {
	if src := n.Chart.Part; src != "" && ex.im.p.has(src) {
		cp, err := ex.copyChart(src, w, n)
		if err == nil {
			return ex.out.relsFor(part).add(relChart, cp, false), nil
		}
		ex.warn(part, "chart %s: its original part %s could not be copied (%v); written from its data without its workbook", n.ID, src, err)
	}
	cp := ex.out.freeName("ppt/charts", "chart", ".xml")
	ex.out.put(cp, []byte(w.chartPartXML(n.Chart)))
	ex.out.ctOver[cp] = ctChart
	return ex.out.relsFor(part).add(relChart, cp, false), nil
}

// patchChartInPlace writes an edited chart over the chart part it was
// imported from: the part's XML is patched where the data differ (series
// names into the name caches, values into the value caches with their
// number formats, colours into the series' c:spPr, titles, legend, axes,
// type) and the embedded workbook gets the same values in the cells the
// formulas name. false when the node does not own its original part (the
// part was written for another node already, or the node carries another
// chart's part) or the part cannot be patched; the caller then writes a
// new part.
func (ex *exporter) patchChartInPlace(slide string, w *writer, n, o *sg.Node) bool {
	src := o.Chart.Part
	if src == "" || (n.Chart.Part != src && n.Chart.Part != "") || !ex.im.p.has(src) || ex.chartDone[src] {
		return false
	}
	if err := ex.writeChart(src, src, w, n.Chart, o.Chart, ""); err != nil {
		ex.warn(slide, "chart %s: %v; written as a new chart part", n.ID, err)
		return false
	}
	ex.chartDone[src] = true
	return true
}

// copyChart writes a copy of chart part src under a new name for node n:
// the chart XML and every part it relates to (embedded workbook, chart
// style and colours, user shapes, theme override; pictures are shared)
// byte for byte under new names, with the copy's relationships pointing
// at the copies; then the copy is patched where n's data differ from what
// src holds. Returns the new part's name.
func (ex *exporter) copyChart(src string, w *writer, n *sg.Node) (string, error) {
	orig, err := ex.chartAsImported(src)
	if err != nil {
		return "", err
	}
	rels, err := ex.im.p.relsOf(src)
	if err != nil {
		return "", err
	}
	cp := ex.out.freeName("ppt/charts", "chart", ".xml")
	ex.out.put(cp, nil) // reserve the name
	ex.out.ctOver[cp] = ctChart
	renamed := map[string]string{} // original target -> copy
	for _, r := range rels {
		if r.External || r.Type == relImage || renamed[r.Target] != "" || !ex.im.p.has(r.Target) {
			continue
		}
		np, err := ex.copyPart(r.Target)
		if err != nil {
			return "", err
		}
		renamed[r.Target] = np
	}
	if rp := relsPart(src); ex.im.p.has(rp) {
		doc, err := ex.im.p.xml(rp)
		if err != nil {
			return "", err
		}
		fresh, err := parseXML(rp, doc.bytes(), xmlLimits{maxDepth: ex.im.p.lim.MaxXMLDepth})
		if err != nil {
			return "", err
		}
		for _, e := range fresh.root().all(nsRels, "Relationship") {
			if e.av("TargetMode") == "External" {
				continue
			}
			if np, ok := renamed[resolveTarget(src, e.av("Target"))]; ok {
				e.setAttr("Target", relativeTarget(cp, np))
			}
		}
		fixDirty(fresh)
		ex.out.put(relsPart(cp), fresh.bytes())
	}
	wb := ""
	if t, ok := ex.workbookOf(src); ok {
		wb = renamed[t]
	}
	return cp, ex.writeChart(src, cp, w, n.Chart, orig, wb)
}

// copyPart writes part src of the original package byte for byte under a
// new name in its folder (chart2.xml -> chart<N>.xml, N above every
// number there), with its content type and its relationships part, whose
// relative targets still resolve from the same folder. Returns the new
// name.
func (ex *exporter) copyPart(src string) (string, error) {
	data, err := ex.im.p.read(src)
	if err != nil {
		return "", err
	}
	dir, file := path.Split(src)
	ext := path.Ext(file)
	base := strings.TrimRight(strings.TrimSuffix(file, ext), "0123456789")
	np := ex.out.freeName(strings.TrimSuffix(dir, "/"), base, ext)
	ex.out.put(np, data)
	if ct := ex.overrideType(src); ct != "" {
		ex.out.ctOver[np] = ct
	}
	if rp := relsPart(src); ex.im.p.has(rp) {
		rb, err := ex.im.p.read(rp)
		if err != nil {
			return "", err
		}
		ex.out.put(relsPart(np), rb)
		// Edits to the copy's relationships start from these.
		doc, err := parseXML(rp, rb, xmlLimits{maxDepth: ex.im.p.lim.MaxXMLDepth})
		if err != nil {
			return "", err
		}
		rels, err := ex.im.p.relsOf(src)
		if err != nil {
			return "", err
		}
		ex.out.setRels(np, doc, append([]rel(nil), rels...))
	}
	return np, nil
}

// writeChart writes chart part dst from the bytes of the original part
// src, patched from old (what src holds) to ch. workbook names the
// embedded workbook part to update ("" for src's own). Unchanged data
// write src's bytes as they are.
func (ex *exporter) writeChart(src, dst string, w *writer, ch, old *sg.Chart, workbook string) error {
	data, err := ex.im.p.read(src)
	if err != nil {
		return err
	}
	a, b := *ch, *old
	a.Part, b.Part = "", ""
	if jsonOf(&a) == jsonOf(&b) {
		ex.out.put(dst, data)
		return nil
	}
	doc, err := parseXML(src, data, xmlLimits{maxDepth: ex.im.p.lim.MaxXMLDepth})
	if err != nil {
		return err
	}
	root := doc.root()
	if err := ensurePrefixesFor(root, dst, map[string]string{"c": nsC, "a": nsA}); err != nil {
		return err
	}
	if workbook == "" {
		workbook, _ = ex.workbookOf(src)
	}
	book := &chartBook{}
	defer book.close()
	if workbook != "" {
		if b, ok := ex.out.data[workbook]; ok {
			book.data = b
		} else if book.data, err = ex.im.p.read(workbook); err != nil {
			return err
		}
	}
	ce := &chartEdit{root: root, w: w, book: book, warn: func(format string, args ...any) { ex.warn(dst, format, args...) }}
	if err := ce.apply(ch, old); err != nil {
		return err
	}
	fixDirty(doc)
	ex.out.put(dst, doc.bytes())
	if workbook == "" {
		return nil
	}
	nb, changed, err := applyWorkbook(book, &ce.wb)
	if err != nil {
		ex.warn(dst, "the chart's workbook %s was left as it was: %v", workbook, err)
		return nil
	}
	if changed {
		ex.out.put(workbook, nb)
	}
	return nil
}

// workbookOf returns the embedded workbook part of a chart part: the
// target of its c:externalData relationship.
func (ex *exporter) workbookOf(chartPart string) (string, bool) {
	doc, err := ex.im.p.xml(chartPart)
	if err != nil {
		return "", false
	}
	id := doc.root().child(nsC, "externalData").attrNS(nsR, "id")
	if id == "" {
		return "", false
	}
	rels, err := ex.im.p.relsOf(chartPart)
	if err != nil {
		return "", false
	}
	r, ok := relByID(rels, id)
	if !ok || r.External || !ex.im.p.has(r.Target) {
		return "", false
	}
	return r.Target, true
}

// overrideType returns the content type [Content_Types].xml overrides for
// a part of the original package ("" when its extension's default
// applies).
func (ex *exporter) overrideType(part string) string {
	doc, err := ex.im.p.xml("[Content_Types].xml")
	if err != nil {
		return ""
	}
	for _, o := range doc.root().all(nsCT, "Override") {
		if strings.TrimPrefix(o.av("PartName"), "/") == part {
			return o.av("ContentType")
		}
	}
	return ""
}

// chartAsImported reads chart part src as import did, with the colours
// of the first slide that shows it (a slide can remap theme colours).
func (ex *exporter) chartAsImported(src string) (*sg.Chart, error) {
	im := ex.im
	for _, si := range im.slides {
		for _, r := range si.rels {
			if r.Type != relChart || r.Target != src {
				continue
			}
			cc := si.cc
			if cc == nil && si.lay != nil {
				doc, err := im.p.xml(si.part)
				if err != nil {
					return nil, err
				}
				cc = slideColors(doc.root(), si.lay)
			}
			if cc != nil {
				return im.chart(src, cc)
			}
		}
	}
	for _, k := range sortedKeys(im.masters) {
		m := im.masters[k]
		return im.chart(src, &colorCtx{th: m.th, clrMap: m.clrMap})
	}
	return nil, fmt.Errorf("no slide master to resolve the chart's colours")
}
