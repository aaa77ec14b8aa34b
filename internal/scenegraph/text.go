package scenegraph

import (
	"strings"
	"unicode/utf8"
)

// TextContent is a node's text: the characters, a base TypeStyle, and
// per-character overrides in Figma's encoding.
//
// CharacterStyleOverrides[i] is the key (as a decimal string) into
// StyleOverrideTable of the style applied to the i-th character, 0 meaning
// the base style; the slice may be shorter than the text, the rest using the
// base style. Characters are counted in Unicode code points (Figma counts
// UTF-16 units; the Figma importer converts).
//
// Paragraphs split Characters at '\n': Paragraphs[k] styles the k-th line.
type TextContent struct {
	Characters              string               `json:"characters,omitempty"`
	Style                   *TypeStyle           `json:"style,omitempty"`
	CharacterStyleOverrides []int                `json:"characterStyleOverrides,omitempty"`
	StyleOverrideTable      map[string]TypeStyle `json:"styleOverrideTable,omitempty"`
	Paragraphs              []Paragraph          `json:"paragraphs,omitempty"`
	TextBox                 *TextBox             `json:"textBox,omitempty"`
	// Fields are the ranges of Characters that are live fields (slide
	// number, date; DrawingML a:fld), in order and not overlapping.
	Fields []TextField `json:"fields,omitempty"`
}

// HasText reports whether any text field is set.
func (t *TextContent) HasText() bool {
	return t.Characters != "" || t.Style != nil || len(t.CharacterStyleOverrides) > 0 ||
		len(t.StyleOverrideTable) > 0 || len(t.Paragraphs) > 0 || t.TextBox != nil || len(t.Fields) > 0
}

// RuneCount is the length of Characters in code points.
func (t *TextContent) RuneCount() int { return utf8.RuneCountInString(t.Characters) }

// Text-case, decoration and alignment values (Figma REST TypeStyle).
const (
	CaseOriginal  = "ORIGINAL"
	CaseUpper     = "UPPER"
	CaseLower     = "LOWER"
	CaseTitle     = "TITLE"
	CaseSmallCaps = "SMALL_CAPS"

	DecorationNone          = "NONE"
	DecorationUnderline     = "UNDERLINE"
	DecorationStrikethrough = "STRIKETHROUGH"

	AlignLeft      = "LEFT"
	AlignRight     = "RIGHT"
	AlignJustified = "JUSTIFIED"
	AlignTop       = "TOP"
	AlignBottom    = "BOTTOM"
	// AlignCenter ("CENTER") is shared with auto-layout.
)

// TypeStyle is a text style (Figma REST TypeStyle). In a StyleOverrideTable
// entry only the set fields override the base style: empty strings, zero
// numbers and nil pointers mean "inherit".
//
// Fonts are per script slot, as in DrawingML (a:latin, a:ea, a:cs): a change
// of typeface must set every slot the text needs, or CJK and Arabic text keep
// the old face (a known failure of Latin-only tools).
type TypeStyle struct {
	FontFamily          string   `json:"fontFamily,omitempty"`          // latin slot
	FontFamilyEastAsian string   `json:"fontFamilyEastAsian,omitempty"` // ea slot (CJK)
	FontFamilyComplex   string   `json:"fontFamilyComplex,omitempty"`   // cs slot (Arabic, Hebrew, Thai, ...)
	FontSize            float64  `json:"fontSize,omitempty"`            // px
	FontWeight          int      `json:"fontWeight,omitempty"`          // 100..900; 700 is bold
	Italic              *bool    `json:"italic,omitempty"`
	TextCase            string   `json:"textCase,omitempty"`
	TextDecoration      string   `json:"textDecoration,omitempty"`
	LetterSpacing       *float64 `json:"letterSpacing,omitempty"` // px
	LineHeightPx        float64  `json:"lineHeightPx,omitempty"`
	LineHeightPercent   float64  `json:"lineHeightPercentFontSize,omitempty"`
	TextAlignHorizontal string   `json:"textAlignHorizontal,omitempty"`
	TextAlignVertical   string   `json:"textAlignVertical,omitempty"`
	Fills               []Paint  `json:"fills,omitempty"` // text colour
	Link                *Link    `json:"hyperlink,omitempty"`
	Baseline            float64  `json:"baselineShift,omitempty"` // fraction of font size; + superscript, - subscript
}

