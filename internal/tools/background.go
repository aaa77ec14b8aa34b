package tools

import sg "github.com/acecanvas/ace/internal/scenegraph"

// paintedBehind returns the colour painted under point p of slide s by the
// nodes drawn before stop (all nodes when stop is nil): the topmost visible
// node whose box contains p and that has a solid or gradient fill, else the
// slide's own fill, else white. known is false when the topmost thing under
// p is a picture (a picture node, an image fill, or a slide whose
// background is a picture), whose colour a static look cannot tell; the
// renderer reads it from the pixels (Options.TextBackdrop).
func (e *Env) paintedBehind(s *sg.Node, p sg.Vector, stop *sg.Node) (c sg.Color, known bool) {
	c, known = sg.MustHex("#FFFFFF"), true
	if col, ok := paintColor(s.Fills); ok {
		c = col
	}
	if imagePaint(s) != nil {
		known = false
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

// readableOnAll is readableOn for text that crosses several backgrounds:
// the quiet grey (dark or light) whose worst contrast over bgs reaches WCAG
// AA (4.5:1), else whichever of black, white and that grey has the best
// worst case.
func readableOnAll(bgs []sg.Color) sg.Color {
	if len(bgs) == 1 {
		return readableOn(bgs[0])
	}
	worst := func(c sg.Color) float64 {
		w := 21.0
		for _, bg := range bgs {
			w = min(w, contrast(c, bg))
		}
		return w
	}
	best := func(a, b sg.Color) sg.Color {
		if worst(a) >= worst(b) {
			return a
		}
		return b
	}
	grey := best(sg.MustHex("#404040"), sg.MustHex("#F2F2F2"))
	if worst(grey) >= 4.5 {
		return grey
	}
	return best(best(sg.MustHex("#000000"), sg.MustHex("#FFFFFF")), grey)
}

// captionPlate is what a designer does when no text colour reads on every
// part of a busy backdrop (a photo that is light in one place and dark in
// another): white text on a black plate, translucent enough to let the
// picture through. It returns the plate's opacity: the least of 0.45 to 0.85
// (then 1) at which white reaches WCAG AA (4.5:1) over every background in
// bgs once the plate is laid on it. ok is false when col already reads on
// all of them and no plate is needed.
func captionPlate(col sg.Color, bgs []sg.Color) (alpha float64, ok bool) {
	worst := func(text sg.Color, under func(sg.Color) sg.Color) float64 {
		w := 21.0
		for _, bg := range bgs {
			w = min(w, contrast(text, under(bg)))
		}
		return w
	}
	same := func(c sg.Color) sg.Color { return c }
	if len(bgs) == 0 || worst(col, same) >= 4.5 {
		return 0, false
	}
	white := sg.MustHex("#FFFFFF")
	for _, a := range []float64{0.45, 0.55, 0.65, 0.75, 0.85, 1} {
		dim := func(c sg.Color) sg.Color {
			return sg.Color{R: c.R * (1 - a), G: c.G * (1 - a), B: c.B * (1 - a), A: 1}
		}
		if worst(white, dim) >= 4.5 {
			return a, true
		}
	}
	return 1, true
}

// worstContrastOn is the lowest WCAG 2.x contrast ratio of text colour fg
// (composited over each background when translucent) against any of bgs;
// 21 when bgs is empty.
func worstContrastOn(fg sg.Color, bgs []sg.Color) float64 {
	w := 21.0
	for _, bg := range bgs {
		c := fg
		if c.A < 1 {
			a := max(c.A, 0)
			c = sg.Color{R: c.R*a + bg.R*(1-a), G: c.G*a + bg.G*(1-a), B: c.B*a + bg.B*(1-a), A: 1}
		}
		w = min(w, contrast(c, bg))
	}
	return w
}
