package tools

import (
	"fmt"
	"slices"

	sg "github.com/acecanvas/ace/internal/scenegraph"
)

type layoutModeArgs struct {
	NodeID     string `json:"nodeId" desc:"FRAME (a GROUP is turned into a frame)."`
	LayoutMode string `json:"layoutMode" enum:"NONE,HORIZONTAL,VERTICAL" desc:"HORIZONTAL = row, VERTICAL = column, NONE = free positioning (children stay where they are)."`
	LayoutWrap string `json:"layoutWrap,omitempty" enum:"NO_WRAP,WRAP" desc:"Wrap a row onto new lines when full."`
	Infer      *bool  `json:"infer,omitempty" desc:"When turning auto-layout on, order children by position and derive padding and spacing from where they sit (default true)."`
}

type paddingArgs struct {
	NodeID     string  `json:"nodeId"`
	All        *Length `json:"all,omitempty" min:"0" desc:"px on every side"`
	Horizontal *Length `json:"horizontal,omitempty" min:"0" desc:"px left and right"`
	Vertical   *Length `json:"vertical,omitempty" min:"0" desc:"px top and bottom"`
	Top        *Length `json:"top,omitempty" min:"0"`
	Right      *Length `json:"right,omitempty" min:"0"`
	Bottom     *Length `json:"bottom,omitempty" min:"0"`
	Left       *Length `json:"left,omitempty" min:"0"`
}

type axisAlignArgs struct {
	NodeID                string `json:"nodeId"`
	PrimaryAxisAlignItems string `json:"primaryAxisAlignItems,omitempty" enum:"MIN,CENTER,MAX,SPACE_BETWEEN" desc:"Along the row/column: start, centre, end, or spread with equal gaps."`
	CounterAxisAlignItems string `json:"counterAxisAlignItems,omitempty" enum:"MIN,CENTER,MAX,BASELINE" desc:"Across the row/column."`
}

type sizingArgs struct {
	NodeID     string `json:"nodeId"`
	Horizontal string `json:"horizontal,omitempty" enum:"FIXED,HUG,FILL" desc:"HUG: shrink to content (auto-layout frames, text). FILL: stretch to the auto-layout parent. FIXED: keep the size."`
	Vertical   string `json:"vertical,omitempty" enum:"FIXED,HUG,FILL"`
}

type spacingArgs struct {
	NodeID             string  `json:"nodeId"`
	ItemSpacing        *Length `json:"itemSpacing,omitempty" desc:"Gap between items, px (negative overlaps)."`
	CounterAxisSpacing *Length `json:"counterAxisSpacing,omitempty" min:"0" desc:"Gap between wrapped lines, px."`
}

type positioningArgs struct {
	NodeID      string  `json:"nodeId"`
	Positioning string  `json:"positioning" enum:"AUTO,ABSOLUTE" desc:"ABSOLUTE takes the child out of its auto-layout parent's flow so it can be placed freely (badges, overlays)."`
	X           *Length `json:"x,omitempty" desc:"Position in the parent, px, for ABSOLUTE."`
	Y           *Length `json:"y,omitempty"`
}

type wrapArgs struct {
	NodeIDs     []string `json:"nodeIds" minItems:"1" desc:"Siblings to put in the new frame."`
	LayoutMode  string   `json:"layoutMode" enum:"HORIZONTAL,VERTICAL"`
	ItemSpacing *Length  `json:"itemSpacing,omitempty" desc:"px; default inferred from the current gaps."`
	Padding     *Length  `json:"padding,omitempty" min:"0" desc:"px on every side; default 0."`
	Name        string   `json:"name,omitempty"`
}

func (e *Env) layoutFrame(id string) (*sg.Node, []string, error) {
	n, err := e.node(id)
	if err != nil {
		return nil, nil, err
	}
	var warn []string
	if n.Type == sg.TypeGroup {
		n.Type = sg.TypeFrame
		warn = append(warn, fmt.Sprintf("%s was a GROUP; it is now a FRAME so it can hold auto-layout", id))
	}
	if !n.Type.CanAutoLayout() {
		return nil, nil, fmt.Errorf("node %q is a %s; auto-layout needs a FRAME (wrap nodes with wrap_in_auto_layout)", id, n.Type)
	}
	return n, warn, nil
}

