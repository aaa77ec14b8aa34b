package pptx

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math"
	"strings"
	"time"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// defaultPalette fills theme slots the deck's tokens do not name (the Office
// 2013+ palette).
var defaultPalette = map[string]string{
	"dk1": "000000", "lt1": "FFFFFF", "dk2": "44546A", "lt2": "E7E6E6",
	"accent1": "4472C4", "accent2": "ED7D31", "accent3": "A5A5A5", "accent4": "FFC000",
	"accent5": "5B9BD5", "accent6": "70AD47", "hlink": "0563C1", "folHlink": "954F72",
}

// skeleton builds a minimal valid package with no slides: presentation,
// one master, the standard layouts (skeletonLayouts) and a theme made from
// the deck's tokens. A deck with no .pptx source is exported by adding its
// slides to this.
func skeleton(d *sg.Deck) []byte {
	cx, cy := sg.PxToEMU(d.Width), sg.PxToEMU(d.Height)
	if cx <= 0 || cy <= 0 || d.Width > 1e6 || d.Height > 1e6 || math.IsNaN(d.Width) || math.IsNaN(d.Height) {
		cx, cy = 12192000, 6858000
	}
	const hdr = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"
	ns := `xmlns:a="` + nsA + `" xmlns:r="` + nsR + `" xmlns:p="` + nsP + `"`
	theme := themeXML(d)
	lvl := func(tag, font string, sz int) string {
		return fmt.Sprintf(`<p:%s><a:lvl1pPr><a:defRPr sz="%d"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="%s"/><a:ea typeface="%s"/><a:cs typeface="%s"/></a:defRPr></a:lvl1pPr></p:%s>`,
			tag, sz, font, font[:3]+"-ea", font[:3]+"-cs", tag)
	}
	master := hdr + `<p:sldMaster ` + ns + `><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg>` + spTreeXML(masterPlaceholders, cx, cy) + `</p:cSld>` +
		`<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>` +
		`<p:sldLayoutIdLst>`
	// Layout ids follow the master's (2147483648) and must be unique among
	// them (ECMA-376 §19.3.1.41: ST_SlideLayoutId >= 2147483648).
	for i := range skeletonLayouts {
		master += fmt.Sprintf(`<p:sldLayoutId id="%d" r:id="rId%d"/>`, 2147483649+i, i+1)
	}
	master += `</p:sldLayoutIdLst>` +
		`<p:txStyles>` + lvl("titleStyle", "+mj-lt", 4400) + lvl("bodyStyle", "+mn-lt", 2800) + lvl("otherStyle", "+mn-lt", 1800) + `</p:txStyles></p:sldMaster>`
	pres := hdr + `<p:presentation ` + ns + ` saveSubsetFonts="1"><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst/>` +
		fmt.Sprintf(`<p:sldSz cx="%d" cy="%d"/><p:notesSz cx="6858000" cy="9144000"/>`, cx, cy) +
		`<p:defaultTextStyle><a:defPPr><a:defRPr lang="en-US"/></a:defPPr></p:defaultTextStyle></p:presentation>`
	rels := func(entries ...string) string {
		s := hdr + `<Relationships xmlns="` + nsRels + `">`
		for i := 0; i+1 < len(entries); i += 2 {
			s += fmt.Sprintf(`<Relationship Id="rId%d" Type="%s" Target="%s"/>`, i/2+1, entries[i], entries[i+1])
		}
		return s + `</Relationships>`
	}
	const officeRel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	layoutCT := ""
	var masterRels []string
	for i := range skeletonLayouts {
		layoutCT += fmt.Sprintf(`<Override PartName="/ppt/slideLayouts/slideLayout%d.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideLayout+xml"/>`, i+1)
		masterRels = append(masterRels, relSlideLayout, fmt.Sprintf("../slideLayouts/slideLayout%d.xml", i+1))
	}
	ct := hdr + `<Types xmlns="` + nsCT + `"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
		`<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>` +
		`<Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideMaster+xml"/>` +
		layoutCT +
		`<Override PartName="/ppt/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>` +
		`<Override PartName="/ppt/presProps.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presProps+xml"/>` +
		`<Override PartName="/ppt/viewProps.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.viewProps+xml"/>` +
		`<Override PartName="/ppt/tableStyles.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.tableStyles+xml"/>` +
		`<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
		`<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/></Types>`
	core := hdr + `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>` + esc(d.Name) + `</dc:title><dc:creator>ACE</dc:creator></cp:coreProperties>`
	app := hdr + `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>ACE</Application></Properties>`
	parts := []struct{ name, body string }{
		{"[Content_Types].xml", ct},
		{"_rels/.rels", rels(relOfficeDoc, "ppt/presentation.xml", "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties", "docProps/core.xml", officeRel+"extended-properties", "docProps/app.xml")},
		{"docProps/core.xml", core},
		{"docProps/app.xml", app},
		{"ppt/presentation.xml", pres},
		{"ppt/_rels/presentation.xml.rels", rels(relSlideMaster, "slideMasters/slideMaster1.xml", relTheme, "theme/theme1.xml", officeRel+"presProps", "presProps.xml", officeRel+"viewProps", "viewProps.xml", officeRel+"tableStyles", "tableStyles.xml")},
		{"ppt/presProps.xml", hdr + `<p:presentationPr ` + ns + `/>`},
		{"ppt/viewProps.xml", hdr + `<p:viewPr ` + ns + `/>`},
		{"ppt/tableStyles.xml", hdr + `<a:tblStyleLst xmlns:a="` + nsA + `" def="{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"/>`},
		{"ppt/slideMasters/slideMaster1.xml", master},
		{"ppt/slideMasters/_rels/slideMaster1.xml.rels", rels(append(masterRels, relTheme, "../theme/theme1.xml")...)},
	}
	for i, l := range skeletonLayouts {
		body := hdr + `<p:sldLayout ` + ns + ` type="` + l.typ + `" preserve="1"><p:cSld name="` + esc(l.name) + `">` + spTreeXML(l.phs, cx, cy) +
			`</p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`
		parts = append(parts,
			struct{ name, body string }{fmt.Sprintf("ppt/slideLayouts/slideLayout%d.xml", i+1), body},
			struct{ name, body string }{fmt.Sprintf("ppt/slideLayouts/_rels/slideLayout%d.xml.rels", i+1), rels(relSlideMaster, "../slideMasters/slideMaster1.xml")})
	}
	parts = append(parts, struct{ name, body string }{"ppt/theme/theme1.xml", theme})
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		f, _ := zw.CreateHeader(&zip.FileHeader{Name: p.name, Method: zip.Deflate, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)})
		f.Write([]byte(p.body))
	}
	zw.Close()
	return buf.Bytes()
}

// themeXML is a theme part (a:theme, ECMA-376 §20.1.6) made from the deck's
// palette and font tokens; slots the tokens do not name take the Office
// 2013+ defaults (defaultPalette, Calibri Light / Calibri). The format
// scheme is the plainest valid one (solid fills, thin lines, no effects).
func themeXML(d *sg.Deck) string {
	fonts := d.Tokens.Fonts
	if fonts.Major.Latin == "" {
		fonts.Major.Latin = "Calibri Light"
	}
	if fonts.Minor.Latin == "" {
		fonts.Minor.Latin = "Calibri"
	}
	var clr bytes.Buffer
	for _, slot := range schemeSlots {
		h := defaultPalette[slot]
		if c, ok := d.Tokens.Colors[slot]; ok {
			h = hex6(c)
		}
		fmt.Fprintf(&clr, `<a:%s><a:srgbClr val="%s"/></a:%s>`, slot, h, slot)
	}
	font := func(tag string, f sg.ScriptFonts) string {
		return fmt.Sprintf(`<a:%s><a:latin typeface="%s"/><a:ea typeface="%s"/><a:cs typeface="%s"/></a:%s>`, tag, esc(f.Latin), esc(f.EastAsian), esc(f.Complex), tag)
	}
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<a:theme xmlns:a="` + nsA + `" name="ACE"><a:themeElements><a:clrScheme name="ACE">` + clr.String() + `</a:clrScheme>` +
		`<a:fontScheme name="ACE">` + font("majorFont", fonts.Major) + font("minorFont", fonts.Minor) + `</a:fontScheme>` +
		`<a:fmtScheme name="ACE"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst>` +
		`<a:lnStyleLst><a:ln w="6350"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="12700"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="19050"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst>` +
		`<a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>` +
		`<a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme>` +
		`</a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>`
}

