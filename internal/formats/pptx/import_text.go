package pptx

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// lineSep stands for a:br (a line break inside a paragraph); '\n' separates
// paragraphs (a:p), as in the scene graph's TextContent.
const lineSep = '\u2028'

// textCtx resolves the effective text style of a shape's runs through the
// PresentationML inheritance chain (ECMA-376 §19.3.1.51 p:txStyles; §21.1.2.4
// list styles), lowest priority first: the presentation's
// p:defaultTextStyle, the master's title/body/other style, the master
// placeholder's and the layout placeholder's a:lstStyle, the shape's
// p:style/a:fontRef, the shape's own a:lstStyle, then a:pPr and a:rPr.
type textCtx struct {
	im      *importer
	cc      *colorCtx
	th      *theme
	lists   []*xnode // containers of a:lvlNpPr, lowest priority first
	fontRef *xnode
	own     *xnode
	bodyPrs []*xnode // inherited a:bodyPr, lowest priority first
	linker  func(*xnode) *sg.Link
	tblTx   []*xnode // a:tcTxStyle of the table style parts, lowest first
	// slideNum, when > 0, is the text of slide number fields (see
	// shapeCtx.slideNum).
	slideNum int
}

// textCtx builds the chain for a p:sp.
func (c *shapeCtx) textCtx(e, style *xnode) *textCtx {
	m := c.si.lay.m
	t := &textCtx{im: c.im, cc: c.cc, th: m.th, fontRef: style.child(nsA, "fontRef"), linker: c.link, slideNum: c.slideNum}
	t.lists = append(t.lists, c.im.defText)
	ph := phOf(e)
	if ph == nil {
		t.lists = append(t.lists, m.txStyles.child(nsP, "otherStyle"))
		return t
	}
	switch phType(ph) {
	case "title", "ctrTitle":
		t.lists = append(t.lists, m.txStyles.child(nsP, "titleStyle"))
	case "dt", "ftr", "sldNum", "hdr":
		t.lists = append(t.lists, m.txStyles.child(nsP, "otherStyle"))
	default:
		t.lists = append(t.lists, m.txStyles.child(nsP, "bodyStyle"))
	}
	lp := matchPlaceholder(c.si.lay.phs, ph, false)
	var mp *xnode
	if lp != nil {
		mp = matchPlaceholder(m.phs, phOf(lp), true)
	} else {
		mp = matchPlaceholder(m.phs, ph, true)
	}
	for _, src := range []*xnode{mp, lp} {
		if src != nil {
			tb := src.child(nsP, "txBody")
			t.lists = append(t.lists, tb.child(nsA, "lstStyle"))
			t.bodyPrs = append(t.bodyPrs, tb.child(nsA, "bodyPr"))
		}
	}
	return t
}

// levelProps returns the a:lvlNpPr elements for a level, lowest priority
// first, with the shape's own list style last.
func (t *textCtx) levelProps(level int) []*xnode {
	name := "lvl" + strconv.Itoa(level+1) + "pPr"
	var out []*xnode
	for _, l := range t.lists {
		if e := l.child(nsA, name); e != nil {
			out = append(out, e)
		}
	}
	return out
}

func (t *textCtx) ownLevel(level int) *xnode {
	return t.own.child(nsA, "lvl"+strconv.Itoa(level+1)+"pPr")
}

