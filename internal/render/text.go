package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/acecanvas/ace/internal/fonts"
	"github.com/acecanvas/ace/internal/scenegraph"
)

// safeFontName keeps letters, digits, spaces and a few punctuation marks, so
// a family name can be quoted in CSS without escaping ("x');url(..." loses
// its quotes, parentheses and semicolon).
func safeFontName(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ' || r == '-' || r == '_' || r == '.' {
			sb.WriteRune(r)
		}
	}
	out := strings.TrimSpace(sb.String())
	if len(out) > 64 {
		out = out[:64]
	}
	return out
}

// Script slots of DrawingML (a:latin, a:ea, a:cs).
const (
	slotLatin = iota
	slotEastAsian
	slotComplex
)

// scriptSlot says which font slot draws r: CJK ideographs, kana, Hangul and
// fullwidth forms use the east-asian face; right-to-left and complex
// scripts (Arabic, Hebrew, Syriac, Thaana, Indic, Thai, Lao, ...) the
// complex face; everything else (Latin, Greek, Cyrillic, digits) latin.
func scriptSlot(r rune) int {
	switch {
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo),
		r >= 0x3000 && r <= 0x303F, r >= 0xFF00 && r <= 0xFFEF:
		return slotEastAsian
	case unicode.In(r, unicode.Arabic, unicode.Hebrew, unicode.Syriac, unicode.Thaana, unicode.Devanagari,
		unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Tamil, unicode.Telugu, unicode.Kannada,
		unicode.Malayalam, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Sinhala):
		return slotComplex
	}
	return slotLatin
}

// fontStack builds the CSS font-family list for text of one script slot:
// the face the deck names for that slot (with metric-compatible
// substitutes), then that script's fallback chain, then the others.
func (b *builder) fontStack(s scenegraph.TypeStyle) string { return b.fontStackFor(s, slotLatin) }

func (b *builder) fontStackFor(s scenegraph.TypeStyle, slot int) string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		n = safeFontName(n)
		if n == "" || seen[strings.ToLower(n)] {
			return
		}
		seen[strings.ToLower(n)] = true
		names = append(names, n)
	}
	withSubs := func(n string) {
		n = fonts.ThemeFace(b.deck, n)
		add(n)
		for _, s := range fonts.Substitutes(n) {
			add(s)
		}
	}
	latin := s.FontFamily
	if latin == "" {
		latin = b.deck.Tokens.Fonts.Minor.Latin
	}
	ea := s.FontFamilyEastAsian
	if ea == "" {
		ea = b.deck.Tokens.Fonts.Minor.EastAsian
	}
	cs := s.FontFamilyComplex
	if cs == "" {
		cs = b.deck.Tokens.Fonts.Minor.Complex
	}
	latinPart := func() {
		withSubs(latin)
		for _, f := range fonts.SansFallback {
			add(f)
		}
	}
	eaPart := func() {
		withSubs(ea)
		for _, f := range fonts.EastAsianChain {
			add(f)
		}
	}
	csPart := func() {
		withSubs(cs)
		for _, f := range fonts.ComplexChain {
			add(f)
		}
	}
	switch slot {
	case slotEastAsian:
		eaPart()
		latinPart()
		csPart()
	case slotComplex:
		csPart()
		latinPart()
		eaPart()
	default:
		latinPart()
		eaPart()
		csPart()
	}
	for _, f := range fonts.SymbolChain {
		add(f)
	}
	parts := make([]string, 0, len(names))
	for _, n := range names {
		if n == "sans-serif" || n == "serif" || n == "monospace" {
			parts = append(parts, n)
			continue
		}
		parts = append(parts, `"`+n+`"`)
	}
	return strings.Join(parts, ",")
}

