package tools

import (
	"fmt"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type fillArgs struct {
	NodeID string `json:"nodeId" desc:"Node to paint; on a TEXT node this is the text colour, on a SLIDE the background."`
	paintArgs
}

type gradientArgs struct {
	NodeID string  `json:"nodeId"`
	Kind   string  `json:"kind,omitempty" enum:"LINEAR,RADIAL" desc:"Default LINEAR."`
	Angle  float64 `json:"angle,omitempty" desc:"Direction of a linear gradient, degrees clockwise from left-to-right."`
	Stops  []struct {
		Position float64 `json:"position" min:"0" max:"1"`
		Color    Hex     `json:"color"`
	} `json:"stops" minItems:"2"`
}

type strokeArgs struct {
	NodeID string   `json:"nodeId"`
	Color  Hex      `json:"color,omitempty" desc:"Stroke colour; omit with remove=true."`
	Weight *Length  `json:"weight,omitempty" min:"0" desc:"Stroke weight, px."`
	Align  string   `json:"align,omitempty" enum:"INSIDE,OUTSIDE,CENTER"`
	Dashes []Length `json:"dashes,omitempty" desc:"Dash pattern, px; [] for solid."`
	Remove bool     `json:"remove,omitempty" desc:"Remove the outline."`
}

type radiusArgs struct {
	NodeID  string   `json:"nodeId"`
	Radius  Length   `json:"radius" min:"0" desc:"Radius of every corner, px."`
	Corners []Length `json:"corners,omitempty" minItems:"4" maxItems:"4" desc:"Per-corner radii: top-left, top-right, bottom-right, bottom-left."`
}

type opacityArgs struct {
	NodeID  string   `json:"nodeId"`
	Opacity *float64 `json:"opacity,omitempty" min:"0" max:"1" desc:"Layer opacity 0..1."`
	Visible *bool    `json:"visible,omitempty" desc:"Show or hide the layer."`
}

type shadowArgs struct {
	NodeID  string  `json:"nodeId"`
	Color   Hex     `json:"color,omitempty" desc:"Shadow colour; default #00000040."`
	OffsetX Length  `json:"offsetX,omitempty" desc:"px"`
	OffsetY *Length `json:"offsetY,omitempty" desc:"px; default 4"`
	Radius  *Length `json:"radius,omitempty" min:"0" desc:"Blur radius, px; default 8."`
	Spread  Length  `json:"spread,omitempty" desc:"px"`
	Inner   bool    `json:"inner,omitempty" desc:"An inner shadow instead of a drop shadow."`
	Remove  bool    `json:"remove,omitempty" desc:"Remove the node's shadows."`
}

type replaceColorArgs struct {
	From      Hex      `json:"from" desc:"Colour to find."`
	To        Hex      `json:"to" desc:"Replacement colour."`
	Tolerance *float64 `json:"tolerance,omitempty" min:"0" max:"1" desc:"Largest per-channel difference (0..1) that still matches; default 0.02 (about 5 of 255)."`
	NodeID    string   `json:"nodeId,omitempty" desc:"Limit to this node or slide and its children; default the whole deck, theme included."`
	Strokes   *bool    `json:"strokes,omitempty" desc:"Also recolour strokes (default true)."`
	Text      *bool    `json:"text,omitempty" desc:"Also recolour text (default true)."`
}

func contentStyleTools() []Tool {
	return []Tool{
		def(ModuleContent, "set_fill_color", false,
			"Set a node's fill to one solid colour, by value (#RRGGBB) or by design token (themeColor). On a TEXT node it sets the colour of all its text; on a SLIDE the background; on a table cell its shading.",
			func(e *Env, a *fillArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				p, err := e.paint(a.paintArgs)
				if err != nil {
					return Result{}, err
				}
				if n.Type == sg.TypeText {
					setTextFills(n, []sg.Paint{p})
				} else {
					n.Fills = []sg.Paint{p}
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "set_gradient_fill", false,
			"Fill a node (or a slide background) with a linear or radial gradient from colour stops at positions 0..1.",
			func(e *Env, a *gradientArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				p := sg.Paint{Type: sg.PaintGradientLinear, GradientAngle: a.Angle}
				if a.Kind == "RADIAL" {
					p.Type = sg.PaintGradientRadial
				}
				for _, s := range a.Stops {
					c, err := color(s.Color, nil)
					if err != nil {
						return Result{}, err
					}
					p.GradientStops = append(p.GradientStops, sg.ColorStop{Position: s.Position, Color: c})
				}
				n.Fills = []sg.Paint{p}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "set_stroke", false,
			"Set or remove a node's outline: colour, weight in px, alignment (inside, outside, centre) and dash pattern.",
			func(e *Env, a *strokeArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if a.Remove {
					n.Strokes, n.StrokeWeight, n.StrokeDashes = nil, 0, nil
					return changed(n.ID), nil
				}
				if a.Color != "" {
					c, err := color(a.Color, nil)
					if err != nil {
						return Result{}, err
					}
					n.Strokes = []sg.Paint{sg.Solid(c)}
					if n.StrokeWeight == 0 {
						n.StrokeWeight = 1
					}
				}
				if a.Weight != nil {
					n.StrokeWeight = float64(*a.Weight)
				}
				if a.Align != "" {
					n.StrokeAlign = a.Align
				}
				if a.Dashes != nil {
					n.StrokeDashes = lengthsPx(a.Dashes)
					if len(a.Dashes) == 0 {
						n.StrokeDashes = nil
					}
				}
				if len(n.Strokes) == 0 {
					return Result{}, fmt.Errorf("node %q has no stroke yet: give color", a.NodeID)
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "set_corner_radius", false,
			"Round a node's corners: one radius for all, or four (top-left, top-right, bottom-right, bottom-left) in px.",
			func(e *Env, a *radiusArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				n.CornerRadius = float64(a.Radius)
				n.CornerRadii = nil
				if len(a.Corners) == 4 {
					for _, r := range a.Corners {
						if r < 0 {
							return Result{}, fmt.Errorf("corner radii must be >= 0 px")
						}
					}
					n.CornerRadii = &[4]float64{float64(a.Corners[0]), float64(a.Corners[1]), float64(a.Corners[2]), float64(a.Corners[3])}
				}
				if n.Type == sg.TypeRectangle && n.Preset == "rect" && a.Radius > 0 {
					n.Preset = "roundRect"
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "set_opacity", false,
			"Set a node's layer opacity (0..1) and/or show or hide it. Hidden children of an auto-layout frame leave the flow.",
			func(e *Env, a *opacityArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if a.Opacity == nil && a.Visible == nil {
					return Result{}, fmt.Errorf("give opacity and/or visible")
				}
				if a.Opacity != nil {
					n.Opacity = ptr(*a.Opacity)
					if *a.Opacity == 1 {
						n.Opacity = nil
					}
				}
				if a.Visible != nil {
					n.Visible = nil
					if !*a.Visible {
						n.Visible = ptr(false)
					}
				}
				res := changed(n.ID)
				if p := e.parent(n); p != nil {
					res.Changed = append(res.Changed, p.ID)
				}
				return res, nil
			}),
		def(ModuleContent, "set_drop_shadow", false,
			"Give a node one drop (or inner) shadow: colour with alpha, offset, blur radius and spread in px; or remove its shadows.",
			func(e *Env, a *shadowArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				var kept []sg.Effect
				for _, ef := range n.Effects {
					if ef.Type != sg.EffectDropShadow && ef.Type != sg.EffectInnerShadow {
						kept = append(kept, ef)
					}
				}
				n.Effects = kept
				if !a.Remove {
					c := sg.MustHex("#00000040")
					if a.Color != "" {
						if c, err = color(a.Color, nil); err != nil {
							return Result{}, err
						}
					}
					ef := sg.Effect{Type: sg.EffectDropShadow, Color: &c, Radius: orDefault(lengthPtr(a.Radius), 8), Spread: float64(a.Spread),
						Offset: &sg.Vector{X: float64(a.OffsetX), Y: orDefault(lengthPtr(a.OffsetY), 4)}}
					if a.Inner {
						ef.Type = sg.EffectInnerShadow
					}
					n.Effects = append(n.Effects, ef)
				}
				if len(n.Effects) == 0 {
					n.Effects = nil
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "replace_color", false,
			"Replace one colour with another everywhere it appears (fills, gradients, strokes, text, list bullets, shadows, chart series, table borders) within a tolerance, in one node's subtree or the whole deck. Deck-wide it also rewrites the design tokens holding that colour, so theme-colour references follow; a recoloured reference is pointed at the token that holds the new colour when there is one.",
			func(e *Env, a *replaceColorArgs) (Result, error) {
				from, err := color(a.From, nil)
				if err != nil {
					return Result{}, fmt.Errorf("from: %w", err)
				}
				to, err := color(a.To, nil)
				if err != nil {
					return Result{}, fmt.Errorf("to: %w", err)
				}
				tol := orDefault(a.Tolerance, 0.02)
				r := recolor{from: from, to: to, tol: tol, strokes: a.Strokes == nil || *a.Strokes, text: a.Text == nil || *a.Text}
				var roots []*sg.Node
				if a.NodeID != "" {
					n, err := e.node(a.NodeID)
					if err != nil {
						return Result{}, err
					}
					roots = []*sg.Node{n}
				} else {
					roots = e.Deck.Slides
					for _, k := range sortedKeys(e.Deck.Tokens.Colors) {
						c := e.Deck.Tokens.Colors[k]
						if near(c, from, tol) {
							nc := to
							nc.A = c.A
							e.Deck.Tokens.Colors[k] = nc
							r.tokens = append(r.tokens, k)
						}
					}
					for k, st := range e.Deck.Tokens.TextStyles {
						if r.paints(e.Deck, st.Fills) {
							e.Deck.Tokens.TextStyles[k] = st
						}
					}
				}
				res := Result{}
				for _, root := range roots {
					root.Walk(func(n, _ *sg.Node, _ int) bool {
						if r.node(e.Deck, n) {
							res.Changed = append(res.Changed, n.ID)
						}
						return true
					})
				}
				if len(res.Changed) == 0 && len(r.tokens) == 0 {
					res.Warnings = append(res.Warnings, fmt.Sprintf("no colour within %.3f of %s found; nothing changed", tol, from.Hex()))
				}
				if len(r.tokens) > 0 {
					res.Data = asData(map[string]any{"tokensChanged": r.tokens})
				}
				return res, nil
			}),
	}
}

// setTextFills sets the colour of all of a text's characters.
func setTextFills(n *sg.Node, fills []sg.Paint) {
	if n.Style == nil {
		n.Style = &sg.TypeStyle{}
	}
	n.Style.Fills = fills
	for k, o := range n.StyleOverrideTable {
		o.Fills = nil
		n.StyleOverrideTable[k] = o
	}
	if n.Characters == "" && n.Type != sg.TypeText {
		return
	}
}

func near(a, b sg.Color, tol float64) bool {
	return a.Near(sg.Color{R: b.R, G: b.G, B: b.B, A: a.A}, tol)
}

// recolor rewrites matching colours in paints, effects, text styles,
// charts and borders.
type recolor struct {
	from, to      sg.Color
	tol           float64
	strokes, text bool
	tokens        []string // tokens rewritten deck-wide
}

func (r *recolor) color(c *sg.Color) bool {
	if c == nil || !near(*c, r.from, r.tol) {
		return false
	}
	a := c.A
	*c = r.to
	c.A = a
	return true
}

func (r *recolor) paints(d *sg.Deck, ps []sg.Paint) bool {
	hit := false
	for i := range ps {
		p := &ps[i]
		if p.ThemeColor != nil {
			for _, t := range r.tokens {
				if p.ThemeColor.Name == t && p.Color != nil {
					// tints and shades of the token follow it too
					c := applyMods(d.Tokens.Colors[t], p.ThemeColor.Mods)
					if !hasAlphaMod(p.ThemeColor.Mods) {
						c.A = p.Color.A
					}
					*p.Color = c
					hit = true
				}
			}
		}
		if r.color(p.Color) {
			hit = true
			if p.ThemeColor != nil && !containsStr(r.tokens, p.ThemeColor.Name) {
				p.ThemeColor = nil
				for _, k := range sortedKeys(d.Tokens.Colors) {
					if near(d.Tokens.Colors[k], r.to, 0.002) {
						p.ThemeColor = &sg.ThemeColor{Name: k}
						break
					}
				}
			}
		}
		for j := range p.GradientStops {
			if r.color(&p.GradientStops[j].Color) {
				hit = true
			}
		}
	}
	return hit
}

// bulletPaint views a paragraph's bullet colour (and its theme reference)
// as a solid paint, so the colour tools treat bullets like any other fill;
// setBulletPaint writes the paint back. nil when the bullet follows the text.
func bulletPaint(p *sg.Paragraph) []sg.Paint {
	if p.BulletColor == nil {
		return nil
	}
	return []sg.Paint{{Type: sg.PaintSolid, Color: p.BulletColor, ThemeColor: p.BulletThemeColor}}
}

func setBulletPaint(p *sg.Paragraph, ps []sg.Paint) {
	p.BulletColor, p.BulletThemeColor = ps[0].Color, ps[0].ThemeColor
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (r *recolor) node(d *sg.Deck, n *sg.Node) bool {
	hit := r.paints(d, n.Fills)
	if r.strokes && r.paints(d, n.Strokes) {
		hit = true
	}
	for i := range n.Effects {
		if r.color(n.Effects[i].Color) {
			hit = true
		}
	}
	if r.text {
		if n.Style != nil && r.paints(d, n.Style.Fills) {
			hit = true
		}
		for k, o := range n.StyleOverrideTable {
			if r.paints(d, o.Fills) {
				n.StyleOverrideTable[k] = o
				hit = true
			}
		}
		for i := range n.Paragraphs { // list bullets and numbers
			if ps := bulletPaint(&n.Paragraphs[i]); ps != nil && r.paints(d, ps) {
				setBulletPaint(&n.Paragraphs[i], ps)
				hit = true
			}
		}
	}
	if n.Chart != nil {
		for i := range n.Chart.Series {
			if r.color(n.Chart.Series[i].Color) {
				hit = true
			}
		}
	}
	if n.Math != nil && r.color(n.Math.Color) {
		hit = true
	}
	if n.Cell != nil && n.Cell.Borders != nil && r.strokes {
		b := n.Cell.Borders
		for _, e := range []*sg.Border{b.Left, b.Top, b.Right, b.Bottom} {
			if e != nil && r.color(&e.Color) {
				hit = true
			}
		}
	}
	return hit
}

func hasAlphaMod(mods []sg.ColorMod) bool {
	for _, m := range mods {
		if m.Op == "alpha" {
			return true
		}
	}
	return false
}
