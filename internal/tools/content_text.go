package tools

import (
	"fmt"
	"github.com/acecanvas/ace/internal/fonts"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type setTextArgs struct {
	NodeID     string `json:"nodeId" desc:"TEXT node, shape with text, or table cell."`
	Text       string `json:"text" desc:"New characters; \\n separates paragraphs. Range styles are reset, the base style is kept (rewrite_text keeps them; load_tools adds it when it is not in your list). With find: the replacement for each occurrence."`
	Find       string `json:"find,omitempty" desc:"Replace only the occurrences of this text (case-sensitive unless ignoreCase) by text; every other character keeps its style and the replacement takes the style of what it replaces (find-and-replace, e.g. renaming a company). For the whole deck use replace_text."`
	IgnoreCase bool   `json:"ignoreCase,omitempty" desc:"With find: match upper and lower case alike."`
}

type replaceTextArgs struct {
	Find         string `json:"find" minLength:"1" desc:"Text to find; a regular expression (Go RE2) when regex is true."`
	Replace      string `json:"replace" desc:"Replacement text; with regex, $1 or ${name} insert groups. \"\" deletes the matches."`
	MatchCase    bool   `json:"matchCase,omitempty" desc:"Match case exactly; default ignores case."`
	WholeWord    bool   `json:"wholeWord,omitempty" desc:"Only whole words (no letter or digit right before or after)."`
	Regex        bool   `json:"regex,omitempty"`
	Slides       []int  `json:"slides,omitempty" desc:"1-based slide numbers to search; default every slide."`
	IncludeNotes bool   `json:"includeNotes,omitempty" desc:"Also replace in speaker notes."`
}

// replaceCount is one slide's line in replace_text's result.
type replaceCount struct {
	Slide   int    `json:"slide"` // 1-based
	SlideID string `json:"slideId"`
	Text    int    `json:"text"`            // replacements in the slide's texts
	Notes   int    `json:"notes,omitempty"` // replacements in its speaker notes
}

type multiTextArgs struct {
	Items []setTextArgs `json:"items" minItems:"1" desc:"One entry per node, e.g. from scan_text_nodes."`
}

type fontArgs struct {
	NodeID              string `json:"nodeId"`
	FontFamily          string `json:"fontFamily,omitempty" desc:"Typeface, set on every script slot the text needs (Latin, and East Asian / complex when present)."`
	FontFamilyEastAsian string `json:"fontFamilyEastAsian,omitempty" desc:"Typeface for CJK characters only."`
	FontFamilyComplex   string `json:"fontFamilyComplex,omitempty" desc:"Typeface for Arabic, Hebrew, Thai and Indic characters only."`
	FontStyle           string `json:"fontStyle,omitempty" desc:"Figma style name: Regular, Medium, SemiBold, Bold, Black, with or without Italic."`
	FontWeight          int    `json:"fontWeight,omitempty" min:"100" max:"900"`
	FontSize            Length `json:"fontSize,omitempty" exclusiveMin:"0" desc:"px, or with a unit: \"19pt\""`
	Italic              *bool  `json:"italic,omitempty"`
	textRange
}

type textColorArgs struct {
	NodeID string `json:"nodeId"`
	paintArgs
	textRange
}

type rangeStyleArgs struct {
	NodeID string `json:"nodeId"`
	textRange
	FontFamily     string  `json:"fontFamily,omitempty"`
	FontSize       Length  `json:"fontSize,omitempty" exclusiveMin:"0"`
	FontWeight     int     `json:"fontWeight,omitempty" min:"100" max:"900"`
	Italic         *bool   `json:"italic,omitempty"`
	Color          Hex     `json:"color,omitempty"`
	ThemeColor     string  `json:"themeColor,omitempty"`
	TextCase       string  `json:"textCase,omitempty" enum:"ORIGINAL,UPPER,LOWER,TITLE,SMALL_CAPS"`
	TextDecoration string  `json:"textDecoration,omitempty" enum:"NONE,UNDERLINE,STRIKETHROUGH"`
	LetterSpacing  *Length `json:"letterSpacing,omitempty" desc:"px"`
	BaselineShift  float64 `json:"baselineShift,omitempty" min:"-1" max:"1" desc:"Fraction of the font size: positive superscript, negative subscript."`
	HyperlinkURL   string  `json:"hyperlinkUrl,omitempty" desc:"Make the range a link to this URL."`
}

type decorationArgs struct {
	NodeID     string `json:"nodeId"`
	Decoration string `json:"decoration" enum:"NONE,UNDERLINE,STRIKETHROUGH"`
	textRange
}

type alignTextArgs struct {
	NodeID     string `json:"nodeId"`
	Horizontal string `json:"horizontal,omitempty" enum:"LEFT,CENTER,RIGHT,JUSTIFIED"`
	Vertical   string `json:"vertical,omitempty" enum:"TOP,CENTER,BOTTOM"`
}

type paragraphArgs struct {
	NodeID      string   `json:"nodeId"`
	Paragraphs  []int    `json:"paragraphs,omitempty" desc:"0-based paragraph (line) indices; default all."`
	ListType    string   `json:"listType,omitempty" enum:"NONE,ORDERED,UNORDERED" desc:"Bulleted or numbered list."`
	Bullet      string   `json:"bullet,omitempty" desc:"Bullet character for UNORDERED lists."`
	BulletSize  *float64 `json:"bulletSize,omitempty" min:"0" max:"4" desc:"Bullet or number size as a fraction of the text size (0.8 = 80%); 0 or 1 follows the text."`
	BulletColor string   `json:"bulletColor,omitempty" desc:"Bullet or number colour as #RRGGBB, or TEXT to follow the text colour."`
	Level       *int     `json:"level,omitempty" min:"0" max:"8" desc:"Indent level."`
	Align       string   `json:"align,omitempty" enum:"LEFT,CENTER,RIGHT,JUSTIFIED"`
	SpaceBefore *Length  `json:"spaceBefore,omitempty" min:"0" desc:"px"`
	SpaceAfter  *Length  `json:"spaceAfter,omitempty" min:"0" desc:"px"`
	LineHeight  *float64 `json:"lineHeight,omitempty" exclusiveMin:"0" desc:"Multiple of the font size."`
	MarginLeft  *Length  `json:"marginLeft,omitempty" min:"0" desc:"px"`
	Indent      *Length  `json:"indent,omitempty" desc:"First-line indent, px."`
	RTL         *bool    `json:"rtl,omitempty" desc:"Right-to-left paragraph."`
}

type textBoxArgs struct {
	NodeID     string  `json:"nodeId"`
	AutoResize string  `json:"autoResize,omitempty" enum:"NONE,HEIGHT,WIDTH_AND_HEIGHT,TRUNCATE" desc:"HEIGHT grows the box with the text, WIDTH_AND_HEIGHT hugs it, TRUNCATE shrinks text on overflow."`
	Padding    *Length `json:"padding,omitempty" min:"0" desc:"Inset on all sides, px."`
	NoWrap     *bool   `json:"noWrap,omitempty"`
	Columns    *int    `json:"columns,omitempty" min:"1" max:"16"`
	Vertical   string  `json:"vertical,omitempty" enum:"horz,vert,vert270,eaVert" desc:"Text direction."`
}

type applyStyleArgs struct {
	NodeID string `json:"nodeId"`
	Style  string `json:"style" desc:"Name of a text style in the deck's design tokens (title, body, h1, ...)."`
}

func (e *Env) textNode(id string) (*sg.Node, error) {
	n, err := e.node(id)
	if err != nil {
		return nil, err
	}
	if !n.Type.CanHoldText() {
		return nil, fmt.Errorf("node %q is a %s and holds no text; text lives in TEXT nodes, shapes and table cells (find them with scan_text_nodes)", id, n.Type)
	}
	return n, nil
}

func contentTextTools() []Tool {
	return []Tool{
		def(ModuleContent, "set_text_content", false,
			"Replace the text of a TEXT node, a shape with text or a table cell. The base style and paragraph styles are kept; per-range styling is reset. With find, replace only the occurrences of find and keep every character's style (find-and-replace).",
			func(e *Env, a *setTextArgs) (Result, error) {
				n, err := e.textNode(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if a.Find != "" {
					if _, err := replaceText(n, a.Find, a.Text, a.IgnoreCase); err != nil {
						return Result{}, err
					}
					return changed(n.ID), nil
				}
				if err := setCharacters(n, a.Text); err != nil {
					return Result{}, err
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "replace_text", false,
			"Find and replace text across the deck (or the given slides): every text box, shape, table cell and, with includeNotes, speaker notes. Ignores case unless matchCase. Every other character keeps its style; a replacement takes the style of the first character it replaces (a bold phrase stays bold). Returns the count per slide.",
			func(e *Env, a *replaceTextArgs) (Result, error) {
				m, err := newTextMatcher(a.Find, a.Replace, a.MatchCase, a.WholeWord, a.Regex)
				if err != nil {
					return Result{}, err
				}
				nums := a.Slides
				if len(nums) == 0 {
					for i := range e.Deck.Slides {
						nums = append(nums, i+1)
					}
				}
				res, total := Result{}, 0
				counts := []replaceCount{}
				for _, k := range nums {
					if k < 1 || k > len(e.Deck.Slides) {
						return Result{}, fmt.Errorf("slides: %d is not a slide number; the deck has slides 1..%d", k, len(e.Deck.Slides))
					}
					s := e.Deck.Slides[k-1]
					c := replaceCount{Slide: k, SlideID: s.ID}
					var werr error
					s.Walk(func(n, _ *sg.Node, _ int) bool {
						if werr != nil || !n.Type.CanHoldText() || n.Characters == "" {
							return werr == nil
						}
						got, err := m.replaceIn(n)
						if err != nil {
							werr = fmt.Errorf("slide %d, node %s: %w", k, n.ID, err)
						}
						if got > 0 {
							c.Text += got
							res.Changed = append(res.Changed, n.ID)
						}
						return werr == nil
					})
					if werr != nil {
						return Result{}, werr
					}
					if a.IncludeNotes && s.Slide != nil && s.Slide.Notes != "" {
						notes, got, err := m.replaceString(s.Slide.Notes)
						if err != nil {
							return Result{}, fmt.Errorf("slide %d notes: %w", k, err)
						}
						if got > 0 {
							s.Slide.Notes, c.Notes = notes, got
							res.Changed = append(res.Changed, s.ID)
						}
					}
					if c.Text+c.Notes > 0 {
						counts = append(counts, c)
						total += c.Text + c.Notes
					}
				}
				out := map[string]any{"replaced": total, "slides": counts}
				if total == 0 {
					hint := "case was ignored"
					if a.MatchCase {
						hint = "matchCase was on"
					}
					out["note"] = fmt.Sprintf("no occurrence of %q (%s); read texts with scan_text_nodes", a.Find, hint)
				}
				res.Data = asData(out)
				return res, nil
			}),
		def(ModuleContent, "rewrite_text", false,
			"Rewrite a text keeping its styles, for translation and proofreading: one new string per paragraph or per run (get_text_node_info lists the runs with their styles). Each string keeps the style of what it replaces (bold, underline, size, colour, font, link) and paragraph properties stay.",
			func(e *Env, a *rewriteTextArgs) (Result, error) {
				n, err := e.textNode(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				st, err := rewriteText(n, a.Paragraphs, a.Runs)
				if err != nil {
					return Result{}, err
				}
				res := changed(n.ID)
				res.Data = asData(st)
				return res, nil
			}),
		def(ModuleContent, "set_multiple_text_contents", false,
			"Replace the text of many nodes in one call (renumbering, filling placeholders): a list of {nodeId, text}; range styles reset as in set_text_content (rewrite_text keeps them, for translation; load_tools adds it when it is not in your list). Fails as a whole if any id is not a text holder.",
			func(e *Env, a *multiTextArgs) (Result, error) {
				res := Result{}
				for i, it := range a.Items {
					n, err := e.textNode(it.NodeID)
					if err != nil {
						return Result{}, fmt.Errorf("items[%d]: %w", i, err)
					}
					if it.Find != "" {
						if _, err := replaceText(n, it.Find, it.Text, it.IgnoreCase); err != nil {
							return Result{}, fmt.Errorf("items[%d]: %w", i, err)
						}
					} else if err := setCharacters(n, it.Text); err != nil {
						return Result{}, fmt.Errorf("items[%d]: %w", i, err)
					}
					res.Changed = append(res.Changed, n.ID)
				}
				return res, nil
			}),
		def(ModuleContent, "set_text_font", false,
			"Set typeface, weight or style, italic and size of a text, whole or a range (start/end or substring). A family change covers every script slot the text uses, so CJK and Arabic text change face too; per-script faces can be given explicitly.",
			func(e *Env, a *fontArgs) (Result, error) {
				n, err := e.textNode(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				patch := sg.TypeStyle{FontSize: float64(a.FontSize), FontWeight: a.FontWeight, Italic: a.Italic}
				if a.FontStyle != "" {
					w, it, err := fontWeightOf(a.FontStyle)
					if err != nil {
						return Result{}, err
					}
					if patch.FontWeight == 0 {
						patch.FontWeight = w
					}
					if patch.Italic == nil {
						patch.Italic = ptr(it)
					}
				}
				if a.FontFamily != "" {
					existing := sg.TypeStyle{}
					if n.Style != nil {
						existing = *n.Style
					}
					ea, cs := usesOverrideSlot(n)
					if ea && existing.FontFamilyEastAsian == "" {
						existing.FontFamilyEastAsian = "-"
					}
					if cs && existing.FontFamilyComplex == "" {
						existing.FontFamilyComplex = "-"
					}
					setFamily(&patch, a.FontFamily, n.Characters, &existing)
				}
				if a.FontFamilyEastAsian != "" {
					patch.FontFamilyEastAsian = a.FontFamilyEastAsian
				}
				if a.FontFamilyComplex != "" {
					patch.FontFamilyComplex = a.FontFamilyComplex
				}
				if isEmptyStyle(patch) {
					return Result{}, fmt.Errorf("give fontFamily, fontStyle, fontWeight, fontSize or italic")
				}
				if err := styleText(n, a.textRange, patch, nil); err != nil {
					return Result{}, err
				}
				res := changed(n.ID)
				if a.FontFamily != "" {
					if f := fonts.Resolve(fonts.ThemeFace(e.Deck, a.FontFamily)); f.DrawnAs != "" && !f.MetricCompatible {
						res.Warnings = append(res.Warnings, fmt.Sprintf("%s: font family %q is not installed and has no metric-compatible substitute: the renderer draws it as %s, so widths and line breaks are measured in that face; check the name or pick an installed family", n.ID, a.FontFamily, f.DrawnAs))
					}
				}
				return res, nil
			}),
		def(ModuleContent, "set_text_color", false,
			"Set the colour of a text, whole or a range (start/end or substring), by value or design token.",
			func(e *Env, a *textColorArgs) (Result, error) {
				n, err := e.textNode(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				p, err := e.paint(a.paintArgs)
				if err != nil {
					return Result{}, err
				}
				if err := styleText(n, a.textRange, sg.TypeStyle{Fills: []sg.Paint{p}}, nil); err != nil {
					return Result{}, err
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "set_text_range_style", false,
			"Style part of a text (start/end code-point positions, or every occurrence of a substring): family, size, weight, italic, colour, case, decoration, letter spacing, superscript/subscript and a hyperlink. The rest of the text keeps its style.",
			func(e *Env, a *rangeStyleArgs) (Result, error) {
				n, err := e.textNode(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				patch := sg.TypeStyle{FontSize: float64(a.FontSize), FontWeight: a.FontWeight, Italic: a.Italic, TextCase: a.TextCase,
					TextDecoration: a.TextDecoration, LetterSpacing: lengthPtr(a.LetterSpacing), Baseline: a.BaselineShift}
				if a.FontFamily != "" {
					setFamily(&patch, a.FontFamily, n.Characters, n.Style)
				}
				if a.Color != "" || a.ThemeColor != "" {
					p, err := e.paint(paintArgs{Color: a.Color, ThemeColor: a.ThemeColor})
					if err != nil {
						return Result{}, err
					}
					patch.Fills = []sg.Paint{p}
				}
				if a.HyperlinkURL != "" {
					patch.Link = &sg.Link{URL: a.HyperlinkURL}
				}
				if isEmptyStyle(patch) {
					return Result{}, fmt.Errorf("give at least one style property to apply")
				}
				if err := styleText(n, a.textRange, patch, nil); err != nil {
					return Result{}, err
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "set_text_decoration", false,
			"Underline, strike through or clear the decoration of a text, whole or a range (start/end or substring).",
			func(e *Env, a *decorationArgs) (Result, error) {
				n, err := e.textNode(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if err := styleText(n, a.textRange, sg.TypeStyle{TextDecoration: a.Decoration}, nil); err != nil {
					return Result{}, err
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "set_text_align", false,
			"Align a text horizontally (left, centre, right, justified; applied to every paragraph) and/or vertically in its box (top, centre, bottom).",
			func(e *Env, a *alignTextArgs) (Result, error) {
				n, err := e.textNode(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if a.Horizontal == "" && a.Vertical == "" {
					return Result{}, fmt.Errorf("give horizontal and/or vertical")
				}
				if err := styleText(n, textRange{}, sg.TypeStyle{TextAlignHorizontal: a.Horizontal, TextAlignVertical: a.Vertical}, nil); err != nil {
					return Result{}, err
				}
				if a.Horizontal != "" {
					for i := range n.Paragraphs {
						n.Paragraphs[i].Align = ""
					}
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "set_paragraph_style", false,
			"Style paragraphs (the '\\n'-separated lines) of a text: bulleted or numbered list, bullet character, size and colour, indent level, alignment, space before/after, line height, margins and right-to-left direction.",
			func(e *Env, a *paragraphArgs) (Result, error) {
				n, err := e.textNode(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				lines := strings.Count(n.Characters, "\n") + 1
				idx := a.Paragraphs
				if len(idx) == 0 {
					for i := 0; i < lines; i++ {
						idx = append(idx, i)
					}
				}
				for _, i := range idx {
					if i < 0 || i >= lines {
						return Result{}, fmt.Errorf("paragraph %d does not exist; %q has %d paragraphs (0..%d)", i, n.ID, lines, lines-1)
					}
				}
				for len(n.Paragraphs) < lines {
					n.Paragraphs = append(n.Paragraphs, sg.Paragraph{})
				}
				for _, i := range idx {
					p := &n.Paragraphs[i]
					if a.ListType != "" {
						p.ListType = a.ListType
						if a.ListType == sg.ListUnordered && p.Bullet == "" {
							p.Bullet = "•"
						}
						if a.ListType == sg.ListNone {
							p.Bullet = ""
						}
					}
					if a.Bullet != "" {
						p.Bullet = a.Bullet
					}
					if a.BulletSize != nil {
						p.BulletSize = *a.BulletSize
						if p.BulletSize == 1 {
							p.BulletSize = 0 // the text's size
						}
					}
					switch {
					case strings.EqualFold(a.BulletColor, "TEXT"):
						p.BulletColor, p.BulletThemeColor = nil, nil
					case a.BulletColor != "":
						c, err := sg.ParseHex(a.BulletColor)
						if err != nil {
							return Result{}, fmt.Errorf("bulletColor: %w", err)
						}
						p.BulletColor, p.BulletThemeColor = &c, nil
					}
					if a.Level != nil {
						p.Level = *a.Level
					}
					if a.Align != "" {
						p.Align = a.Align
					}
					if a.SpaceBefore != nil {
						p.SpaceBefore = float64(*a.SpaceBefore)
					}
					if a.SpaceAfter != nil {
						p.SpaceAfter = float64(*a.SpaceAfter)
					}
					if a.LineHeight != nil {
						p.LineHeight = *a.LineHeight
					}
					if a.MarginLeft != nil {
						p.MarginLeft = float64(*a.MarginLeft)
					}
					if a.Indent != nil {
						p.Indent = float64(*a.Indent)
					}
					if a.RTL != nil {
						p.RTL = *a.RTL
					}
				}
				trimParagraphs(n)
				if n.Style == nil {
					n.Style = &sg.TypeStyle{}
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "set_text_box", false,
			"Set how a text box behaves: auto-resize (grow height, hug, or shrink text on overflow), inner padding, wrapping, columns and text direction.",
			func(e *Env, a *textBoxArgs) (Result, error) {
				n, err := e.textNode(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if n.TextBox == nil {
					n.TextBox = &sg.TextBox{}
				}
				b := n.TextBox
				if a.AutoResize != "" {
					b.AutoResize = a.AutoResize
					if a.AutoResize != sg.AutoResizeShrink {
						// A stored autofit scale belongs to normAutofit
						// only (ECMA-376 §21.1.2.1.3).
						b.FontScale, b.LineSpacingReduction = 0, 0
					}
					switch a.AutoResize {
					case sg.AutoResizeBoth:
						n.LayoutSizingHorizontal, n.LayoutSizingVertical = sg.SizingHug, sg.SizingHug
					case sg.AutoResizeHeight:
						n.LayoutSizingVertical = sg.SizingHug
					}
				}
				if a.Padding != nil {
					p := float64(*a.Padding)
					b.Insets = &sg.Insets{Left: p, Top: p, Right: p, Bottom: p}
				}
				if a.NoWrap != nil {
					b.NoWrap = *a.NoWrap
				}
				if a.Columns != nil {
					b.Columns = *a.Columns
				}
				if a.Vertical != "" {
					b.Vertical = a.Vertical
					if a.Vertical == "horz" {
						b.Vertical = ""
					}
				}
				if n.Style == nil {
					n.Style = &sg.TypeStyle{}
				}
				measureText(n)
				return changed(n.ID), nil
			}),
		def(ModuleContent, "apply_text_style", false,
			"Apply one of the deck's named text styles (design tokens: title, body, h1, ...) to a whole text, replacing the same properties in its ranges. Use get_design_tokens to list them.",
			func(e *Env, a *applyStyleArgs) (Result, error) {
				n, err := e.textNode(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				st, ok := e.Deck.Tokens.TextStyles[a.Style]
				if !ok {
					return Result{}, fmt.Errorf("text style %q is not in the deck's tokens; styles: %s", a.Style, strings.Join(sortedKeys(e.Deck.Tokens.TextStyles), ", "))
				}
				patch := st
				if patch.FontFamily != "" {
					setFamily(&patch, patch.FontFamily, n.Characters, n.Style)
					if st.FontFamilyEastAsian != "" {
						patch.FontFamilyEastAsian = st.FontFamilyEastAsian
					}
					if st.FontFamilyComplex != "" {
						patch.FontFamilyComplex = st.FontFamilyComplex
					}
				}
				if err := styleText(n, textRange{}, patch, nil); err != nil {
					return Result{}, err
				}
				return changed(n.ID), nil
			}),
	}
}

// trimParagraphs drops trailing empty paragraph entries.
func trimParagraphs(n *sg.Node) {
	for len(n.Paragraphs) > 0 && n.Paragraphs[len(n.Paragraphs)-1] == (sg.Paragraph{}) {
		n.Paragraphs = n.Paragraphs[:len(n.Paragraphs)-1]
	}
	if len(n.Paragraphs) == 0 {
		n.Paragraphs = nil
	}
}