// textFit is how a text body is drawn under shrink-on-overflow (DrawingML
// normAutofit, ECMA-376 Part 1 §21.1.2.1.3): scale multiplies every run's
// size and spacing (fontScale), reduction is taken off each paragraph's
// line spacing (lnSpcReduction, 0.2 = 20 percentage points).
type textFit struct {
	scale, reduction float64
}

// fitOf is the autofit n is drawn with: the scale and reduction stored in
// the file (scenegraph.TextBox.DrawnFontScale: PowerPoint shows the
// stored values until the text is edited, and none stored means 100%),
// or full size for a node the request asks to fit (Request.FitText),
// which page.js then shrinks until it fits.
func (b *builder) fitOf(n *scenegraph.Node) textFit {
	if b.fit[n.ID] {
		return textFit{scale: 1}
	}
	return textFit{scale: n.TextBox.DrawnFontScale(), reduction: n.TextBox.DrawnLineReduction()}
}

// multiple is a DrawingML line spacing multiple (1 = single) after the
// reduction: ECMA-376 §21.1.2.1.3 subtracts lnSpcReduction from the
// spacing (100% - 20% = 80%). Kept above a tenth so lines never stack.
func (f textFit) multiple(m float64) float64 {
	return math.Max(m-f.reduction, 0.1)
}

// exact is an exact line spacing (px) after the reduction: the same
// fraction off as for single spacing.
func (f textFit) exact(v float64) float64 {
	return v * f.scale * (1 - f.reduction)
}

// defaultInsets: DrawingML a:bodyPr defaults (0.1 in left/right, 0.05 in
// top/bottom) for text imported from PPTX; none for Figma-style TEXT.
func defaultInsets(n *scenegraph.Node) scenegraph.Insets {
	if n.TextBox != nil && n.TextBox.Insets != nil {
		return *n.TextBox.Insets
	}
	if n.Type == scenegraph.TypeText && (n.Source == nil || n.Source.Format != "pptx") {
		return scenegraph.Insets{}
	}
	return scenegraph.Insets{Left: 9.6, Right: 9.6, Top: 4.8, Bottom: 4.8}
}

// textBox makes a text-bearing node's box a column whose single item (the
// .tx flow) is anchored top, middle or bottom, inside the insets.
func (b *builder) textBox(st *style, n *scenegraph.Node) {
	in := defaultInsets(n)
	st.add("display", "flex")
	st.add("flex-direction", "column")
	st.add("padding", fmt.Sprintf("%s %s %s %s", px(in.Top), px(in.Right), px(in.Bottom), px(in.Left)))
	anchor := "flex-start"
	if n.Style != nil {
		switch n.Style.TextAlignVertical {
		case scenegraph.AlignCenter:
			anchor = "center"
		case scenegraph.AlignBottom:
			anchor = "flex-end"
		}
	}
	// Table cells default to top anchoring as in DrawingML; so do others.
	st.add("justify-content", anchor)
}

// textContent writes the .tx flow: one <p> per '\n'-separated paragraph,
// one <span> per run of equal style, every character escaped.
func (b *builder) textContent(n *scenegraph.Node) {
	tc := &n.TextContent
	runes := []rune(tc.Characters)
	var st style
	st.add("flex", "none")
	st.add("position", "relative")
	if n.TextBox != nil {
		if n.TextBox.NoWrap {
			st.add("white-space", "pre")
		}
		switch n.TextBox.Vertical {
		case "vert", "eaVert", "wordArtVert", "mongolianVert":
			st.add("writing-mode", "vertical-rl")
		case "vert270":
			st.add("writing-mode", "vertical-rl")
			st.add("transform", "rotate(180deg)")
		}
		if n.TextBox.Columns > 1 {
			st.add("column-count", strconv.Itoa(n.TextBox.Columns))
		}
	}
	b.w(`<div class="tx" style="` + attr(st.String()) + `">`)
	fit := b.fitOf(n)
	// Split into paragraphs at '\n' (code-point offsets).
	start := 0
	para := 0
	counters := [9]int{}
	for i := 0; i <= len(runes); i++ {
		if i < len(runes) && runes[i] != '\n' {
			continue
		}
		var p scenegraph.Paragraph
		if para < len(tc.Paragraphs) {
			p = tc.Paragraphs[para]
		}
		if para == 0 {
			// PowerPoint and LibreOffice put no space before the first
			// paragraph of a text body.
			p.SpaceBefore = 0
		}
		b.paragraph(n, runes, start, i, p, fit, &counters)
		start = i + 1
		para++
	}
	b.w(`</div>`)
}

