package scenegraph

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Color is RGBA with channels in 0..1 (Figma REST Color).
type Color struct {
	R float64 `json:"r"`
	G float64 `json:"g"`
	B float64 `json:"b"`
	A float64 `json:"a"`
}

// ParseHex parses "#RRGGBB", "#RRGGBBAA", "RRGGBB" or "#RGB".
// It returns an error naming the input when the text is not a colour.
func ParseHex(s string) (Color, error) {
	h := strings.TrimPrefix(strings.TrimSpace(s), "#")
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	if len(h) != 6 && len(h) != 8 {
		return Color{}, fmt.Errorf("colour %q: want #RRGGBB or #RRGGBBAA", s)
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return Color{}, fmt.Errorf("colour %q: not hexadecimal", s)
	}
	if len(h) == 6 {
		v = v<<8 | 0xff
	}
	return Color{
		R: float64(v>>24&0xff) / 255, G: float64(v>>16&0xff) / 255,
		B: float64(v>>8&0xff) / 255, A: float64(v&0xff) / 255,
	}, nil
}

// MustHex is ParseHex for constants in code; it panics on a bad literal.
func MustHex(s string) Color {
	c, err := ParseHex(s)
	if err != nil {
		panic(err)
	}
	return c
}

// Hex formats the colour as "#RRGGBB" (alpha omitted when 1) or "#RRGGBBAA".
func (c Color) Hex() string {
	b := func(f float64) int { return int(math.Round(math.Max(0, math.Min(1, f)) * 255)) }
	if b(c.A) == 255 {
		return fmt.Sprintf("#%02X%02X%02X", b(c.R), b(c.G), b(c.B))
	}
	return fmt.Sprintf("#%02X%02X%02X%02X", b(c.R), b(c.G), b(c.B), b(c.A))
}

// Near reports whether every channel of c is within tol of o
// (ACE App. E.4 uses 0.01 on 0..1 channels).
func (c Color) Near(o Color, tol float64) bool {
	return math.Abs(c.R-o.R) <= tol && math.Abs(c.G-o.G) <= tol &&
		math.Abs(c.B-o.B) <= tol && math.Abs(c.A-o.A) <= tol
}

// Paint types (Figma REST Paint.type).
const (
	PaintSolid           = "SOLID"
	PaintGradientLinear  = "GRADIENT_LINEAR"
	PaintGradientRadial  = "GRADIENT_RADIAL"
	PaintGradientAngular = "GRADIENT_ANGULAR"
	PaintGradientDiamond = "GRADIENT_DIAMOND"
	PaintImage           = "IMAGE"
)

// Paint is a fill or stroke (Figma REST Paint).
type Paint struct {
	Type    string   `json:"type"`
	Visible *bool    `json:"visible,omitempty"`
	Opacity *float64 `json:"opacity,omitempty"`
	// Color is the resolved colour of a SOLID paint.
	Color *Color `json:"color,omitempty"`
	// ThemeColor keeps a reference to a design-token colour (OOXML
	// a:schemeClr, Figma variable). Color holds its resolved value; a
	// re-theme rewrites both.
	ThemeColor *ThemeColor `json:"themeColor,omitempty"`
	// Gradient paints.
	GradientStops []ColorStop `json:"gradientStops,omitempty"`
	GradientAngle float64     `json:"gradientAngle,omitempty"` // degrees, clockwise from left-to-right
	// IMAGE paints: ImageRef is a key of Deck.Assets.
	ImageRef  string `json:"imageRef,omitempty"`
	ScaleMode string `json:"scaleMode,omitempty"` // FILL | FIT | CROP | TILE
	Crop      *Crop  `json:"crop,omitempty"`
}

// IsVisible reports whether the paint is drawn.
func (p *Paint) IsVisible() bool { return p.Visible == nil || *p.Visible }

// Solid returns a visible SOLID paint of colour c.
func Solid(c Color) Paint { return Paint{Type: PaintSolid, Color: &c} }

