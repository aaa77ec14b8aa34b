package scenegraph

import "math"

// Apply returns c with one DrawingML colour transform applied
// (ECMA-376 §20.1.2.3): lumMod/lumOff and satMod/satOff in HSL, tint toward
// white, shade toward black, alpha replacing the alpha channel. Channels
// are rounded to 6 decimals so equal inputs give byte-equal JSON whichever
// package computed them. Unknown ops leave c unchanged.
func (c Color) Apply(m ColorMod) Color {
	v := m.Val
	switch m.Op {
	case "alpha":
		c.A = clamp01(v)
	case "lumMod", "lumOff", "satMod", "satOff":
		h, s, l := RGBToHSL(c.R, c.G, c.B)
		switch m.Op {
		case "lumMod":
			l *= v
		case "lumOff":
			l += v
		case "satMod":
			s *= v
		case "satOff":
			s += v
		}
		c.R, c.G, c.B = HSLToRGB(h, clamp01(s), clamp01(l))
	case "tint":
		c.R, c.G, c.B = 1-(1-c.R)*v, 1-(1-c.G)*v, 1-(1-c.B)*v
	case "shade":
		c.R, c.G, c.B = c.R*v, c.G*v, c.B*v
	}
	c.R, c.G, c.B = clamp01(round6(c.R)), clamp01(round6(c.G)), clamp01(round6(c.B))
	return c
}

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
