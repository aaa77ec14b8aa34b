package pptx

import (
	"fmt"
	"math"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// Speaker notes of slides written fresh (ECMA-376 Part 1 §19.3.1.26
// p:notes, §19.3.1.27 p:notesMaster). A notes slide needs a notes master,
// and the presentation lists that master in p:notesMasterIdLst; a package
// that has none (every fresh package, and decks whose author never opened
// the notes pane) gets a minimal one.

const (
	relNotesMaster = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesMaster"
	ctNotesSlide   = "application/vnd.openxmlformats-officedocument.presentationml.notesSlide+xml"
	ctNotesMaster  = "application/vnd.openxmlformats-officedocument.presentationml.notesMaster+xml"
	ctTheme        = "application/vnd.openxmlformats-officedocument.theme+xml"
)

// newNotes writes the notes slide of a new slide part: one paragraph per
// line of Slide.Notes in the body placeholder (as notes of an existing
// slide are rewritten, and as Import reads them back), the slide image
// placeholder, relationships to the slide and the notes master both ways,
// and its content type.
func (ex *exporter) newNotes(slidePart string, s *sg.Node) error {
	nm, err := ex.notesMaster()
	if err != nil {
		return fmt.Errorf("export: speaker notes of slide %s: %w", s.ID, err)
	}
	part := ex.out.freeName("ppt/notesSlides", "notesSlide", ".xml")
	// A placeholder the notes master has takes its box from there, as
	// PowerPoint writes notes slides; one it lacks gets its own box.
	var have map[string]bool
	if doc, err := ex.notesMasterDoc(nm); err == nil {
		have = map[string]bool{}
		for _, e := range placeholders(doc.root().path(nsP, "cSld", "spTree")) {
			have[phType(phOf(e))] = true
		}
	}
	img, body := ex.notesBoxes()
	spPr := func(typ string, box [4]int64) string {
		if have[typ] {
			return `<p:spPr/>`
		}
		return fmt.Sprintf(`<p:spPr><a:xfrm><a:off x="%d" y="%d"/><a:ext cx="%d" cy="%d"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>`, box[0], box[1], box[2], box[3])
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n")
	b.WriteString(`<p:notes xmlns:a="` + nsA + `" xmlns:r="` + nsR + `" xmlns:p="` + nsP + `"><p:cSld><p:spTree>`)
	b.WriteString(`<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>`)
	b.WriteString(`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr>` + spPr("sldImg", img) + `</p:sp>`)
	b.WriteString(`<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes Placeholder 2"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr>` + spPr("body", body))
	b.WriteString(`<p:txBody><a:bodyPr/><a:lstStyle/>` + notesParagraphs(s.Slide.Notes) + `</p:txBody></p:sp>`)
	b.WriteString(`</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:notes>`)
	ex.out.put(part, []byte(b.String()))
	ex.out.ctOver[part] = ctNotesSlide
	ex.out.relsFor(part).add(relNotesMaster, nm, false)
	ex.out.relsFor(part).add(relSlide, slidePart, false)
	ex.out.relsFor(slidePart).add(relNotesSlide, part, false)
	return nil
}

// notesParagraphs writes notes text one a:p per line ("\n"), an empty line
// as an empty paragraph, the rule exporter.notes and importer.notesText
// follow. A line separator (U+2028, what import reads a:br as) or a
// vertical tab (PowerPoint's soft return in copied text) becomes a:br; other characters XML 1.0 does not allow (C0 controls but tab, CR
// and LF; U+FFFE, U+FFFF) are dropped, as one would make the part, and so
// the whole file, unreadable.
func notesParagraphs(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		b.WriteString("<a:p>" + notesRuns(line, `<a:rPr lang="en-US" dirty="0"/>`))
		if line == "" {
			b.WriteString(`<a:endParaRPr lang="en-US" dirty="0"/>`)
		}
		b.WriteString("</a:p>")
	}
	return b.String()
}

// notesRuns writes one line of notes as runs with run properties rPr (an
// a:rPr element or ""), a line separator or vertical tab as a:br with the
// same properties, characters XML cannot hold dropped.
func notesRuns(line, rPr string) string {
	var b strings.Builder
	brPr := rPr
	if brPr == "" {
		brPr = `<a:rPr lang="en-US" dirty="0"/>`
	}
	for i, seg := range strings.Split(strings.ReplaceAll(xmlChars(line), string(lineSep), "\v"), "\v") {
		if i > 0 {
			b.WriteString("<a:br>" + brPr + "</a:br>")
		}
		if seg != "" {
			b.WriteString("<a:r>" + rPr + "<a:t>" + escText(seg) + "</a:t></a:r>")
		}
	}
	return b.String()
}

// xmlChars drops the characters XML 1.0 §2.2 does not allow, keeping the
// vertical tab for notesParagraphs to turn into a:br.
func xmlChars(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == '\v':
			return r
		case r < 0x20, r == 0xFFFE, r == 0xFFFF:
			return -1
		}
		return r
	}, s)
}

// notesMaster returns the package's notes master part: the one
// presentation.xml lists in p:notesMasterIdLst when its part exists, else
// a new one it generates and lists (generateNotesMaster).
func (ex *exporter) notesMaster() (string, error) {
	presRels := ex.out.relsFor(ex.im.presPart)
	live := presRels.live()
	for _, id := range ex.im.pres.path(nsP, "notesMasterIdLst").all(nsP, "notesMasterId") {
		if r, ok := relByID(live, id.attrNS(nsR, "id")); ok && !r.External && r.Type == relNotesMaster && ex.out.exists(r.Target) {
			return r.Target, nil
		}
	}
	return ex.generateNotesMaster()
}

