package tools

import (
	"fmt"
	"math"
	"slices"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type moveArgs struct {
	NodeID   string `json:"nodeId"`
	X        Length `json:"x" desc:"New left edge of the unrotated box, px in the parent (or the offset to add when relative is true)."`
	Y        Length `json:"y" desc:"New top edge of the unrotated box, px in the parent (or the offset to add)."`
	Relative bool   `json:"relative,omitempty" desc:"Treat x and y as a shift from the current position."`
}

type resizeArgs struct {
	NodeID     string  `json:"nodeId"`
	Width      *Length `json:"width,omitempty" min:"0" desc:"New width, px; sets horizontal sizing to FIXED."`
	Height     *Length `json:"height,omitempty" min:"0" desc:"New height, px; sets vertical sizing to FIXED."`
	KeepAspect bool    `json:"keepAspect,omitempty" desc:"Derive the missing dimension from the current aspect ratio."`
}

type rotateArgs struct {
	NodeID string  `json:"nodeId"`
	Angle  float64 `json:"angle" min:"-360" max:"360" desc:"Absolute rotation in degrees, clockwise."`
	About  string  `json:"about,omitempty" enum:"CENTER,TOP_LEFT" desc:"Pivot; default CENTER (what a user sees in PowerPoint)."`
}

type alignArgs struct {
	NodeIDs    []string `json:"nodeIds" minItems:"1"`
	Align      string   `json:"align" enum:"LEFT,CENTER,RIGHT,TOP,MIDDLE,BOTTOM"`
	RelativeTo string   `json:"relativeTo,omitempty" enum:"SELECTION,SLIDE,PARENT" desc:"Align to the nodes' common box (default with 2+ nodes), the slide (default with 1 node) or each node's parent."`
}

type distributeArgs struct {
	NodeIDs   []string `json:"nodeIds" minItems:"2"`
	Direction string   `json:"direction" enum:"HORIZONTAL,VERTICAL"`
	Spacing   *Length  `json:"spacing,omitempty" desc:"Fixed gap in px starting at the first node; default equal gaps between the outermost nodes."`
}

func contentGeometryTools() []Tool {
	return []Tool{
		def(ModuleContent, "move_node", false,
			"Move a node to (x, y) in its parent's coordinates (0,0 is the parent's top-left, not the slide's), or shift it with relative=true. For a rotated node x/y are the top-left of its unrotated box, as the context shows them; the rotation stays. Children of an auto-layout frame are placed by the frame: reorder them with move_to_parent, or take one out of the flow with set_layout_positioning ABSOLUTE first.",
			func(e *Env, a *moveArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if n.Type == sg.TypeSlide || n.Type == sg.TypeTableCell {
					return Result{}, fmt.Errorf("node %q is a %s and has no free position (slide order: reorder_slides; cells: edit_table_structure)", a.NodeID, n.Type)
				}
				if a.Relative {
					n.Transform = n.Transform.WithOffset(round2(n.Transform.X()+float64(a.X)), round2(n.Transform.Y()+float64(a.Y)))
				} else {
					t := n.Transform.WithBoxOrigin(n.Size, float64(a.X), float64(a.Y))
					n.Transform = t.WithOffset(round2(t.X()), round2(t.Y()))
				}
				res := changed(n.ID)
				if p := e.parent(n); p != nil && p.HasAutoLayout() && n.LayoutPositioning != sg.PositioningAbsolute {
					res.Warnings = append(res.Warnings, fmt.Sprintf("%s is in auto-layout frame %s, which places it; the move has no effect unless you set_layout_positioning ABSOLUTE", n.ID, p.ID))
				}
				return res, nil
			}),
		def(ModuleContent, "resize_node", false,
			"Resize a node to width and/or height in px (sizing on that axis becomes FIXED). keepAspect derives the other side. The top-left of the node's unrotated box stays put; a rotated node keeps its angle and turns about its new centre. A table scales its columns and rows; a frame's children keep their sizes unless they FILL it in auto-layout.",
			func(e *Env, a *resizeArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if n.Type == sg.TypeSlide {
					return Result{}, fmt.Errorf("node %q is a slide; every slide has the deck's size", a.NodeID)
				}
				if a.Width == nil && a.Height == nil {
					return Result{}, fmt.Errorf("give width and/or height")
				}
				w, h := n.Size.X, n.Size.Y
				if a.Width != nil {
					w = float64(*a.Width)
				}
				if a.Height != nil {
					h = float64(*a.Height)
				}
				if a.KeepAspect && n.Size.X > 0 && n.Size.Y > 0 {
					if a.Width != nil && a.Height == nil {
						h = w * n.Size.Y / n.Size.X
					} else if a.Height != nil && a.Width == nil {
						w = h * n.Size.X / n.Size.Y
					}
				}
				if n.Table != nil {
					scaleTable(n, w, h)
				}
				box := n.Transform.UnrotatedBox(n.Size)
				n.Size = sg.Vector{X: round2(w), Y: round2(h)}
				if t := n.Transform.WithBoxOrigin(n.Size, box.X, box.Y); t != n.Transform {
					n.Transform = t.WithOffset(round2(t.X()), round2(t.Y()))
				}
				if a.Width != nil || a.KeepAspect {
					n.LayoutSizingHorizontal = fixedUnlessSet(n.LayoutSizingHorizontal)
				}
				if a.Height != nil || a.KeepAspect {
					n.LayoutSizingVertical = fixedUnlessSet(n.LayoutSizingVertical)
				}
				return changed(n.ID), nil
			}),
		def(ModuleContent, "rotate_node", false,
			"Rotate a node to an absolute angle in degrees (clockwise), about its centre by default. 0 removes the rotation.",
			func(e *Env, a *rotateArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if n.Type == sg.TypeSlide || n.Type == sg.TypeTableCell {
					return Result{}, fmt.Errorf("node %q is a %s and cannot rotate", a.NodeID, n.Type)
				}
				c0 := n.Transform.Apply(sg.Vector{X: n.Size.X / 2, Y: n.Size.Y / 2})
				t := n.Transform.Rotated(a.Angle)
				if a.About != "TOP_LEFT" {
					c1 := t.Apply(sg.Vector{X: n.Size.X / 2, Y: n.Size.Y / 2})
					t = t.WithOffset(round2(t.X()+c0.X-c1.X), round2(t.Y()+c0.Y-c1.Y))
				}
				for r := 0; r < 2; r++ {
					for c := 0; c < 2; c++ {
						t[r][c] = math.Round(t[r][c]*1e9) / 1e9
					}
				}
				n.Transform = t
				return changed(n.ID), nil
			}),
		def(ModuleContent, "align_nodes", false,
			"Align nodes' edges or centres: LEFT, CENTER, RIGHT (horizontal) or TOP, MIDDLE, BOTTOM (vertical), relative to their common box, the slide or their parent. Positions are compared on the slide, so nodes in different frames align too.",
			func(e *Env, a *alignArgs) (Result, error) {
				nodes, err := e.nodes(a.NodeIDs)
				if err != nil {
					return Result{}, err
				}
				rel := a.RelativeTo
				if rel == "" {
					rel = "SELECTION"
					if len(nodes) == 1 {
						rel = "SLIDE"
					}
				}
				var box sg.Rect
				for i, n := range nodes {
					b := e.absBounds(n)
					if i == 0 {
						box = b
					} else {
						box = box.Union(b)
					}
				}
				if rel == "SLIDE" {
					box = sg.Rect{Width: e.Deck.Width, Height: e.Deck.Height}
				}
				res := Result{}
				for _, n := range nodes {
					ref := box
					if rel == "PARENT" {
						if p := e.parent(n); p != nil && p.Type != sg.TypeSlide {
							ref = e.absBounds(p)
						} else {
							ref = sg.Rect{Width: e.Deck.Width, Height: e.Deck.Height}
						}
					}
					b := e.absBounds(n)
					var dx, dy float64
					switch a.Align {
					case "LEFT":
						dx = ref.X - b.X
					case "CENTER":
						dx = ref.X + ref.Width/2 - (b.X + b.Width/2)
					case "RIGHT":
						dx = ref.Right() - b.Right()
					case "TOP":
						dy = ref.Y - b.Y
					case "MIDDLE":
						dy = ref.Y + ref.Height/2 - (b.Y + b.Height/2)
					case "BOTTOM":
						dy = ref.Bottom() - b.Bottom()
					}
					e.shift(n, dx, dy)
					res.Changed = append(res.Changed, n.ID)
				}
				return res, nil
			}),
		def(ModuleContent, "distribute_nodes", false,
			"Distribute nodes evenly along an axis: equal gaps between the outermost nodes, or a fixed spacing in px from the first. Order follows their current positions.",
			func(e *Env, a *distributeArgs) (Result, error) {
				nodes, err := e.nodes(a.NodeIDs)
				if err != nil {
					return Result{}, err
				}
				h := a.Direction == "HORIZONTAL"
				start := func(r sg.Rect) float64 {
					if h {
						return r.X
					}
					return r.Y
				}
				ext := func(r sg.Rect) float64 {
					if h {
						return r.Width
					}
					return r.Height
				}
				slices.SortStableFunc(nodes, func(x, y *sg.Node) int {
					return cmpF(start(e.absBounds(x)), start(e.absBounds(y)))
				})
				first, last := e.absBounds(nodes[0]), e.absBounds(nodes[len(nodes)-1])
				total := 0.0
				for _, n := range nodes {
					total += ext(e.absBounds(n))
				}
				gap := 0.0
				if a.Spacing != nil {
					gap = float64(*a.Spacing)
				} else {
					gap = (start(last) + ext(last) - start(first) - total) / float64(len(nodes)-1)
				}
				pos := start(first)
				res := Result{}
				for _, n := range nodes {
					b := e.absBounds(n)
					d := pos - start(b)
					if h {
						e.shift(n, d, 0)
					} else {
						e.shift(n, 0, d)
					}
					pos += ext(b) + gap
					res.Changed = append(res.Changed, n.ID)
				}
				return res, nil
			}),
	}
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func fixedUnlessSet(s string) string {
	if s == sg.SizingFill || s == sg.SizingHug {
		return sg.SizingFixed
	}
	return s
}

// nodes looks up several ids, rejecting slides and cells.
func (e *Env) nodes(ids []string) ([]*sg.Node, error) {
	var out []*sg.Node
	for _, id := range ids {
		n, err := e.node(id)
		if err != nil {
			return nil, err
		}
		if n.Type == sg.TypeSlide || n.Type == sg.TypeTableCell {
			return nil, fmt.Errorf("node %q is a %s and cannot be moved", id, n.Type)
		}
		out = append(out, n)
	}
	return out, nil
}

// shift moves n by (dx, dy) px in slide coordinates.
func (e *Env) shift(n *sg.Node, dx, dy float64) {
	p := e.parent(n)
	lx, ly := dx, dy
	if p != nil && p.Type != sg.TypeSlide {
		t := e.Index().AbsoluteTransform(p.ID)
		inv := invertLinear(t)
		v := inv.Apply(sg.Vector{X: dx, Y: dy})
		lx, ly = v.X, v.Y
	}
	n.Transform = n.Transform.WithOffset(round2(n.Transform.X()+lx), round2(n.Transform.Y()+ly))
}

// scaleTable scales column widths and row heights to a new size.
func scaleTable(n *sg.Node, w, h float64) {
	if n.Size.X > 0 {
		for i := range n.Table.Columns {
			n.Table.Columns[i] = round2(n.Table.Columns[i] * w / n.Size.X)
		}
	}
	if n.Size.Y > 0 {
		for i := range n.Table.Rows {
			n.Table.Rows[i] = round2(n.Table.Rows[i] * h / n.Size.Y)
		}
	}
	layoutTableCells(n)
}