// runStyle returns the effective style of a run at a paragraph level with
// its a:rPr (nil for the level default) under the paragraph's a:pPr.
func (t *textCtx) runStyle(level int, rPr *xnode, pPr ...*xnode) sg.TypeStyle {
	f := false
	s := sg.TypeStyle{FontSize: 18 * sg.PxPerPt, FontWeight: 400, Italic: &f, TextCase: sg.CaseOriginal, TextDecoration: sg.DecorationNone}
	if pc, ok := t.cc.color(&xnode{kind: kElem, local: "schemeClr", attrs: []xattr{{local: "val", value: "tx1"}}}); ok {
		s.Fills = []sg.Paint{paintOf(pc)}
	}
	s.FontFamily, s.FontFamilyEastAsian, s.FontFamilyComplex = t.th.minor.Latin, t.th.minor.EastAsian, t.th.minor.Complex
	for _, lp := range t.levelProps(level) {
		t.applyRPr(&s, lp.child(nsA, "defRPr"), false)
	}
	if t.fontRef != nil {
		if pc, ok := t.cc.colorChild(t.fontRef); ok {
			s.Fills = []sg.Paint{paintOf(pc)}
		}
		fonts := t.th.minor
		if t.fontRef.av("idx") == "major" {
			fonts = t.th.major
		}
		if fonts.Latin != "" {
			s.FontFamily = fonts.Latin
		}
	}
	for _, tx := range t.tblTx {
		t.applyCellText(&s, tx)
	}
	if ol := t.ownLevel(level); ol != nil {
		t.applyRPr(&s, ol.child(nsA, "defRPr"), false)
	}
	for _, p := range pPr {
		t.applyRPr(&s, p.child(nsA, "defRPr"), false)
	}
	t.applyRPr(&s, rPr, true)
	return s
}

// applyRPr applies a:rPr / a:defRPr / a:endParaRPr attributes and children.
func (t *textCtx) applyRPr(s *sg.TypeStyle, r *xnode, withLink bool) {
	if r == nil {
		return
	}
	for _, a := range r.attrs {
		if a.prefix != "" {
			continue
		}
		v := a.value
		switch a.local {
		case "sz":
			if sz := num(v); sz > 0 {
				s.FontSize = round6(sz / 100 * sg.PxPerPt)
			}
		case "b":
			if v == "1" || v == "true" {
				s.FontWeight = 700
			} else {
				s.FontWeight = 400
			}
		case "i":
			it := v == "1" || v == "true"
			s.Italic = &it
		case "u":
			if v == "none" {
				if s.TextDecoration == sg.DecorationUnderline {
					s.TextDecoration = sg.DecorationNone
				}
			} else {
				s.TextDecoration = sg.DecorationUnderline
			}
		case "strike":
			if v == "noStrike" {
				if s.TextDecoration == sg.DecorationStrikethrough {
					s.TextDecoration = sg.DecorationNone
				}
			} else if s.TextDecoration != sg.DecorationUnderline {
				s.TextDecoration = sg.DecorationStrikethrough
			}
		case "cap":
			switch v {
			case "all":
				s.TextCase = sg.CaseUpper
			case "small":
				s.TextCase = sg.CaseSmallCaps
			default:
				s.TextCase = sg.CaseOriginal
			}
		case "spc":
			ls := round6(num(v) / 100 * sg.PxPerPt)
			s.LetterSpacing = &ls
		case "baseline":
			s.Baseline = pct(v)
		}
	}
	for _, k := range r.elems() {
		switch k.local {
		case "solidFill":
			if pc, ok := t.cc.colorChild(k); ok {
				s.Fills = []sg.Paint{paintOf(pc)}
			}
		case "gradFill":
			g := gradient(k, t.cc)
			if len(g.GradientStops) > 0 {
				c := g.GradientStops[0].Color
				s.Fills = []sg.Paint{{Type: sg.PaintSolid, Color: &c}}
			}
		case "noFill":
			o := 0.0
			c := sg.Color{A: 1}
			s.Fills = []sg.Paint{{Type: sg.PaintSolid, Color: &c, Opacity: &o}}
		case "latin":
			if f := t.typeface(k.av("typeface")); f != "" {
				s.FontFamily = f
			}
		case "ea":
			if f := t.typeface(k.av("typeface")); f != "" {
				s.FontFamilyEastAsian = f
			}
		case "cs":
			if f := t.typeface(k.av("typeface")); f != "" {
				s.FontFamilyComplex = f
			}
		case "hlinkClick":
			if withLink && t.linker != nil {
				s.Link = t.linker(k)
			}
		}
	}
}