func (b *builder) paragraph(n *scenegraph.Node, runes []rune, start, end int, p scenegraph.Paragraph, fit textFit, counters *[9]int) {
	tc := &n.TextContent
	first := tc.StyleAt(start)
	if start >= end && start > 0 {
		first = tc.StyleAt(start - 1)
	}
	var st style
	align := p.Align
	if align == "" {
		align = first.TextAlignHorizontal
	}
	switch align {
	case scenegraph.AlignCenter:
		st.add("text-align", "center")
	case scenegraph.AlignRight:
		st.add("text-align", "right")
	case scenegraph.AlignJustified:
		st.add("text-align", "justify")
	default:
		if p.RTL {
			st.add("text-align", "right")
		} else {
			st.add("text-align", "left")
		}
	}
	if p.RTL {
		st.add("direction", "rtl")
	}
	if p.SpaceBefore > 0 {
		st.add("margin-top", fpx(p.SpaceBefore))
	}
	if p.SpaceAfter > 0 {
		st.add("margin-bottom", fpx(p.SpaceAfter))
	}
	list := p.ListType == scenegraph.ListOrdered || p.ListType == scenegraph.ListUnordered
	level := max(0, min(p.Level, 8))
	margin, indent := p.MarginLeft, p.Indent
	size := first.FontSize * fit.scale
	if size <= 0 {
		size = 18 * scenegraph.PxPerPt
	}
	if list && margin == 0 && indent == 0 {
		// No explicit geometry: a hanging indent of 1.2 em per level.
		margin = float64(level+1) * 1.2 * size
		indent = -1.2 * size
	}
	side := "padding-left"
	if p.RTL {
		side = "padding-right"
	}
	if margin != 0 {
		st.add(side, px(margin))
	}
	if indent != 0 {
		st.add("text-indent", px(indent))
	}
	lh, mult := b.lineHeight(first, p, fit)
	st.add("line-height", lh)
	if mult > 0 && mult != 1 {
		// DrawingML percentage spacing adds (or removes) the extra leading
		// above each line; CSS splits it above and below. Shift the
		// paragraph by the half that CSS put below, so baselines sit where
		// PowerPoint puts them (the flow, and so overflow, is unchanged).
		st.add("position", "relative")
		st.add("top", fpx((mult-1)*1.2*size/2))
	}
	// The paragraph's strut uses the first run's face and size, so a fixed
	// line height gives lines of exactly that height (a default 16 px strut
	// would sit on a different baseline and stretch every line).
	st.add("font-family", b.fontStack(first))
	st.add("font-size", fpx(size))
	b.w(`<p style="` + attr(st.String()) + `">`)
	// PowerPoint draws no bullet or number on an empty paragraph, and
	// numbering goes on after it.
	if list && start < end {
		for k := level + 1; k < len(counters); k++ {
			counters[k] = 0
		}
		marker := bulletText(p.Bullet)
		if p.ListType == scenegraph.ListOrdered {
			counters[level]++
			marker = strconv.Itoa(counters[level]) + "."
		}
		w := -indent
		var ms style
		ms.add("display", "inline-block")
		ms.add("text-indent", "0")
		if w > 0 {
			ms.add("min-width", px(w))
		} else {
			ms.add("padding-right", "0.5em")
		}
		b.w(`<span class="bu" style="` + attr(ms.String()+";"+b.runCSS(first, fit)) + `">`)
		if look := bulletLook(p, size); look != "" {
			// The marker's own size and colour sit inside the run-styled
			// box, so the line box and the hanging indent stay the text's.
			b.w(`<span style="` + attr(look) + `">`)
			b.text(marker)
			b.w(`</span>`)
		} else {
			b.text(marker)
		}
		b.w(`</span>`)
	} else if !list {
		for k := range counters {
			counters[k] = 0
		}
	}
	if start >= end {
		// An empty paragraph still takes one line of its style.
		b.w(`<span style="` + attr(b.runCSS(first, fit)) + `"><br></span></p>`)
		return
	}
	for i := start; i < end; {
		key := runKey(tc, i)
		j := i + 1
		for j < end && runKey(tc, j) == key {
			j++
		}
		s := tc.StyleAt(i)
		// One span per script slot inside the run, so each script is set
		// in the face its slot names (spaces and punctuation stay with
		// the preceding script).
		for k := i; k < j; {
			slot := scriptSlot(runes[k])
			m := k + 1
			for m < j && (scriptSlot(runes[m]) == slot || !unicode.IsLetter(runes[m])) {
				m++
			}
			b.w(`<span style="` + attr(b.runCSSFor(s, fit, slot)) + `">`)
			b.textLines(string(runes[k:m]))
			b.w(`</span>`)
			k = m
		}
		i = j
	}
	b.w(`</p>`)
}

