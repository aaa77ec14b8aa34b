package scenegraph

import (
	"math"
	"strings"
)

// Colour transforms (ECMA-376 Part 1 §20.1.2.3, the children of a colour
// element such as a:schemeClr). ColorMod.Val's unit depends on the op:
//   - percentages as fractions (1 = 100%): alpha, alphaMod, alphaOff,
//     hueMod, sat, satMod, satOff, lum, lumMod, lumOff, tint, shade, red,
//     redMod, redOff, green, greenMod, greenOff, blue, blueMod, blueOff;
//   - degrees: hue, hueOff;
//   - none (Val ignored): comp, inv, gray, gamma, invGamma.
//
// The standard names each transform but not the colour space every one
// works in. ACE follows LibreOffice's DrawingML import, checked pixel by
// pixel against LibreOffice's own drawing of a deck holding every
// transform (pptx.TestColourTransformsMatchLibreOffice, within 2 of 255
// per channel):
//   - hue, sat and lum ops, and comp (hue + 180 degrees), work in HSL of
//     the sRGB channels;
//   - tint, shade, inv and the red/green/blue ops work on linear
//     channels, c^2.3 (a plain 2.3 gamma, not the sRGB curve); tint moves
//     toward white (1 - (1-c)*v), shade toward black (c*v);
//   - gamma and invGamma apply that 2.3 gamma and its inverse;
//   - gray is the Rec. 709 luma of the sRGB channels.
const linearGamma = 2.3

// ColorOps lists every op Apply knows, in ECMA-376's order.
var ColorOps = []string{"tint", "shade", "comp", "inv", "gray", "alpha", "alphaOff", "alphaMod",
	"hue", "hueOff", "hueMod", "sat", "satOff", "satMod", "lum", "lumOff", "lumMod",
	"red", "redOff", "redMod", "green", "greenOff", "greenMod", "blue", "blueOff", "blueMod",
	"gamma", "invGamma"}

// KnownColorOp reports whether Apply knows op.
func KnownColorOp(op string) bool {
	for _, o := range ColorOps {
		if o == op {
			return true
		}
	}
	return false
}

// ColorOpHasValue reports whether op carries a val attribute (comp, inv,
// gray, gamma and invGamma do not).
func ColorOpHasValue(op string) bool {
	switch op {
	case "comp", "inv", "gray", "gamma", "invGamma":
		return false
	}
	return true
}

// ColorOpIsAngle reports whether op's Val is in degrees (hue, hueOff).
func ColorOpIsAngle(op string) bool { return op == "hue" || op == "hueOff" }

// Apply returns c with one colour transform applied (see the rules above).
// Channels are rounded to 6 decimals so equal inputs give byte-equal JSON
// whichever package computed them. Unknown ops leave c unchanged.
func (c Color) Apply(m ColorMod) Color {
	v := m.Val
	switch m.Op {
	case "alpha":
		c.A = clamp01(v)
	case "alphaMod":
		c.A = clamp01(c.A * v)
	case "alphaOff":
		c.A = clamp01(c.A + v)
	case "hue", "hueOff", "hueMod", "sat", "satOff", "satMod", "lum", "lumOff", "lumMod", "comp":
		h, s, l := RGBToHSL(c.R, c.G, c.B)
		switch m.Op {
		case "hue":
			h = v / 360
		case "hueOff":
			h += v / 360
		case "hueMod":
			h *= v
		case "comp":
			h += 0.5
		case "sat":
			s = v
		case "satOff":
			s += v
		case "satMod":
			s *= v
		case "lum":
			l = v
		case "lumOff":
			l += v
		case "lumMod":
			l *= v
		}
		h -= math.Floor(h)
		c.R, c.G, c.B = HSLToRGB(h, clamp01(s), clamp01(l))
	case "gray":
		y := 0.2126*c.R + 0.7152*c.G + 0.0722*c.B
		c.R, c.G, c.B = y, y, y
	case "gamma":
		c.R, c.G, c.B = delinear(c.R), delinear(c.G), delinear(c.B)
	case "invGamma":
		c.R, c.G, c.B = linear(c.R), linear(c.G), linear(c.B)
	case "tint", "shade", "inv", "red", "redOff", "redMod", "green", "greenOff", "greenMod", "blue", "blueOff", "blueMod":
		ch := [3]float64{linear(c.R), linear(c.G), linear(c.B)}
		switch m.Op {
		case "tint":
			for i := range ch {
				ch[i] = 1 - (1-ch[i])*v
			}
		case "shade":
			for i := range ch {
				ch[i] *= v
			}
		case "inv":
			for i := range ch {
				ch[i] = 1 - ch[i]
			}
		default:
			i := strings.IndexByte("rgb", m.Op[0])
			switch {
			case strings.HasSuffix(m.Op, "Off"):
				ch[i] += v
			case strings.HasSuffix(m.Op, "Mod"):
				ch[i] *= v
			default:
				ch[i] = v
			}
		}
		c.R, c.G, c.B = delinear(clamp01(ch[0])), delinear(clamp01(ch[1])), delinear(clamp01(ch[2]))
	}
	c.R, c.G, c.B = clamp01(round6(c.R)), clamp01(round6(c.G)), clamp01(round6(c.B))
	return c
}

// linear and delinear convert a 0..1 channel to and from linear light
// with the plain 2.3 gamma the transforms use (see above).
func linear(x float64) float64   { return math.Pow(clamp01(x), linearGamma) }
func delinear(x float64) float64 { return math.Pow(clamp01(x), 1/linearGamma) }

// WithMods applies the transforms in order; a theme colour's resolved value
// is its palette entry WithMods its Mods.
func (c Color) WithMods(mods []ColorMod) Color {
	for _, m := range mods {
		c = c.Apply(m)
	}
	return c
}

// RGBToHSL converts 0..1 RGB to hue, saturation and lightness, each 0..1.
func RGBToHSL(r, g, b float64) (h, s, l float64) {
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	l = (mx + mn) / 2
	if mx == mn {
		return 0, 0, l
	}
	d := mx - mn
	if l > 0.5 {
		s = d / (2 - mx - mn)
	} else {
		s = d / (mx + mn)
	}
	switch mx {
	case r:
		h = (g - b) / d
		if g < b {
			h += 6
		}
	case g:
		h = (b-r)/d + 2
	default:
		h = (r-g)/d + 4
	}
	return h / 6, s, l
}

// HSLToRGB converts hue, saturation and lightness (0..1) to 0..1 RGB.
func HSLToRGB(h, s, l float64) (r, g, b float64) {
	if s == 0 {
		return l, l, l
	}
	var q float64
	if l < 0.5 {
		q = l * (1 + s)
	} else {
		q = l + s - l*s
	}
	p := 2*l - q
	f := func(t float64) float64 {
		t -= math.Floor(t)
		switch {
		case t < 1.0/6:
			return p + (q-p)*6*t
		case t < 0.5:
			return q
		case t < 2.0/3:
			return p + (q-p)*(2.0/3-t)*6
		}
		return p
	}
	return f(h + 1.0/3), f(h), f(h - 1.0/3)
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func clamp01(x float64) float64 {
	if x < 0 || math.IsNaN(x) {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}