// Merge returns base with every set field of o applied over it.
func (base TypeStyle) Merge(o TypeStyle) TypeStyle {
	r := base
	if o.FontFamily != "" {
		r.FontFamily = o.FontFamily
	}
	if o.FontFamilyEastAsian != "" {
		r.FontFamilyEastAsian = o.FontFamilyEastAsian
	}
	if o.FontFamilyComplex != "" {
		r.FontFamilyComplex = o.FontFamilyComplex
	}
	if o.FontSize != 0 {
		r.FontSize = o.FontSize
	}
	if o.FontWeight != 0 {
		r.FontWeight = o.FontWeight
	}
	if o.Italic != nil {
		r.Italic = o.Italic
	}
	if o.TextCase != "" {
		r.TextCase = o.TextCase
	}
	if o.TextDecoration != "" {
		r.TextDecoration = o.TextDecoration
	}
	if o.LetterSpacing != nil {
		r.LetterSpacing = o.LetterSpacing
	}
	if o.LineHeightPx != 0 {
		r.LineHeightPx = o.LineHeightPx
	}
	if o.LineHeightPercent != 0 {
		r.LineHeightPercent = o.LineHeightPercent
	}
	if o.TextAlignHorizontal != "" {
		r.TextAlignHorizontal = o.TextAlignHorizontal
	}
	if o.TextAlignVertical != "" {
		r.TextAlignVertical = o.TextAlignVertical
	}
	if len(o.Fills) > 0 {
		r.Fills = o.Fills
	}
	if o.Link != nil {
		r.Link = o.Link
	}
	if o.Baseline != 0 {
		r.Baseline = o.Baseline
	}
	return r
}

// Bold reports a weight of 600 or more.
func (s *TypeStyle) Bold() bool { return s.FontWeight >= 600 }

// List types of a paragraph (Figma lineTypes).
const (
	ListNone      = "NONE"
	ListOrdered   = "ORDERED"
	ListUnordered = "UNORDERED"
)

// Paragraph styles one '\n'-separated line of a text.
type Paragraph struct {
	ListType    string  `json:"listType,omitempty"`    // NONE | ORDERED | UNORDERED
	Level       int     `json:"level,omitempty"`       // 0..8 indent level (a:pPr/@lvl)
	Bullet      string  `json:"bullet,omitempty"`      // bullet character for UNORDERED
	Align       string  `json:"align,omitempty"`       // LEFT | CENTER | RIGHT | JUSTIFIED
	RTL         bool    `json:"rtl,omitempty"`         // right-to-left paragraph (a:pPr/@rtl)
	SpaceBefore float64 `json:"spaceBefore,omitempty"` // px
	SpaceAfter  float64 `json:"spaceAfter,omitempty"`  // px
	Indent      float64 `json:"indent,omitempty"`      // px, first-line indent relative to MarginLeft
	MarginLeft  float64 `json:"marginLeft,omitempty"`  // px
	LineHeight  float64 `json:"lineHeight,omitempty"`  // multiple of the font size; 0 = style's
	// BulletSize is the bullet's or number's size as a fraction of the
	// paragraph's first run's font size (DrawingML a:buSzPct/@val, in
	// 1/1000 %, divided by 100000; a:buSzPts is converted against that run's
	// size). 0 means the text's size (a:buSzTx). ECMA-376 §21.1.2.4.9-11.
	BulletSize float64 `json:"bulletSize,omitempty"`
	// BulletColor is the bullet's or number's colour (DrawingML a:buClr,
	// scheme colours resolved with their modifiers); nil means the colour
	// of the paragraph's first run (a:buClrTx). ECMA-376 §21.1.2.4.4-5.
	BulletColor *Color `json:"bulletColor,omitempty"`
	// BulletThemeColor, when set, says BulletColor comes from a design token
	// with its modifiers (a:buClr holding a:schemeClr): a theme change
	// re-derives it and export writes the scheme reference back.
	BulletThemeColor *ThemeColor `json:"bulletThemeColor,omitempty"`
}

// Text-box auto-resize values (Figma textAutoResize).
const (
	AutoResizeNone   = "NONE"
	AutoResizeHeight = "HEIGHT"
	AutoResizeBoth   = "WIDTH_AND_HEIGHT"
	AutoResizeShrink = "TRUNCATE" // shrink text on overflow (a:normAutofit)
)

// TextBox is the frame around text: insets, wrap, vertical anchor and
// auto-fit (DrawingML a:bodyPr).
type TextBox struct {
	Insets     *Insets `json:"insets,omitempty"` // px
	NoWrap     bool    `json:"noWrap,omitempty"` // a:bodyPr/@wrap="none"
	AutoResize string  `json:"textAutoResize,omitempty"`
	// FontScale is the shrink-on-overflow scale stored with the text
	// (a:normAutofit/@fontScale), 0..1; 0 means none (100%). It is what
	// the text is drawn at, see DrawnFontScale.
	FontScale float64 `json:"fontScale,omitempty"`
	// LineSpacingReduction is the stored shrink-on-overflow reduction of
	// line spacing (a:normAutofit/@lnSpcReduction), 0..1 (0.2 = 20
	// percentage points off each paragraph's spacing); 0 means none.
	LineSpacingReduction float64 `json:"lineSpacingReduction,omitempty"`
	Vertical             string  `json:"vertical,omitempty"` // vert text: "vert", "vert270", "eaVert"
	Columns              int     `json:"columns,omitempty"`
}

