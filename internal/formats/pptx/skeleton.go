package pptx

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math"
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
// one master, one blank layout and a theme made from the deck's tokens. A
// deck with no .pptx source is exported by adding its slides to this.
func skeleton(d *sg.Deck) []byte {
	cx, cy := sg.PxToEMU(d.Width), sg.PxToEMU(d.Height)
	if cx <= 0 || cy <= 0 || d.Width > 1e6 || d.Height > 1e6 || math.IsNaN(d.Width) || math.IsNaN(d.Height) {
		cx, cy = 12192000, 6858000
	}
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
	const hdr = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"
	ns := `xmlns:a="` + nsA + `" xmlns:r="` + nsR + `" xmlns:p="` + nsP + `"`
	theme := hdr + `<a:theme xmlns:a="` + nsA + `" name="ACE"><a:themeElements><a:clrScheme name="ACE">` + clr.String() + `</a:clrScheme>` +
		`<a:fontScheme name="ACE">` + font("majorFont", fonts.Major) + font("minorFont", fonts.Minor) + `</a:fontScheme>` +
		`<a:fmtScheme name="ACE"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst>` +
		`<a:lnStyleLst><a:ln w="6350"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="12700"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="19050"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst>` +
		`<a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>` +
		`<a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme>` +
		`</a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>`
	lvl := func(tag, font string, sz int) string {
		return fmt.Sprintf(`<p:%s><a:lvl1pPr><a:defRPr sz="%d"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="%s"/><a:ea typeface="%s"/><a:cs typeface="%s"/></a:defRPr></a:lvl1pPr></p:%s>`,
			tag, sz, font, font[:3]+"-ea", font[:3]+"-cs", tag)
	}
	spTree := `<p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr></p:spTree>`
	master := hdr + `<p:sldMaster ` + ns + `><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg>` + spTree + `</p:cSld>` +
		`<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>` +
		`<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst>` +
		`<p:txStyles>` + lvl("titleStyle", "+mj-lt", 4400) + lvl("bodyStyle", "+mn-lt", 2800) + lvl("otherStyle", "+mn-lt", 1800) + `</p:txStyles></p:sldMaster>`
	layout := hdr + `<p:sldLayout ` + ns + ` type="blank" preserve="1"><p:cSld name="Blank">` + spTree + `</p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`
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
	ct := hdr + `<Types xmlns="` + nsCT + `"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
		`<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>` +
		`<Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideMaster+xml"/>` +
		`<Override PartName="/ppt/slideLayouts/slideLayout1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideLayout+xml"/>` +
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
		{"ppt/slideMasters/_rels/slideMaster1.xml.rels", rels(relSlideLayout, "../slideLayouts/slideLayout1.xml", relTheme, "../theme/theme1.xml")},
		{"ppt/slideLayouts/slideLayout1.xml", layout},
		{"ppt/slideLayouts/_rels/slideLayout1.xml.rels", rels(relSlideMaster, "../slideMasters/slideMaster1.xml")},
		{"ppt/theme/theme1.xml", theme},
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		f, _ := zw.CreateHeader(&zip.FileHeader{Name: p.name, Method: zip.Deflate, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)})
		f.Write([]byte(p.body))
	}
	zw.Close()
	return buf.Bytes()
}