func contentLayoutTools() []Tool {
	return []Tool{
		def(ModuleContent, "set_layout_mode", false,
			"Turn a frame into an auto-layout row (HORIZONTAL) or column (VERTICAL), or back to free positioning (NONE). Turning it on keeps the visual order of the children and derives padding and spacing from where they sit; afterwards the frame places its children itself (they reflow when items are added, removed or resized), and HUG sizes are recomputed.",
			func(e *Env, a *layoutModeArgs) (Result, error) {
				n, warn, err := e.layoutFrame(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				was := n.HasAutoLayout()
				if a.LayoutMode == sg.LayoutNone {
					n.LayoutMode, n.LayoutWrap = "", ""
					n.PrimaryAxisAlignItems, n.CounterAxisAlignItems = "", ""
					n.PaddingLeft, n.PaddingRight, n.PaddingTop, n.PaddingBottom, n.ItemSpacing, n.CounterAxisSpacing = 0, 0, 0, 0, 0, nil
					for _, c := range n.Children {
						c.LayoutPositioning = ""
					}
				} else {
					if !was && (a.Infer == nil || *a.Infer) {
						inferLayout(n, a.LayoutMode == sg.LayoutHorizontal)
					}
					n.LayoutMode = a.LayoutMode
				}
				if a.LayoutWrap != "" {
					n.LayoutWrap = a.LayoutWrap
					if a.LayoutWrap == sg.WrapNone {
						n.LayoutWrap = ""
					}
				}
				return Result{Changed: []string{n.ID}, Warnings: warn}, nil
			}),
		def(ModuleContent, "set_padding", false,
			"Set the inner padding of an auto-layout frame in px: all sides, horizontal/vertical pairs, or single sides (single sides win).",
			func(e *Env, a *paddingArgs) (Result, error) {
				n, warn, err := e.layoutFrame(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				set := func(dst *float64, vals ...*float64) {
					for _, v := range vals {
						if v != nil {
							*dst = *v
						}
					}
				}
				set(&n.PaddingTop, lengthPtr(a.All), lengthPtr(a.Vertical), lengthPtr(a.Top))
				set(&n.PaddingBottom, lengthPtr(a.All), lengthPtr(a.Vertical), lengthPtr(a.Bottom))
				set(&n.PaddingLeft, lengthPtr(a.All), lengthPtr(a.Horizontal), lengthPtr(a.Left))
				set(&n.PaddingRight, lengthPtr(a.All), lengthPtr(a.Horizontal), lengthPtr(a.Right))
				return Result{Changed: []string{n.ID}, Warnings: warn}, nil
			}),
		def(ModuleContent, "set_axis_align", false,
			"Align the children of an auto-layout frame: along the primary axis (start, centre, end, space between) and across it (start, centre, end, baseline).",
			func(e *Env, a *axisAlignArgs) (Result, error) {
				n, warn, err := e.layoutFrame(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if a.PrimaryAxisAlignItems == "" && a.CounterAxisAlignItems == "" {
					return Result{}, fmt.Errorf("give primaryAxisAlignItems and/or counterAxisAlignItems")
				}
				if a.PrimaryAxisAlignItems != "" {
					n.PrimaryAxisAlignItems = a.PrimaryAxisAlignItems
				}
				if a.CounterAxisAlignItems != "" {
					n.CounterAxisAlignItems = a.CounterAxisAlignItems
				}
				return Result{Changed: []string{n.ID}, Warnings: warn}, nil
			}),
		def(ModuleContent, "set_layout_sizing", false,
			"Set how a node is sized on each axis: FIXED (keeps its size), HUG (an auto-layout frame or text shrinks to its content) or FILL (a child stretches to fill its auto-layout parent; shares free space with other FILL children). Works in any order with set_layout_mode: a FILL set before the parent becomes auto-layout takes effect when it does.",
			func(e *Env, a *sizingArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if a.Horizontal == "" && a.Vertical == "" {
					return Result{}, fmt.Errorf("give horizontal and/or vertical")
				}
				if n.Type == sg.TypeSlide {
					return Result{}, fmt.Errorf("node %q is a slide; slides have the deck's fixed size", a.NodeID)
				}
				hugOK := n.Type.CanAutoLayout() || n.Type == sg.TypeGroup || n.Type == sg.TypeText
				if (a.Horizontal == sg.SizingHug || a.Vertical == sg.SizingHug) && !hugOK {
					return Result{}, fmt.Errorf("node %q is a %s; HUG applies to frames and text (use FIXED or FILL)", a.NodeID, n.Type)
				}
				res := Result{Changed: []string{n.ID}}
				if a.Horizontal != "" {
					n.LayoutSizingHorizontal = a.Horizontal
				}
				if a.Vertical != "" {
					n.LayoutSizingVertical = a.Vertical
				}
				if n.Type == sg.TypeGroup && (a.Horizontal == sg.SizingHug || a.Vertical == sg.SizingHug) {
					n.Type = sg.TypeFrame
				}
				p := e.parent(n)
				if (a.Horizontal == sg.SizingFill || a.Vertical == sg.SizingFill) && (p == nil || !p.HasAutoLayout()) {
					res.Warnings = append(res.Warnings, fmt.Sprintf("FILL on %s takes effect once its parent is an auto-layout frame (set_layout_mode)", n.ID))
				}
				if (a.Horizontal == sg.SizingHug || a.Vertical == sg.SizingHug) && !n.HasAutoLayout() && n.Type != sg.TypeText {
					res.Warnings = append(res.Warnings, fmt.Sprintf("HUG on %s takes effect once it is an auto-layout frame (set_layout_mode)", n.ID))
				}
				if p != nil {
					res.Changed = append(res.Changed, p.ID)
				}
				if n.Type == sg.TypeText {
					measureText(n)
				}
				return res, nil
			}),
		def(ModuleContent, "set_item_spacing", false,
			"Set the gap between the children of an auto-layout frame (itemSpacing, px; negative overlaps) and between wrapped lines (counterAxisSpacing).",
			func(e *Env, a *spacingArgs) (Result, error) {
				n, warn, err := e.layoutFrame(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				if a.ItemSpacing == nil && a.CounterAxisSpacing == nil {
					return Result{}, fmt.Errorf("give itemSpacing and/or counterAxisSpacing")
				}
				if a.ItemSpacing != nil {
					n.ItemSpacing = float64(*a.ItemSpacing)
				}
				if a.CounterAxisSpacing != nil {
					n.CounterAxisSpacing = lengthPtr(a.CounterAxisSpacing)
				}
				return Result{Changed: []string{n.ID}, Warnings: warn}, nil
			}),
		def(ModuleContent, "set_layout_positioning", false,
			"Take a child out of its auto-layout parent's flow (ABSOLUTE, then place it with x/y: badges, overlays, decorations) or put it back (AUTO). The other children reflow.",
			func(e *Env, a *positioningArgs) (Result, error) {
				n, err := e.node(a.NodeID)
				if err != nil {
					return Result{}, err
				}
				p := e.parent(n)
				if p == nil || !p.HasAutoLayout() {
					if a.Positioning == sg.PositioningAuto {
						n.LayoutPositioning = ""
						return changed(n.ID), nil
					}
					return Result{}, fmt.Errorf("node %q is not in an auto-layout frame; ABSOLUTE only applies to auto-layout children (it is already free: use move_node)", a.NodeID)
				}
				n.LayoutPositioning = a.Positioning
				if a.Positioning == sg.PositioningAuto {
					n.LayoutPositioning = ""
				}
				x, y := n.Transform.X(), n.Transform.Y()
				if a.X != nil {
					x = float64(*a.X)
				}
				if a.Y != nil {
					y = float64(*a.Y)
				}
				n.Transform = n.Transform.WithOffset(x, y)
				return Result{Changed: []string{n.ID, p.ID}}, nil
			}),
		def(ModuleContent, "wrap_in_auto_layout", false,
			"Convert loose sibling nodes into an auto-layout row or column: a new FRAME at their common box holds them in their visual order, with spacing inferred from their current gaps unless given. The frame hugs its content. Returns the frame id.",
			func(e *Env, a *wrapArgs) (Result, error) {
				nodes, err := e.nodes(a.NodeIDs)
				if err != nil {
					return Result{}, err
				}
				parent := e.parent(nodes[0])
				for _, n := range nodes[1:] {
					if e.parent(n) != parent {
						return Result{}, fmt.Errorf("nodes %q and %q have different parents; wrap siblings only", nodes[0].ID, n.ID)
					}
				}
				r := nodes[0].Transform.Bounds(nodes[0].Size)
				at := len(parent.Children)
				for _, n := range nodes {
					r = r.Union(n.Transform.Bounds(n.Size))
					at = min(at, slices.Index(parent.Children, n))
				}
				f := e.newNode(sg.TypeFrame, orStr(a.Name, "Auto layout"))
				f.Transform = sg.Translate(round2(r.X), round2(r.Y))
				f.Size = sg.Vector{X: round2(r.Width), Y: round2(r.Height)}
				for _, n := range nodes {
					e.detachForMove(n)
					n.Transform[0][2] = round2(n.Transform[0][2] - r.X)
					n.Transform[1][2] = round2(n.Transform[1][2] - r.Y)
					f.Children = append(f.Children, n)
				}
				inferLayout(f, a.LayoutMode == sg.LayoutHorizontal)
				f.LayoutMode = a.LayoutMode
				if a.ItemSpacing != nil {
					f.ItemSpacing = float64(*a.ItemSpacing)
				}
				p := 0.0
				if a.Padding != nil {
					p = float64(*a.Padding)
				}
				f.PaddingLeft, f.PaddingRight, f.PaddingTop, f.PaddingBottom = p, p, p, p
				f.LayoutSizingHorizontal, f.LayoutSizingVertical = sg.SizingHug, sg.SizingHug
				e.insert(parent, f, at)
				return Result{Created: []string{f.ID}, Changed: append(append([]string(nil), a.NodeIDs...), parent.ID)}, nil
			}),
	}
}