// DrawnFontScale is the factor every run's size is drawn at: FontScale
// for a shrink-on-overflow box (AutoResizeShrink), else 1. ECMA-376 Part 1
// §21.1.2.1.3 (normAutofit): fontScale is the scale the application
// applied when it last fitted the text, and an omitted fontScale is 100%.
// PowerPoint draws the stored value and recomputes it only when the text
// is edited, so a box that inherits normAutofit with no stored scale is
// drawn at full size, overflowing if its text is too long. Nil gives 1.
func (b *TextBox) DrawnFontScale() float64 {
	if b == nil || b.AutoResize != AutoResizeShrink || b.FontScale <= 0 || b.FontScale >= 1 {
		return 1
	}
	return b.FontScale
}

// DrawnLineReduction is the fraction taken off each paragraph's line
// spacing when drawn: LineSpacingReduction for a shrink-on-overflow box,
// else 0. ECMA-376 Part 1 §21.1.2.1.3: lnSpcReduction is subtracted from
// the line spacing (100% single spacing with 20% becomes 80%); omitted,
// it is 0%.
func (b *TextBox) DrawnLineReduction() float64 {
	if b == nil || b.AutoResize != AutoResizeShrink || b.LineSpacingReduction <= 0 {
		return 0
	}
	return min(b.LineSpacingReduction, MaxLineSpacingReduction)
}

// MaxLineSpacingReduction caps LineSpacingReduction as drawn: PowerPoint
// writes at most 20%; beyond 90% lines would collapse onto each other.
const MaxLineSpacingReduction = 0.9

// Insets are distances from the box edges to the text, in px.
type Insets struct {
	Left   float64 `json:"left"`
	Top    float64 `json:"top"`
	Right  float64 `json:"right"`
	Bottom float64 `json:"bottom"`
}

// StyleAt returns the effective style of the i-th character (code point):
// the base style merged with its override, if any.
func (t *TextContent) StyleAt(i int) TypeStyle {
	var base TypeStyle
	if t.Style != nil {
		base = *t.Style
	}
	if i < 0 || i >= len(t.CharacterStyleOverrides) {
		return base
	}
	k := t.CharacterStyleOverrides[i]
	if k == 0 {
		return base
	}
	if o, ok := t.StyleOverrideTable[itoa(k)]; ok {
		return base.Merge(o)
	}
	return base
}

// Run is a maximal range of characters [Start, End) (code points) sharing
// one override key.
type Run struct {
	Start, End int
	Key        int
}

// Runs splits the text into runs of equal override key.
func (t *TextContent) Runs() []Run {
	n := t.RuneCount()
	if n == 0 {
		return nil
	}
	key := func(i int) int {
		if i < len(t.CharacterStyleOverrides) {
			return t.CharacterStyleOverrides[i]
		}
		return 0
	}
	var runs []Run
	start := 0
	for i := 1; i <= n; i++ {
		if i == n || key(i) != key(start) {
			runs = append(runs, Run{Start: start, End: i, Key: key(start)})
			start = i
		}
	}
	return runs
}

// ParagraphRun is a run as a text rewrite addresses it: a maximal range
// [Start, End) (code points) of one paragraph's characters that share one
// override key and lie all inside one field or all outside every field.
// Paragraph is the 0-based paragraph (the '\n'-separated line); Field is
// the run's index in Fields, or -1.
type ParagraphRun struct {
	Paragraph  int
	Start, End int
	Key        int
	Field      int
}

// ParagraphRuns splits the text into runs that never cross a paragraph
// break or a field boundary, in order. The '\n' characters between
// paragraphs belong to no run, so an empty paragraph has none; a line
// break inside a paragraph (U+2028) is ordinary text of its run. A
// field (a:fld) is always a run of its own, as DrawingML writes it
// (ECMA-376 Part 1 §21.1.2.2.4).
func (t *TextContent) ParagraphRuns() []ParagraphRun {
	rs := []rune(t.Characters)
	key := func(i int) int {
		if i < len(t.CharacterStyleOverrides) {
			return t.CharacterStyleOverrides[i]
		}
		return 0
	}
	var out []ParagraphRun
	para, start := 0, -1
	for i := 0; i <= len(rs); i++ {
		if start >= 0 && (i == len(rs) || rs[i] == '\n' || key(i) != key(start) || t.FieldAt(i) != t.FieldAt(start)) {
			out = append(out, ParagraphRun{Paragraph: para, Start: start, End: i, Key: key(start), Field: t.FieldAt(start)})
			start = -1
		}
		if i == len(rs) {
			break
		}
		if rs[i] == '\n' {
			para++
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

// ParagraphCount is the number of '\n'-separated paragraphs: one more
// than the line feeds, so an empty text has one (empty) paragraph.
func (t *TextContent) ParagraphCount() int { return strings.Count(t.Characters, "\n") + 1 }