// textLines writes run text, escaped, with each U+2028 LINE SEPARATOR (a
// line break inside a paragraph: DrawingML a:br, Figma's soft break) as a
// <br>; CSS does not break lines at U+2028 by itself.
func (b *builder) textLines(s string) {
	for i, part := range strings.Split(s, "\u2028") {
		if i > 0 {
			b.w("<br>")
		}
		b.text(part)
	}
}

// bulletLook is the inline style of a bullet or number drawn at the
// paragraph's BulletSize (a fraction of size, the first run's px size after
// auto-fit scaling) and in its BulletColor; "" when both follow the text.
// PowerPoint and LibreOffice keep such a bullet on the text's baseline.
func bulletLook(p scenegraph.Paragraph, size float64) string {
	var st style
	if p.BulletSize > 0 && p.BulletSize != 1 && !math.IsInf(p.BulletSize, 0) {
		st.add("font-size", fpx(size*p.BulletSize))
	}
	if p.BulletColor != nil {
		st.add("color", cssColor(*p.BulletColor, 1))
	}
	return st.String()
}

func runKey(tc *scenegraph.TextContent, i int) int {
	if i < len(tc.CharacterStyleOverrides) {
		return tc.CharacterStyleOverrides[i]
	}
	return 0
}

// lineHeight: paragraph multiple, then style px, then style percent, else
// single spacing, 1.2 (PowerPoint's single spacing is about 1.2 em for
// most faces); each after the autofit reduction. mult is the DrawingML
// multiple drawn (1 = single) when the spacing is one, else 0.
func (b *builder) lineHeight(s scenegraph.TypeStyle, p scenegraph.Paragraph, fit textFit) (css string, mult float64) {
	switch {
	case p.LineHeight > 0:
		m := fit.multiple(p.LineHeight)
		return trimFloat(m * 1.2), m
	case s.LineHeightPx > 0:
		return fpx(fit.exact(s.LineHeightPx)), 0
	case s.LineHeightPercent > 0:
		return percentLineHeight(s.LineHeightPercent, fit), 0
	case fit.reduction > 0:
		m := fit.multiple(1)
		return trimFloat(m * 1.2), m
	}
	return "1.2", 0
}

// percentLineHeight is a line height in percent of the font size (Figma
// lineHeightPercentFontSize) as a CSS multiple, after the autofit
// reduction counted in single spacings (1.2 em).
func percentLineHeight(pct float64, fit textFit) string {
	if fit.reduction == 0 {
		return trimFloat(pct / 100)
	}
	return trimFloat(fit.multiple(pct/120) * 1.2)
}

