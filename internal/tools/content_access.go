package tools

import (
	"fmt"
	"math"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type altTextArgs struct {
	NodeID  string `json:"nodeId"`
	AltText string `json:"altText" desc:"What the element shows, for screen readers; empty marks it decorative."`
}

type linkArgs struct {
	NodeID    string `json:"nodeId"`
	URL       string `json:"url,omitempty" desc:"External link (http, https, mailto)."`
	SlideID   string `json:"slideId,omitempty" desc:"Jump to this slide of the deck instead."`
	Substring string `json:"substring,omitempty" desc:"Link only this text inside the node."`
	Remove    bool   `json:"remove,omitempty"`
}

type minFontArgs struct {
	MinSize Length `json:"minSize" exclusiveMin:"0" desc:"Smallest allowed font size, px (e.g. 16 px = 12 pt)."`
	NodeID  string `json:"nodeId,omitempty" desc:"Limit to a slide or node subtree; default the whole deck."`
}

type contrastArgs struct {
	NodeID   string   `json:"nodeId,omitempty" desc:"Limit to a slide or node subtree; default the whole deck."`
	MinRatio *float64 `json:"minRatio,omitempty" min:"1" max:"21" desc:"WCAG contrast ratio to reach; default 4.5 (AA body text)."`
	Dark     Hex      `json:"dark,omitempty" desc:"Colour to use on light backgrounds; default #000000."`
	Light    Hex      `json:"light,omitempty" desc:"Colour to use on dark backgrounds; default #FFFFFF."`
}

func (e *Env) scope(id string) ([]*sg.Node, error) {
	if id == "" {
		return e.Deck.Slides, nil
	}
	n, err := e.node(id)
	if err != nil {
		return nil, err
	}
	return []*sg.Node{n}, nil
}

func contentAccessTools() []Tool {
	return []Tool{
		def(ModuleContent, "set_alt_text", false,
			"Set the alternative text of a picture, chart, shape or group (what a screen reader says). An empty string marks it decorative.",
			func(e *Env, a *altTextArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				n.AltText = a.AltText
				return changed(n.ID), nil
			}),
		def(ModuleContent, "set_hyperlink", false,
			"Make a node (or a substring of its text) a link to a URL or to another slide of the deck, or remove its link.",
			func(e *Env, a *linkArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				var l *sg.Link
				if !a.Remove {
					switch {
					case a.SlideID != "":
						s, err := e.slide(a.SlideID)
						if err != nil {
							return Result{}, fmt.Errorf("slideId: %w", err)
						}
						l = &sg.Link{NodeID: s.ID}
					case a.URL != "":
						l = &sg.Link{URL: a.URL}
					default:
						return Result{}, fmt.Errorf("give url or slideId (or remove=true)")
					}
				}
				if a.Substring != "" {
					if l == nil {
						return Result{}, fmt.Errorf("removing a link from a substring is not supported; remove the node's links with remove=true and no substring")
					}
					if err := styleText(n, textRange{Substring: a.Substring}, sg.TypeStyle{Link: l}, nil); err != nil {
						return Result{}, err
					}
					return changed(n.ID), nil
				}
				n.Link = l
				if a.Remove {
					if n.Style != nil {
						n.Style.Link = nil
					}
					for k, o := range n.StyleOverrideTable {
						o.Link = nil
						n.StyleOverrideTable[k] = o
					}
					if n.Type.CanHoldText() && n.HasText() {
						compactOverrides(n)
					}
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "enforce_min_font_size", false,
			"Accessibility: raise every font size below minSize (px) to minSize, in ranges too, across the deck or one slide or node. Reports the nodes changed.",
			func(e *Env, a *minFontArgs) (Result, error) {
				roots, err := e.scope(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				res := Result{}
				for _, r := range roots {
					r.Walk(func(n, _ *sg.Node, _ int) bool {
						if !n.Type.CanHoldText() || n.Characters == "" {
							return true
						}
						hit := false
						if n.Style == nil || n.Style.FontSize < float64(a.MinSize) {
							if n.Style == nil {
								n.Style = &sg.TypeStyle{}
							}
							n.Style.FontSize = float64(a.MinSize)
							hit = true
						}
						for k, o := range n.StyleOverrideTable {
							if o.FontSize != 0 && o.FontSize < float64(a.MinSize) {
								o.FontSize = float64(a.MinSize)
								n.StyleOverrideTable[k] = o
								hit = true
							}
						}
						if hit {
							compactOverrides(n)
							res.Changed = append(res.Changed, n.ID)
						}
						return true
					})
				}
				return res, nil
			}),
		def(ModuleContent, "fix_text_contrast", false,
			"Accessibility: find text whose colour contrasts too little with what is behind it and switch it to the dark or the light colour, whichever reads better on all of it. Behind means what is rendered under the glyphs (photos, gradients, table cell fills, layout art) when a renderer is available, else the text's shape, the shapes under it or the slide background. Default target WCAG AA 4.5:1 for every text size. Where no colour reads on all of it (a busy photo) the text keeps its colour unless the other one reads better, and a warning names it.",
			func(e *Env, a *contrastArgs) (Result, error) {
				roots, err := e.scope(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				minR := orDefault(a.MinRatio, 4.5)
				dark, light := sg.MustHex("#000000"), sg.MustHex("#FFFFFF")
				if a.Dark != "" {
					if dark, err = color(a.Dark, nil); err != nil {
						return Result{}, err
					}
				}
				if a.Light != "" {
					if light, err = color(a.Light, nil); err != nil {
						return Result{}, err
					}
				}
				var texts []*sg.Node
				for _, r := range roots {
					r.Walk(func(n, _ *sg.Node, _ int) bool {
						if n.Type.CanHoldText() && n.Characters != "" {
							texts = append(texts, n)
						}
						return true
					})
				}
				// What a reader sees behind each text, from the render
				// (photos, gradients, cell fills, layout art), when a
				// renderer is available.
				var behind map[string][]sg.Color
				if e.Opts.TextBackdrop != nil && len(texts) > 0 {
					var slides []string
					seen := map[string]bool{}
					for _, n := range texts {
						if s := e.Index().Slide(n.ID); s != nil && !seen[s.ID] {
							seen[s.ID] = true
							slides = append(slides, s.ID)
						}
					}
					if behind, err = e.Opts.TextBackdrop(e.Deck, slides); err != nil {
						return Result{}, fmt.Errorf("render the slides to see what is behind the text: %w", err)
					}
				}
				res := Result{}
				for _, n := range texts {
					bgs := behind[n.ID]
					if len(bgs) == 0 {
						bg := e.backgroundOf(n)
						if !hasOwnFill(n) {
							// What is painted behind the text, not only its
							// ancestors: text boxes usually sit on shapes
							// that are their siblings.
							if slide := e.Index().Slide(n.ID); slide != nil {
								r := e.Index().AbsoluteBounds(n.ID)
								c, known := e.paintedBehind(slide, sg.Vector{X: r.X + r.Width/2, Y: r.Y + r.Height/2}, n)
								if !known {
									continue // text over a picture, and no render to look at it
								}
								bg = c
							}
						}
						bgs = []sg.Color{bg}
					}
					hit, short := false, 0.0
					check := func(fills []sg.Paint) []sg.Paint {
						fg, ok := firstSolid(fills)
						if !ok {
							fg = sg.MustHex("#000000")
						}
						have := worstContrastOn(fg, bgs)
						if have >= minR {
							return fills
						}
						pick := dark
						if worstContrastOn(light, bgs) > worstContrastOn(dark, bgs) {
							pick = light
						}
						got := worstContrastOn(pick, bgs)
						if got <= have {
							// The other colour reads no better on all of
							// it (a busy photo): keep this one.
							short = max(short, have)
							return fills
						}
						if got < minR {
							short = max(short, got)
						}
						hit = true
						return []sg.Paint{sg.Solid(pick)}
					}
					if n.Style == nil {
						n.Style = &sg.TypeStyle{}
					}
					n.Style.Fills = check(n.Style.Fills)
					for k, o := range n.StyleOverrideTable {
						if len(o.Fills) > 0 {
							o.Fills = check(o.Fills)
							n.StyleOverrideTable[k] = o
						}
					}
					if hit {
						res.Changed = append(res.Changed, n.ID)
					}
					if short > 0 {
						res.Warnings = append(res.Warnings, fmt.Sprintf("%s %q: no text colour reaches %g:1 on everything behind it (best %.2f:1), so it stays a contrast problem: put a plate or a calmer area behind it, or move it", n.ID, clip(n.Characters, 30), minR, math.Floor(short*100)/100))
					}
				}
				return res, nil
			}),
	}
}

// hasOwnFill reports a shape or cell that paints its own background.
func hasOwnFill(n *sg.Node) bool {
	if n.Type == sg.TypeText {
		return false
	}
	_, ok := paintColor(n.Fills)
	return ok
}

// backgroundOf is the colour behind a text: the node's own fill when it is
// a shape or cell, else the nearest ancestor with a solid fill, else white.
// Images and gradients count by their average (first stop midpoint).
func (e *Env) backgroundOf(n *sg.Node) sg.Color {
	if n.Type != sg.TypeText {
		if c, ok := paintColor(n.Fills); ok {
			return c
		}
	}
	for p := e.parent(n); p != nil; p = e.parent(p) {
		if c, ok := paintColor(p.Fills); ok {
			return c
		}
	}
	return sg.MustHex("#FFFFFF")
}

func paintColor(ps []sg.Paint) (sg.Color, bool) {
	for i := len(ps) - 1; i >= 0; i-- {
		p := ps[i]
		if !p.IsVisible() {
			continue
		}
		switch {
		case p.Type == sg.PaintSolid && p.Color != nil && p.Color.A > 0.5:
			return *p.Color, true
		case len(p.GradientStops) > 0:
			var c sg.Color
			for _, s := range p.GradientStops {
				c.R += s.Color.R
				c.G += s.Color.G
				c.B += s.Color.B
			}
			k := float64(len(p.GradientStops))
			return sg.Color{R: c.R / k, G: c.G / k, B: c.B / k, A: 1}, true
		}
	}
	return sg.Color{}, false
}
