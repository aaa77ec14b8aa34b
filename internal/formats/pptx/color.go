package pptx

import (
	"fmt"
	"math"
	"strconv"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// theme holds what import needs from a theme part (a:theme): the colour
// scheme (ECMA-376 §20.1.6.2) and the font scheme per script slot.
type theme struct {
	colors map[string]sg.Color // dk1, lt1, dk2, lt2, accent1..6, hlink, folHlink
	major  sg.ScriptFonts
	minor  sg.ScriptFonts
	fills  []*xnode // a:fmtScheme/a:fillStyleLst entries
	lines  []*xnode // a:fmtScheme/a:lnStyleLst entries
	bgs    []*xnode // a:fmtScheme/a:bgFillStyleLst entries
}

var schemeSlots = []string{"dk1", "lt1", "dk2", "lt2", "accent1", "accent2", "accent3", "accent4", "accent5", "accent6", "hlink", "folHlink"}

func parseTheme(doc *xnode) *theme {
	t := &theme{colors: map[string]sg.Color{}}
	el := doc.root().child(nsA, "themeElements")
	cs := el.child(nsA, "clrScheme")
	for _, slot := range schemeSlots {
		if c := cs.child(nsA, slot); c != nil {
			for _, k := range c.elems() {
				if col, ok := baseColor(k); ok {
					t.colors[slot] = col
					break
				}
			}
		}
	}
	fs := el.child(nsA, "fontScheme")
	slot := func(f *xnode) sg.ScriptFonts {
		return sg.ScriptFonts{
			Latin:     f.child(nsA, "latin").av("typeface"),
			EastAsian: f.child(nsA, "ea").av("typeface"),
			Complex:   f.child(nsA, "cs").av("typeface"),
		}
	}
	t.major = slot(fs.child(nsA, "majorFont"))
	t.minor = slot(fs.child(nsA, "minorFont"))
	fm := el.child(nsA, "fmtScheme")
	t.fills = fm.child(nsA, "fillStyleLst").elems()
	t.lines = fm.child(nsA, "lnStyleLst").elems()
	t.bgs = fm.child(nsA, "bgFillStyleLst").elems()
	return t
}

// colorCtx resolves DrawingML colours: scheme names through the master's
// colour map (p:clrMap: bg1 -> lt1, tx1 -> dk1, ...) into the theme palette.
type colorCtx struct {
	th     *theme
	clrMap map[string]string
	phClr  *paintColor // the colour a style reference (a:fillRef, ...) passes down
}

// paintColor is a resolved colour with the theme reference it came from.
type paintColor struct {
	c     sg.Color
	theme *sg.ThemeColor
}

var presetColors = map[string]string{
	"black": "000000", "white": "FFFFFF", "red": "FF0000", "green": "008000", "blue": "0000FF",
	"yellow": "FFFF00", "gray": "808080", "grey": "808080", "silver": "C0C0C0", "orange": "FFA500",
	"purple": "800080", "navy": "000080", "teal": "008080", "maroon": "800000", "lime": "00FF00",
	"cyan": "00FFFF", "magenta": "FF00FF", "darkGray": "A9A9A9", "ltGray": "D3D3D3", "dkGray": "A9A9A9",
}

// baseColor reads a colour element without its transforms (used for theme
// palette entries).
func baseColor(e *xnode) (sg.Color, bool) {
	switch e.local {
	case "srgbClr":
		c, err := sg.ParseHex(e.av("val"))
		return c, err == nil
	case "sysClr":
		v := e.av("lastClr")
		if v == "" {
			if e.av("val") == "window" {
				v = "FFFFFF"
			} else {
				v = "000000"
			}
		}
		c, err := sg.ParseHex(v)
		return c, err == nil
	case "prstClr":
		if h, ok := presetColors[e.av("val")]; ok {
			return sg.MustHex(h), true
		}
		return sg.Color{A: 1}, true
	case "scrgbClr":
		f := func(s string) float64 { return clamp01(pct(s)) }
		return sg.Color{R: f(e.av("r")), G: f(e.av("g")), B: f(e.av("b")), A: 1}, true
	case "hslClr":
		h := num(e.av("hue")) / 60000 / 360
		r, g, b := sg.HSLToRGB(h, clamp01(pct(e.av("sat"))), clamp01(pct(e.av("lum"))))
		return sg.Color{R: r, G: g, B: b, A: 1}, true
	}
	return sg.Color{}, false
}

// color resolves a colour element (srgbClr, schemeClr, ...) with its
// transforms (every op of ECMA-376 §20.1.2.3; scenegraph.Color.Apply).
// A schemeClr also yields the theme reference.
func (cc *colorCtx) color(e *xnode) (paintColor, bool) {
	if e == nil {
		return paintColor{}, false
	}
	var out paintColor
	if e.local == "schemeClr" {
		name := e.av("val")
		if name == "phClr" {
			if cc.phClr == nil {
				return paintColor{c: sg.Color{A: 1}}, true
			}
			out = *cc.phClr
			if out.theme != nil {
				tc := *out.theme
				tc.Mods = append([]sg.ColorMod(nil), tc.Mods...)
				out.theme = &tc
			}
		} else {
			if m, ok := cc.clrMap[name]; ok {
				name = m
			}
			c, ok := cc.th.colors[name]
			if !ok {
				c = sg.Color{A: 1}
			}
			out = paintColor{c: c, theme: &sg.ThemeColor{Name: name}}
		}
	} else {
		c, ok := baseColor(e)
		if !ok {
			return paintColor{}, false
		}
		out.c = c
	}
	for _, m := range e.elems() {
		if !sg.KnownColorOp(m.local) {
			continue
		}
		v := modVal(m.local, m.av("val"))
		out.c = applyMod(out.c, m.local, v)
		if out.theme != nil {
			out.theme.Mods = append(out.theme.Mods, sg.ColorMod{Op: m.local, Val: v})
		}
	}
	return out, true
}

// colorChild resolves the first colour element under e (solidFill, a
// style reference, ...).
func (cc *colorCtx) colorChild(e *xnode) (paintColor, bool) {
	if e == nil {
		return paintColor{}, false
	}
	for _, k := range e.elems() {
		if pc, ok := cc.color(k); ok {
			return pc, true
		}
	}
	return paintColor{}, false
}

// modVal reads a transform's val attribute in scenegraph.ColorMod's unit:
// degrees for hue and hueOff (ST_PositiveFixedAngle/ST_FixedAngle, 60000ths
// of a degree), 0 for the ops without a value, else a fraction
// (ST_Percentage).
func modVal(op, val string) float64 {
	switch {
	case !sg.ColorOpHasValue(op):
		return 0
	case sg.ColorOpIsAngle(op):
		return num(val) / 60000
	}
	return pct(val)
}

// modXML writes a transform back as its element (modVal's inverse).
func modXML(m sg.ColorMod) string {
	switch {
	case !sg.ColorOpHasValue(m.Op):
		return `<a:` + m.Op + `/>`
	case sg.ColorOpIsAngle(m.Op):
		return fmt.Sprintf(`<a:%s val="%d"/>`, m.Op, int(math.Round(m.Val*60000)))
	}
	return fmt.Sprintf(`<a:%s val="%d"/>`, m.Op, int(math.Round(m.Val*100000)))
}

// applyMod applies one DrawingML colour transform (scenegraph.Color.Apply).
func applyMod(c sg.Color, op string, v float64) sg.Color {
	return c.Apply(sg.ColorMod{Op: op, Val: v})
}

func round4(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func clamp01(x float64) float64 {
	if math.IsNaN(x) || x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// pct parses a DrawingML percentage in thousandths of a percent
// ("50000" = 0.5); "50%" is accepted too (strict OOXML).
func pct(s string) float64 {
	if n := len(s); n > 0 && s[n-1] == '%' {
		return num(s[:n-1]) / 100
	}
	return num(s) / 100000
}

// num parses a number, 0 on error; never NaN or Inf.
func num(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// inum parses an integer attribute (EMU, hundredths of a point), 0 on error.
func inum(s string) int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f := num(s)
		if f > 9e15 || f < -9e15 {
			return 0
		}
		return int64(f)
	}
	return v
}

// hex6 formats a colour as RRGGBB for srgbClr.
func hex6(c sg.Color) string {
	h := c.Hex()
	return h[1:7]
}