// phSpec is one placeholder of a generated master or layout: its p:ph type
// ("" for a content placeholder, "obj"), idx, box as fractions of the slide
// size, and whether its text runs vertically.
type phSpec struct {
	typ        string
	idx        int
	sz         string // p:ph/@sz: "half", "quarter" or ""
	x, y, w, h float64
	vert       bool
}

// layoutSpec is one generated slide layout: its name (what Slide.Layout
// holds), its ST_SlideLayoutType and its placeholders.
type layoutSpec struct {
	name, typ string
	phs       []phSpec
}

// The boxes are those of the Office 2013+ "Office Theme" 16:9 template,
// divided by its slide size (12192000 x 6858000 EMU), so they scale with
// any slide size.
var (
	phTitle = phSpec{typ: "title", x: 0.06875, y: 0.05324, w: 0.8625, h: 0.19329}
	phBody  = phSpec{typ: "body", idx: 1, x: 0.06875, y: 0.26620, w: 0.8625, h: 0.63449}
	phObj   = phSpec{idx: 1, x: 0.06875, y: 0.26620, w: 0.8625, h: 0.63449}
	// masterPlaceholders are the master's title and body, which layouts
	// and slides inherit from by type (ECMA-376 §19.3.1.36).
	masterPlaceholders = []phSpec{phTitle, phBody}
	captionTitle       = phSpec{typ: "title", x: 0.06888, y: 0.06667, w: 0.32253, h: 0.23333}
	captionText        = phSpec{typ: "body", idx: 2, sz: "half", x: 0.06888, y: 0.3, w: 0.32253, h: 0.55579}
)

