package tools

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

// This file is a small auto-layout engine after Figma's model (ACE §3.1,
// Figure 3): a container places its flow children in a row or column with
// padding and item spacing, aligns them on both axes, wraps rows when asked,
// hugs its content (HUG), and stretches FILL children. Tools call it after
// every change so a child's relativeTransform always says where the child
// is; the agent never computes per-child coordinates. The renderer measures
// the real geometry (text metrics included) and stays the source of truth.
//
// Sizing is derived from the stored properties each time, never from the
// order of calls, so FILL before or after the parent's layoutMode gives the
// same result.

// relayout lays out the topmost auto-layout container above (or at) each
// given id and returns the ids whose transform or size changed.
func (e *Env) relayout(ids []string) []string {
	if len(ids) == 0 {
		return nil
	}
	ix := e.Index()
	var roots []*sg.Node
	var moved []string
	seen := map[*sg.Node]bool{}
	for _, id := range ids {
		n := ix.Node(id)
		if n == nil {
			continue
		}
		if n.Type == sg.TypeText && !n.HasAutoLayout() {
			// a hugging text box follows its new characters or font
			before := n.Size
			measureText(n)
			if n.Size != before {
				moved = append(moved, n.ID)
			}
		}
		var top *sg.Node
		if n.HasAutoLayout() {
			top = n
		}
		for p := ix.Parent(n.ID); p != nil && p.HasAutoLayout(); p = ix.Parent(p.ID) {
			top = p
		}
		if top != nil && !seen[top] {
			seen[top] = true
			roots = append(roots, top)
		}
	}
	for _, r := range roots {
		moved = append(moved, layoutTree(r)...)
	}
	return moved
}

type geom struct {
	t  sg.Transform
	sz sg.Vector
}

// layoutTree lays out the subtree at root: hug sizes bottom-up, then
// positions and FILL sizes top-down. It returns the ids that moved or
// resized. A SLIDE keeps the deck's slide size whatever its sizing says.
func layoutTree(root *sg.Node) []string {
	before := map[*sg.Node]geom{}
	root.Walk(func(n, _ *sg.Node, _ int) bool {
		before[n] = geom{n.Transform, n.Size}
		return true
	})
	measure(root)
	arrange(root)
	var out []string
	root.Walk(func(n, _ *sg.Node, _ int) bool {
		if g, ok := before[n]; ok && (g.t != n.Transform || g.sz != n.Size) {
			out = append(out, n.ID)
		}
		return true
	})
	return out
}

// inFlow reports whether a child takes part in its parent's layout: visible
// and not absolutely positioned (Figma skips hidden children too).
func inFlow(c *sg.Node) bool {
	return c.IsVisible() && c.LayoutPositioning != sg.PositioningAbsolute
}

// axisSizing returns a node's sizing on the horizontal (h=true) or vertical
// axis, FIXED when unset.
func axisSizing(n *sg.Node, h bool) string {
	s := n.LayoutSizingVertical
	if h {
		s = n.LayoutSizingHorizontal
	}
	if s == "" {
		return sg.SizingFixed
	}
	return s
}

func dim(v sg.Vector, h bool) float64 {
	if h {
		return v.X
	}
	return v.Y
}