// typeface resolves theme font references (+mj-lt, +mn-ea, ...).
func (t *textCtx) typeface(v string) string {
	if !strings.HasPrefix(v, "+") || len(v) != 6 {
		return v
	}
	f := t.th.minor
	if v[1:3] == "mj" {
		f = t.th.major
	}
	switch v[4:] {
	case "lt":
		return f.Latin
	case "ea":
		return f.EastAsian
	case "cs":
		return f.Complex
	}
	return ""
}

// paraProps resolves a paragraph's properties at its level.
func (t *textCtx) paraProps(level int, pPr *xnode, fontPx float64) sg.Paragraph {
	p := sg.Paragraph{Level: level, ListType: sg.ListNone, Align: sg.AlignLeft}
	chain := t.levelProps(level)
	if ol := t.ownLevel(level); ol != nil {
		chain = append(chain, ol)
	}
	if pPr != nil {
		chain = append(chain, pPr)
	}
	buFont := "" // the bullet's typeface; "" follows the text (a:buFontTx)
	for _, e := range chain {
		if v, ok := e.attr("algn"); ok {
			switch v {
			case "ctr":
				p.Align = sg.AlignCenter
			case "r":
				p.Align = sg.AlignRight
			case "just", "dist", "thaiDist", "justLow":
				p.Align = sg.AlignJustified
			default:
				p.Align = sg.AlignLeft
			}
		}
		if v, ok := e.attr("rtl"); ok {
			p.RTL = v == "1" || v == "true"
		}
		if v, ok := e.attr("marL"); ok {
			p.MarginLeft = max0(round6(float64(inum(v)) / sg.EMUPerPx))
		}
		if v, ok := e.attr("indent"); ok {
			p.Indent = round6(float64(inum(v)) / sg.EMUPerPx)
		}
		if ls := e.child(nsA, "lnSpc"); ls != nil {
			if v := ls.child(nsA, "spcPct"); v != nil {
				p.LineHeight = max0(round6(pct(v.av("val"))))
			} else if v := ls.child(nsA, "spcPts"); v != nil && fontPx > 0 {
				p.LineHeight = max0(round6(num(v.av("val")) / 100 * sg.PxPerPt / fontPx))
			}
		}
		spc := func(el *xnode) (float64, bool) {
			if el == nil {
				return 0, false
			}
			if v := el.child(nsA, "spcPts"); v != nil {
				return max0(round6(num(v.av("val")) / 100 * sg.PxPerPt)), true
			}
			if v := el.child(nsA, "spcPct"); v != nil {
				return max0(round6(pct(v.av("val")) * fontPx * 1.2)), true
			}
			return 0, false
		}
		if v, ok := spc(e.child(nsA, "spcBef")); ok {
			p.SpaceBefore = v
		}
		if v, ok := spc(e.child(nsA, "spcAft")); ok {
			p.SpaceAfter = v
		}
		for _, k := range e.elems() {
			switch k.local {
			case "buFont":
				buFont = k.av("typeface")
			case "buFontTx":
				buFont = ""
			case "buNone":
				p.ListType, p.Bullet = sg.ListNone, ""
			case "buChar":
				p.ListType, p.Bullet = sg.ListUnordered, k.av("char")
			case "buAutoNum":
				p.ListType, p.Bullet = sg.ListOrdered, ""
			case "buBlip":
				p.ListType, p.Bullet = sg.ListUnordered, "•"
			case "buClrTx":
				p.BulletColor, p.BulletThemeColor = nil, nil
			case "buClr":
				if pc, ok := t.cc.colorChild(k); ok {
					c := pc.c
					p.BulletColor, p.BulletThemeColor = &c, pc.theme
				}
			case "buSzTx":
				p.BulletSize = 0
			case "buSzPct":
				p.BulletSize = bulletFraction(pct(k.av("val")))
			case "buSzPts":
				if fontPx > 0 {
					p.BulletSize = bulletFraction(num(k.av("val")) / 100 * sg.PxPerPt / fontPx)
				}
			}
		}
	}
	if p.ListType == sg.ListUnordered {
		p.Bullet = symbolBullet(buFont, p.Bullet)
	}
	if p.ListType == sg.ListNone {
		// A paragraph without a bullet keeps no bullet look: body
		// placeholders inherit a:buClr and a:buSzPct even under a:buNone.
		p.BulletSize, p.BulletColor, p.BulletThemeColor = 0, nil, nil
	}
	return p
}

