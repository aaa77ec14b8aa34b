package tools

import (
	"fmt"
	"math"
	"slices"
	"strings"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// place is the argument group every create_* tool shares.
type place struct {
	ParentID string  `json:"parentId,omitempty" desc:"Slide, frame or group to create the node in; default the focused slide. After create_slide pass the new slide id (or its $name in a batch)."`
	Index    *int    `json:"index,omitempty" min:"0" desc:"Position among the parent's children, 0 = backmost; default frontmost. In an auto-layout parent this is the slot in the row or column."`
	X        Length  `json:"x,omitempty" desc:"Left edge, px from the parent's left (ignored inside an auto-layout parent)."`
	Y        Length  `json:"y,omitempty" desc:"Top edge, px from the parent's top (ignored inside an auto-layout parent)."`
	Width    *Length `json:"width,omitempty" min:"0" desc:"Width, px."`
	Height   *Length `json:"height,omitempty" min:"0" desc:"Height, px."`
	Name     string  `json:"name,omitempty" desc:"Layer name."`
}

// put sizes and places n under the resolved parent.
func (e *Env) put(a place, n *sg.Node, defW, defH float64) (*sg.Node, error) {
	p, err := e.container(a.ParentID)
	if err != nil {
		return nil, err
	}
	n.Transform = sg.Translate(float64(a.X), float64(a.Y))
	n.Size = sg.Vector{X: orDefault(lengthPtr(a.Width), defW), Y: orDefault(lengthPtr(a.Height), defH)}
	if a.Name != "" {
		n.Name = a.Name
	}
	idx := -1
	if a.Index != nil {
		idx = *a.Index
	}
	e.insert(p, n, idx)
	return p, nil
}

func orDefault(p *float64, d float64) float64 {
	if p == nil {
		return d
	}
	return *p
}

// color parses a Hex argument; opacity (0..1), when given, sets alpha.
func color(h Hex, opacity *float64) (sg.Color, error) {
	c, err := sg.ParseHex(string(h))
	if err != nil {
		return sg.Color{}, err
	}
	if opacity != nil {
		c.A = *opacity
	}
	return c, nil
}

// paintArgs chooses a solid colour by value or by design token.
type paintArgs struct {
	Color      Hex      `json:"color,omitempty" desc:"Colour as #RRGGBB or #RRGGBBAA."`
	ThemeColor string   `json:"themeColor,omitempty" desc:"Name of a design-token colour (accent1, dk1, brand.primary, ...) to reference instead of a literal; the paint follows later theme changes."`
	Opacity    *float64 `json:"opacity,omitempty" min:"0" max:"1" desc:"Paint opacity 0..1."`
}

func (e *Env) paint(a paintArgs) (sg.Paint, error) {
	switch {
	case a.ThemeColor != "":
		c, ok := e.Deck.Tokens.Colors[a.ThemeColor]
		if !ok {
			return sg.Paint{}, fmt.Errorf("themeColor %q is not a token of this deck; tokens: %s", a.ThemeColor, strings.Join(sortedKeys(e.Deck.Tokens.Colors), ", "))
		}
		p := sg.Solid(c)
		p.ThemeColor = &sg.ThemeColor{Name: a.ThemeColor}
		if a.Opacity != nil {
			p.Opacity = ptr(*a.Opacity)
		}
		return p, nil
	case a.Color != "":
		c, err := color(a.Color, nil)
		if err != nil {
			return sg.Paint{}, err
		}
		p := sg.Solid(c)
		if a.Opacity != nil {
			p.Opacity = ptr(*a.Opacity)
		}
		return p, nil
	}
	return sg.Paint{}, fmt.Errorf("give color (#RRGGBB) or themeColor (a token name)")
}

func (a paintArgs) set() bool { return a.Color != "" || a.ThemeColor != "" }

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func ptr[T any](v T) *T { return &v }

// fontWeights maps the weight words of font style names (Figma's and the
// OpenType usWeightClass names, CSS Fonts 4 §2.2) to weights.
var fontWeights = map[string]int{"thin": 100, "hairline": 100, "extralight": 200, "ultralight": 200, "light": 300,
	"": 400, "regular": 400, "normal": 400, "book": 400, "medium": 500, "semibold": 600, "demibold": 600,
	"bold": 700, "extrabold": 800, "ultrabold": 800, "black": 900, "heavy": 900}

// fontWeightOf maps a Figma font style name ("Bold", "SemiBold Italic",
// "Light Oblique") to a weight and italic flag. A style whose weight word
// is unknown ("UltraHeavyOblique") is an error naming the known words: it
// would otherwise be drawn Regular without a word.
func fontWeightOf(style string) (int, bool, error) {
	s := strings.ToLower(strings.NewReplacer(" ", "", "-", "", "_", "").Replace(style))
	italic := strings.Contains(s, "italic") || strings.Contains(s, "oblique")
	s = strings.NewReplacer("italic", "", "oblique", "").Replace(s)
	w, ok := fontWeights[s]
	if !ok {
		return 0, false, fmt.Errorf("fontStyle %q: unknown weight; use Thin, ExtraLight, Light, Regular, Medium, SemiBold, Bold, ExtraBold or Black, optionally followed by Italic", style)
	}
	return w, italic, nil
}

// hasScript reports which DrawingML script slots a text needs: East Asian
// (CJK ideographs, kana, hangul) and complex (Arabic, Hebrew, Thai, Indic).
func hasScript(s string) (eastAsian, complex bool) {
	for _, r := range s {
		switch {
		case r >= 0x2E80 && r <= 0x9FFF, r >= 0xAC00 && r <= 0xD7AF, r >= 0xF900 && r <= 0xFAFF, r >= 0xFF00 && r <= 0xFFEF, r >= 0x20000 && r <= 0x2FA1F:
			eastAsian = true
		case r >= 0x0590 && r <= 0x08FF, r >= 0x0900 && r <= 0x0DFF, r >= 0x0E00 && r <= 0x0E7F, r >= 0xFB1D && r <= 0xFDFF, r >= 0xFE70 && r <= 0xFEFF:
			complex = true
		}
	}
	return
}

// luminance is the WCAG 2.x relative luminance of an sRGB colour.
func luminance(c sg.Color) float64 {
	f := func(v float64) float64 {
		if v <= 0.03928 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*f(c.R) + 0.7152*f(c.G) + 0.0722*f(c.B)
}

// contrast is the WCAG contrast ratio of two colours, 1..21.
func contrast(a, b sg.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// firstSolid returns the colour of the first visible solid paint.
func firstSolid(ps []sg.Paint) (sg.Color, bool) {
	for _, p := range ps {
		if p.IsVisible() && p.Type == sg.PaintSolid && p.Color != nil {
			return *p.Color, true
		}
	}
	return sg.Color{}, false
}

// absBounds is the node's box in slide coordinates.
func (e *Env) absBounds(n *sg.Node) sg.Rect { return e.Index().AbsoluteBounds(n.ID) }

// toLocal converts a slide-space point into the coordinate space of parent.
func (e *Env) toLocal(parent *sg.Node, x, y float64) (float64, float64) {
	if parent == nil || parent.Type == sg.TypeSlide {
		return x, y
	}
	t := e.Index().AbsoluteTransform(parent.ID)
	// invert the 2x3 affine
	det := t[0][0]*t[1][1] - t[0][1]*t[1][0]
	if det == 0 {
		return x - t[0][2], y - t[1][2]
	}
	dx, dy := x-t[0][2], y-t[1][2]
	return (t[1][1]*dx - t[0][1]*dy) / det, (-t[1][0]*dx + t[0][0]*dy) / det
}
