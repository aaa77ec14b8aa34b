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
// slide's centre, on one line or, in a narrower gap, wrapped on two. It tries the lowest band first and moves up at most 10%
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
	// One line if it fits; else the same text wrapped on two lines in half
	// the width (a narrow free corner beside a picture or a long body).
	for _, lines := range []float64{1, 2} {
		w := want
		bh := h
		if lines == 2 {
			w = math.Ceil(want/2 + 2*size)
			bh = math.Ceil(size * 1.25 * 2 * 1.1)
		}
		for y := H - margin - bh; y >= H*0.9-bh; y -= h / 2 {
			band := sg.Rect{X: margin, Y: y, Width: W - 2*margin, Height: bh}
			if x, fits := freeGap(band, obstacles, w); fits {
				return sg.Rect{X: x, Y: y, Width: w, Height: bh}, true
			}
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

// paintedBehind returns the colour painted under point p of slide s by the
// nodes drawn before stop (all nodes when stop is nil): the topmost visible
// node whose box contains p and that has a solid or gradient fill, else the
// slide's own fill, else white. known is false when the topmost thing under
// p is a picture, whose colour a static look cannot tell (the renderer
// skips contrast there too).
func (e *Env) paintedBehind(s *sg.Node, p sg.Vector, stop *sg.Node) (c sg.Color, known bool) {
	c, known = sg.MustHex("#FFFFFF"), true
	if col, ok := paintColor(s.Fills); ok {
		c = col
	}
	ix := e.Index()
	done := false
	for _, ch := range s.Children {
		ch.Walk(func(n, _ *sg.Node, _ int) bool {
			if done || n == stop {
				done = true
				return false
			}
			if !n.IsVisible() {
				return false
			}
			r := ix.AbsoluteBounds(n.ID)
			if p.X < r.X || p.X > r.Right() || p.Y < r.Y || p.Y > r.Bottom() {
				return true
			}
			if n.Type == sg.TypeImage || imagePaint(n) != nil {
				known = false
			} else if col, ok := paintColor(n.Fills); ok {
				c, known = col, true
			}
			return true
		})
		if done {
			break
		}
	}
	return c, known
}

// readableOn picks a dark or a light grey, whichever contrasts more with bg
// (WCAG ratio), for text a designer wants quiet but legible; on a mid-tone
// background where neither grey reaches WCAG AA (4.5:1) it takes black or
// white.
func readableOn(bg sg.Color) sg.Color {
	pick := func(dark, light sg.Color) sg.Color {
		if contrast(dark, bg) >= contrast(light, bg) {
			return dark
		}
		return light
	}
	if c := pick(sg.MustHex("#404040"), sg.MustHex("#F2F2F2")); contrast(c, bg) >= 4.5 {
		return c
	}
	return pick(sg.MustHex("#000000"), sg.MustHex("#FFFFFF"))
}