// skeletonLayouts are the layouts of a fresh package, in the order and
// with the names and types of PowerPoint's default template (ECMA-376
// §19.7.15 ST_SlideLayoutType), so "New Slide" offers the usual choices
// and a slide whose Slide.Layout names one of them lands on it.
var skeletonLayouts = []layoutSpec{
	{"Title Slide", "title", []phSpec{
		{typ: "ctrTitle", x: 0.125, y: 0.16366, w: 0.75, h: 0.34815},
		{typ: "subTitle", idx: 1, x: 0.125, y: 0.52524, w: 0.75, h: 0.24143},
	}},
	{"Title and Content", "obj", []phSpec{phTitle, phObj}},
	{"Section Header", "secHead", []phSpec{
		{typ: "title", x: 0.06823, y: 0.24930, w: 0.8625, h: 0.41597},
		{typ: "body", idx: 1, x: 0.06823, y: 0.66921, w: 0.8625, h: 0.21875},
	}},
	{"Two Content", "twoObj", []phSpec{phTitle,
		{idx: 1, sz: "half", x: 0.06875, y: 0.26620, w: 0.425, h: 0.63449},
		{idx: 2, sz: "half", x: 0.50625, y: 0.26620, w: 0.425, h: 0.63449},
	}},
	{"Comparison", "twoTxTwoObj", []phSpec{
		{typ: "title", x: 0.06888, y: 0.05324, w: 0.8625, h: 0.19329},
		{typ: "body", idx: 1, x: 0.06888, y: 0.24514, w: 0.42305, h: 0.12014},
		{idx: 2, sz: "half", x: 0.06888, y: 0.36528, w: 0.42305, h: 0.53727},
		{typ: "body", idx: 3, sz: "quarter", x: 0.50625, y: 0.24514, w: 0.42513, h: 0.12014},
		{idx: 4, sz: "quarter", x: 0.50625, y: 0.36528, w: 0.42513, h: 0.53727},
	}},
	{"Title Only", "titleOnly", []phSpec{phTitle}},
	{"Blank", "blank", nil},
	{"Content with Caption", "objTx", []phSpec{captionTitle,
		{idx: 1, x: 0.42513, y: 0.14398, w: 0.50625, h: 0.71065},
		captionText,
	}},
	{"Picture with Caption", "picTx", []phSpec{captionTitle,
		{typ: "pic", idx: 1, x: 0.42513, y: 0.14398, w: 0.50625, h: 0.71065},
		captionText,
	}},
	{"Title and Vertical Text", "vertTx", []phSpec{phTitle,
		{typ: "body", idx: 1, x: 0.06875, y: 0.26620, w: 0.8625, h: 0.63449, vert: true},
	}},
	{"Vertical Title and Text", "vertTitleAndTx", []phSpec{
		{typ: "title", x: 0.71562, y: 0.05324, w: 0.21563, h: 0.84746, vert: true},
		{typ: "body", idx: 1, x: 0.06875, y: 0.05324, w: 0.63437, h: 0.84746, vert: true},
	}},
}

// spTreeXML is the p:spTree of a generated master or layout on a slide of
// cx x cy EMU. Placeholders carry no text and no list or body properties
// beyond a vertical direction: a slide exported by ACE states its own, so
// what it inherits from here is only the box PowerPoint offers for new
// content.
func spTreeXML(phs []phSpec, cx, cy int64) string {
	var b strings.Builder
	b.WriteString(`<p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>`)
	for i, ph := range phs {
		name := map[string]string{"title": "Title", "ctrTitle": "Title", "subTitle": "Subtitle", "body": "Text Placeholder", "": "Content Placeholder", "pic": "Picture Placeholder"}[ph.typ]
		fmt.Fprintf(&b, `<p:sp><p:nvSpPr><p:cNvPr id="%d" name="%s %d"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph`, i+2, name, i+1)
		if ph.typ != "" {
			b.WriteString(` type="` + ph.typ + `"`)
		}
		if ph.sz != "" {
			b.WriteString(` sz="` + ph.sz + `"`)
		}
		if ph.idx != 0 {
			fmt.Fprintf(&b, ` idx="%d"`, ph.idx)
		}
		em := func(f float64, total int64) int64 { return int64(math.Round(f * float64(total))) }
		fmt.Fprintf(&b, `/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="%d" y="%d"/><a:ext cx="%d" cy="%d"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>`,
			em(ph.x, cx), em(ph.y, cy), em(ph.w, cx), em(ph.h, cy))
		b.WriteString(`<p:txBody><a:bodyPr`)
		if ph.vert {
			b.WriteString(` vert="eaVert"`)
		}
		b.WriteString(`/><a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></p:txBody></p:sp>`)
	}
	b.WriteString(`</p:spTree>`)
	return b.String()
}