func setDim(v *sg.Vector, h bool, x float64) {
	x = round2(math.Max(0, x))
	if h {
		v.X = x
	} else {
		v.Y = x
	}
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// padding returns the start and end padding along an axis.
func padding(n *sg.Node, h bool) (float64, float64) {
	if h {
		return n.PaddingLeft, n.PaddingRight
	}
	return n.PaddingTop, n.PaddingBottom
}

func counterSpacing(n *sg.Node) float64 {
	if n.CounterAxisSpacing != nil {
		return *n.CounterAxisSpacing
	}
	return n.ItemSpacing
}

// measure computes HUG sizes bottom-up.
func measure(n *sg.Node) {
	if !n.HasAutoLayout() {
		if n.Type == sg.TypeText || (n.Characters != "" && n.Type.CanHoldText()) {
			measureText(n)
		}
		return
	}
	for _, c := range n.Children {
		measure(c)
	}
	if n.Type == sg.TypeSlide {
		return
	}
	h := n.LayoutMode == sg.LayoutHorizontal
	flow := flowChildren(n)
	p0, p1 := padding(n, h)
	q0, q1 := padding(n, !h)
	wrap := n.LayoutWrap == sg.Wrap && axisSizing(n, h) != sg.SizingHug
	if axisSizing(n, h) == sg.SizingHug {
		sum := 0.0
		for _, c := range flow {
			sum += dim(c.Size, h)
		}
		if k := len(flow); k > 1 {
			sum += n.ItemSpacing * float64(k-1)
		}
		setDim(&n.Size, h, p0+sum+p1)
	}
	if axisSizing(n, !h) == sg.SizingHug {
		var extent float64
		if wrap {
			for i, line := range wrapLines(n, flow, h) {
				if i > 0 {
					extent += counterSpacing(n)
				}
				extent += lineExtent(line, !h)
			}
		} else {
			// A child that FILLs the hugging axis takes the frame's size
			// rather than giving it one, so only the other children count
			// (all of them when every child fills). This keeps the result
			// independent of the order the sizing calls came in.
			var fixed []*sg.Node
			for _, c := range flow {
				if axisSizing(c, !h) != sg.SizingFill {
					fixed = append(fixed, c)
				}
			}
			if len(fixed) == 0 {
				fixed = flow
			}
			extent = lineExtent(fixed, !h)
		}
		setDim(&n.Size, !h, q0+extent+q1)
	}
}

func flowChildren(n *sg.Node) []*sg.Node {
	var out []*sg.Node
	for _, c := range n.Children {
		if inFlow(c) {
			out = append(out, c)
		}
	}
	return out
}

func lineExtent(line []*sg.Node, h bool) float64 {
	m := 0.0
	for _, c := range line {
		m = math.Max(m, dim(c.Size, h))
	}
	return m
}

// wrapLines breaks flow children into lines no longer than the inner
// primary size (a child wider than the line gets a line of its own).
func wrapLines(n *sg.Node, flow []*sg.Node, h bool) [][]*sg.Node {
	p0, p1 := padding(n, h)
	inner := dim(n.Size, h) - p0 - p1
	var lines [][]*sg.Node
	var cur []*sg.Node
	used := 0.0
	for _, c := range flow {
		w := dim(c.Size, h)
		if len(cur) > 0 && used+n.ItemSpacing+w > inner+0.01 {
			lines = append(lines, cur)
			cur, used = nil, 0
		}
		if len(cur) > 0 {
			used += n.ItemSpacing
		}
		cur = append(cur, c)
		used += w
	}
	if len(cur) > 0 {
		lines = append(lines, cur)
	}
	return lines
}

// arrange sizes FILL children and places every flow child, top-down.
func arrange(n *sg.Node) {
	if !n.HasAutoLayout() {
		return
	}
	h := n.LayoutMode == sg.LayoutHorizontal
	flow := flowChildren(n)
	p0, p1 := padding(n, h)
	q0, q1 := padding(n, !h)
	innerP := dim(n.Size, h) - p0 - p1
	innerQ := dim(n.Size, !h) - q0 - q1

	if n.LayoutWrap == sg.Wrap && axisSizing(n, h) != sg.SizingHug {
		offQ := q0
		for _, line := range wrapLines(n, flow, h) {
			ext := lineExtent(line, !h)
			placeLine(n, line, h, p0, innerP, offQ, ext, false)
			offQ += ext + counterSpacing(n)
		}
	} else {
		// FILL on the primary axis shares what the fixed children leave.
		fixed, fills := 0.0, 0
		for _, c := range flow {
			if axisSizing(c, h) == sg.SizingFill {
				fills++
			} else {
				fixed += dim(c.Size, h)
			}
		}
		if fills > 0 {
			gaps := 0.0
			if len(flow) > 1 {
				gaps = n.ItemSpacing * float64(len(flow)-1)
			}
			each := math.Max(0, (innerP-fixed-gaps)/float64(fills))
			for _, c := range flow {
				if axisSizing(c, h) == sg.SizingFill {
					setDim(&c.Size, h, each)
				}
			}
		}
		placeLine(n, flow, h, p0, innerP, q0, innerQ, true)
	}
	for _, c := range n.Children {
		if c.HasAutoLayout() {
			arrange(c)
		}
	}
}

// placeLine positions one line of children: primary offsets from the
// primary alignment, counter offsets within a band [offQ, offQ+bandQ].
// stretch lets counter-axis FILL children take the band's extent.
func placeLine(n *sg.Node, line []*sg.Node, h bool, p0, innerP, offQ, bandQ float64, stretch bool) {
	if stretch {
		for _, c := range line {
			if axisSizing(c, !h) == sg.SizingFill {
				setDim(&c.Size, !h, bandQ)
			}
		}
	}
	total := 0.0
	for _, c := range line {
		total += dim(c.Size, h)
	}
	gap := n.ItemSpacing
	start := p0
	k := len(line)
	switch n.PrimaryAxisAlignItems {
	case sg.AlignCenter:
		start = p0 + (innerP-total-gap*float64(max(k-1, 0)))/2
	case sg.AlignMax:
		start = p0 + innerP - total - gap*float64(max(k-1, 0))
	case sg.AlignSpaceBetween:
		if k > 1 {
			gap = (innerP - total) / float64(k-1)
		}
	}
	pos := start
	for _, c := range line {
		q := offQ
		switch n.CounterAxisAlignItems {
		case sg.AlignCenter:
			q = offQ + (bandQ-dim(c.Size, !h))/2
		case sg.AlignMax:
			q = offQ + bandQ - dim(c.Size, !h)
		}
		x, y := pos, q
		if !h {
			x, y = q, pos
		}
		c.Transform = c.Transform.WithOffset(round2(x), round2(y))
		pos += dim(c.Size, h) + gap
	}
}

// measureText estimates a HUG text box from its characters: an average
// advance of 0.55 em and a line height of 1.2 em unless the style says
// otherwise. Only axes set to HUG change; the renderer measures exactly.
func measureText(n *sg.Node) {
	hugW := axisSizing(n, true) == sg.SizingHug
	hugH := axisSizing(n, false) == sg.SizingHug
	if !hugW && !hugH {
		return
	}
	fs, lh := textMetrics(n)
	var in sg.Insets
	if n.TextBox != nil && n.TextBox.Insets != nil {
		in = *n.TextBox.Insets
	}
	lines := strings.Split(n.Characters, "\n")
	if hugW {
		widest := 0
		for _, l := range lines {
			widest = max(widest, utf8.RuneCountInString(l))
		}
		setDim(&n.Size, true, float64(widest)*fs*0.55+in.Left+in.Right)
	}
	if hugH {
		inner := n.Size.X - in.Left - in.Right
		count := 0
		for _, l := range lines {
			w := float64(utf8.RuneCountInString(l)) * fs * 0.55
			if inner <= 0 || w <= inner {
				count++
			} else {
				count += int(math.Ceil(w / inner))
			}
		}
		setDim(&n.Size, false, float64(count)*lh+in.Top+in.Bottom)
	}
}

// textMetrics returns the largest font size (px) used in the text and its
// line height (px).
func textMetrics(n *sg.Node) (fs, lh float64) {
	fs = 16
	var base sg.TypeStyle
	if n.Style != nil {
		base = *n.Style
	}
	if base.FontSize > 0 {
		fs = base.FontSize
	}
	for _, o := range n.StyleOverrideTable {
		fs = math.Max(fs, o.FontSize)
	}
	switch {
	case base.LineHeightPx > 0:
		lh = base.LineHeightPx
	case base.LineHeightPercent > 0:
		lh = fs * base.LineHeightPercent / 100
	default:
		lh = fs * 1.2
	}
	return fs, lh
}

// inferLayout sets padding and spacing of a frame turning into an
// auto-layout container from where its children already sit, and orders
// the children by position along the new axis, as Figma's "add auto
// layout" does. Explicit arguments win over inferred values.
func inferLayout(n *sg.Node, h bool) {
	flow := flowChildren(n)
	if len(flow) == 0 {
		return
	}
	pos := func(c *sg.Node) float64 {
		if h {
			return c.Transform.X()
		}
		return c.Transform.Y()
	}
	slices.SortStableFunc(n.Children, func(a, b *sg.Node) int {
		switch {
		case pos(a) < pos(b):
			return -1
		case pos(a) > pos(b):
			return 1
		}
		return 0
	})
	flow = flowChildren(n)
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, c := range flow {
		b := c.Transform.Bounds(c.Size)
		minX, minY = math.Min(minX, b.X), math.Min(minY, b.Y)
		maxX, maxY = math.Max(maxX, b.Right()), math.Max(maxY, b.Bottom())
	}
	n.PaddingLeft = round2(math.Max(0, minX))
	n.PaddingTop = round2(math.Max(0, minY))
	n.PaddingRight = round2(math.Max(0, n.Size.X-maxX))
	n.PaddingBottom = round2(math.Max(0, n.Size.Y-maxY))
	if len(flow) > 1 {
		gaps := 0.0
		for i := 1; i < len(flow); i++ {
			prev := flow[i-1].Transform.Bounds(flow[i-1].Size)
			cur := flow[i].Transform.Bounds(flow[i].Size)
			if h {
				gaps += cur.X - prev.Right()
			} else {
				gaps += cur.Y - prev.Bottom()
			}
		}
		n.ItemSpacing = round2(math.Max(0, gaps/float64(len(flow)-1)))
	}
}
