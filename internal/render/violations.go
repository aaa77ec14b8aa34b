package render

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// Violation kinds: the deterministic ReDeck B_geom family (text_overflow,
// overlap, out_of_bounds — the paper's pw_oob — and image_clipping, App E
// S1-S4) plus two readability checks the paper's probes name (contrast,
// font size; B4), and frame_overflow, ours: content spilling out of an
// auto-layout frame.
const (
	KindTextOverflow  = "text_overflow"
	KindOverlap       = "overlap"
	KindOutOfBounds   = "out_of_bounds"
	KindImageClipping = "image_clipping"
	KindLowContrast   = "low_contrast"
	KindMinFontSize   = "min_font_size"
	// KindFrameOverflow: content spills out of an auto-layout frame (issue
	// 16 item 7: a frame created without a size stayed 100x100 while its
	// children spread past it, and no check saw it).
	KindFrameOverflow = "frame_overflow"
)

// Tolerances. ReDeck leaves them unspecified (spec B4); these are ours.
const (
	// TextOverflowTolerance: text may pass its box (minus insets) or a
	// clipping ancestor by this many px before it counts, absorbing
	// sub-pixel layout and font-metric rounding.
	TextOverflowTolerance = 2.0
	// OutOfBoundsTolerance: px a readable element may pass the slide edge.
	OutOfBoundsTolerance = 1.0
	// FrameOverflowTolerance: px a flow child may pass its auto-layout
	// frame's box (sub-pixel flexbox rounding).
	FrameOverflowTolerance = 1.0
	// OverlapMinSide and OverlapMinFraction: two readable elements overlap
	// when their intersection is more than 2 px on both sides and more than
	// 2% of the smaller element's area (touching boxes and hairline
	// intersections are not occlusion).
	OverlapMinSide     = 2.0
	OverlapMinFraction = 0.02
	// HiddenTextFraction: text whose rendered lines are covered this much
	// by an opaque picture or shape painted above it is hidden (an
	// overlap, whatever the size of the cover; issue 16 item 11).
	HiddenTextFraction = 0.9
	// BackgroundFraction: an element covering at least half the slide is a
	// background, not a readable element, for the overlap check.
	BackgroundFraction = 0.5
	// ImageClipFraction: an image loses content when more than 5% of its
	// box is cut off by a clipping frame or the slide edge.
	ImageClipFraction = 0.05
	// ImageCoverLoss: a FILL (cover) image whose box aspect ratio differs
	// from the picture's so much that over a third of the picture is
	// cropped away.
	ImageCoverLoss = 1.0 / 3
	// MinFontSizeAt720 is the smallest readable font size on a slide 720 px
	// high (9 pt); it scales with Deck.Height (13.5 pt on 1080 px).
	MinFontSizeAt720 = 12.0
	// WCAG 2.x: 4.5:1 for body text, 3:1 for large text (>= 18 pt, or
	// >= 14 pt bold; 24 px and 18.67 px at 96 dpi).
	ContrastBody       = 4.5
	ContrastLarge      = 3.0
	LargeTextPx        = 24.0
	LargeBoldTextPx    = 18.66
	BoldWeightForLarge = 700
)

// Violation is one layout defect of a slide.
type Violation struct {
	// Key is stable across renders of equal geometry: kind|slide id|sorted
	// node ids. DeltaViol matches on it.
	Key     string            `json:"key"`
	Kind    string            `json:"kind"`
	SlideID string            `json:"slideId"`
	NodeIDs []string          `json:"nodeIds"`
	Bounds  []scenegraph.Rect `json:"bounds"`
	// BoundsLabels name what each of Bounds is when one node has two
	// ("box" and "text" for an overflow; "text" and "clip", "picture" and
	// "visible", "frame" and "content"); nil when Bounds are the nodes'
	// boxes in NodeIDs order.
	BoundsLabels []string `json:"boundsLabels,omitempty"`
	Reason       string   `json:"reason"`
}

// labelled returns v with its bounds named (Violation.BoundsLabels).
func (v Violation) labelled(names ...string) Violation {
	v.BoundsLabels = names
	return v
}

func newViolation(kind, slideID string, ids []string, bounds []scenegraph.Rect, reason string, args ...any) Violation {
	ids = append([]string(nil), ids...)
	sort.Strings(ids)
	return Violation{
		Key:     kind + "|" + slideID + "|" + strings.Join(ids, ","),
		Kind:    kind,
		SlideID: slideID,
		NodeIDs: ids,
		Bounds:  bounds,
		Reason:  fmt.Sprintf(reason, args...),
	}
}

