package tools

import (
	"math"
	"unicode/utf8"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// footerSize is the default footer font size: the smallest size the
// renderer's min_font_size check accepts (12 px on a 720 px high slide,
// scaled with the slide height; render.MinFontSizeAt720).
func footerSize(deckHeight float64) float64 {
	return math.Ceil(12 * deckHeight / 720)
}

// footerSlot finds where a footer line of the given text and size can sit
// on slide s without covering anything a reader reads: the bottom band of
// the slide, inside a safe margin, in the free horizontal gap closest to the
// slide's centre. It tries the lowest band first and moves up at most 10%
// of the slide height (still a footer). Elements covering half the slide or
// more are backgrounds and do not block it, as in the renderer's overlap
// rule. Where painted has the renderer's bounds of a node (Options.Measure),
// those count too (text that overflows its box still covers the band). ok is
// false when no band has room; the caller then uses its default
// place and the geometry gate decides.
func (e *Env) footerSlot(s *sg.Node, text string, size float64, painted map[string]sg.Rect) (box sg.Rect, ok bool) {
	W, H := e.Deck.Width, e.Deck.Height
	margin := math.Round(math.Min(W, H) * 0.025)
	h := math.Ceil(size * 1.6)
	want := math.Min(W-2*margin, math.Ceil(float64(utf8.RuneCountInString(text))*size*0.56)+2*size)
	var obstacles []sg.Rect
	ix := e.Index()
	for _, c := range s.Children {
		c.Walk(func(n, _ *sg.Node, _ int) bool {
			if !n.IsVisible() {
				return false
			}
			readable := n.Characters != "" || n.Type == sg.TypeImage || n.Type == sg.TypeTable || n.Type == sg.TypeChart || n.Type == sg.TypeMath
			if readable {
				r := ix.AbsoluteBounds(n.ID)
				if m, ok := painted[n.ID]; ok {
					// What the renderer saw painted, e.g. text running
					// past the bottom of its box.
					r = r.Union(m)
				}
				if r.Area() < 0.5*W*H {
					obstacles = append(obstacles, r)
				}
				return n.Type != sg.TypeTable // cells lie inside the table's box
			}
			return true
		})
	}
	for y := H - margin - h; y >= H*0.9-h; y -= h / 2 {
		band := sg.Rect{X: margin, Y: y, Width: W - 2*margin, Height: h}
		if x, fits := freeGap(band, obstacles, want); fits {
			return sg.Rect{X: x, Y: y, Width: want, Height: h}, true
		}
	}
	return sg.Rect{}, false
}

// freeGap returns the x of a run of width want inside band that meets no
// obstacle, as close to the band's centre as possible.
func freeGap(band sg.Rect, obstacles []sg.Rect, want float64) (float64, bool) {
	type span struct{ a, b float64 }
	var busy []span
	for _, o := range obstacles {
		in := o.Intersect(band)
		if in.Width > 0 && in.Height > 0 {
			busy = append(busy, span{in.X - 4, in.Right() + 4})
		}
	}
	// Free spans are the band minus the busy ones.
	free := []span{{band.X, band.Right()}}
	for _, b := range busy {
		var next []span
		for _, f := range free {
			if b.b <= f.a || b.a >= f.b {
				next = append(next, f)
				continue
			}
			if b.a > f.a {
				next = append(next, span{f.a, b.a})
			}
			if b.b < f.b {
				next = append(next, span{b.b, f.b})
			}
		}
		free = next
	}
	centre := band.X + band.Width/2
	best, found := 0.0, false
	for _, f := range free {
		if f.b-f.a < want {
			continue
		}
		// The centred position clamped into this free span.
		x := math.Min(math.Max(centre-want/2, f.a), f.b-want)
		if !found || math.Abs(x+want/2-centre) < math.Abs(best+want/2-centre) {
			best, found = x, true
		}
	}
	return best, found
}

// backgroundAt returns the colour painted under point p of slide s: the
// topmost visible node with a solid fill that contains p, else the slide's
// own fill, else white.
func (e *Env) backgroundAt(s *sg.Node, p sg.Vector) sg.Color {
	bg := sg.MustHex("#FFFFFF")
	if c, ok := paintColor(s.Fills); ok {
		bg = c
	}
	ix := e.Index()
	for _, c := range s.Children {
		c.Walk(func(n, _ *sg.Node, _ int) bool {
			if !n.IsVisible() {
				return false
			}
			r := ix.AbsoluteBounds(n.ID)
			if p.X >= r.X && p.X <= r.Right() && p.Y >= r.Y && p.Y <= r.Bottom() {
				if col, ok := paintColor(n.Fills); ok {
					bg = col
				}
			}
			return true
		})
	}
	return bg
}

// readableOn picks a dark or a light grey, whichever contrasts more with bg
// (WCAG ratio), for text a designer wants quiet but legible.
func readableOn(bg sg.Color) sg.Color {
	dark, light := sg.MustHex("#404040"), sg.MustHex("#F2F2F2")
	if contrast(dark, bg) >= contrast(light, bg) {
		return dark
	}
	return light
}