// ThemeColor is a reference to a palette entry of the deck's tokens, with the
// DrawingML colour transforms applied to it (ECMA-376 §20.1.2.3).
type ThemeColor struct {
	Name string     `json:"name"` // token name, e.g. "accent1", "dk1", "brand.primary"
	Mods []ColorMod `json:"mods,omitempty"`
}

// ColorMod is one DrawingML colour transform (ECMA-376 §20.1.2.3; the ops
// are ColorOps): Op is the element's name, Val its value as a fraction
// (1 = 100%; the XML stores thousandths of a percent), in degrees for hue
// and hueOff, unused for comp, inv, gray, gamma and invGamma. Apply gives
// each op's rule.
type ColorMod struct {
	Op  string  `json:"op"`
	Val float64 `json:"val"`
}

// ColorStop is a gradient stop at Position 0..1.
type ColorStop struct {
	Position float64 `json:"position"`
	Color    Color   `json:"color"`
}

// Crop trims an image, each side a fraction 0..1 of the source image
// (OOXML a:srcRect in thousandths of a percent); a negative fraction adds
// empty space on that side (a letterboxed picture, see Paint.AsCrop).
type Crop struct {
	Left   float64 `json:"left,omitempty"`
	Top    float64 `json:"top,omitempty"`
	Right  float64 `json:"right,omitempty"`
	Bottom float64 `json:"bottom,omitempty"`
}

// AsCrop returns the paint with a FILL or FIT scale mode turned into the
// equivalent CROP for a box of boxW x boxH px showing a picture of imgW x
// imgH px (intrinsic pixels; only the aspect ratio matters). FILL (CSS
// object-fit: cover) crops the axis that overflows, equally on both sides;
// FIT (contain) letterboxes with negative crop fractions, which is how
// DrawingML's a:srcRect keeps the picture's aspect (ECMA-376 §20.1.8.55:
// negative offsets add space around the picture). Other modes, or a size
// that is not positive, return p unchanged: the picture is then stretched
// to the box as a:stretch/a:fillRect does.
func (p Paint) AsCrop(boxW, boxH, imgW, imgH float64) Paint {
	if p.Type != PaintImage || p.ScaleMode != "FILL" && p.ScaleMode != "FIT" || boxW <= 0 || boxH <= 0 || imgW <= 0 || imgH <= 0 {
		return p
	}
	// r > 1: the picture is wider than the box (relative to its height).
	r := (imgW / imgH) / (boxW / boxH)
	var c Crop
	switch {
	case r > 1 && p.ScaleMode == "FILL": // scaled to the box height, the sides overflow
		c.Left = (1 - 1/r) / 2
		c.Right = c.Left
	case r < 1 && p.ScaleMode == "FILL": // scaled to the box width, top and bottom overflow
		c.Top = (1 - r) / 2
		c.Bottom = c.Top
	case r > 1: // FIT, scaled to the box width: bands above and below
		c.Top = (1 - r) / 2
		c.Bottom = c.Top
	case r < 1: // FIT, scaled to the box height: bands left and right
		c.Left = (1 - 1/r) / 2
		c.Right = c.Left
	}
	p.ScaleMode = "CROP"
	p.Crop = nil
	if c != (Crop{}) {
		p.Crop = &c
	}
	return p
}

// Effect types (Figma REST Effect.type).
const (
	EffectDropShadow     = "DROP_SHADOW"
	EffectInnerShadow    = "INNER_SHADOW"
	EffectLayerBlur      = "LAYER_BLUR"
	EffectBackgroundBlur = "BACKGROUND_BLUR"
)

// Effect is a shadow or blur (Figma REST Effect). Radius and Spread in px.
type Effect struct {
	Type    string  `json:"type"`
	Visible *bool   `json:"visible,omitempty"`
	Radius  float64 `json:"radius"`
	Color   *Color  `json:"color,omitempty"`
	Offset  *Vector `json:"offset,omitempty"`
	Spread  float64 `json:"spread,omitempty"`
}
