package tools

import (
	"fmt"
	"math"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type themeColorsArgs struct {
	Colors map[string]Hex `json:"colors" desc:"Token name -> colour, e.g. {\"accent1\": \"#0055FF\", \"dk1\": \"#111111\"}; new names are added."`
}

type themeFontsArgs struct {
	Heading          string `json:"heading,omitempty" desc:"Heading (major) typeface."`
	Body             string `json:"body,omitempty" desc:"Body (minor) typeface."`
	HeadingEastAsian string `json:"headingEastAsian,omitempty"`
	BodyEastAsian    string `json:"bodyEastAsian,omitempty"`
	ApplyToText      *bool  `json:"applyToText,omitempty" desc:"Also change text that uses the old theme fonts (default true)."`
}

func contentThemeTools() []Tool {
	return []Tool{
		def(ModuleContent, "set_theme_colors", false,
			"Change the deck's theme (design-token) colours. Every fill, stroke, text colour, list bullet and chart series that references a changed token follows, with its tint/shade/luminance modifiers re-applied, so one call re-themes the whole deck consistently.",
			func(e *Env, a *themeColorsArgs) (Result, error) {
				if len(a.Colors) == 0 {
					return Result{}, fmt.Errorf("colors is empty; give token -> #RRGGBB")
				}
				if e.Deck.Tokens.Colors == nil {
					e.Deck.Tokens.Colors = map[string]sg.Color{}
				}
				for _, k := range sortedKeys(a.Colors) {
					c, err := color(a.Colors[k], nil)
					if err != nil {
						return Result{}, fmt.Errorf("colors.%s: %w", k, err)
					}
					e.Deck.Tokens.Colors[k] = c
				}
				res := Result{}
				fix := func(ps []sg.Paint) bool {
					hit := false
					for i := range ps {
						p := &ps[i]
						if p.ThemeColor == nil {
							continue
						}
						if _, ok := a.Colors[p.ThemeColor.Name]; !ok {
							continue
						}
						c := applyMods(e.Deck.Tokens.Colors[p.ThemeColor.Name], p.ThemeColor.Mods)
						if p.Color != nil {
							c.A = math.Min(c.A, p.Color.A)
						}
						p.Color = &c
						hit = true
					}
					return hit
				}
				for k, st := range e.Deck.Tokens.TextStyles {
					if fix(st.Fills) {
						e.Deck.Tokens.TextStyles[k] = st
					}
				}
				e.Deck.Walk(func(n, _ *sg.Node, _ int) bool {
					hit := fix(n.Fills)
					hit = fix(n.Strokes) || hit
					if n.Style != nil {
						hit = fix(n.Style.Fills) || hit
					}
					for k, o := range n.StyleOverrideTable {
						if fix(o.Fills) {
							n.StyleOverrideTable[k] = o
							hit = true
						}
					}
					for i := range n.Paragraphs { // bullets bound to a token
						if ps := bulletPaint(&n.Paragraphs[i]); ps != nil && fix(ps) {
							setBulletPaint(&n.Paragraphs[i], ps)
							hit = true
						}
					}
					if hit {
						res.Changed = append(res.Changed, n.ID)
					}
					return true
				})
				return res, nil
			}),
		def(ModuleContent, "set_theme_fonts", false,
			"Change the deck's theme fonts (heading and body, optionally East Asian). Text set in the old theme fonts changes with them, on every script slot, so titles and body text stay consistent across slides and layouts.",
			func(e *Env, a *themeFontsArgs) (Result, error) {
				f := &e.Deck.Tokens.Fonts
				if a.Heading == "" && a.Body == "" && a.HeadingEastAsian == "" && a.BodyEastAsian == "" {
					return Result{}, fmt.Errorf("give heading and/or body")
				}
				// Old face -> new face, for headings and for body text. A deck
				// whose heading and body fonts were the same face is told
				// apart by placeholder role (titles are headings).
				heading, body := map[string]string{}, map[string]string{}
				set := func(dst *string, v string, m map[string]string) {
					if v == "" {
						return
					}
					if *dst != "" {
						m[*dst] = v
					}
					*dst = v
				}
				set(&f.Major.Latin, a.Heading, heading)
				set(&f.Minor.Latin, a.Body, body)
				set(&f.Major.EastAsian, a.HeadingEastAsian, heading)
				set(&f.Minor.EastAsian, a.BodyEastAsian, body)
				res := Result{}
				if a.ApplyToText != nil && !*a.ApplyToText {
					return res, nil
				}
				re := func(st *sg.TypeStyle, isHeading bool) bool {
					hit := false
					for _, p := range []*string{&st.FontFamily, &st.FontFamilyEastAsian, &st.FontFamilyComplex} {
						h, inH := heading[*p]
						b, inB := body[*p]
						v, ok := b, inB
						if inH && (isHeading || !inB) {
							v, ok = h, true
						}
						if ok && v != *p {
							*p = v
							hit = true
						}
					}
					return hit
				}
				for k, st := range e.Deck.Tokens.TextStyles {
					if re(&st, k == "title" || k == "heading" || strings.HasPrefix(k, "h")) {
						e.Deck.Tokens.TextStyles[k] = st
					}
				}
				e.Deck.Walk(func(n, _ *sg.Node, _ int) bool {
					isHeading := n.Placeholder != nil && (n.Placeholder.Role == "title" || n.Placeholder.Role == "ctrTitle")
					hit := false
					if n.Style != nil {
						hit = re(n.Style, isHeading)
					}
					for k, o := range n.StyleOverrideTable {
						if re(&o, isHeading) {
							n.StyleOverrideTable[k] = o
							hit = true
						}
					}
					if hit {
						res.Changed = append(res.Changed, n.ID)
					}
					return true
				})
				return res, nil
			}),
	}
}

// applyMods applies DrawingML colour transforms in order
// (scenegraph.Color.WithMods, the same arithmetic the PPTX importer uses).
func applyMods(c sg.Color, mods []sg.ColorMod) sg.Color { return c.WithMods(mods) }