// bulletFraction clamps a bullet size (a fraction of the text size) to
// a:buSzPct's range, 25%..400% (ECMA-376 §20.1.10.8 ST_TextBulletSizePercent),
// with 100% stored as 0 (the text's size).
func bulletFraction(f float64) float64 {
	f = round6(math.Min(math.Max(f, 0.25), 4))
	if f == 1 {
		return 0
	}
	return f
}

func max0(x float64) float64 {
	if x < 0 {
		return 0
	}
	return x
}

// bodyBox reads the a:bodyPr chain into a TextBox and the vertical anchor.
func (t *textCtx) bodyBox(own *xnode) (*sg.TextBox, string) {
	in := sg.Insets{Left: 91440.0 / sg.EMUPerPx, Right: 91440.0 / sg.EMUPerPx, Top: 45720.0 / sg.EMUPerPx, Bottom: 45720.0 / sg.EMUPerPx}
	tb := &sg.TextBox{AutoResize: sg.AutoResizeNone}
	anchor := sg.AlignTop
	for _, b := range append(append([]*xnode{}, t.bodyPrs...), own) {
		if b == nil {
			continue
		}
		for _, side := range []struct {
			attr string
			dst  *float64
		}{{"lIns", &in.Left}, {"rIns", &in.Right}, {"tIns", &in.Top}, {"bIns", &in.Bottom}} {
			if v, ok := b.attr(side.attr); ok {
				*side.dst = max0(round6(float64(inum(v)) / sg.EMUPerPx))
			}
		}
		if v, ok := b.attr("anchor"); ok {
			switch v {
			case "ctr":
				anchor = sg.AlignCenter
			case "b":
				anchor = sg.AlignBottom
			default:
				anchor = sg.AlignTop
			}
		}
		if v, ok := b.attr("wrap"); ok {
			tb.NoWrap = v == "none"
		}
		if v, ok := b.attr("vert"); ok {
			if v == "horz" {
				tb.Vertical = ""
			} else {
				tb.Vertical = v
			}
		}
		if v, ok := b.attr("numCol"); ok {
			if n := int(inum(v)); n > 1 && n <= 16 {
				tb.Columns = n
			}
		}
		// The nearest a:bodyPr with an autofit choice wins (slide shape,
		// then layout, then master placeholder), with its stored scale:
		// ECMA-376 §21.1.2.1.3, an omitted fontScale is 100% and an
		// omitted lnSpcReduction 0% (see sg.TextBox.DrawnFontScale).
		switch {
		case b.child(nsA, "normAutofit") != nil:
			fit := b.child(nsA, "normAutofit")
			tb.AutoResize = sg.AutoResizeShrink
			tb.FontScale, tb.LineSpacingReduction = 0, 0
			if v, ok := fit.attr("fontScale"); ok {
				tb.FontScale = clamp01(pct(v))
			}
			if v, ok := fit.attr("lnSpcReduction"); ok {
				tb.LineSpacingReduction = math.Min(clamp01(pct(v)), sg.MaxLineSpacingReduction)
			}
		case b.child(nsA, "spAutoFit") != nil:
			tb.AutoResize = sg.AutoResizeHeight
			tb.FontScale, tb.LineSpacingReduction = 0, 0
		case b.child(nsA, "noAutofit") != nil:
			tb.AutoResize = sg.AutoResizeNone
			tb.FontScale, tb.LineSpacingReduction = 0, 0
		}
	}
	tb.Insets = &in
	return tb, anchor
}