// notesMasterDoc parses a notes master, original or generated.
func (ex *exporter) notesMasterDoc(part string) (*xnode, error) { return ex.partDoc(part) }

// partDoc parses a part as export has written it so far: a new or
// rewritten part from its bytes, else the original's.
func (ex *exporter) partDoc(part string) (*xnode, error) {
	if b, ok := ex.out.data[part]; ok {
		return parseXML(part, b, xmlLimits{maxDepth: ex.im.p.lim.MaxXMLDepth})
	}
	return ex.im.p.xml(part)
}

// notesSize is the notes page size from p:notesSz (EMU), PowerPoint's
// portrait letter page (6858000 x 9144000) when absent or invalid.
func (ex *exporter) notesSize() (int64, int64) {
	sz := ex.im.pres.child(nsP, "notesSz")
	cx, cy := inum(sz.av("cx")), inum(sz.av("cy"))
	if cx <= 0 || cy <= 0 {
		return 6858000, 9144000
	}
	return cx, cy
}

// notesBoxes are the slide image and notes text boxes (x, y, cx, cy EMU) on
// the notes page, in the proportions of PowerPoint's default notes master:
// the picture of the slide in the upper part at the slide's aspect ratio,
// the text below it, both within 10% margins left and right.
func (ex *exporter) notesBoxes() (img, body [4]int64) {
	nw, nh := ex.notesSize()
	aspect := 0.5625
	if w, h := ex.d.Width, ex.d.Height; w > 0 && h > 0 && !math.IsInf(w, 0) && !math.IsInf(h, 0) {
		aspect = h / w
	}
	iw := 0.8 * float64(nw)
	ih := iw * aspect
	if maxH := 0.3375 * float64(nh); ih > maxH {
		ih, iw = maxH, maxH/aspect
	}
	iy := 0.125 * float64(nh)
	img = [4]int64{int64(math.Round((float64(nw) - iw) / 2)), int64(math.Round(iy)), int64(math.Round(iw)), int64(math.Round(ih))}
	body = [4]int64{int64(math.Round(0.1 * float64(nw))), int64(math.Round(0.48125 * float64(nh))), int64(math.Round(0.8 * float64(nw))), int64(math.Round(0.39375 * float64(nh)))}
	return img, body
}

// generateNotesMaster adds a minimal notes master to the package: the
// master (slide image and body placeholders, the Office colour map and a
// 12 pt notes text style), a theme of its own made from the deck's tokens
// (a master's theme is not shared, as PowerPoint writes them), their
// relationships and content types, and the p:notesMasterIdLst entry of the
// presentation (after p:sldMasterIdLst, ECMA-376 §19.2.1.26 order).
func (ex *exporter) generateNotesMaster() (string, error) {
	pres := ex.im.pres
	if err := ensurePrefixes(pres, ex.im.presPart); err != nil {
		return "", err
	}
	part := ex.out.freeName("ppt/notesMasters", "notesMaster", ".xml")
	themePart := ex.out.freeName("ppt/theme", "theme", ".xml")
	img, body := ex.notesBoxes()
	box := func(b [4]int64) string {
		return fmt.Sprintf(`<p:spPr><a:xfrm><a:off x="%d" y="%d"/><a:ext cx="%d" cy="%d"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>`, b[0], b[1], b[2], b[3])
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n")
	b.WriteString(`<p:notesMaster xmlns:a="` + nsA + `" xmlns:r="` + nsR + `" xmlns:p="` + nsP + `"><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>`)
	b.WriteString(`<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>`)
	b.WriteString(`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg" idx="2"/></p:nvPr></p:nvSpPr>` +
		box(img) + `</p:sp>`)
	b.WriteString(`<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes Placeholder 2"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" sz="quarter" idx="3"/></p:nvPr></p:nvSpPr>` +
		box(body) + `<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></p:txBody></p:sp>`)
	b.WriteString(`</p:spTree></p:cSld>`)
	b.WriteString(`<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>`)
	b.WriteString(`<p:notesStyle><a:lvl1pPr marL="0" algn="l" rtl="0"><a:defRPr sz="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/></a:defRPr></a:lvl1pPr></p:notesStyle>`)
	b.WriteString(`</p:notesMaster>`)
	ex.out.put(part, []byte(b.String()))
	ex.out.ctOver[part] = ctNotesMaster
	ex.out.put(themePart, []byte(themeXML(ex.d)))
	ex.out.ctOver[themePart] = ctTheme
	ex.out.relsFor(part).add(relTheme, themePart, false)
	rid := ex.out.relsFor(ex.im.presPart).add(relNotesMaster, part, false)
	lst := newElem("p", "notesMasterIdLst", nsP)
	id := newElem("p", "notesMasterId", nsP)
	id.attrs = append(id.attrs, xattr{prefix: "r", local: "id", ns: nsR, value: rid})
	lst.kids = []*xnode{id}
	if old := pres.child(nsP, "notesMasterIdLst"); old != nil { // lists a missing part
		pres.replaceKid(old, lst)
	} else {
		pres.insertOrdered(lst, []string{"sldMasterIdLst", "notesMasterIdLst", "handoutMasterIdLst", "sldIdLst", "sldSz", "notesSz"})
	}
	return part, nil
}
