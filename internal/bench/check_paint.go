package bench

import (
	"fmt"
	"math"

	"gopkg.in/yaml.v3"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// DefaultColorTolerance is the per-channel colour tolerance (0..1) when a
// check gives none: 0.02, about 5 of 255, the recipe default (internal/
// recipe DefaultTolerance), so a colour written through PowerPoint's
// percentages still matches.
const DefaultColorTolerance = 0.02

// solid returns the top visible solid paint's colour.
func solid(ps []sg.Paint) (sg.Color, bool) {
	for i := len(ps) - 1; i >= 0; i-- {
		p := ps[i]
		if p.IsVisible() && p.Type == sg.PaintSolid && p.Color != nil {
			return *p.Color, true
		}
	}
	return sg.Color{}, false
}

// hex6 writes a colour as #RRGGBB (alpha left out: checks compare it
// separately only when it matters).
func hex6(c sg.Color) string {
	b := func(v float64) int { return int(math.Round(math.Max(0, math.Min(1, v)) * 255)) }
	return fmt.Sprintf("#%02X%02X%02X", b(c.R), b(c.G), b(c.B))
}

func (p *parser) colorKeys(col *sg.Color, tol *float64) map[string]func(*yaml.Node) {
	*tol = DefaultColorTolerance
	return map[string]func(*yaml.Node){
		"color": func(n *yaml.Node) { *col = p.color(n) },
		"tolerance": func(n *yaml.Node) {
			if *tol = p.nonNegative(n); *tol > 1 {
				p.errAt(n, "tolerance is per colour channel, 0 to 1")
			}
		},
	}
}

// fillCheck is fill_color: the node's top visible solid fill.
//
//	fill_color: {node: s4/5, color: "#1F6FEB", tolerance: 0.02}
type fillCheck struct {
	node  Selector
	color sg.Color
	tol   float64
}

func parseFillColor(p *parser, v *yaml.Node) checker {
	c := &fillCheck{}
	var has bool
	h := p.colorKeys(&c.color, &c.tol)
	h["node"] = func(n *yaml.Node) { c.node = p.selector(n); has = true }
	col := h["color"]
	var hasColor bool
	h["color"] = func(n *yaml.Node) { col(n); hasColor = true }
	p.mapping(v, h)
	if v.Kind == yaml.MappingNode && (!has || !hasColor) {
		p.errAt(v, "fill_color needs node and color")
	}
	return c
}

func (c *fillCheck) describe() string {
	return fmt.Sprintf("%s of %s (tolerance %g)", hex6(c.color), c.node, c.tol)
}

func (c *fillCheck) eval(e *env) []Failure {
	l, f := c.node.resolve(e.Result, e.res)
	if f != nil {
		return []Failure{*f}
	}
	got, ok := solid(l.node.Fills)
	switch {
	case !ok:
		return []Failure{l.failure("has no solid fill, want %s", hex6(c.color))}
	case !got.Near(c.color, c.tol):
		return []Failure{l.failure("fill is %s, want %s (tolerance %g)", hex6(got), hex6(c.color), c.tol)}
	}
	return nil
}

// backgroundCheck is background_color: the slide's own solid background
// (p:bg; a slide that inherits its layout's background has none).
//
//	background_color: {slide: 2, color: "#111111"}
type backgroundCheck struct {
	slide SlideRef
	color sg.Color
	tol   float64
}

func parseBackground(p *parser, v *yaml.Node) checker {
	c := &backgroundCheck{}
	h := p.colorKeys(&c.color, &c.tol)
	h["slide"] = func(n *yaml.Node) { c.slide = p.slideRef(n) }
	col := h["color"]
	var hasColor bool
	h["color"] = func(n *yaml.Node) { col(n); hasColor = true }
	p.mapping(v, h)
	if v.Kind == yaml.MappingNode && (!c.slide.set() || !hasColor) {
		p.errAt(v, "background_color needs slide and color")
	}
	return c
}

func (c *backgroundCheck) describe() string {
	return fmt.Sprintf("%s on %s (tolerance %g)", hex6(c.color), c.slide, c.tol)
}

func (c *backgroundCheck) eval(e *env) []Failure {
	i, err := c.slide.find(e.Result)
	if err != nil {
		return []Failure{{Message: err.Error()}}
	}
	s := e.Result.Slides[i]
	got, ok := solid(s.Fills)
	switch {
	case !ok:
		return []Failure{{Slide: i + 1, SlideID: s.ID, Message: "has no solid background of its own, want " + hex6(c.color)}}
	case !got.Near(c.color, c.tol):
		return []Failure{{Slide: i + 1, SlideID: s.ID, Message: fmt.Sprintf("background is %s, want %s (tolerance %g)", hex6(got), hex6(c.color), c.tol)}}
	}
	return nil
}