// read fills tc from a p:txBody (or a:txBody of a table cell).
func (t *textCtx) read(txBody *xnode, tc *sg.TextContent) {
	t.own = txBody.child(nsA, "lstStyle")
	box, anchor := t.bodyBox(txBody.child(nsA, "bodyPr"))
	var chars strings.Builder
	type span struct {
		n     int
		style sg.TypeStyle
	}
	var spans []span
	var paras []sg.Paragraph
	var fields []sg.TextField
	var firstEmpty *sg.TypeStyle
	pos := 0 // code points written to chars
	for k, p := range txBody.all(nsA, "p") {
		if k > 0 {
			chars.WriteByte('\n')
			spans = append(spans, span{n: 1})
			pos++
		}
		pPr := p.child(nsA, "pPr")
		level := int(inum(pPr.av("lvl")))
		if level < 0 || level > 8 {
			level = 0
		}
		var pPrs []*xnode
		if pPr != nil {
			pPrs = []*xnode{pPr}
		}
		firstSize := 0.0
		for _, r := range p.elems() {
			var st sg.TypeStyle
			var text string
			switch r.local {
			case "r", "fld":
				st = t.runStyle(level, r.child(nsA, "rPr"), pPrs...)
				text = r.child(nsA, "t").allText()
				if r.local == "fld" && r.av("type") == "slidenum" && t.slideNum > 0 {
					text = strconv.Itoa(t.slideNum)
				}
				text = strings.Map(func(c rune) rune {
					if c == '\n' || c == '\r' || c == '\v' {
						return lineSep
					}
					return c
				}, text)
			case "br":
				st = t.runStyle(level, r.child(nsA, "rPr"), pPrs...)
				text = string(lineSep)
			default:
				continue
			}
			if text == "" {
				continue
			}
			if firstSize == 0 {
				firstSize = st.FontSize
			}
			n := utf8.RuneCountInString(text)
			// A field keeps its type and id (ECMA-376 §21.1.2.2.4) so
			// edits and export leave it live; one without an id, or
			// whose cached text holds a line break, is read as text.
			if id := r.av("id"); r.local == "fld" && id != "" && !strings.ContainsRune(text, lineSep) {
				fields = append(fields, sg.TextField{Start: pos, End: pos + n, Type: r.av("type"), ID: id})
			}
			chars.WriteString(text)
			spans = append(spans, span{n: n, style: st})
			pos += n
		}
		if firstSize == 0 {
			st := t.runStyle(level, p.child(nsA, "endParaRPr"), pPrs...)
			firstSize = st.FontSize
			if firstEmpty == nil {
				firstEmpty = &st
			}
		}
		paras = append(paras, t.paraProps(level, pPr, firstSize))
	}
	tc.Characters = chars.String()
	tc.TextBox = box
	tc.Fields = fields
	if len(paras) == 0 {
		return
	}
	// Base style: the first run's; links and baseline shifts only when
	// every run shares them (an override cannot unset them).
	var base *sg.TypeStyle
	for _, s := range spans {
		if s.n > 0 && s.style.FontSize > 0 {
			b := s.style
			base = &b
			break
		}
	}
	if base == nil {
		if firstEmpty != nil {
			base = firstEmpty
		} else {
			b := t.runStyle(0, nil)
			base = &b
		}
	}
	for _, s := range spans {
		if s.style.FontSize == 0 {
			continue
		}
		if !sameLink(s.style.Link, base.Link) {
			base.Link = nil
		}
		if s.style.Baseline != base.Baseline {
			base.Baseline = 0
		}
	}
	base.TextAlignHorizontal = paras[0].Align
	base.TextAlignVertical = anchor
	tc.Style = base
	keys := map[string]int{}
	var over []int
	for _, s := range spans {
		key := 0
		if s.style.FontSize > 0 {
			d := styleDiff(*base, s.style)
			if !isEmptyStyle(d) {
				j, _ := json.Marshal(d)
				if k, ok := keys[string(j)]; ok {
					key = k
				} else {
					key = len(keys) + 1
					keys[string(j)] = key
					if tc.StyleOverrideTable == nil {
						tc.StyleOverrideTable = map[string]sg.TypeStyle{}
					}
					tc.StyleOverrideTable[strconv.Itoa(key)] = d
				}
			}
		}
		for i := 0; i < s.n; i++ {
			over = append(over, key)
		}
	}
	for len(over) > 0 && over[len(over)-1] == 0 {
		over = over[:len(over)-1]
	}
	if len(over) > 0 {
		tc.CharacterStyleOverrides = over
	}
	tc.Paragraphs = paras
}

