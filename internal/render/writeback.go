package render

import (
	"encoding/json"
	"math"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// WriteBackTolerance is how far (px) a measured size or offset may differ
// from the scene graph's before WriteMeasured replaces it: Chromium lays
// out in 1/64 px, so smaller differences are rounding, not another size.
const WriteBackTolerance = 0.5

// WriteMeasured writes the geometry the browser decided back into d, so
// that an export holds the boxes the gate checked rather than the tools'
// estimates (issue 16 items 6 and 7). slides are a render of d (their
// SlideID names the slide; unknown ones are skipped). Only nodes laid out
// anew are written: nodes absent from origin, or whose layout inputs
// (characters, text styles other than colour and link, text box, size,
// sizing, auto-layout; a container's flow children) differ from origin's
// node of the same id. Untouched nodes keep their stored geometry byte for
// byte, even where Chromium's font metrics differ from PowerPoint's. A nil
// origin counts every node as new.
//
// What is written, in px rounded to 0.01:
//   - the size of every axis the renderer sizes to the content (hugs: HUG
//     sizing, text with textAutoResize HEIGHT or WIDTH_AND_HEIGHT);
//   - for a flow child of an auto-layout container laid out anew: its
//     offset in the container and both sides of its size (FILL and HUG
//     children are sized by the flexbox, FIXED ones keep theirs).
//
// A node is written only when the browser drew it axis-aligned (its
// transform and its ancestors' have no rotation, flip or scale), so its
// measured bounds are its box; rotated boxes keep their size. Table cells
// are the table's grid, not written. Differences below WriteBackTolerance
// are left alone. It returns the ids of the nodes it changed, in tree
// order per slide.
func WriteMeasured(d, origin *scenegraph.Deck, slides []SlideResult) []string {
	if d == nil {
		return nil
	}
	was := map[string]*scenegraph.Node{}
	if origin != nil {
		for _, s := range origin.Slides {
			s.Walk(func(n, _ *scenegraph.Node, _ int) bool { was[n.ID] = n; return true })
		}
	}
	var out []string
	for _, sr := range slides {
		s, _ := d.SlideByID(sr.SlideID)
		if s == nil {
			continue
		}
		w := writeBack{nodes: sr.Nodes, was: was, hasOrigin: origin != nil, relaid: map[*scenegraph.Node]bool{}}
		w.mark(s)
		for _, c := range s.Children {
			w.write(c, s, true, &out)
		}
	}
	return out
}

type writeBack struct {
	nodes     map[string]Measured
	was       map[string]*scenegraph.Node
	hasOrigin bool
	relaid    map[*scenegraph.Node]bool
}

// mark decides bottom-up which nodes are laid out anew: changed inputs,
// or (for an auto-layout container, whose size and flow follow its
// children) a flow child laid out anew.
func (w *writeBack) mark(n *scenegraph.Node) bool {
	anew := !w.hasOrigin
	if o := w.was[n.ID]; w.hasOrigin {
		anew = o == nil || layoutKey(n) != layoutKey(o)
	}
	for _, c := range n.Children {
		if c != nil && w.mark(c) && n.HasAutoLayout() && inFlow(c, n) {
			anew = true
		}
	}
	w.relaid[n] = anew
	return anew
}

// write writes n's measured geometry (see WriteMeasured) and recurses;
// aligned says the parent was drawn axis-aligned.
func (w *writeBack) write(n, parent *scenegraph.Node, aligned bool, out *[]string) {
	if n == nil || !n.IsVisible() {
		return
	}
	flow := inFlow(n, parent)
	aligned = aligned && (flow || isTranslation(n.Transform))
	m, ok := w.nodes[n.ID]
	if ok && aligned && n.Type != scenegraph.TypeTableCell && parent.Type != scenegraph.TypeTable {
		hugW, hugH := hugs(n)
		byParent := flow && w.relaid[parent]
		setW := (w.relaid[n] && hugW) || byParent
		setH := (w.relaid[n] && hugH) || byParent
		changed := false
		if setW && math.Abs(m.Bounds.Width-n.Size.X) >= WriteBackTolerance {
			n.Size.X, changed = roundCenti(m.Bounds.Width), true
		}
		if setH && math.Abs(m.Bounds.Height-n.Size.Y) >= WriteBackTolerance {
			n.Size.Y, changed = roundCenti(m.Bounds.Height), true
		}
		if pm, ok := w.nodes[parent.ID]; ok && byParent && isTranslation(n.Transform) {
			x, y := m.Bounds.X-pm.Bounds.X, m.Bounds.Y-pm.Bounds.Y
			if math.Abs(x-n.Transform.X()) >= WriteBackTolerance || math.Abs(y-n.Transform.Y()) >= WriteBackTolerance {
				n.Transform, changed = n.Transform.WithOffset(roundCenti(x), roundCenti(y)), true
			}
		}
		if changed {
			*out = append(*out, n.ID)
		}
	}
	for _, c := range n.Children {
		w.write(c, n, aligned, out)
	}
}

// isTranslation reports whether t moves without rotating, flipping or
// scaling (an unset, all-zero transform is the identity).
func isTranslation(t scenegraph.Transform) bool {
	if t.IsZero() {
		return true
	}
	const eps = 1e-9
	return math.Abs(t[0][0]-1) < eps && math.Abs(t[1][1]-1) < eps && math.Abs(t[0][1]) < eps && math.Abs(t[1][0]) < eps
}

func roundCenti(v float64) float64 { return math.Round(v*100) / 100 }

// layoutKey is what decides a node's laid-out size: the node without its
// children, identity, paints, effects and position, and its text without
// colours and links; for a container, which children take part in its
// flow.
func layoutKey(n *scenegraph.Node) string {
	c := *n
	c.Children, c.Source, c.Name, c.AltText, c.Link, c.Locked = nil, nil, "", "", nil, false
	c.Opacity, c.AbsoluteBoundingBox, c.Constraints = nil, nil, nil
	c.Fills, c.Strokes, c.Effects = nil, nil, nil
	c.Transform = c.Transform.WithOffset(0, 0)
	c.Fields = nil
	if c.Style != nil {
		st := *c.Style
		st.Fills, st.Link = nil, nil
		c.Style = &st
	}
	if len(c.StyleOverrideTable) > 0 {
		t := make(map[string]scenegraph.TypeStyle, len(c.StyleOverrideTable))
		for k, st := range c.StyleOverrideTable {
			st.Fills, st.Link = nil, nil
			t[k] = st
		}
		c.StyleOverrideTable = t
	}
	if len(c.Paragraphs) > 0 {
		ps := append([]scenegraph.Paragraph(nil), c.Paragraphs...)
		for i := range ps {
			ps[i].BulletColor, ps[i].BulletThemeColor = nil, nil
		}
		c.Paragraphs = ps
	}
	type flowChild struct {
		ID      string `json:"id"`
		Visible bool   `json:"visible"`
		Pos     string `json:"pos,omitempty"`
	}
	var kids []flowChild
	if n.HasAutoLayout() {
		for _, k := range n.Children {
			if k != nil {
				kids = append(kids, flowChild{k.ID, k.IsVisible(), k.LayoutPositioning})
			}
		}
	}
	b, _ := json.Marshal(struct {
		Node *scenegraph.Node `json:"node"`
		Flow []flowChild      `json:"flow,omitempty"`
	}{&c, kids})
	return string(b)
}