// runCSS is the inline style of one run of latin text.
func (b *builder) runCSS(s scenegraph.TypeStyle, fit textFit) string {
	return b.runCSSFor(s, fit, slotLatin)
}

// runCSSFor is the inline style of one run in a script slot.
func (b *builder) runCSSFor(s scenegraph.TypeStyle, fit textFit, slot int) string {
	scale := fit.scale
	var st style
	st.add("font-family", b.fontStackFor(s, slot))
	size := s.FontSize
	if size <= 0 {
		size = 18 * scenegraph.PxPerPt
	}
	st.add("font-size", fpx(size*scale))
	if s.FontWeight > 0 {
		st.add("font-weight", strconv.Itoa(max(100, min(900, s.FontWeight))))
	}
	if s.Italic != nil && *s.Italic {
		st.add("font-style", "italic")
	}
	switch s.TextCase {
	case scenegraph.CaseUpper:
		st.add("text-transform", "uppercase")
	case scenegraph.CaseLower:
		st.add("text-transform", "lowercase")
	case scenegraph.CaseTitle:
		st.add("text-transform", "capitalize")
	case scenegraph.CaseSmallCaps:
		st.add("font-variant", "small-caps")
	}
	switch s.TextDecoration {
	case scenegraph.DecorationUnderline:
		st.add("text-decoration", "underline")
	case scenegraph.DecorationStrikethrough:
		st.add("text-decoration", "line-through")
	}
	if s.LetterSpacing != nil && *s.LetterSpacing != 0 {
		st.add("letter-spacing", fpx(*s.LetterSpacing*scale))
	}
	if s.LineHeightPx > 0 {
		st.add("line-height", fpx(fit.exact(s.LineHeightPx)))
	} else if s.LineHeightPercent > 0 {
		st.add("line-height", percentLineHeight(s.LineHeightPercent, fit))
	}
	if c, ok := firstColor(s.Fills); ok {
		st.add("color", c)
	} else {
		st.add("color", "rgba(0,0,0,1)")
	}
	if s.Baseline != 0 && !math.IsNaN(s.Baseline) {
		st.add("vertical-align", trimFloat(s.Baseline)+"em")
		st.add("font-size", fpx(size*scale*0.7))
	}
	return st.String()
}

// wingdingsBullets maps the symbol-font code points PowerPoint stores for
// common bullets (Wingdings/Symbol glyphs at U+F000+byte, the Private Use
// Area encoding of symbol fonts) to the Unicode characters they draw, so a
// bullet does not render as a missing-glyph box.
var wingdingsBullets = map[byte]string{
	0x6C: "●", 0x6E: "■", 0x6F: "□", 0x71: "❑", 0x73: "◆", 0x75: "◆", 0x76: "❖",
	0xA7: "▪", 0xA8: "◻", 0xD8: "➢", 0xE0: "➢", 0xE8: "➔", 0xF0: "⇨", 0xFC: "✓",
	0xFB: "✗", 0xB7: "•", 0x9F: "•", 0x77: "⬥", 0x70: "◼", 0x3E: "➢",
}

// bulletText returns a drawable bullet for a paragraph's bullet character.
func bulletText(s string) string {
	rs := []rune(s)
	if len(rs) == 0 {
		return "•"
	}
	if r := rs[0]; r >= 0xF000 && r <= 0xF0FF {
		if m, ok := wingdingsBullets[byte(r&0xFF)]; ok {
			return m
		}
		return "•"
	}
	return s
}

// fpx is a text length in px that follows the box's shrink-on-overflow
// factor: the CSS variable --fs (1 unless the page shrinks the text of an
// auto-fit box, see page.js).
func fpx(v float64) string {
	return "calc(var(--fs,1)*" + px(v) + ")"
}