func sameLink(a, b *sg.Link) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// styleDiff returns the fields of s that differ from base, as an override.
func styleDiff(base, s sg.TypeStyle) sg.TypeStyle {
	var d sg.TypeStyle
	if s.FontFamily != base.FontFamily {
		d.FontFamily = s.FontFamily
	}
	if s.FontFamilyEastAsian != base.FontFamilyEastAsian {
		d.FontFamilyEastAsian = s.FontFamilyEastAsian
	}
	if s.FontFamilyComplex != base.FontFamilyComplex {
		d.FontFamilyComplex = s.FontFamilyComplex
	}
	if s.FontSize != base.FontSize {
		d.FontSize = s.FontSize
	}
	if s.FontWeight != base.FontWeight {
		d.FontWeight = s.FontWeight
	}
	if !eqBoolPtr(s.Italic, base.Italic) {
		d.Italic = s.Italic
	}
	if s.TextCase != base.TextCase {
		d.TextCase = s.TextCase
	}
	if s.TextDecoration != base.TextDecoration {
		d.TextDecoration = s.TextDecoration
	}
	if !eqFloatPtr(s.LetterSpacing, base.LetterSpacing) {
		ls := 0.0
		if s.LetterSpacing != nil {
			ls = *s.LetterSpacing
		}
		d.LetterSpacing = &ls
	}
	if !samePaints(s.Fills, base.Fills) {
		d.Fills = s.Fills
	}
	if !sameLink(s.Link, base.Link) {
		d.Link = s.Link
	}
	if s.Baseline != base.Baseline {
		d.Baseline = s.Baseline
	}
	return d
}

func isEmptyStyle(s sg.TypeStyle) bool {
	j, _ := json.Marshal(s)
	return string(j) == "{}"
}

func eqBoolPtr(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func eqFloatPtr(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func samePaints(a, b []sg.Paint) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// applyCellText applies a table style's a:tcTxStyle: bold and italic
// ("on"/"off"), the font (a:font or a:fontRef) and the text colour.
func (t *textCtx) applyCellText(s *sg.TypeStyle, tx *xnode) {
	switch tx.av("b") {
	case "on":
		s.FontWeight = 700
	case "off":
		s.FontWeight = 400
	}
	switch tx.av("i") {
	case "on", "off":
		it := tx.av("i") == "on"
		s.Italic = &it
	}
	for _, k := range tx.elems() {
		switch k.local {
		case "font":
			for _, f := range k.elems() {
				face := t.typeface(f.av("typeface"))
				switch {
				case face == "":
				case f.local == "latin":
					s.FontFamily = face
				case f.local == "ea":
					s.FontFamilyEastAsian = face
				case f.local == "cs":
					s.FontFamilyComplex = face
				}
			}
		case "fontRef":
			fonts := t.th.minor
			if k.av("idx") == "major" {
				fonts = t.th.major
			}
			if fonts.Latin != "" {
				s.FontFamily = fonts.Latin
			}
		default:
			if pc, ok := t.cc.color(k); ok {
				s.Fills = []sg.Paint{paintOf(pc)}
			}
		}
	}
}