// ContrastRatio is the WCAG 2.x contrast ratio (L1+0.05)/(L2+0.05) of two
// opaque colours, 1..21.
func ContrastRatio(a, b scenegraph.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(c scenegraph.Color) float64 {
	ch := func(v float64) float64 {
		v = clamp01(v)
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
}

func contrastNeed(sizePx float64, weight int) float64 {
	if sizePx >= LargeTextPx || sizePx >= LargeBoldTextPx && weight >= BoldWeightForLarge {
		return ContrastLarge
	}
	return ContrastBody
}

// Violations derives V(slide) from measured geometry: the checks are pure
// functions of the deck's tree and the measurements, so they can be tested
// without a browser. Results are sorted by Key.
func Violations(d *scenegraph.Deck, slide int, nodes map[string]Measured) []Violation {
	if d == nil || slide < 0 || slide >= len(d.Slides) || d.Slides[slide] == nil {
		return nil
	}
	s := d.Slides[slide]
	sid := s.ID
	page := scenegraph.Rect{Width: d.Width, Height: d.Height}
	parent := map[string]*scenegraph.Node{}
	var order []*scenegraph.Node
	s.Walk(func(n, p *scenegraph.Node, _ int) bool {
		if !n.IsVisible() {
			return false
		}
		if p != nil {
			parent[n.ID] = p
		}
		order = append(order, n)
		return true
	})
	isAncestor := func(a, n *scenegraph.Node) bool {
		for p := parent[n.ID]; p != nil; p = parent[p.ID] {
			if p == a {
				return true
			}
		}
		return false
	}
	tableOf := func(n *scenegraph.Node) *scenegraph.Node {
		for p := n; p != nil; p = parent[p.ID] {
			if p.Type == scenegraph.TypeTable {
				return p
			}
		}
		return nil
	}
	type readable struct {
		n *scenegraph.Node
		r scenegraph.Rect
	}
	var rs []readable
	var out []Violation
	minFont := MinFontSizeAt720 * d.Height / 720
	for _, n := range order {
		m, ok := nodes[n.ID]
		if !ok || n.Type == scenegraph.TypeSlide {
			continue
		}
		// Readable elements and the rect the eye reads.
		r, isReadable := m.Bounds, false
		switch {
		case m.HasText:
			isReadable = true
			if m.TextBounds != nil {
				r = *m.TextBounds
			}
		case n.Type == scenegraph.TypeImage, n.Type == scenegraph.TypeTable, n.Type == scenegraph.TypeChart, n.Type == scenegraph.TypeMath:
			isReadable = m.Bounds.Area() > 0
		}
		if m.HasText {
			if m.Overflow {
				v := newViolation(KindTextOverflow, sid, []string{n.ID}, []scenegraph.Rect{m.Bounds, r},
					"text runs %s px past its box (width %s px over, height %s px over)",
					trimFloat(math.Max(m.OverflowX, m.OverflowY)), trimFloat(math.Max(0, m.OverflowX)), trimFloat(math.Max(0, m.OverflowY))).labelled("box", "text")
				if n.TextBox != nil && n.TextBox.AutoResize == scenegraph.AutoResizeShrink {
					v.Reason += autofitNote(n.TextBox)
				}
				out = append(out, v)
			} else if m.Clip != nil && m.TextBounds != nil && pastBy(*m.TextBounds, *m.Clip) > TextOverflowTolerance {
				out = append(out, newViolation(KindTextOverflow, sid, []string{n.ID}, []scenegraph.Rect{*m.TextBounds, *m.Clip},
					"text is clipped by a parent frame by %s px", trimFloat(pastBy(*m.TextBounds, *m.Clip))).labelled("text", "clip"))
			}
			if m.MinFontSize > 0 && m.MinFontSize < minFont-0.01 {
				out = append(out, newViolation(KindMinFontSize, sid, []string{n.ID}, []scenegraph.Rect{r},
					"font size %s px is below the %s px minimum for a %s px high slide", trimFloat(m.MinFontSize), trimFloat(minFont), trimFloat(d.Height)))
			}
			if m.Contrast > 0 && m.ContrastNeed > 0 && m.Contrast < m.ContrastNeed {
				out = append(out, newViolation(KindLowContrast, sid, []string{n.ID}, []scenegraph.Rect{r},
					"text contrast %s:1 against its background is below WCAG %s:1", trimFloat(m.Contrast), trimFloat(m.ContrastNeed)))
			}
		}
		if m.Image != nil {
			vis := m.Bounds.Intersect(page)
			if m.Clip != nil {
				vis = vis.Intersect(*m.Clip)
			}
			if a := m.Bounds.Area(); a > 0 {
				lost := 1 - vis.Area()/a
				if lost > ImageClipFraction {
					out = append(out, newViolation(KindImageClipping, sid, []string{n.ID}, []scenegraph.Rect{m.Bounds, vis},
						"%s%% of the image is cut off by a clipping frame or the slide edge", trimFloat(math.Round(lost*100))).labelled("picture", "visible"))
				} else if m.ImageFit == "cover" && m.Bounds.Height > 0 && m.Image.Y > 0 {
					ra, rb := m.Image.X/m.Image.Y, m.Bounds.Width/m.Bounds.Height
					kept := math.Min(ra/rb, rb/ra)
					if 1-kept > ImageCoverLoss {
						out = append(out, newViolation(KindImageClipping, sid, []string{n.ID}, []scenegraph.Rect{m.Bounds},
							"fill-cropping hides %s%% of the picture (aspect %s vs box %s)", trimFloat(math.Round((1-kept)*100)), trimFloat(math.Round(ra*100)/100), trimFloat(math.Round(rb*100)/100)))
					}
				}
			}
		}
		if !isReadable {
			continue
		}
		if past := pastBy(r, page); past > OutOfBoundsTolerance {
			out = append(out, newViolation(KindOutOfBounds, sid, []string{n.ID}, []scenegraph.Rect{r},
				"%s lies %s px outside the %sx%s slide", describe(n), trimFloat(past), trimFloat(page.Width), trimFloat(page.Height)))
		}
		if r.Area() >= BackgroundFraction*page.Area() {
			continue
		}
		rs = append(rs, readable{n, r})
	}
	for i := 0; i < len(rs); i++ {
		for j := i + 1; j < len(rs); j++ {
			a, b := rs[i], rs[j]
			if isAncestor(a.n, b.n) || isAncestor(b.n, a.n) {
				continue
			}
			if ta := tableOf(a.n); ta != nil && ta == tableOf(b.n) {
				continue
			}
			in := a.r.Intersect(b.r)
			if in.Width <= OverlapMinSide || in.Height <= OverlapMinSide {
				continue
			}
			small := math.Min(a.r.Area(), b.r.Area())
			if small <= 0 || in.Area() <= OverlapMinFraction*small {
				continue
			}
			out = append(out, newViolation(KindOverlap, sid, []string{a.n.ID, b.n.ID}, []scenegraph.Rect{a.r, b.r},
				"%s and %s overlap by %sx%s px (%s%% of the smaller)", describe(a.n), describe(b.n),
				trimFloat(math.Round(in.Width)), trimFloat(math.Round(in.Height)), trimFloat(math.Round(in.Area()/small*100))))
		}
	}
	out = append(out, hiddenText(order, nodes, sid, isAncestor, out)...)
	out = append(out, frameOverflow(order, nodes, sid)...)
	sortViolations(out)
	return out
}

// frameOverflow finds auto-layout frames whose flow children reach past the
// frame's box by more than FrameOverflowTolerance: a FIXED (or FILL) size
// too small for what the frame holds. A HUG axis grows with its content
// and cannot spill; a frame that clips its content is left to the checks
// of what it hides (text clipped, image clipped). One violation per frame,
// keyed by the frame alone, whichever children spill. order is the slide's
// visible nodes.
func frameOverflow(order []*scenegraph.Node, nodes map[string]Measured, sid string) []Violation {
	var out []Violation
	for _, f := range order {
		if f.Type == scenegraph.TypeSlide || !f.HasAutoLayout() || !f.Type.CanAutoLayout() || f.ClipsContent {
			continue
		}
		fm, ok := nodes[f.ID]
		if !ok {
			continue
		}
		content, worst, spilling := fm.Bounds, 0.0, 0
		for _, c := range f.Children {
			cm, ok := nodes[c.ID]
			if !ok || !c.IsVisible() || c.LayoutPositioning == scenegraph.PositioningAbsolute {
				continue
			}
			content = content.Union(cm.Bounds)
			if past := pastBy(cm.Bounds, fm.Bounds); past > FrameOverflowTolerance {
				worst, spilling = math.Max(worst, past), spilling+1
			}
		}
		if spilling == 0 {
			continue
		}
		out = append(out, newViolation(KindFrameOverflow, sid, []string{f.ID}, []scenegraph.Rect{fm.Bounds, content},
			"%s is %sx%s px but its content needs %sx%s px: %d of its children spill out by up to %s px (let it hug its content, or give it room)",
			describe(f), trimFloat(math.Round(fm.Bounds.Width)), trimFloat(math.Round(fm.Bounds.Height)),
			trimFloat(math.Round(content.Width)), trimFloat(math.Round(content.Height)), spilling, trimFloat(math.Round(worst))).labelled("frame", "content"))
	}
	return out
}

// hiddenText finds text covered for at least HiddenTextFraction of its
// rendered lines by a picture or an opaque filled shape painted after it
// (later in document order, so above it), which the pairwise overlap check
// misses when the cover is a background-sized picture or a shape that is
// not a readable element. Pairs already reported as overlapping are not
// reported twice. order is the slide's visible nodes in paint order.
func hiddenText(order []*scenegraph.Node, nodes map[string]Measured, sid string, isAncestor func(a, n *scenegraph.Node) bool, seen []Violation) []Violation {
	have := map[string]bool{}
	for _, v := range seen {
		have[v.Key] = true
	}
	var out []Violation
	for i, t := range order {
		m, ok := nodes[t.ID]
		if !ok || !m.HasText || strings.TrimSpace(t.Characters) == "" {
			continue
		}
		r := m.Bounds
		if m.TextBounds != nil {
			r = *m.TextBounds
		}
		if r.Area() <= 0 {
			continue
		}
		for _, c := range order[i+1:] {
			cm, ok := nodes[c.ID]
			if !ok || !opaqueCover(c) || isAncestor(c, t) || isAncestor(t, c) {
				continue
			}
			in := r.Intersect(cm.Bounds)
			if in.Area() < HiddenTextFraction*r.Area() {
				continue
			}
			v := newViolation(KindOverlap, sid, []string{t.ID, c.ID}, []scenegraph.Rect{r, cm.Bounds},
				"%s is hidden under %s drawn above it (%s%% of its text covered)", describe(t), describe(c), trimFloat(math.Round(in.Area()/r.Area()*100)))
			if !have[v.Key] {
				have[v.Key] = true
				out = append(out, v)
			}
			break
		}
	}
	return out
}

// opaqueCover reports whether n paints over what lies below it: a node at
// full opacity whose top visible fill is a picture or a solid colour at
// full alpha. Text nodes are not covers (their fill is the glyphs').
func opaqueCover(n *scenegraph.Node) bool {
	if n.Type == scenegraph.TypeText || n.HasText() || n.Type == scenegraph.TypeSlide || n.Alpha() < 0.99 {
		return false
	}
	for i := len(n.Fills) - 1; i >= 0; i-- {
		p := n.Fills[i]
		if !p.IsVisible() {
			continue
		}
		if p.Opacity != nil && *p.Opacity < 0.99 {
			return false
		}
		switch p.Type {
		case scenegraph.PaintImage:
			return true
		case scenegraph.PaintSolid:
			return p.Color != nil && p.Color.A >= 0.99
		}
		return false
	}
	return false
}

// pastBy is how far r extends beyond box on its worst side (<= 0 inside).
func pastBy(r, box scenegraph.Rect) float64 {
	return math.Max(math.Max(box.X-r.X, box.Y-r.Y), math.Max(r.Right()-box.Right(), r.Bottom()-box.Bottom()))
}

func describe(n *scenegraph.Node) string {
	if n.Characters != "" {
		t := []rune(strings.Join(strings.Fields(n.Characters), " "))
		if len(t) > 24 {
			t = append(t[:24], '…')
		}
		return fmt.Sprintf("%s %q", strings.ToLower(string(n.Type)), string(t))
	}
	if n.Name != "" {
		return fmt.Sprintf("%s %q", strings.ToLower(string(n.Type)), n.Name)
	}
	return fmt.Sprintf("%s %s", strings.ToLower(string(n.Type)), n.ID)
}

// DeltaViol returns the violations of current whose Key is not in baseline:
// the new defects an edit introduced (ReDeck Δviol, keyed rather than
// counted so a fix elsewhere cannot pay for a new defect). Sorted by Key.
func DeltaViol(current, baseline []Violation) []Violation {
	old := make(map[string]bool, len(baseline))
	for _, v := range baseline {
		old[v.Key] = true
	}
	var out []Violation
	for _, v := range current {
		if !old[v.Key] {
			out = append(out, v)
		}
	}
	sortViolations(out)
	return out
}

// Gate is the baseline-relative hard gate (ReDeck §3.2 ρ; spec C.2): it
// passes iff the edit added no violation the baseline did not have. Legacy
// violations never block; every new one does.
func Gate(current, baseline []Violation) (ok bool, newOnes []Violation) {
	newOnes = DeltaViol(current, baseline)
	return len(newOnes) == 0, newOnes
}

// autofitNote tells why a shrink-on-overflow text still overflows: it is
// drawn at the scale its file stores (normAutofit fontScale, 100% when
// none), as PowerPoint shows it until the text is edited (ECMA-376
// §21.1.2.1.3).
func autofitNote(b *scenegraph.TextBox) string {
	return fmt.Sprintf("; it shrinks on overflow (normAutofit) but is drawn at its stored scale, %s%%, as PowerPoint shows it until the text is edited",
		trimFloat(b.DrawnFontScale()*100))
}
